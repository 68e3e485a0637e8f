//! Which files of a data folder are data, and what is said of the others.

use super::diag;
use super::digest::add_names;
use crate::model::corpus::Corpus;
use corpus_diagnostics::rules::Rule;
use corpus_io::digest::Digest;
use corpus_io::reader;
use std::path::{Path, PathBuf};

/// Whether a name in a data folder is a data file `load` reads.
pub fn is_data_file(name: &str) -> bool {
    !HOUSEKEEPING_FILES.contains(&name) && !name.starts_with('.') && name.ends_with(".yaml")
}

/// Files that keep a folder in git or that the desktop drops everywhere;
/// they are no data, so they are skipped without a word.
const HOUSEKEEPING_FILES: [&str; 5] = [
    ".gitkeep",
    ".keep",
    ".gitignore",
    ".gitattributes",
    ".DS_Store",
];

/// The `.yaml` files directly in a folder, sorted; anything else is reported.
pub(super) fn list_dir(
    root: &Path,
    dir: &str,
    corpus: &mut Corpus,
    digest: &mut Digest,
) -> Vec<(PathBuf, String)> {
    let full = root.join(dir);
    let mut out = Vec::new();
    let names = match reader::list_dir(&full) {
        Ok(Some(names)) => names,
        Ok(None) => {
            add_names(digest, dir, &[]);
            return out;
        }
        Err(e) => {
            let d = diag(
                Rule::FileUnreadable,
                Some(&corpus.taxonomy),
                dir,
                format!("cannot list `{dir}`: {e}"),
            );
            corpus.diagnostics.push(d);
            digest.add(b"\0unreadable folder");
            return out;
        }
    };
    add_names(digest, dir, &names);
    for (name, path) in names {
        let rel = format!("{dir}/{name}");
        if HOUSEKEEPING_FILES.contains(&name.as_str()) {
            continue;
        }
        if name.starts_with('.') {
            // Other hidden files (a hidden `.x.yaml`, an editor's backup) are
            // not read, and the user is told so rather than left to wonder
            // why an entry does not count.
            let d = diag(
                Rule::StrayFile,
                Some(&corpus.taxonomy),
                &rel,
                format!("`{rel}` is a hidden file and is ignored"),
            )
            .help("remove it, or rename it without the leading dot if it is an entry");
            corpus.diagnostics.push(d);
            continue;
        }
        if is_data_file(&name) {
            out.push((path, rel));
        } else {
            let help = if name.ends_with(".yml") {
                format!("rename it to `{}.yaml`", name.trim_end_matches(".yml"))
            } else {
                "move it out of this folder".to_string()
            };
            let d = diag(
                Rule::StrayFile,
                Some(&corpus.taxonomy),
                &rel,
                format!("`{rel}` is not a .yaml file and is ignored"),
            )
            .help(help);
            corpus.diagnostics.push(d);
        }
    }
    out
}
