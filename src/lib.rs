//! The command line of `corpus`: every clap type, parsed and validated once,
//! and one function per command that returns its output as text. `main`
//! writes that text; no library crate touches the terminal.

#![allow(clippy::result_large_err)]
#![warn(missing_docs)]

pub mod cli;
pub mod commands;
pub mod progress;
