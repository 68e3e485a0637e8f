//! `corpus fmt`: which data files to format, and formatting them in place or
//! (with `--check`) listing the ones that would change.

use super::{Outcome, Result};
use crate::load::{self, EXCLUSIONS_DIR, PAPERS_DIR};
use crate::yaml_format;
use std::path::{Path, PathBuf};

/// The data files to format: the given paths (files, or folders searched for
/// `.yaml` files), or every entry and record file under the root.
fn targets(
    root: &Path,
    paths: &[PathBuf],
    cwd: &Path,
) -> std::result::Result<Vec<PathBuf>, String> {
    let roots: Vec<PathBuf> = if paths.is_empty() {
        vec![root.join(PAPERS_DIR), root.join(EXCLUSIONS_DIR)]
    } else {
        paths.iter().map(|p| cwd.join(p)).collect()
    };
    let mut out = Vec::new();
    for p in roots {
        if p.is_file() {
            out.push(p);
        } else if p.is_dir() {
            let found = crate::reader::files_below(&p, "yaml")
                .map_err(|e| format!("{}: {e}", p.display()))?;
            out.extend(found);
        } else if !paths.is_empty() {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    out.dedup();
    Ok(out)
}

/// Formats the given data files (or all of them); with `check`, writes nothing
/// and lists the files that would change.
pub fn run(root: &Path, paths: &[PathBuf], check: bool, max_bytes: u64, cwd: &Path) -> Result {
    let files = targets(root, paths, cwd).map_err(|e| Outcome::fail(2, e))?;
    let mut res = Outcome::default();
    let (mut changed, mut unchanged, mut failed) = (0usize, 0usize, 0usize);
    for path in &files {
        let rel = load::rel_path(root, path);
        let text = match load::read_text(path, &rel, max_bytes, None) {
            Ok(t) => t,
            Err(d) => {
                failed += 1;
                res.stderr.push_str(&format!("error: {}\n", d.message));
                continue;
            }
        };
        let formatted = match yaml_format::format(&text, kind_of(&rel, &text)) {
            Ok(f) => f,
            Err(e) => {
                failed += 1;
                let at = e.line.map(|l| format!(":{l}")).unwrap_or_default();
                res.stderr
                    .push_str(&format!("error: {rel}{at}: {}\n", e.message));
                continue;
            }
        };
        if formatted == text {
            unchanged += 1;
            continue;
        }
        changed += 1;
        if check {
            res.stdout.push_str(&format!("would reformat {rel}\n"));
        } else if let Err(e) = crate::files::write_atomic(path, formatted.as_bytes()) {
            failed += 1;
            changed -= 1;
            res.stderr
                .push_str(&format!("error: cannot write {rel}: {e}\n"));
        } else {
            res.stdout.push_str(&format!("formatted {rel}\n"));
        }
    }
    let verb = if check { "would change" } else { "changed" };
    res.stdout.push_str(&format!(
        "{changed} {verb}, {unchanged} unchanged, {failed} could not be formatted\n"
    ));
    if check && changed > 0 {
        res.stdout.push_str("run `corpus fmt` to format them\n");
    }
    res.code = i32::from(failed > 0 || (check && changed > 0));
    Ok(res)
}

/// Kind of a data file from its path relative to the root, or from its content.
fn kind_of(rel: &str, text: &str) -> yaml_format::Kind {
    if rel.starts_with(&format!("{}/", EXCLUSIONS_DIR)) {
        return yaml_format::Kind::Record;
    }
    if rel.starts_with(&format!("{}/", PAPERS_DIR)) {
        return yaml_format::Kind::Entry;
    }
    if text.lines().any(|l| l.starts_with("record_id:")) {
        yaml_format::Kind::Record
    } else {
        yaml_format::Kind::Entry
    }
}
