//! The digest of a root's inputs, as read: the build fingerprint's key.

use super::inputs::Inputs;
use super::listing::Folder;
use crate::layout::Layout;
use crate::parallel::in_parallel;
use corpus_io::digest::{Digest, Key};

impl Inputs {
    /// The digest of every byte read (each with its path), of each data
    /// folder's listing (a stray file is reported, so its name counts) and
    /// of the size limit, under `key`; None when anything could not be
    /// read, since a read error's words are not bytes a digest could vouch for.
    pub fn digest(&self, key: &Key) -> Option<u128> {
        let mut digest = Digest::new(key);
        digest
            .add(&self.opts.max_file_bytes.to_le_bytes())
            .add(Layout::TAXONOMY.as_bytes())
            .add(self.taxonomy.as_ref().ok()?.as_bytes());
        for folder in &self.folders {
            add_folder(&mut digest, folder, key)?;
        }
        fn text<S: std::ops::Deref<Target = str>>(
            read: &Option<Result<S, corpus_io::reader::ReadError>>,
        ) -> Option<Result<&str, &corpus_io::reader::ReadError>> {
            read.as_ref().map(|r| r.as_deref())
        }
        for (rel, read) in [
            (Layout::CLAIMS, text(&self.claims)),
            (Layout::SURVEY, text(&self.survey)),
            (Layout::LOCATORS, text(&self.locators)),
            (Layout::SEARCH, text(&self.search)),
            (Layout::STATUS, text(&self.status)),
            (Layout::RELEASES, text(&self.releases)),
        ] {
            digest.add(rel.as_bytes());
            if let Some(read) = read {
                digest.add(read.ok()?.as_bytes());
            } else {
                digest.add(b"\0absent");
            }
        }
        for folder in [&self.traces.native, &self.traces.otlp, &self.traces.runs] {
            for (rel, read) in folder.as_ref().ok()? {
                digest.add(rel.as_bytes()).add(read.as_ref().ok()?);
            }
            digest.add(b"\0end of folder");
        }
        for (name, text) in self.templates.as_ref().ok()? {
            digest.add(name.as_bytes()).add(text.as_bytes());
        }
        Some(digest.value())
    }
}

/// Adds a data folder's listing and files to the digest; None when it or
/// one of its files could not be read.
fn add_folder(digest: &mut Digest, folder: &Folder, key: &Key) -> Option<()> {
    digest.add(folder.dir.as_bytes());
    for name in folder.names.as_ref().ok()? {
        digest.add(name.as_bytes());
    }
    digest.add(b"\0end of listing");
    // On a large corpus hashing the texts is most of the digest's time,
    // and each file's hash is independent of the others.
    let files = in_parallel(&folder.files, |(rel, read)| {
        let text = read.as_ref().ok()?;
        Some(
            Digest::new(key)
                .add(rel.as_bytes())
                .add(text.as_bytes())
                .value(),
        )
    });
    for d in files {
        digest.add(&d?.to_le_bytes());
    }
    Some(())
}
