//! Where the imported traces go: standard output, one file or a folder.

use super::Imported;
use std::path::PathBuf;

/// Where `corpus trace import` writes its traces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output: one trace.
    Stdout,
    /// One file: one trace.
    File(PathBuf),
    /// A folder: `<trace_id>.json` per trace.
    Dir(PathBuf),
}

impl Imported {
    /// Keeps only the trace with this id (any case); an error names what is there.
    pub fn select(&mut self, trace_id: &str) -> Result<(), String> {
        let want = trace_id.to_ascii_lowercase();
        let before = self.traces.len();
        self.traces.retain(|t| t.trace_id == want);
        if self.traces.is_empty() && before > 0 {
            return Err(format!(
                "no imported trace has id {want}; --trace-id takes one of the 32-digit hex ids in the input"
            ));
        }
        Ok(())
    }

    /// Writes the traces to `destination`; returns the text for standard
    /// output (empty unless that is the destination), or why nothing was
    /// written. The texts are moved out, not copied (a big trace's text is
    /// the largest thing an import holds); the traces keep their counts.
    pub fn deliver(&mut self, destination: &Destination, force: bool) -> Result<String, String> {
        let n = self.traces.len();
        let files: Vec<(PathBuf, String)> = match destination {
            Destination::Stdout | Destination::File(_) if n > 1 => {
                let ids: Vec<&str> = self
                    .traces
                    .iter()
                    .take(10)
                    .map(|t| t.trace_id.as_str())
                    .collect();
                return Err(format!(
                    "the input holds {n} traces ({}{}); pick one with --trace-id, or write them all with --out-dir DIR",
                    ids.join(", "),
                    if n > 10 { ", …" } else { "" }
                ));
            }
            Destination::Stdout => {
                return Ok(self
                    .traces
                    .first_mut()
                    .map_or(String::new(), |t| std::mem::take(&mut t.text)))
            }
            Destination::File(path) => self
                .traces
                .iter_mut()
                .map(|t| (path.clone(), std::mem::take(&mut t.text)))
                .collect(),
            Destination::Dir(dir) => self
                .traces
                .iter_mut()
                .map(|t| {
                    let file = dir.join(format!("{}.json", t.trace_id));
                    (file, std::mem::take(&mut t.text))
                })
                .collect(),
        };
        // The folder is the user's choice; a link planted in place of a file in it is not.
        let base = parent_of_first(&files).unwrap_or_default();
        corpus_io::files::write_new_files(&base, &files, force)?;
        Ok(String::new())
    }
}

/// The folder the written files share (their parent), so that a symlink
/// planted in place of one of them is refused.
fn parent_of_first(files: &[(std::path::PathBuf, String)]) -> Option<std::path::PathBuf> {
    files.first()?.0.parent().map(std::path::Path::to_path_buf)
}
