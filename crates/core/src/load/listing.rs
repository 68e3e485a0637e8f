//! Which files of a data folder are data, and what is said of the others.

use super::diag;
use crate::model::taxonomy::Taxonomy;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_io::reader::ReadError;

/// One data folder, as listed and read.
#[derive(Debug)]
pub struct Folder {
    /// The folder, relative to the root.
    pub dir: &'static str,
    /// Every name in it, sorted (none when there is no such folder), or why
    /// it could not be listed.
    pub names: std::io::Result<Vec<String>>,
    /// The names that are not valid UTF-8, as shown (with replacement
    /// characters); none of them is read.
    pub not_utf8: Vec<String>,
    /// The data files among the names, in order, by root-relative path, each
    /// with its text or why it could not be read.
    /// A text is shared with the loaded corpus's file, never copied.
    pub files: Vec<(String, Result<std::sync::Arc<str>, ReadError>)>,
}

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

/// What is said of a data folder's listing: that it could not be listed, or
/// of each name in it that is neither data nor housekeeping.
pub(super) fn listing_problems(folder: &Folder, tax: &Taxonomy) -> Vec<Diagnostic> {
    let dir = folder.dir;
    let names = match &folder.names {
        Ok(names) => names,
        Err(e) => {
            return vec![diag(
                Rule::FileUnreadable,
                Some(tax),
                dir,
                format!("cannot list `{dir}`: {e}"),
            )]
        }
    };
    let mut out = Vec::new();
    for name in &folder.not_utf8 {
        let rel = format!("{dir}/{name}");
        out.push(
            diag(
                Rule::FileNameEncoding,
                Some(tax),
                &rel,
                format!("the name of `{rel}` is not valid UTF-8, so it is not read"),
            )
            .help("rename it: an entry's file is named after its key, a record's after its id"),
        );
    }
    for name in names.iter().filter(|n| !folder.not_utf8.contains(n)) {
        let rel = format!("{dir}/{name}");
        // A temporary file of the tool is `leftover-temp-file`'s to report.
        if HOUSEKEEPING_FILES.contains(&name.as_str())
            || is_data_file(name)
            || corpus_io::files::is_temp_name(name)
        {
            continue;
        }
        if name.starts_with('.') {
            // Other hidden files (a hidden `.x.yaml`, an editor's backup) are
            // not read, and the user is told so rather than left to wonder
            // why an entry does not count.
            out.push(
                diag(
                    Rule::StrayFile,
                    Some(tax),
                    &rel,
                    format!("`{rel}` is a hidden file and is ignored"),
                )
                .help("remove it, or rename it without the leading dot if it is an entry"),
            );
            continue;
        }
        let help = if name.ends_with(".yml") {
            format!("rename it to `{}.yaml`", name.trim_end_matches(".yml"))
        } else {
            "move it out of this folder".to_string()
        };
        out.push(
            diag(
                Rule::StrayFile,
                Some(tax),
                &rel,
                format!("`{rel}` is not a .yaml file and is ignored"),
            )
            .help(help),
        );
    }
    out
}
