//! YAML as text: a data file's text and the positions of its fields, parser
//! errors in the tool's own words, and the fast readers for flat data files
//! and for the corpus's other hand-written files.

pub mod block;
pub mod error;
pub mod flat;
pub mod source;

/// Whether a fast reader's answer for `text` (None: it gave up) is what
/// serde_yaml reads: the one promise both fast readers make.
#[cfg(test)]
fn agrees_with_serde_yaml(read: Option<serde_yaml::Value>, text: &str) -> bool {
    read.is_none_or(|v| serde_yaml::from_str::<serde_yaml::Value>(text).ok() == Some(v))
}
