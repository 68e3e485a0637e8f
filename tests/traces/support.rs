//! Helpers the trace tests share: importing a fixture of tests/fixtures/otlp
//! and the metrics of a trace, each through the binary.

use crate::common;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use std::path::PathBuf;

/// The OTLP fixture `name`.
pub fn fixture(name: &str) -> PathBuf {
    common::repo().join("tests/fixtures/otlp").join(name)
}

/// Runs `corpus trace import --from FROM FILE`; returns (exit code, stdout, stderr).
pub fn import(from: &str, path: &std::path::Path) -> (i32, String, String) {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "import", "--from", from])
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `corpus trace classify --format json` of a trace given on stdin.
pub fn classification(trace: &str) -> Value {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "classify", "-", "--format", "json"])
        .write_stdin(trace.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// What `corpus trace import --explain` prints; it must succeed.
pub fn explain() -> String {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "import", "--explain"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `corpus trace metrics --format json` of a trace given on stdin.
pub fn metrics(trace: &str) -> Value {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "metrics", "-", "--format", "json"])
        .write_stdin(trace.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Imports the fixture `name` with `--from FROM`, which must succeed with no
/// problem; returns (the trace, stderr).
pub fn imported(from: &str, name: &str) -> (String, String) {
    let (code, trace, stderr) = import(from, &fixture(name));
    assert_eq!(code, 0, "{name}: {stderr}");
    assert!(stderr.contains("0 errors, 0 warnings"), "{name}: {stderr}");
    (trace, stderr)
}
