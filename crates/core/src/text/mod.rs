//! Leaf text helpers: "did you mean" suggestions, visible control
//! characters, Markdown escaping.

pub mod closest;
pub mod markdown;
pub mod visible;
