//! YAML as text: a data file's text and the positions of its fields, parser
//! errors in the tool's own words, and the fast readers for flat data files
//! and for the corpus's other hand-written files.

pub mod block;
pub mod error;
pub mod flat;
pub mod source;
