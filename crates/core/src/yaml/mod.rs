//! YAML as text: a data file's text and the positions of its fields, and
//! parser errors in the tool's own words.

pub mod error;
pub mod source;
