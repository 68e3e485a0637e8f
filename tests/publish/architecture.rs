//! ARCHITECTURE.md describes the house as it is: every crate with the
//! crates it depends on, every folder of `corpus-core` in its layer, no
//! import that climbs a layer, no library crate that prints, and no source
//! file over the size a reader can hold; the command-line crate holds no
//! unit test that `cargo test` would skip.

use crate::common::repo;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn doc() -> String {
    std::fs::read_to_string(repo().join("ARCHITECTURE.md")).expect("read ARCHITECTURE.md")
}

/// The rows of the Markdown table that follows `heading` in ARCHITECTURE.md, as cells.
fn table_after(heading: &str) -> Vec<Vec<String>> {
    let doc = doc();
    let start = doc
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}`"));
    doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The backticked names in a table cell.
fn names(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Every `.rs` file below a folder.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("list folder") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// A file's code without its tests and comments (test-only files give nothing).
fn code(path: &Path) -> String {
    let name = path.file_name().unwrap().to_string_lossy();
    if ["tests.rs", "testutil.rs", "robustness.rs"].contains(&name.as_ref()) {
        return String::new();
    }
    let text = std::fs::read_to_string(path).expect("read source");
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `corpus*` packages a manifest depends on (normal dependencies only).
fn corpus_dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).expect("read Cargo.toml");
    let deps = text
        .split("\n[dependencies]\n")
        .nth(1)
        .unwrap_or("")
        .split("\n[")
        .next()
        .unwrap_or("");
    deps.lines()
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|n| n.starts_with("corpus-") || *n == "clap")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_crate_depends_only_on_the_crates_the_map_names_above_it() {
    let rows = table_after("## Crates");
    assert!(rows.len() >= 5, "the crate table: {rows:?}");
    let mut above: BTreeSet<String> = BTreeSet::new();
    let short: BTreeMap<&str, &str> = [
        ("diagnostics", "corpus-diagnostics"),
        ("io", "corpus-io"),
        ("trace", "corpus-trace"),
        ("core", "corpus-core"),
    ]
    .into();
    for row in &rows {
        let krate = &names(&row[0])[0];
        let folder = names(&row[1]).first().cloned().unwrap_or_default();
        let manifest = if row[1].starts_with("the root") {
            repo().join("Cargo.toml")
        } else {
            repo().join(&folder).join("Cargo.toml")
        };
        assert!(manifest.is_file(), "`{krate}`: no {}", manifest.display());
        let named: BTreeSet<String> = if row[3].contains("all of the above") {
            above.clone()
        } else {
            row[3]
                .split(',')
                .filter_map(|w| short.get(w.trim()).map(|s| s.to_string()))
                .collect()
        };
        let mut actual = corpus_dependencies(&manifest);
        let clap = actual.remove("clap");
        assert_eq!(
            actual, named,
            "`{krate}` depends on other crates than the map says"
        );
        assert!(
            actual.is_subset(&above),
            "`{krate}` depends on a crate below it"
        );
        assert_eq!(
            clap,
            krate == "corpus",
            "`{krate}`: only the command-line crate may depend on clap"
        );
        above.insert(krate.clone());
    }
    let on_disk: BTreeSet<String> = std::fs::read_dir(repo().join("crates"))
        .expect("list crates")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    for c in on_disk {
        assert!(
            rows.iter().any(|r| r[1].contains(&format!("crates/{c}"))),
            "crates/{c} is not on the map"
        );
    }
}

#[test]
fn no_library_crate_writes_to_the_terminal() {
    let printing = regex::Regex::new(
        r"\b(e?print(ln)?!|dbg!|std::io::stdout|std::io::stderr|io::stdout\(|io::stderr\()",
    )
    .expect("regex");
    for file in rust_files(&repo().join("crates")) {
        if file.ends_with("build.rs") {
            continue;
        }
        let code = code(&file);
        if let Some(m) = printing.find(&code) {
            panic!(
                "{} writes to the terminal: `{}`",
                file.display(),
                m.as_str()
            );
        }
    }
}

#[test]
fn core_folders_import_only_folders_in_a_row_above() {
    let rows = table_after("## Layers inside `corpus-core`");
    let mut layer: BTreeMap<String, u32> = BTreeMap::new();
    for row in &rows {
        let n: u32 = row[0].parse().expect("a layer number");
        for name in names(&row[1]) {
            layer.insert(name, n);
        }
    }
    let src = repo().join("crates/core/src");
    let crate_path = regex::Regex::new(r"crate::([a-z_][a-z0-9_]*)").expect("regex");
    for e in std::fs::read_dir(&src).expect("list core") {
        let p = e.expect("entry").path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if name == "lib" {
            continue;
        }
        let own = *layer
            .get(&name)
            .unwrap_or_else(|| panic!("`{name}` of corpus-core is in no layer of ARCHITECTURE.md"));
        let files = if p.is_dir() {
            rust_files(&p)
        } else {
            vec![p.clone()]
        };
        for f in files {
            for c in crate_path.captures_iter(&code(&f)) {
                let used = &c[1];
                if used == name {
                    continue;
                }
                let theirs = layer[used];
                assert!(
                    theirs < own,
                    "{} (layer {own}) imports `{used}` (layer {theirs})",
                    f.display()
                );
            }
        }
    }
    for name in layer.keys() {
        assert!(
            src.join(name).is_dir() || src.join(format!("{name}.rs")).is_file(),
            "ARCHITECTURE.md names `{name}`, which corpus-core does not have"
        );
    }
}

#[test]
fn no_source_file_is_longer_than_a_reader_can_hold() {
    let mut files = rust_files(&repo().join("crates"));
    files.extend(rust_files(&repo().join("src")));
    for f in files {
        let lines = std::fs::read_to_string(&f).expect("read").lines().count();
        assert!(
            lines <= 700,
            "{} has {lines} lines (700 at most)",
            f.display()
        );
    }
}

#[test]
fn the_command_line_crate_has_no_unit_tests_since_cargo_test_skips_them() {
    // Cargo.toml sets `test = false` on the root crate's library and binary,
    // so `cargo test` builds no test harness of them: a unit test there
    // would never run. Its behaviour is pinned end to end in tests/.
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).expect("read Cargo.toml");
    for section in ["[lib]", "[[bin]]"] {
        let body = manifest
            .split(&format!("\n{section}\n"))
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .unwrap_or_else(|| panic!("no {section} in Cargo.toml"));
        assert!(body.contains("\ntest = false"), "{section}: {body}");
    }
    for path in rust_files(&repo().join("src")) {
        let text = std::fs::read_to_string(&path).expect("read source");
        for marker in ["#[test]", "#[cfg(test)]"] {
            assert!(
                !text.contains(marker),
                "{} holds `{marker}`, which `cargo test` would not run; test the command end to end in tests/",
                path.display()
            );
        }
    }
}
