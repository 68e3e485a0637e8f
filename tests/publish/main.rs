//! What the tool publishes: `build` and its fingerprint, the generated
//! README and statistics, the rendered snapshots, `corpus site` and its feeds, the shipped
//! corpus's generated files, a new list (`corpus init`), and the shared command-line vocabulary, and the documents and workflows that must keep
//! up with the code (ARCHITECTURE.md, the CLI's documentation, the CI workflow).
//!
//! One test binary: each file below is a module, sharing `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod architecture;
mod ci_script;
mod cli_docs;
mod feeds;
mod fingerprint;
mod forged_record;
mod man_page;
mod prisma;
mod readme;
mod releases;
mod rendered;
mod shipped;
mod site;
mod starter;
mod status_share;
mod surface;
mod workflow;
