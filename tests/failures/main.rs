//! How the tool fails: never silently, and never by losing the user's data.
//!
//! One test binary: each file below is a module, sharing `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod inert_reports;
mod interrupted;
mod no_data_loss;
mod no_silent_failure;
