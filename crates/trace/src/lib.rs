//! Orchestration traces: the temporal event graphs of the survey (orchestrator
//! decisions, spawns, messages, tool calls and results, returns, aggregations,
//! human interventions and safety events, with rewards and costs).
//!
//! This crate checks trace files ([`validate_bytes`], [`validate_file`]) and
//! replays them into [`Metrics`]. Checking is three layers: JSON syntax, the
//! JSON Schema in `traces/trace.schema.json` (compiled into the binary), then
//! the graph rules a schema cannot express (see `graph`). Every problem is a
//! [`Diagnostic`](corpus_diagnostics::diag::Diagnostic) naming the file, the
//! JSON pointer and, where possible, the line and column.
//!
//! Memory is kept near the size of the input: events are validated one at a
//! time while the file is streamed, then kept in a compact typed form
//! ([`Trace`]) rather than as a `serde_json::Value` tree.

// Diagnostics travel in `Err` only on the failure path of file-level
// operations, so their size costs nothing worth boxing for.
#![allow(clippy::result_large_err)]
#![warn(missing_docs)]

mod classify;
mod finding;
mod graph;
mod input;
mod locate;
mod metrics;
mod model;
pub mod otlp;
mod parse;
#[cfg(test)]
mod robustness;
mod schema;
#[cfg(test)]
pub(crate) mod testutil;
mod validate;

pub use classify::{classification_text, classify, Classification, Evidence, FORMS, MAX_EVIDENCE};
pub use input::{collect_inputs, open_input, read_input, read_limited, DEFAULT_MAX_BYTES, STDIN};
pub use metrics::{metrics, metrics_table, Metrics, UntrustedPair, OVERFLOW_RULE, TEAM_FAMILY};
pub use model::{Edge, EdgeKind, Event, EventKind, Slot, Trace, MAX_TOKENS};
pub use schema::topologies;
pub use validate::{check_and_parse, parse, validate_and_parse, validate_bytes, validate_file};
