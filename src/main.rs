//! The `corpus` binary: parse arguments, run, print, exit.

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match corpus::cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let out = corpus::cli::run(&cli, &cwd);
    // A closed pipe (e.g. `corpus check | head`) is not a failure of the tool.
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    ExitCode::from(out.code.clamp(0, 255) as u8)
}
