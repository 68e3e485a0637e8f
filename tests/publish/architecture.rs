//! ARCHITECTURE.md describes the house as it is: every module of `src/` is
//! on its map and in its layer table, and no module imports one in a higher
//! layer (a module directory counts as one module).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

/// Top-level modules of src/ (files and directories), without lib and main.
fn modules() -> BTreeSet<String> {
    std::fs::read_dir(common::repo().join("src"))
        .expect("list src")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter_map(|n| match n.strip_suffix(".rs") {
            Some(stem) => Some(stem.to_string()),
            None if !n.contains('.') => Some(n),
            None => None,
        })
        .filter(|m| m != "lib" && m != "main")
        .collect()
}

/// The non-test code of a module (a file, or every file of a directory).
fn code_of(module: &str) -> String {
    let src = common::repo().join("src");
    let file = src.join(format!("{module}.rs"));
    let paths = if file.is_file() {
        vec![file]
    } else {
        std::fs::read_dir(src.join(module))
            .expect("list module directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .collect()
    };
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("read source");
            let text = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            text.lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

/// The modules a module names through `crate::`.
fn imports(module: &str, all: &BTreeSet<String>) -> BTreeSet<String> {
    let code = code_of(module);
    let ident = regex::Regex::new(r"crate::([a-z_][a-z0-9_]*)").expect("regex");
    let group = regex::Regex::new(r"use crate::\{([^}]*)\}").expect("regex");
    let word = regex::Regex::new(r"(?:^|,)\s*([a-z_][a-z0-9_]*)").expect("regex");
    let mut out: BTreeSet<String> = ident
        .captures_iter(&code)
        .map(|c| c[1].to_string())
        .collect();
    for g in group.captures_iter(&code) {
        out.extend(word.captures_iter(&g[1]).map(|c| c[1].to_string()));
    }
    out.retain(|m| all.contains(m) && m != module);
    out
}

/// The layer table of ARCHITECTURE.md: module -> layer number.
fn layers() -> BTreeMap<String, u32> {
    let doc = std::fs::read_to_string(common::repo().join("ARCHITECTURE.md")).expect("read");
    let row = regex::Regex::new(r"(?m)^\| (\d)\. [^|]+\| (.+) \|$").expect("regex");
    let name = regex::Regex::new(r"`([a-z_]+)(?:/|\.rs)?`").expect("regex");
    let mut out = BTreeMap::new();
    for r in row.captures_iter(&doc) {
        let layer: u32 = r[1].parse().expect("layer number");
        for n in name.captures_iter(&r[2]) {
            out.insert(n[1].to_string(), layer);
        }
    }
    out
}

#[test]
fn every_module_is_on_the_map_and_in_a_layer() {
    let doc = std::fs::read_to_string(common::repo().join("ARCHITECTURE.md")).expect("read");
    let layers = layers();
    for m in modules() {
        let file = common::repo().join("src").join(format!("{m}.rs"));
        let shown = if file.is_file() {
            format!("- `{m}.rs`")
        } else {
            format!("- `{m}/`")
        };
        assert!(
            doc.contains(&shown),
            "ARCHITECTURE.md has no `{shown}` line"
        );
        assert!(
            layers.contains_key(&m),
            "`{m}` is in no layer of ARCHITECTURE.md"
        );
    }
    for m in layers.keys().filter(|m| *m != "main") {
        assert!(
            modules().contains(m),
            "ARCHITECTURE.md names `{m}`, which src/ does not have"
        );
    }
}

#[test]
fn no_module_imports_one_in_a_higher_layer() {
    let all = modules();
    let layers = layers();
    let mut wrong = Vec::new();
    for m in &all {
        for i in imports(m, &all) {
            if layers.get(&i) > layers.get(m) {
                wrong.push(format!(
                    "{m} (layer {:?}) -> {i} (layer {:?})",
                    layers[m], layers[&i]
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "upward imports:\n{}", wrong.join("\n"));
}
