//! Leaf text helpers: "did you mean" suggestions, visible control
//! characters, Markdown escaping, the syntax of keys, ids and URLs, and
//! spreadsheet-safe CSV cells.

pub mod closest;
pub mod csv_guard;
pub mod ids;
pub mod markdown;
pub mod visible;
