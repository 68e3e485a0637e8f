//! Reading trace inputs: standard input or a file under a size limit, and the files that FILE|DIR arguments name.

use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use std::path::{Path, PathBuf};

/// Largest trace file read by default (256 MiB); larger files are refused unread.
pub const DEFAULT_MAX_BYTES: u64 = 256 * 1024 * 1024;

/// The path that stands for standard input.
pub const STDIN: &str = "-";

/// Reads a trace input: standard input for `-`, else the file (see [`read_limited`]).
pub fn read_input(path: &Path, label: &str, max_bytes: u64) -> Result<Vec<u8>, Diagnostic> {
    if path.as_os_str() != STDIN {
        return read_limited(path, label, max_bytes);
    }
    corpus_io::reader::read_stdin(max_bytes).map_err(|e| match e {
        corpus_io::reader::ReadError::TooLarge { .. } => Diagnostic::new(
            Rule::TraceTooLarge,
            Severity::Error,
            label,
            format!("standard input is over the limit of {max_bytes} bytes"),
        )
        .help("split the input, or raise the size limit with --max-trace-size"),
        e => Diagnostic::new(
            Rule::TraceUnreadable,
            Severity::Error,
            label,
            format!("cannot read standard input: {e}"),
        ),
    })
}

/// Reads a whole file unless it is larger than `max_bytes`, through the
/// one reader (so a FIFO or device is refused rather than waited on).
pub fn read_limited(path: &Path, label: &str, max_bytes: u64) -> Result<Vec<u8>, Diagnostic> {
    corpus_io::reader::read_bytes(path, max_bytes).map_err(|e| refused(e, label, max_bytes))
}

/// Opens a file to read a buffer at a time, with the checks and messages of [`read_limited`].
pub fn open_input(
    path: &Path,
    label: &str,
    max_bytes: u64,
) -> Result<corpus_io::reader::Stream, Diagnostic> {
    corpus_io::reader::open_stream(path, max_bytes).map_err(|e| refused(e, label, max_bytes))
}

/// Why a file was not read, as a diagnostic.
fn refused(e: corpus_io::reader::ReadError, label: &str, max_bytes: u64) -> Diagnostic {
    use corpus_io::reader::ReadError;
    match e {
        ReadError::TooLarge { size, .. } => {
            let size = size.map_or_else(
                || "larger than it claimed".to_string(),
                |n| format!("{n} bytes"),
            );
            Diagnostic::new(
                Rule::TraceTooLarge,
                Severity::Error,
                label,
                format!("the file is {size}, over the limit of {max_bytes} bytes; it was not read"),
            )
            .help("split the trace, or raise the size limit if the machine has the memory")
        }
        e => Diagnostic::new(
            Rule::TraceUnreadable,
            Severity::Error,
            label,
            format!("cannot read the file: {e}"),
        )
        .help("check that the path is a readable file"),
    }
}

/// Expand FILE|DIR arguments into the .json files to check (directories walked recursively with walkdir, sorted).
///
/// Files named explicitly are kept whatever their extension; a missing path
/// or a directory that cannot be walked is an error (the run cannot go on).
pub fn collect_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == STDIN {
            out.push(path.clone());
            continue;
        }
        let meta =
            std::fs::metadata(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        if !meta.is_dir() {
            out.push(path.clone());
            continue;
        }
        let found = corpus_io::reader::files_below(path, "json")
            .map_err(|e| format!("{}: cannot walk: {e}", path.display()))?;
        // A folder with nothing to validate must not pass as "0 files, all valid".
        if found.is_empty() {
            return Err(format!(
                "{}: no .json trace files in this folder",
                path.display()
            ));
        }
        out.extend(found);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collect_inputs_walks_sorted_and_keeps_named_files() {
        let dir = std::env::temp_dir().join(format!("trace-collect-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for name in ["b.json", "a.json", "sub/c.json", "notes.txt"] {
            std::fs::write(dir.join(name), "{}").unwrap();
        }
        let got = collect_inputs(&[dir.clone(), dir.join("notes.txt")]).unwrap();
        let names: Vec<_> = got
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.json", "b.json", "sub/c.json", "notes.txt"]);
        assert!(collect_inputs(&[dir.join("nope")]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
