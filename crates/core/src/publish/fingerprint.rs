//! The build fingerprint: a memo of what `build` generated and what its
//! check found, so that `build`, `build --check`, `check` and `stats` with
//! nothing changed can finish without parsing or checking anything.
//!
//! Trust: a record is believed only when this user's own store wrote it.
//! It lives in the store (the user's cache folder, never below the corpus
//! root, so never a file git tracks or a pull request carries), under a
//! name derived from the root's path, and its key and every digest in it
//! are keyed with the store's secret: a record forged elsewhere, or copied
//! from another machine, matches no key. The command line opens no store at
//! all under `CI=true` or `--no-cache`, and then every run takes the full
//! path. (A record in the tree, as earlier versions kept one under
//! `.cache/`, is never read.)
//!
//! Why skipping is safe: the generated files are a pure function of the
//! tool (its sources, dependencies and compiler: `CORPUS_BUILD_ID`, from
//! build.rs), the part generated, the texts the loader read (each with its
//! path), the templates and the example traces. The key is a digest of all
//! of them, taken from the very bytes this run parsed, and the record maps
//! that key to the digest of every file the full path produced. When this
//! run's key equals the recorded one, the full path would produce exactly
//! the recorded files; they are fresh when each file on disk has the
//! recorded digest and no file of an earlier build is left over. Any other
//! case (another key, an edited or missing output, an unreadable or
//! malformed record) takes the full path. A record that is out of date is
//! never wrong, only useless: it maps an old key to that key's outputs. So
//! it is written after a successful build as a cache, on a best-effort
//! basis.
//!
//! Why `build` and `check` may then skip parsing and checking too: the key
//! is taken from the raw bytes (`load::Inputs::digest`) before they are
//! parsed, and the record is only written by a build that found no error.
//! There is no key when an input could not be read (a read error's words
//! are not bytes the key could cover), so such a run takes the full path
//! and records nothing. The same bytes give the same diagnostics, so the
//! record also holds what depends on the data in what those commands
//! print: the count of generated files, and the check's result
//! ([`Checked`]: its diagnostics as data, the count of waived ones, of
//! entries and of records), which `check` renders through the normal
//! renderer in any format, `--strict` deciding the exit code as on the full
//! path. A successful build prints no diagnostic. It holds the build's
//! figures too (`Stats`), which `stats` prints in any format once their
//! JSON text is found to be the fresh stats/stats.json.

use corpus_diagnostics::diag::Diagnostic;
use corpus_io::digest::Digest;
use corpus_io::reader;
use corpus_io::store::Store;
use std::path::{Path, PathBuf};

/// First line of a record; another format is ignored.
const HEADER: &str = "corpus build fingerprint v5";
/// Largest record read, and written: a record holds every warning of the
/// build it records (about 300 bytes each), so it grows with the corpus; a
/// corpus of 100,000 entries with a warning each needs 30 MB.
const MAX_RECORD_BYTES: u64 = 256 * 1024 * 1024;
/// Largest generated file read back to compare with its digest.
const MAX_OUTPUT_BYTES: u64 = 512 * 1024 * 1024;

/// The identity of this build of the tool.
pub const BUILD_ID: &str = env!("CORPUS_BUILD_ID");

/// Where the store keeps the record of the corpus at `root`: None when the
/// store lies inside the root (a file there could come with the data) or
/// the root has no canonical path.
pub fn path(store: &Store, root: &Path) -> Option<PathBuf> {
    let root = root.canonicalize().ok()?;
    let dir = store.dir().canonicalize().ok()?;
    if dir.starts_with(&root) {
        return None;
    }
    let name = Digest::of(store.key(), root.as_os_str().as_encoded_bytes());
    Some(store.record_path(&format!("{name:032x}")))
}

/// The key of a generation of `part` (a name for what is generated) from
/// the digest of its inputs (`load::Inputs::digest`), under the store's secret.
pub fn key(store: &Store, inputs: u128, part: &str) -> u128 {
    let mut d = Digest::new(store.key());
    d.add(BUILD_ID.as_bytes())
        .add(part.as_bytes())
        .add(&inputs.to_le_bytes());
    d.value()
}

/// What checking the recorded build's inputs found (no error, or there
/// would be no record): what `check` prints on the same inputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    /// Entries checked.
    pub entries: usize,
    /// Exclusion records checked.
    pub exclusions: usize,
    /// Warnings acknowledged by a waiver.
    pub waived: usize,
    /// The diagnostics that count, in the order they are reported.
    pub diagnostics: Vec<Diagnostic>,
    /// The figures counted on those inputs (what `stats` prints), when
    /// recorded: `Stats` as one line of JSON (stats/stats.json alone lacks
    /// the taxonomy's order), kept as text so that only `stats` parses it.
    pub stats_json: Option<String>,
}

/// The record's line that starts the check's result.
const CHECKED: &str = "checked";
/// The prefix of a recorded diagnostic's line (one JSON object).
const DIAG: &str = "diag";
/// The prefix of the recorded figures' line (one JSON object).
const STATS: &str = "stats";

