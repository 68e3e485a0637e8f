//! `corpus`: keeps a curated literature corpus as YAML and turns it into
//! checked, counted, rendered output.
//!
//! The library is pure functions from data to data; reading and writing
//! files happens at the edges (`load`, `build`), and nothing here prints.

pub mod charts;
pub mod check;
pub mod cli;
pub mod diag;
pub mod files;
pub mod filter;
pub mod import;
pub mod load;
pub mod model;
pub mod report;
pub mod taxonomy;
pub mod stats;
pub mod render;
pub mod generate;
