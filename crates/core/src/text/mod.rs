//! Leaf text helpers: "did you mean" suggestions, visible control
//! characters, Markdown escaping, the syntax of keys, ids and URLs,
//! spreadsheet-safe CSV cells, and text safe to embed in an HTML page.

pub mod closest;
pub mod csv_guard;
pub mod embed;
pub mod ids;
pub mod markdown;
pub mod visible;
