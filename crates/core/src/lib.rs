//! The corpus library: keeps a curated literature corpus as YAML and turns it
//! into checked, counted, rendered output.
//!
//! Folders are the layers, lowest first: `text` and `parallel` (leaf
//! helpers), `model` (the data and the field table), `yaml` (the file
//! format), `load`, `check` and `stats`, then `publish`, `exchange` and
//! `network`. Nothing here prints; the command-line crate writes to the
//! terminal.

// Diagnostics travel in `Err` only on the failure path of file-level
// operations, so their size costs nothing worth boxing for.
#![allow(clippy::result_large_err)]
#![warn(missing_docs)]

pub mod check;
pub mod exchange;
pub mod layout;
pub mod load;
pub mod model;
pub mod network;
pub mod parallel;
pub mod publish;
pub mod rank;
pub mod stats;
pub mod text;
pub mod yaml;
