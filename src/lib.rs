//! `corpus`: keeps a curated literature corpus as YAML and turns it into
//! checked, counted, rendered output.
//!
//! The library is pure functions from data to data; reading and writing
//! files happens at the edges (`load`, `generate`), and nothing here prints.

// Diagnostics travel in `Err` only on the failure path of file-level
// operations, so their size costs nothing worth boxing for.
#![allow(clippy::result_large_err)]
#![warn(missing_docs)]

pub mod agreement;
pub mod arxiv;
pub mod charts;
pub mod check;
pub mod claims;
pub mod cli;
pub mod closest;
pub mod commands;
pub mod corpus;
pub mod csv_guard;
pub mod dates;
pub mod diag;
pub mod diff;
pub mod digest;
pub mod examples;
pub mod export;
pub mod fields;
pub mod files;
pub mod filter;
pub mod fingerprint;
pub mod generate;
pub mod git;
pub mod http;
pub mod ids;
pub mod import;
pub mod links;
pub mod load;
pub mod markdown;
pub mod markdown_layout;
pub mod model;
pub mod provenance;
pub mod publish;
pub mod reader;
pub mod render;
pub mod report;
pub mod rules;
pub mod scaffold;
pub mod schema;
pub mod site;
pub mod source;
pub mod stats;
pub mod stats_render;
pub mod style_rules;
pub mod survey;
pub mod survey_check;
pub mod taxonomy;
pub mod trace;
pub mod verify;
pub mod visible;
pub mod yaml_error;
pub mod yaml_format;
