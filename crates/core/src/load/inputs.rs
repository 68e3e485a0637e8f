//! Every input of a corpus read once, before anything is parsed: the build
//! fingerprint's key is taken from these bytes and the parser reads the
//! same ones, so the two cannot disagree about what was on disk.
//!
//! Nothing here judges what it read. A read error is kept as it came, and
//! turned into a diagnostic only by the parser, since its severity is the
//! taxonomy's to decide.

use super::examples::Traces;
use super::listing::{is_data_file, Folder};
use super::read::accepted;
use super::LoadOptions;
use crate::parallel::in_parallel;
use corpus_diagnostics::diag::Diagnostic;
use corpus_io::reader::{self, ReadError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The inputs of a corpus root, as read.
#[derive(Debug)]
pub struct Inputs {
    /// The root they were read from.
    pub root: PathBuf,
    /// The options they were read with.
    pub opts: LoadOptions,
    /// The taxonomy's text, or why it could not be read.
    pub taxonomy: Result<String, Unread>,
    /// The entries' folder, then the exclusion records'.
    pub folders: [Folder; 2],
    /// The claims ledger's text (or read error), when the root has one.
    pub claims: Option<Result<String, ReadError>>,
    /// The survey facts' text (or read error), when the root has them.
    pub survey: Option<Result<String, ReadError>>,
    /// The locators of judged values (text or read error), when the root has them.
    pub locators: Option<Result<String, ReadError>>,
    /// The search file's text (or read error), when the root has one.
    pub search: Option<Result<String, ReadError>>,
    /// The status file's text (or read error), when the root has one.
    pub status: Option<Result<String, ReadError>>,
    /// The releases file's text (or read error), when the root has one.
    pub releases: Option<Result<String, ReadError>>,
    /// The example traces.
    pub traces: Traces,
    /// The templates by name, sorted, or the problem that stopped reading them.
    pub templates: Result<Vec<(String, String)>, Diagnostic>,
    /// What a previous build left at the root, read with the rest so that
    /// nothing after this stage goes back to the disk but the comparison
    /// and the write.
    pub previous: Outputs,
}

/// What a previous build left at the root, as read (`publish::on_disk`
/// judges it): its changelog, its manifest and the man page asked about.
#[derive(Debug)]
pub struct Outputs {
    /// Whether anything stands at the changelog's path (a symlink too).
    pub changelog_present: bool,
    /// The changelog's text, or why it could not be read.
    pub changelog: Result<String, ReadError>,
    /// The manifest's text, or why it could not be read.
    pub manifest: Result<String, ReadError>,
    /// The man page's path and its text, when one was asked about and the
    /// root has a `docs/` folder.
    pub man_page: Option<(String, Result<String, ReadError>)>,
}

/// A taxonomy that could not be read.
#[derive(Debug)]
pub struct Unread {
    /// Why.
    pub error: ReadError,
    /// Whether a regular file stands there all the same: then the taxonomy
    /// is broken rather than absent.
    pub is_file: bool,
}

impl Inputs {
    /// The templates alone, every other input let go at once: past a clean
    /// check, rendering needs nothing else read.
    pub fn into_templates(self) -> Result<Vec<(String, String)>, Diagnostic> {
        self.templates
    }

    /// The text of a data file as the loaded corpus keeps it (read, neither
    /// empty nor nested too deep), for quoting in a report.
    pub fn source_text(&self, rel: &str) -> Option<&str> {
        let (_, read) = self
            .folders
            .iter()
            .flat_map(|f| &f.files)
            .find(|(r, _)| r == rel)?;
        accepted(read.as_deref(), rel, None).ok()
    }
}

impl Folder {
    /// Lists `root/dir` and reads its data files, in parallel: on a large
    /// corpus reading them is much of what a run costs.
    pub(super) fn read(root: &Path, dir: &'static str, max: u64) -> Folder {
        let listed = reader::list_dir(&root.join(dir)).map(Option::unwrap_or_default);
        let data: Vec<(String, PathBuf)> = listed
            .as_ref()
            .map(|names| {
                names
                    .iter()
                    .filter(|(name, path)| is_data_file(name) && utf8_name(path))
                    .map(|(name, path)| (format!("{dir}/{name}"), path.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let files = in_parallel(&data, |(rel, path)| {
            (rel.clone(), reader::read_text(path, max).map(Arc::from))
        });
        let not_utf8 = listed
            .as_ref()
            .map(|names| {
                names
                    .iter()
                    .filter(|(_, path)| !utf8_name(path))
                    .map(|(name, _)| name.clone())
                    .collect()
            })
            .unwrap_or_default();
        Folder {
            dir,
            names: listed.map(|names| names.into_iter().map(|(name, _)| name).collect()),
            not_utf8,
            files,
        }
    }
}

/// Whether a listed file's name is valid UTF-8 (a name that is not cannot
/// be a key, and is shown with replacement characters).
pub(super) fn utf8_name(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_str().is_some())
}