/// The paths of the files generated for `key`, and what checking found,
/// when the record says the files are exactly what is on disk now; None
/// when the full path must decide. (Whether files of an earlier build are
/// left over is the caller's test.)
pub fn fresh(store: &Store, root: &Path, key: u128) -> Option<(Vec<String>, Checked)> {
    let record = path(store, root)?;
    let text = reader::read_text(&record, MAX_RECORD_BYTES).ok()?;
    let mut lines = text.lines();
    if lines.next()? != HEADER || lines.next()? != format!("key {key:032x}") {
        return None;
    }
    let mut counts = lines.next()?.split(' ');
    if counts.next()? != CHECKED {
        return None;
    }
    let mut count = || counts.next()?.parse::<usize>().ok();
    let mut checked = Checked {
        entries: count()?,
        exclusions: count()?,
        waived: count()?,
        diagnostics: Vec::new(),
        stats_json: None,
    };
    if counts.next().is_some() {
        return None;
    }
    let mut paths = Vec::new();
    for line in lines {
        if let Some(json) = line.strip_prefix(DIAG).and_then(|l| l.strip_prefix(' ')) {
            checked.diagnostics.push(serde_json::from_str(json).ok()?);
            continue;
        }
        if let Some(json) = line.strip_prefix(STATS).and_then(|l| l.strip_prefix(' ')) {
            if checked.stats_json.is_some() {
                return None;
            }
            checked.stats_json = Some(json.to_string());
            continue;
        }
        let (hash, path) = line.split_once(' ')?;
        let hash = u128::from_str_radix(hash, 16).ok()?;
        if !plain_relative(path) {
            return None;
        }
        let bytes = reader::read_bytes(&root.join(path), MAX_OUTPUT_BYTES).ok()?;
        if Digest::of(store.key(), &bytes) != hash {
            return None;
        }
        paths.push(path.to_string());
    }
    (!paths.is_empty()).then_some((paths, checked))
}

/// A path a build could have generated: relative, without `..` or empty parts.
fn plain_relative(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && path
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != ".." && !p.contains('\\'))
}

/// Records that `key` generates `files`, once they are on disk, and that
/// checking its inputs found `checked`. Best effort:
/// a record that cannot be written only costs the next run its shortcut,
/// and an old record stays correct for its own key.
pub fn record<'a>(
    store: &Store,
    root: &Path,
    key: u128,
    checked: &Checked,
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) {
    let mut text = format!(
        "{HEADER}\nkey {key:032x}\n{CHECKED} {} {} {}\n",
        checked.entries, checked.exclusions, checked.waived
    );
    for d in &checked.diagnostics {
        let Ok(json) = serde_json::to_string(d) else {
            return;
        };
        text.push_str(&format!("{DIAG} {json}\n"));
    }
    if let Some(json) = &checked.stats_json {
        // One line, or the record could not be read back.
        if json.contains('\n') {
            return;
        }
        text.push_str(&format!("{STATS} {json}\n"));
    }
    for (path, content) in files {
        let digest = Digest::of(store.key(), content);
        text.push_str(&format!("{digest:032x} {path}\n"));
    }
    // A record too large to be read back would only cost the writing.
    if text.len() as u64 > MAX_RECORD_BYTES {
        return;
    }
    let Some(path) = path(store, root) else {
        return;
    };
    // Never through a symlink or over something that is not a plain file.
    if corpus_io::files::not_regular(&path).is_none() {
        let _ = corpus_io::files::write_atomic(store.dir(), &path, text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corpus_diagnostics::rules::Rule;
    use corpus_diagnostics::severity::Severity;

    #[test]
    fn a_record_of_many_warnings_is_read_back() {
        let store_dir = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        let store = Store::open(&store_dir.path().join("store")).unwrap();
        std::fs::write(root.path().join("README.md"), "list\n").unwrap();
        // 20 MB of warnings: more than a record could hold before.
        let message = "w".repeat(10_000);
        let checked = Checked {
            entries: 2_000,
            exclusions: 0,
            waived: 0,
            diagnostics: (0..2_000)
                .map(|i| {
                    let file = format!("corpus/papers/p{i}.yaml");
                    Diagnostic::new(
                        Rule::AuthorsMissing,
                        Severity::Warning,
                        file,
                        message.as_str(),
                    )
                })
                .collect(),
            stats_json: None,
        };
        let key = 7;
        record(
            &store,
            root.path(),
            key,
            &checked,
            [("README.md", &b"list\n"[..])],
        );
        let (paths, read) = fresh(&store, root.path(), key).expect("fresh");
        assert_eq!(paths, ["README.md"]);
        assert_eq!(read.diagnostics, checked.diagnostics);
        // Another key, or changed output, is not fresh.
        assert!(fresh(&store, root.path(), key + 1).is_none());
        std::fs::write(root.path().join("README.md"), "edited\n").unwrap();
        assert!(fresh(&store, root.path(), key).is_none());
    }
}
