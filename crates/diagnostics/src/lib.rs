//! Diagnostics of the corpus tool: a problem found in data as a value (rule
//! id, severity, place, message, help), the registry of every rule, and the
//! renderers that turn diagnostics into text. Nothing here prints.

#![warn(missing_docs)]

pub mod diag;
pub mod report;
pub mod rules;
pub mod severity;
