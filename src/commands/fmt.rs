//! `corpus fmt`: which data files to format, and formatting them in place or
//! (with `--check`) listing the ones that would change.

use super::{Audience, Context, Outcome, Result};
use corpus_core::layout::Layout;
use corpus_core::load;
use std::path::{Path, PathBuf};

/// Options of `corpus fmt`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write nothing; list the files that would change and fail if any would.
    #[arg(long)]
    pub check: bool,
    /// Entry or record files, or folders searched for .yaml files (default: all of them).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // The files formatted, or that would be.
        true
    }
}

/// The data files to format: the given paths (entry or record files, or
/// folders searched for them), or every entry and record file under the root.
///
/// Only files in `corpus/papers/` and `exclusions/` are data files: the
/// taxonomy, the claims ledger and other YAML have layouts of their own, so a
/// folder such as `corpus` or `.` is narrowed to its entry and record files,
/// and naming any other file is refused.
fn targets(
    root: &Path,
    paths: &[PathBuf],
    cwd: &Path,
) -> std::result::Result<Vec<PathBuf>, String> {
    let data_dirs: Vec<PathBuf> = [Layout::PAPERS_DIR, Layout::EXCLUSIONS_DIR]
        .iter()
        .filter_map(|d| root.join(d).canonicalize().ok())
        .collect();
    // The files `load` reads: directly in a data folder, named as it expects.
    let is_data_file = |p: &Path| {
        p.parent()
            .is_some_and(|dir| data_dirs.iter().any(|d| d == dir))
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(load::is_data_file)
    };
    let walk = |dir: &Path| {
        corpus_io::reader::files_below(dir, "yaml").map_err(|e| format!("{}: {e}", dir.display()))
    };
    let mut out = Vec::new();
    if paths.is_empty() {
        for d in &data_dirs {
            out.extend(walk(d)?.into_iter().filter(|f| is_data_file(f)));
        }
    }
    for given in paths {
        let p = cwd.join(given);
        let canon = p
            .canonicalize()
            .map_err(|_| format!("{}: no such file or folder", given.display()))?;
        if canon.is_file() {
            if !is_data_file(&canon) {
                return Err(format!(
                    "{}: not an entry or record file; `corpus fmt` formats the YAML files in {}/ and {}/", 
                    given.display()
                , Layout::PAPERS_DIR, Layout::EXCLUSIONS_DIR));
            }
            out.push(canon);
        } else if canon.is_dir() {
            let found: Vec<PathBuf> = walk(&canon)?
                .into_iter()
                .filter_map(|f| f.canonicalize().ok())
                .filter(|f| is_data_file(f))
                .collect();
            if found.is_empty() {
                return Err(format!(
                    "{}: no entry or record files there; `corpus fmt` formats the YAML files in {}/ and {}/", 
                    given.display()
                , Layout::PAPERS_DIR, Layout::EXCLUSIONS_DIR));
            }
            out.extend(found);
        } else {
            return Err(format!("{}: not a regular file or folder", given.display()));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The data folders' files with names that are not UTF-8, among what the
/// given paths cover (all of them when none is given; a file given by name
/// has a name that could be typed).
fn unnamed(root: &Path, paths: &[PathBuf], cwd: &Path) -> Vec<String> {
    let folders: Vec<PathBuf> = paths
        .iter()
        .filter_map(|p| cwd.join(p).canonicalize().ok())
        .filter(|p| p.is_dir())
        .collect();
    if !paths.is_empty() && folders.is_empty() {
        return Vec::new();
    }
    let canon_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    load::names_not_utf8(root)
        .into_iter()
        .filter(|rel| {
            paths.is_empty() || folders.iter().any(|f| canon_root.join(rel).starts_with(f))
        })
        .collect()
}

/// Formats the given data files (or all of them); with `--check`, writes
/// nothing and lists the files that would change.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = if args.check {
        ctx.root()?
    } else {
        ctx.writing_root()?
    };
    let files = targets(root, &args.paths, &ctx.cwd).map_err(|e| Outcome::fail(2, e))?;
    let canon_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut res = Outcome::default();
    let (mut changed, mut unchanged, mut failed) = (0usize, 0usize, 0usize);
    // A name that is not UTF-8 is no data file, but it is not passed over in silence.
    for rel in unnamed(root, &args.paths, &ctx.cwd) {
        failed += 1;
        res.stderr.push_str(&format!(
            "error: {rel}: the file name is not valid UTF-8; rename it after the entry's key or the record's id\n"
        ));
    }
    for path in &files {
        let rel = load::rel_path(&canon_root, path);
        let text = match load::read_text(path, &rel, ctx.load.max_file_bytes, None) {
            Ok(t) => t,
            Err(d) => {
                failed += 1;
                res.stderr.push_str(&format!("error: {}\n", d.message));
                continue;
            }
        };
        let formatted = match corpus_core::model::format::format(&text, kind_of(&rel)) {
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
        if args.check {
            res.stdout.push_str(&format!("would reformat {rel}\n"));
        } else if let Err(e) = corpus_io::files::write_atomic(root, path, formatted.as_bytes()) {
            failed += 1;
            changed -= 1;
            res.stderr
                .push_str(&format!("error: cannot write {rel}: {e}\n"));
        } else {
            res.stdout.push_str(&format!("formatted {rel}\n"));
        }
    }
    let verb = if args.check {
        "would change"
    } else {
        "changed"
    };
    res.stdout.push_str(&format!(
        "{changed} {verb}, {unchanged} unchanged, {failed} could not be formatted\n"
    ));
    if args.check && changed > 0 {
        res.stdout.push_str("run `corpus fmt` to format them\n");
    }
    res.code = i32::from(failed > 0 || (args.check && changed > 0));
    Ok(res)
}

/// Kind of a data file from its folder (every target is in one of the two).
fn kind_of(rel: &str) -> corpus_core::model::format::FileKind {
    if rel.starts_with(&format!("{}/", Layout::EXCLUSIONS_DIR)) {
        corpus_core::model::format::FileKind::Record
    } else {
        corpus_core::model::format::FileKind::Entry
    }
}
