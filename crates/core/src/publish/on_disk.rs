//! The generated files against what is on disk: which are stale, which a
//! previous build left behind, and which files the user wrote (a changelog,
//! a man page) that `build` must leave alone.

use crate::layout::Layout;
use crate::publish::generate::{Generated, MAX_GENERATED_BYTES};
use corpus_io::reader;
use std::path::Path;

/// Leaves out of `files` a changelog the user wrote (one on disk without
/// [`changes::MARK`](crate::publish::changes::MARK)), so that `build`
/// neither overwrites nor judges it; returns its path when it did so.
pub fn keep_users_changelog(root: &Path, files: &mut Vec<Generated>) -> Option<String> {
    if !users_changelog(root) {
        return None;
    }
    files.retain(|f| f.path != Layout::CHANGELOG);
    Some(Layout::CHANGELOG.to_string())
}

/// The command line's man page `page` as the generated file `path`, when
/// the root has a `docs/` folder; Err is the warning when a file that does
/// not start with `mark` (so this tool did not write it) sits at `path`: it
/// is left alone, since nothing the user wrote is overwritten.
pub fn man_page(
    root: &Path,
    path: &str,
    mark: &str,
    page: String,
) -> Result<Option<Generated>, String> {
    if !root.join("docs").is_dir() {
        return Ok(None);
    }
    let ours = match reader::read_text(&root.join(path), MAX_GENERATED_BYTES) {
        Err(reader::ReadError::Missing) => true,
        Ok(text) => text.starts_with(mark),
        Err(_) => false,
    };
    if !ours {
        return Err(format!(
            "warning: {path} was not written by `corpus build`, so it is left alone and the man page is not generated; move it away to have it generated\n"
        ));
    }
    Ok(Some(Generated {
        path: path.to_string(),
        content: page,
    }))
}

/// Whether the root holds a changelog `build` did not write.
pub(crate) fn users_changelog(root: &Path) -> bool {
    let path = root.join(Layout::CHANGELOG);
    std::fs::symlink_metadata(&path).is_ok()
        && !reader::read_text(&path, MAX_GENERATED_BYTES)
            .is_ok_and(|t| t.contains(crate::publish::changes::MARK))
}

/// Whether this root publishes generated files at all: it has templates, or
/// a build left its manifest (then missing templates are a problem, not a
/// data-only corpus).
pub fn publishes(root: &Path) -> bool {
    root.join(Layout::TEMPLATES_DIR).is_dir()
        || std::fs::symlink_metadata(root.join(Layout::MANIFEST)).is_ok()
}

/// Generated files whose content on disk differs from what `build` would write.
pub fn stale<'a>(root: &Path, files: &'a [Generated]) -> Vec<&'a Generated> {
    files.iter().filter(|f| !is_fresh(root, f)).collect()
}

/// Whether a generated file is on disk, a regular file, with exactly this content.
pub(crate) fn is_fresh(root: &Path, f: &Generated) -> bool {
    reader::read_bytes(&root.join(&f.path), MAX_GENERATED_BYTES)
        .is_ok_and(|b| b == f.content.as_bytes())
}

/// Files the previous build generated that this one no longer does.
pub fn leftovers(root: &Path, files: &[Generated]) -> Vec<String> {
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    leftovers_of(root, &paths)
}

/// Files the previous build generated that a generation of `paths` does not.
pub fn leftovers_of(root: &Path, paths: &[&str]) -> Vec<String> {
    // Only a generation that includes stats/ (and so its manifest) owns that folder.
    if !paths.contains(&Layout::MANIFEST) {
        return Vec::new();
    }
    // Through the reader: a FIFO or device planted here must not hang `check`.
    let Ok(old) = reader::read_text(&root.join(Layout::MANIFEST), MAX_GENERATED_BYTES) else {
        return Vec::new();
    };
    old.lines()
        .map(str::trim)
        .filter(|p| could_have_generated(root, p))
        .filter(|p| !paths.contains(p))
        .map(str::to_string)
        .collect()
}

/// Whether a manifest line names a file a build could have written, so that
/// an edited manifest cannot make `build` delete anything else: a plain file
/// name directly in stats/ (build writes no sub-folders), a regular file
/// rather than a symlink, and stats/ itself a real folder (a symlink there
/// could lead anywhere, e.g. to corpus/papers).
fn could_have_generated(root: &Path, line: &str) -> bool {
    let Some(name) = line.strip_prefix(&format!("{}/", Layout::STATS_DIR)) else {
        return false;
    };
    let plain = !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']);
    plain
        && std::fs::symlink_metadata(root.join(Layout::STATS_DIR)).is_ok_and(|m| m.is_dir())
        && std::fs::symlink_metadata(root.join(line)).is_ok_and(|m| m.is_file())
}
