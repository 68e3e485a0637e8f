//! Data in and out of the corpus: the output formats of `check`, `corpus diff`
//! and `corpus agreement`.
//!
//! One test binary: each file below is a module, sharing `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod agreement;
mod alpha;
mod bibliography;
mod diff;
mod formats;
mod review;
mod survey;
