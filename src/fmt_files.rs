//! `corpus fmt`: which data files to format, and formatting them in place or
//! (with `--check`) listing the ones that would change.

use crate::load::{self, EXCLUSIONS_DIR, PAPERS_DIR};
use crate::yaml_format::{self, Kind};
use std::path::{Path, PathBuf};

/// What `corpus fmt` did: exit code and text for standard output and error.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FmtOutcome {
    /// 0 nothing to do or all written, 1 files would change or could not be formatted, 2 could not run.
    pub code: i32,
    /// Report for standard output.
    pub stdout: String,
    /// Problems for standard error.
    pub stderr: String,
}

/// The data files to format: the given paths (files, or folders searched for
/// `.yaml` files), or every entry and record file under the root.
fn targets(root: &Path, paths: &[PathBuf], cwd: &Path) -> Result<Vec<PathBuf>, String> {
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
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(&p)
                .follow_links(false)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .map(walkdir::DirEntry::into_path)
                .filter(|f| f.extension().is_some_and(|x| x == "yaml"))
                .collect();
            found.sort();
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
pub fn run(root: &Path, paths: &[PathBuf], check: bool, max_bytes: u64, cwd: &Path) -> FmtOutcome {
    let files = match targets(root, paths, cwd) {
        Ok(f) => f,
        Err(e) => {
            return FmtOutcome {
                code: 2,
                stderr: format!("error: {e}\n"),
                ..FmtOutcome::default()
            }
        }
    };
    let mut res = FmtOutcome::default();
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
        let formatted = match yaml_format::format(&text, yaml_format::kind_of(&rel, &text)) {
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
    res
}

/// The canonical text of a new entry or record file, for `new` and `import`;
/// text the formatter cannot handle is returned unchanged.
pub fn formatted_or_same(text: String, kind: Kind) -> String {
    yaml_format::format(&text, kind).unwrap_or(text)
}
