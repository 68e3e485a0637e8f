//! Orchestration traces: `corpus trace validate`, `metrics` and `import`,
//! end to end and on arbitrary input.
//!
//! One test binary: each file below is a module, sharing `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod support;
mod trace_classify;
mod trace_cli;
mod trace_edges;
mod trace_handoff;
mod trace_import;
mod trace_logfire;
mod trace_properties;
mod trace_runs;
