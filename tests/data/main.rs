//! The corpus data and its checks: `corpus check` on every bad input and
//! every taxonomy rule, hostile files, `corpus fmt`, the claims ledger and
//! its provenance, and what a contributor meets (`new`, the schema, `export`).
//!
//! One test binary: each file below is a module, sharing `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod artifact_tables;
mod check_cases;
mod check_rules;
mod claims_and_vocabulary;
mod contributors;
mod falsifiable;
mod fmt;
mod grown;
mod hostile_files;
mod linked_traces;
mod locators;
mod messages;
mod names;
mod pools;
mod provenance;
mod rule_registry;
