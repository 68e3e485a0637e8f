//! The generated files against what is on disk: what a previous build left
//! there (read once, before anything is generated: [`Previous`]), which
//! generated files are stale, and which files the user wrote (a changelog,
//! a man page) that `build` must leave alone.

use crate::layout::Layout;
use crate::load::Outputs;
use crate::load::MAX_GENERATED_BYTES;
use crate::publish::generate::Generated;
use corpus_io::reader;
use std::path::{Path, PathBuf};

/// What the disk holds of a previous build, read once at the front of a
/// build so that the shortcut, the man page, the changelog and the removal
/// of leftovers all judge the same state, and nothing after generation has
/// to go back to it but the comparison and the write.
#[derive(Debug, Clone)]
pub struct Previous {
    /// The root holds a changelog `build` did not write.
    users_changelog: bool,
    /// The root, where the previous manifest's lines are judged.
    root: PathBuf,
    /// The lines of the previous manifest (none when there is none).
    manifest: Vec<String>,
    /// The man page asked about: its path and whether this tool may write
    /// it (None: no man page asked for, or the root has no `docs/`).
    man_page: Option<(String, bool)>,
}

impl Previous {
    /// Judges what a previous build left below `root`, as read with the
    /// inputs (`Inputs::previous`); `man_mark` is the mark a man page this
    /// tool wrote starts with.
    pub fn of(root: &Path, outputs: &Outputs, man_mark: Option<&str>) -> Previous {
        let users_changelog =
            outputs.changelog_present && !outputs.changelog.as_ref().is_ok_and(|ours| *ours);
        let manifest = outputs.manifest.as_ref().map_or_else(
            |_| Vec::new(),
            |old| old.lines().map(|l| l.trim().to_string()).collect(),
        );
        let man_page = outputs.man_page.as_ref().map(|(path, text)| {
            let ours = match text {
                Err(reader::ReadError::Missing) => true,
                Ok(text) => man_mark.is_some_and(|mark| text.starts_with(mark)),
                Err(_) => false,
            };
            (path.clone(), ours)
        });
        Previous {
            users_changelog,
            root: root.to_path_buf(),
            manifest,
            man_page,
        }
    }

    /// Whether the root holds a changelog `build` did not write.
    pub fn users_changelog(&self) -> bool {
        self.users_changelog
    }

    /// Leaves out of `files` a changelog the user wrote (one on disk without
    /// [`changes::MARK`](crate::publish::changes::MARK)), so that `build`
    /// neither overwrites nor judges it; returns its path when it did so.
    pub fn keep_users_changelog(&self, files: &mut Vec<Generated>) -> Option<String> {
        if !self.users_changelog {
            return None;
        }
        files.retain(|f| f.path != Layout::CHANGELOG);
        Some(Layout::CHANGELOG.to_string())
    }

    /// The man page `page` as a generated file, when one was asked for and
    /// the root has a `docs/` folder; Err is the warning when a file that
    /// this tool did not write sits at its path: it is left alone, since
    /// nothing the user wrote is overwritten.
    pub fn man_page(&self, page: String) -> Result<Option<Generated>, String> {
        match &self.man_page {
            None => Ok(None),
            Some((path, false)) => Err(format!(
                "warning: {path} was not written by `corpus build`, so it is left alone and the man page is not generated; move it away to have it generated\n"
            )),
            Some((path, true)) => Ok(Some(Generated {
                path: path.clone(),
                content: page,
            })),
        }
    }

    /// Whether [`Previous::man_page`] would place a page: one was asked for,
    /// the root has `docs/` and no page of the user's sits there.
    pub fn takes_man_page(&self) -> bool {
        matches!(self.man_page, Some((_, true)))
    }

    /// Files the previous build generated that a generation of `paths` does not.
    pub fn leftovers_of(&self, paths: &[&str]) -> Vec<String> {
        // Only a generation that includes stats/ (and so its manifest) owns that folder.
        if !paths.contains(&Layout::MANIFEST) {
            return Vec::new();
        }
        self.manifest
            .iter()
            .filter(|p| could_have_generated(&self.root, p))
            .filter(|p| !paths.contains(&p.as_str()))
            .cloned()
            .collect()
    }

    /// Files the previous build generated that `files` no longer holds.
    pub fn leftovers(&self, files: &[Generated]) -> Vec<String> {
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        self.leftovers_of(&paths)
    }
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
    reader::holds(
        &root.join(&f.path),
        f.content.as_bytes(),
        MAX_GENERATED_BYTES,
    )
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
