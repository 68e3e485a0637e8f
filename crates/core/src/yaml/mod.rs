//! The file format of entries and records: a file's text and field
//! positions, the canonical layout `corpus fmt` writes, and parser errors in
//! the tool's own words.

pub mod error;
pub mod format;
pub mod source;
