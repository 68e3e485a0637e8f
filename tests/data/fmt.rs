//! `corpus fmt`: the canonical layout of entry and record files. The shipped
//! data is formatted; `--check` lists what would change and writes nothing;
//! formatting keeps every value and comment, reads the same under YAML 1.1
//! rules, and is idempotent on arbitrary (generated) files.

use crate::common::{self, valid, Tree};
use corpus_core::model::format::{ambiguous_in_yaml11, FileKind};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

#[test]
fn the_shipped_data_is_formatted() {
    let run = common::run_in(&common::repo(), None, &["fmt", "--check"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("0 would change, 116 unchanged"),
        "{}",
        run.stdout
    );
}

#[test]
fn check_lists_unformatted_files_exits_1_and_writes_nothing() {
    let t = Tree::valid();
    t.set(valid::METHOD, "verified", "'yes'");
    let before = t.read(valid::METHOD);
    let run = t.corpus(&["fmt", "--check"]);
    run.assert_code(1);
    assert!(
        run.stdout
            .contains("would reformat corpus/papers/relay-credit2025.yaml"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("1 would change"), "{}", run.stdout);
    assert_eq!(t.read(valid::METHOD), before);
}

#[test]
fn fmt_rewrites_in_place_and_a_second_run_changes_nothing() {
    let t = Tree::valid();
    t.set(valid::METHOD, "verified", "yes   # spot-checked");
    t.replace(valid::METHOD, "  - https://", "- https://");
    let run = t.corpus(&["fmt"]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("formatted corpus/papers/relay-credit2025.yaml"),
        "{}",
        run.stdout
    );
    let text = t.read(valid::METHOD);
    assert!(
        text.contains("verified: \"yes\"   # spot-checked\n"),
        "{text}"
    );
    assert!(
        text.contains("urls:\n  - https://arxiv.org/abs/2503.01230\n"),
        "{text}"
    );
    t.corpus(&["fmt", "--check"]).assert_code(0);
    t.check_strict().assert_code(0);
}

#[test]
fn fmt_takes_files_and_folders_and_only_touches_those() {
    let t = Tree::valid();
    t.set(valid::METHOD, "verified", "'yes'");
    t.set(valid::DOCS_RECORD, "stage", "'abstract_screen'");
    let run = t.corpus(&["fmt", valid::DOCS_RECORD]);
    run.assert_code(0);
    assert!(t
        .read(valid::DOCS_RECORD)
        .contains("stage: abstract_screen\n"));
    assert!(t.read(valid::METHOD).contains("verified: 'yes'\n"));
    let run = t.corpus(&["fmt", "corpus/papers"]);
    run.assert_code(0);
    assert!(t.read(valid::METHOD).contains("verified: \"yes\"\n"));
}

#[test]
fn a_folder_above_the_data_formats_only_entry_and_record_files() {
    let t = Tree::valid();
    t.set(valid::METHOD, "verified", "'yes'");
    let taxonomy = t.read("corpus/taxonomy.yaml");
    let others: Vec<(String, String)> = ["corpus/claims.yaml", "corpus/survey.yaml"]
        .iter()
        .filter(|f| t.path(f).exists())
        .map(|f| (f.to_string(), t.read(f)))
        .collect();
    for folder in ["corpus", "."] {
        t.corpus(&["fmt", folder]).assert_code(0);
        assert_eq!(t.read("corpus/taxonomy.yaml"), taxonomy, "fmt {folder}");
        for (f, text) in &others {
            assert_eq!(&t.read(f), text, "fmt {folder} changed {f}");
        }
    }
    assert!(t.read(valid::METHOD).contains("verified: \"yes\"\n"));
}

#[test]
fn a_file_that_is_not_an_entry_or_record_is_refused() {
    let t = Tree::valid();
    let taxonomy = t.read("corpus/taxonomy.yaml");
    let run = t.corpus(&["fmt", "corpus/taxonomy.yaml"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("not an entry or record file"),
        "{}",
        run.stderr
    );
    assert_eq!(t.read("corpus/taxonomy.yaml"), taxonomy);
    t.write("notes/plan.yaml", "b: 1\na:   2\n");
    let run = t.corpus(&["fmt", "notes"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("no entry or record files"),
        "{}",
        run.stderr
    );
    assert_eq!(t.read("notes/plan.yaml"), "b: 1\na:   2\n");
}

#[test]
fn a_missing_path_is_a_usage_error() {
    let t = Tree::valid();
    let run = t.corpus(&["fmt", "corpus/papers/nope.yaml"]);
    run.assert_code(2);
    assert!(run.stderr.contains("no such file"), "{}", run.stderr);
}

#[test]
fn broken_yaml_is_reported_and_left_alone() {
    let t = Tree::valid();
    t.write("corpus/papers/bad.yaml", "key: bad\ntitle: [unclosed\n");
    let run = t.corpus(&["fmt"]);
    run.assert_code(1);
    assert!(
        run.stderr.contains("corpus/papers/bad.yaml:"),
        "{}",
        run.stderr
    );
    assert_eq!(
        t.read("corpus/papers/bad.yaml"),
        "key: bad\ntitle: [unclosed\n"
    );
}

#[test]
fn import_writes_formatted_entries_and_records() {
    let t = Tree::valid();
    // Written over the fixture files, so every entry and record is the importer's.
    t.export_and_reimport_csv();
    let run = t.corpus(&["fmt", "--check"]);
    run.assert_code(0);
    assert!(run.stdout.contains("0 would change"), "{}", run.stdout);
}

#[test]
fn new_writes_a_formatted_scaffold() {
    let t = Tree::valid();
    t.corpus(&["new", "fresh-2026", "--arxiv", "2601.01234"])
        .assert_code(0);
    let run = t.corpus(&["fmt", "--check", "corpus/papers/fresh-2026.yaml"]);
    run.assert_code(0);
}

#[test]
fn formatted_files_read_the_same_under_yaml_1_1_rules() {
    // Every plain scalar left in a formatted shipped file is one YAML 1.1
    // resolves to text, unless the field is a number or a boolean.
    for dir in ["corpus/papers", "exclusions"] {
        for f in std::fs::read_dir(common::repo().join(dir)).unwrap() {
            let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let Some((key, value)) = line.split_once(": ") else {
                    continue;
                };
                let value = value.split(" #").next().unwrap().trim();
                if matches!(key.trim(), "year" | "cite_year" | "strict_credit")
                    || value.starts_with('"')
                {
                    continue;
                }
                assert!(!ambiguous_in_yaml11(value), "{line}");
            }
        }
    }
}

/// A plausible entry file: known and unknown fields in any order, values
/// that need quoting or not, written plain, single- or double-quoted, lists in
/// flow or block style, comments above and beside fields.
fn entry_text() -> impl Strategy<Value = String> {
    let field = prop::sample::select(vec![
        "key",
        "title",
        "first_author",
        "year",
        "arxiv_id",
        "venue",
        "urls",
        "is_rl",
        "verified",
        "subdecisions",
        "notes",
        "waivers",
        "extra",
    ]);
    let scalar = prop::sample::select(vec![
        "yes",
        "no",
        "on",
        "NA",
        "core",
        "2026-04-26",
        "2508.04652",
        "12",
        "Liu, Shuo",
        "A: colon",
        "hash # inside",
        "it's",
        "say \"hi\"",
        "back\\slash",
        "~",
        "null",
        "true",
        "Grégoire",
        "[x]",
        "*star",
        "-dash",
        "",
        " padded ",
    ]);
    let quoting = 0..3u8;
    let style = 0..4u8;
    prop::collection::vec(
        (
            field,
            prop::collection::vec((scalar, quoting), 1..3),
            style,
            any::<bool>(),
        ),
        1..10,
    )
    .prop_map(|fields| {
        let mut seen = std::collections::BTreeSet::new();
        let mut out = String::new();
        for (name, values, style, comment) in fields {
            if !seen.insert(name) {
                continue;
            }
            if comment {
                out.push_str(&format!("# about {name}\n"));
            }
            // Plain only where the text is one plain scalar (no `: `, ` #`, indicators).
            let plain_is_one_scalar = |v: &str| {
                !v.is_empty()
                    && v.trim() == v
                    && !v.contains(": ")
                    && !v.contains(" #")
                    && !v.starts_with(['[', '*', '"', '\''])
            };
            let write = |v: &str, q: u8| match q {
                0 if plain_is_one_scalar(v) => v.to_string(),
                1 => format!("'{}'", v.replace('\'', "''")),
                _ => format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\"")),
            };
            match (name, style) {
                ("urls" | "subdecisions", 0) => {
                    let items: Vec<String> = values.iter().map(|(v, _)| write(v, 2)).collect();
                    out.push_str(&format!("{name}: [{}]\n", items.join(", ")));
                }
                ("urls" | "subdecisions", s) => {
                    out.push_str(&format!("{name}:\n"));
                    for (v, q) in &values {
                        let indent = if s == 1 { "" } else { "  " };
                        out.push_str(&format!("{indent}- {}\n", write(v, *q)));
                    }
                }
                ("waivers", _) => {
                    out.push_str("waivers:\n");
                    for (i, (v, q)) in values.iter().enumerate() {
                        out.push_str(&format!("    rule-{i}: {}\n", write(v, *q)));
                    }
                }
                (_, s) => {
                    let (v, q) = &values[0];
                    let tail = if s == 3 { "   # beside" } else { "" };
                    out.push_str(&format!("{name}: {}{tail}\n", write(v, *q)));
                }
            }
            if style == 2 {
                out.push('\n');
            }
        }
        out
    })
}

#[test]
fn formatting_is_idempotent_and_keeps_every_value() {
    let mut runner = TestRunner::new(Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&entry_text(), |text| {
            let Ok(before) = serde_yaml::from_str::<serde_yaml::Value>(&text) else {
                return Ok(()); // a generated line YAML refuses: fmt refuses it too
            };
            let Ok(once) = corpus_core::model::format::format(&text, FileKind::Entry) else {
                return Err(TestCaseError::fail(format!("could not format:\n{text}")));
            };
            let twice = corpus_core::model::format::format(&once, FileKind::Entry)
                .expect("formats its own output");
            prop_assert_eq!(&twice, &once, "not idempotent:\n{}", text);
            let after: serde_yaml::Value = serde_yaml::from_str(&once).unwrap();
            prop_assert_eq!(after, before, "a value changed:\n{}\n---\n{}", text, once);
            for line in once.lines().filter(|l| !l.trim_start().starts_with('#')) {
                // Whatever is left plain is text to YAML 1.1 as well.
                if let Some((_, v)) = line.split_once(": ").or_else(|| line.split_once("- ")) {
                    let v = v.split(" #").next().unwrap().trim();
                    let as_12: Option<serde_yaml::Value> =
                        serde_yaml::from_str(&format!("k: {v}\n")).ok();
                    let text_to_12 = as_12
                        .as_ref()
                        .and_then(|x| x.get("k"))
                        .is_some_and(|x| x.is_string());
                    if text_to_12 && !v.starts_with(['"', '[']) {
                        prop_assert!(
                            !ambiguous_in_yaml11(v),
                            "ambiguous plain `{}` in\n{}",
                            v,
                            once
                        );
                    }
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}
