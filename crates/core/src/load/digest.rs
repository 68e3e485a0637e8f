//! The source digest, as `load` builds it and as the fingerprint takes it from bytes alone.

use super::data_file::FileLoad;
use super::listing::is_data_file;
use super::parallel::in_parallel;
use super::LoadOptions;
use crate::layout::Layout;

use corpus_io::digest::Digest;
use corpus_io::reader;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The start of the source digest: the options and the taxonomy.
pub(super) fn digest_start(opts: LoadOptions, tax_text: &str) -> Digest {
    let mut digest = Digest::new();
    digest
        .add(&opts.max_file_bytes.to_le_bytes())
        .add(Layout::TAXONOMY.as_bytes())
        .add(tax_text.as_bytes());
    digest
}

/// The digest of one data file's path and text.
pub(super) fn file_digest(rel: &str, text: &str) -> u128 {
    Digest::new()
        .add(rel.as_bytes())
        .add(text.as_bytes())
        .value()
}

/// The digest `load` would give as `Corpus::source_digest`, taken from the
/// files' bytes alone, without parsing or checking them: the build
/// fingerprint's key before anything is parsed. None when a file or folder
/// cannot be read (then the full path says what is wrong). It reads what
/// `load` reads, in the same order, and adds the same parts, so the two
/// agree on every tree `load` reads without a read problem (a unit test
/// and tests/fingerprint.rs hold them to it).
pub fn source_digest(root: &Path, opts: LoadOptions) -> Option<u128> {
    let max = opts.max_file_bytes;
    let tax_text = reader::read_text(&root.join(Layout::TAXONOMY), max).ok()?;
    let mut digest = digest_start(opts, &tax_text);
    for dir in [Layout::PAPERS_DIR, Layout::EXCLUSIONS_DIR] {
        let names = reader::list_dir(&root.join(dir)).ok()?.unwrap_or_default();
        add_names(&mut digest, dir, &names);
        let data: Vec<_> = names
            .into_iter()
            .filter(|(name, _)| is_data_file(name))
            .collect();
        let texts = in_parallel(&data, |(name, path)| {
            let rel = format!("{dir}/{name}");
            reader::read_text(path, max)
                .ok()
                .map(|t| file_digest(&rel, &t))
        });
        for d in texts {
            digest.add(&d?.to_le_bytes());
        }
    }
    for rel in [Layout::CLAIMS, Layout::SURVEY] {
        digest.add(rel.as_bytes());
        let path = root.join(rel);
        if path.exists() {
            digest.add(reader::read_text(&path, max).ok()?.as_bytes());
        }
    }
    Some(digest.value())
}

/// The texts of the data files among `rels` (root-relative paths), as
/// `load` would hold them in `Corpus::files`: what a renderer quotes from
/// when the diagnostics come from the build fingerprint rather than a load.
/// None when one cannot be read (then the full path says why).
pub fn data_texts<'a>(
    root: &Path,
    opts: LoadOptions,
    rels: impl IntoIterator<Item = &'a str>,
) -> Option<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for rel in rels {
        let is_data = [Layout::PAPERS_DIR, Layout::EXCLUSIONS_DIR]
            .iter()
            .any(|dir| {
                rel.strip_prefix(dir)
                    .and_then(|r| r.strip_prefix('/'))
                    .is_some_and(|name| !name.contains('/') && is_data_file(name))
            });
        if is_data && !out.contains_key(rel) {
            let text = reader::read_text(&root.join(rel), opts.max_file_bytes).ok()?;
            out.insert(rel.to_string(), text);
        }
    }
    Some(out)
}

/// Adds a folder's listing (every name, read or not: a stray file is
/// reported) to the source digest.
pub(super) fn add_names(digest: &mut Digest, dir: &str, names: &[(String, PathBuf)]) {
    digest.add(dir.as_bytes());
    for (name, _) in names {
        digest.add(name.as_bytes());
    }
    digest.add(b"\0end of listing");
}

/// Adds the digests of loaded files, in order, to the corpus's source digest.
pub(super) fn add_digests<T>(digest: &mut Digest, loaded: &[FileLoad<T>]) {
    for l in loaded {
        match l.digest {
            Some(d) => digest.add(&d.to_le_bytes()),
            None => digest.add(b"\0unreadable"),
        };
    }
}
