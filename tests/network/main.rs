//! The commands that use the network, against servers the tests start on
//! 127.0.0.1: `corpus links` (and its weekly workflow), `corpus verify` and
//! `corpus watch`.
//!
//! One test binary: each file below is a module, sharing `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod connections;
mod discover;
mod links;
mod links_workflow;
mod network_down;
mod recorded;
mod verify;
mod verify_recorded;
mod watch;
