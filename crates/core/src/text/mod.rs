//! Leaf text helpers: "did you mean" suggestions, visible control
//! characters, Markdown escaping, the syntax of keys, ids and URLs,
//! spreadsheet-safe CSV cells, text safe to embed in an HTML page, and the
//! lines of a data file.

pub mod closest;
pub mod csv_guard;
pub mod embed;
pub mod ids;
pub mod lines;
pub mod markdown;
pub mod visible;
