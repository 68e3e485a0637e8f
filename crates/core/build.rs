//! Gives the binary an identity for the build fingerprint (a record in the user's store):
//! a digest of everything that decides what the tool computes (the sources of
//! every crate, the trace schema compiled into it, the locked dependencies
//! and the compiler) so that a changed tool never trusts what an older one
//! recorded.

use std::hash::Hasher;
use std::path::Path;

fn add_file(h: &mut std::collections::hash_map::DefaultHasher, path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
    h.write(path.to_string_lossy().as_bytes());
    h.write(&std::fs::read(path).unwrap_or_default());
}

fn add_dir(h: &mut std::collections::hash_map::DefaultHasher, dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            add_dir(h, &p);
        } else {
            add_file(h, &p);
        }
    }
}

fn main() {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    // This crate sits two folders below the workspace root; every crate's
    // sources decide what the tool computes.
    add_dir(&mut h, Path::new("../../crates"));
    add_dir(&mut h, Path::new("../../src"));
    for f in [
        "../../Cargo.toml",
        "../../Cargo.lock",
        // The trace schema is the tool's own format, compiled into the trace
        // crate; no list's data is compiled in, so none is hashed here.
        "../../traces/trace.schema.json",
    ] {
        add_file(&mut h, Path::new(f));
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("-vV")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    h.write(&version);
    for var in ["PROFILE", "OPT_LEVEL", "TARGET", "CARGO_CFG_TARGET_FEATURE"] {
        h.write(std::env::var(var).unwrap_or_default().as_bytes());
    }
    println!("cargo:rustc-env=CORPUS_BUILD_ID={:016x}", h.finish());
}
