//! YAML as text: a data file's text and the positions of its fields, parser
//! errors in the tool's own words, and the fast reader for flat files.

pub mod error;
pub mod flat;
pub mod source;
