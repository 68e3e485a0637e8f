//! Property tests: no input makes loading and checking panic; export →
//! import round-trips arbitrary valid entries; the statistics add up.
//!
//! The loading properties call the library directly (`corpus_core::load::load`
//! then `corpus_core::check::check`, and the derived outputs: stats, exports and
//! the generated files) on a temporary root holding the project's taxonomy,
//! the valid fixture and templates, with one file replaced per case. They run
//! on three kinds of input:
//!
//! - arbitrary bytes, which mostly stop at the UTF-8 check or the parser;
//! - text built from a grammar of plausible YAML lines (known field names,
//!   taxonomy values, quotes, anchors, tags, flow and block collections,
//!   indentation, comments, tabs, CRLF, a byte-order mark), which reaches the
//!   field conversion and the rules;
//! - a valid file with a few of its lines replaced, inserted, deleted or
//!   repeated, which reaches the cross-field and cross-file rules.
//!
//! Case counts are modest so the file runs in seconds in `cargo test`: 64
//! for the properties that load a whole root per case (the load, not the
//! varied file, is most of a case's cost), 256 for the in-memory ones, 8 for
//! the one that runs the binary. The counts are not what these properties
//! pin: proptest draws new cases on every run (the seed is random), so runs
//! add up to more inputs than any one of them tries.

mod common;

use common::Tree;
use corpus_core::exchange::import;
use corpus_core::layout::Layout;
use corpus_core::load::{self, LoadOptions};
use corpus_core::model::taxonomy::Taxonomy;
use corpus_core::model::Entry;
use corpus_core::publish::chart_files;
use corpus_core::publish::generate::{self, Part};
use corpus_core::stats;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------
// Shared set-up

/// Cases of each property that loads and checks a whole root per case.
const FILE_CASES: u32 = 64;

fn config(cases: u32) -> Config {
    Config {
        cases,
        // Failures are shown shrunk in the test output; nothing is written
        // beside the sources.
        failure_persistence: None,
        ..Config::default()
    }
}

/// Runs a property with a given number of cases, panicking with the shrunk
/// failing input when it does not hold.
fn run<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    let mut runner = TestRunner::new(config(cases));
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}

fn taxonomy() -> Taxonomy {
    let text = std::fs::read_to_string(common::repo().join(Layout::TAXONOMY)).unwrap();
    Taxonomy::from_yaml(&text).expect("the project's taxonomy parses")
}

fn templates() -> Vec<(String, String)> {
    corpus_core::load::templates::read(&common::repo()).expect("the project's templates read")
}

/// Loads and checks a root, then computes everything derived from it. The
/// point is that none of it panics; the results themselves are not judged
/// here, except that the files the loader could not use have a diagnostic.
fn load_check_and_derive(root: &Path, templates: &[(String, String)], rel: &str) {
    let corpus = match load::load(root, LoadOptions::default()) {
        Ok(c) => c,
        // A broken taxonomy is not what these properties vary.
        Err(e) => panic!("the taxonomy must load: {e}"),
    };
    let report = corpus_core::check::check(&corpus);
    // The varied file either loaded (it is among the files read) or was
    // reported; it is never silently skipped.
    let read = corpus.files.iter().any(|f| f.rel == rel)
        || (rel == Layout::CLAIMS && corpus.claims.is_some());
    let reported = report
        .diagnostics
        .iter()
        .chain(&report.waived)
        .any(|d| d.file == rel);
    assert!(read || reported, "{rel} was neither read nor reported");
    let loaded = corpus
        .entries
        .iter()
        .any(|e| corpus.file(e.file).rel == rel)
        || corpus
            .exclusions
            .iter()
            .any(|x| corpus.file(x.file).rel == rel)
        || (rel == Layout::CLAIMS && corpus.claims.is_some());
    // Derived outputs can only differ from the fixture's when the varied
    // file made it into the corpus.
    if !loaded {
        return;
    }
    let st = stats::of_corpus(&corpus);
    let _ = corpus_core::stats::render::json_text(&st);
    let _ = corpus_core::stats::render::csv_tables(&st);
    let _ = corpus_core::stats::render::table(&st);
    let entries = corpus.entry_list();
    let records = corpus.exclusion_list();
    let _ = corpus_core::exchange::export::papers_csv(&entries);
    let _ = corpus_core::exchange::export::exclusions_csv(&records);
    let _ = corpus_core::exchange::export::json(&entries, &records);
    let _ = corpus_core::exchange::export::bibtex(&entries, &corpus.taxonomy.protected_words);
    let _ = chart_files::charts(&corpus, &st, &corpus_core::publish::prisma::flow(&corpus));
    // Rendering the templates costs several times the rest (~20 ms in a
    // debug build): one loaded case in four keeps the file fast.
    static LOADED: AtomicUsize = AtomicUsize::new(0);
    if LOADED.fetch_add(1, Ordering::Relaxed).is_multiple_of(4) {
        let _ = generate::generate(&corpus, templates, &[], Part::All);
    }
}

/// The valid fixture plus the project's templates and claims ledger.
fn base_tree() -> Tree {
    let t = Tree::valid_with_templates();
    std::fs::copy(
        common::repo().join("corpus/claims.yaml"),
        t.path("corpus/claims.yaml"),
    )
    .expect("copy claims");
    t
}

// ---------------------------------------------------------------------------
// A grammar of plausible YAML lines

const ODD_FIELDS: [&str; 12] = [
    "keys",
    "Title",
    "title ",
    "\"title\"",
    "'key'",
    "url",
    "waiver",
    "? key",
    "<<",
    "- key",
    "",
    "日本",
];

/// Values that parse but are odd: types, escapes, tags, anchors, unicode.
const ODD_VALUES: [&str; 48] = [
    "",
    "NA",
    "na",
    "yes",
    "no",
    "true",
    "false",
    "~",
    "null",
    "2025",
    "2025.0",
    "-1",
    "0x1F",
    "0o17",
    "1e309",
    ".inf",
    ".nan",
    "99999999999999999999999",
    "2503.01230",
    "\"2503.01230\"",
    "2503.0123",
    "hep-th/9901001",
    "'quoted: with # hash'",
    "\"escaped \\u00e9 \\t \\\" \\x41\"",
    "plain # comment",
    "[a, b]",
    "[]",
    "{}",
    "{a: b}",
    "{a: [b, {c: d}]}",
    "[o1_spawn, o1_spawn]",
    "[o1_spawn, 7]",
    "&anchor value",
    "!!str 2025",
    "!!binary aGVsbG8=",
    "!custom tag",
    "Ünïcödé — 日本語 🚀",
    "\u{200b}zero width",
    "\u{2028}line separator",
    "https://arxiv.org/abs/2503.01230",
    "http://example.com/a;b",
    "javascript:alert(1)",
    "ftp://x",
    "https://",
    "2026-02-30",
    "2026-05-05",
    "9999-12-31",
    "Okafor, Ada",
];

/// Values that break the line or the document.
const BREAKING_VALUES: [&str; 16] = [
    "\"bad escape \\q\"",
    "'unterminated",
    "\"unterminated",
    "text: with colon",
    "- not a list",
    "[",
    "]",
    "*anchor",
    "*undefined",
    "&a [*a]",
    "!!int nope",
    "!!map {a: b}",
    "|",
    ">-",
    "|+2",
    "%YAML 1.2",
];

fn tag_values(tax: &Taxonomy) -> Vec<String> {
    let mut out = vec![tax.na.clone()];
    for f in
        corpus_core::model::fields::entry_tags().chain(corpus_core::model::fields::record_tags())
    {
        out.extend(tax.allowed(f).unwrap_or_default());
    }
    out.extend(tax.rules.iter().map(|r| r.id.clone()));
    out
}

fn field_name(known: Vec<String>) -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(known),
        1 => proptest::sample::select(ODD_FIELDS.to_vec()).prop_map(str::to_string),
    ]
}

/// A value that parses: a tag, an odd but valid scalar or collection, or
/// arbitrary text in single quotes.
fn parseable_value(tags: Vec<String>) -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        4 => proptest::sample::select(tags),
        3 => proptest::sample::select(ODD_VALUES.to_vec()).prop_map(str::to_string),
        1 => "[a-zA-Z0-9 ,.()-]{1,20}",
        1 => any::<String>().prop_map(|s| {
            let s: String = s.chars().filter(|c| !c.is_control()).take(16).collect();
            format!("'{}'", s.replace('\'', "''"))
        }),
    ]
}

/// Any value, including ones that break the document.
fn value(tags: Vec<String>) -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        6 => parseable_value(tags),
        1 => proptest::sample::select(BREAKING_VALUES.to_vec()).prop_map(str::to_string),
        1 => "[ -~]{0,20}",
        1 => any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

fn indent() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        6 => Just(""),
        2 => Just("  "),
        1 => Just("    "),
        1 => Just(" "),
        1 => Just("\t"),
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        8 => Just(": "),
        1 => Just(":"),
        1 => Just(" : "),
        1 => Just(":\t"),
        1 => Just(":  "),
    ]
}

/// One line: `field: value`, a list item, a nested key, a comment or a marker.
fn line(fields: Vec<String>, tags: Vec<String>) -> BoxedStrategy<String> {
    let pair = (
        indent(),
        field_name(fields.clone()),
        separator(),
        value(tags.clone()),
    )
        .prop_map(|(i, f, s, v)| format!("{i}{f}{s}{v}"));
    let item = (indent(), value(tags.clone())).prop_map(|(i, v)| format!("{i}- {v}"));
    let nested = (field_name(fields), value(tags)).prop_map(|(f, v)| format!("  {f}: {v}"));
    prop_oneof![
        8 => pair,
        3 => item,
        2 => nested,
        1 => Just("# a comment".to_string()),
        1 => Just(String::new()),
        1 => Just("---".to_string()),
        1 => Just("...".to_string()),
        1 => Just("? complex".to_string()),
        1 => Just(": value".to_string()),
        1 => Just(corpus_core::model::fields::MODELINE.to_string()),
    ]
    .boxed()
}

/// Lines joined into a file, with LF or CRLF endings and an optional BOM.
fn assemble(lines: Vec<String>, crlf: bool, bom: bool, final_newline: bool) -> Vec<u8> {
    let nl = if crlf { "\r\n" } else { "\n" };
    let mut text = lines.join(nl);
    if final_newline {
        text.push_str(nl);
    }
    let mut out = Vec::new();
    if bom {
        out.extend_from_slice("\u{feff}".as_bytes());
    }
    out.extend_from_slice(text.as_bytes());
    out
}

/// A document: mostly well-formed blocks (`field: value`, or `field:` with
/// list items or nested keys under it) over distinct fields, so that much of
/// it parses and reaches the field conversion and the rules, with a few
/// wild lines (odd fields, repeats, stray markers) inserted anywhere.
fn yamlish(fields: Vec<String>, tags: Vec<String>) -> impl Strategy<Value = Vec<u8>> {
    let n = fields.len();
    // Under a `field:` line: list items, or nested keys (not both, which
    // would not parse).
    let items = proptest::collection::vec(
        parseable_value(tags.clone()).prop_map(|v| format!("  - {v}")),
        0..4,
    );
    let keys = proptest::collection::vec(
        (field_name(fields.clone()), parseable_value(tags.clone()))
            .prop_map(|(f, v)| format!("  {f}: {v}")),
        1..4,
    );
    let body = prop_oneof![
        8 => parseable_value(tags.clone()).prop_map(|v| (v, Vec::new())),
        1 => value(tags.clone()).prop_map(|v| (v, Vec::new())),
        2 => items.prop_map(|items| (String::new(), items)),
        1 => keys.prop_map(|keys| (String::new(), keys)),
    ];
    let blocks = proptest::sample::subsequence(fields.clone(), 0..=n)
        .prop_shuffle()
        .prop_flat_map(move |fs| {
            let k = fs.len();
            (Just(fs), proptest::collection::vec(body.clone(), k))
        })
        .prop_map(|(fs, bodies)| {
            let mut lines = Vec::new();
            for (f, (v, items)) in fs.into_iter().zip(bodies) {
                if v.is_empty() {
                    lines.push(format!("{f}:"));
                } else {
                    lines.push(format!("{f}: {v}"));
                }
                lines.extend(items);
            }
            lines
        });
    let wild = prop_oneof![
        2 => Just(Vec::new()),
        1 => proptest::collection::vec((any::<Index>(), line(fields, tags)), 1..3),
    ];
    (
        blocks,
        wild,
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.9),
    )
        .prop_map(|(mut lines, wild, crlf, bom, nl)| {
            for (at, l) in wild {
                let i = at.index(lines.len() + 1);
                lines.insert(i, l);
            }
            assemble(lines, crlf, bom, nl)
        })
}

/// An edit of one line of a valid file.
#[derive(Debug, Clone)]
enum Edit {
    Replace(Index, String),
    Insert(Index, String),
    Delete(Index),
    Repeat(Index),
    Swap(Index, Index),
}

fn edit(fields: Vec<String>, tags: Vec<String>) -> impl Strategy<Value = Edit> {
    let l = line(fields, tags);
    prop_oneof![
        3 => (any::<Index>(), l.clone()).prop_map(|(i, s)| Edit::Replace(i, s)),
        2 => (any::<Index>(), l).prop_map(|(i, s)| Edit::Insert(i, s)),
        1 => any::<Index>().prop_map(Edit::Delete),
        1 => any::<Index>().prop_map(Edit::Repeat),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for e in edits {
        let n = lines.len();
        match e {
            Edit::Replace(i, s) if n > 0 => lines[i.index(n)] = s.clone(),
            Edit::Insert(i, s) => lines.insert(i.index(n + 1), s.clone()),
            Edit::Delete(i) if n > 0 => {
                lines.remove(i.index(n));
            }
            Edit::Repeat(i) if n > 0 => {
                let l = lines[i.index(n)].clone();
                lines.insert(i.index(n), l);
            }
            Edit::Swap(a, b) if n > 0 => lines.swap(a.index(n), b.index(n)),
            _ => {}
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn entry_fields() -> Vec<String> {
    corpus_core::model::fields::names(&corpus_core::model::fields::ENTRY)
        .into_iter()
        .map(String::from)
        .collect()
}

fn exclusion_fields() -> Vec<String> {
    corpus_core::model::fields::names(&corpus_core::model::fields::RECORD)
        .into_iter()
        .map(String::from)
        .collect()
}

/// Writes `bytes` at `rel` below the tree and checks the whole root.
fn property_on_file(t: &Tree, rel: &str, bytes: &[u8], templates: &[(String, String)]) {
    t.write(rel, bytes);
    load_check_and_derive(t.root(), templates, rel);
}

// ---------------------------------------------------------------------------
// Entry files

const ENTRY: &str = "corpus/papers/x.yaml";

#[test]
fn any_bytes_as_an_entry_file_give_diagnostics_not_a_panic() {
    let t = base_tree();
    let tpl = templates();
    run(
        FILE_CASES,
        proptest::collection::vec(any::<u8>(), 0..512),
        |b| {
            property_on_file(&t, ENTRY, &b, &tpl);
            Ok(())
        },
    );
}

#[test]
fn yaml_like_entry_text_gives_diagnostics_not_a_panic() {
    let t = base_tree();
    let tpl = templates();
    run(
        FILE_CASES,
        yamlish(entry_fields(), tag_values(&taxonomy())),
        |b| {
            property_on_file(&t, ENTRY, &b, &tpl);
            Ok(())
        },
    );
}

#[test]
fn edited_valid_entry_gives_diagnostics_not_a_panic() {
    let t = base_tree();
    let tpl = templates();
    let valid = t.read(common::valid::METHOD);
    // Keep the file name equal to the key, so the edits (not a key mismatch)
    // decide what is reported.
    let rel = common::valid::METHOD;
    let edits = proptest::collection::vec(edit(entry_fields(), tag_values(&taxonomy())), 1..5);
    run(FILE_CASES, edits, |e| {
        property_on_file(&t, rel, apply(&valid, &e).as_bytes(), &tpl);
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// Exclusion records

const RECORD: &str = "exclusions/E900.yaml";

#[test]
fn any_bytes_as_an_exclusion_record_give_diagnostics_not_a_panic() {
    let t = base_tree();
    let tpl = templates();
    run(
        FILE_CASES,
        proptest::collection::vec(any::<u8>(), 0..512),
        |b| {
            property_on_file(&t, RECORD, &b, &tpl);
            Ok(())
        },
    );
}

#[test]
fn yaml_like_exclusion_text_gives_diagnostics_not_a_panic() {
    let t = base_tree();
    let tpl = templates();
    let mut values = tag_values(&taxonomy());
    values.extend(
        [
            "arXiv:2404.05550",
            "OpenReview:abc123",
            "ACL:2024.acl-long.1",
            "github:owner/repo",
            "DOC-1",
            "doc-1",
            "E900",
            "E1",
            "2026-04-20",
        ]
        .map(String::from),
    );
    run(FILE_CASES, yamlish(exclusion_fields(), values), |b| {
        property_on_file(&t, RECORD, &b, &tpl);
        Ok(())
    });
}

#[test]
fn edited_valid_exclusion_record_gives_diagnostics_not_a_panic() {
    let t = base_tree();
    let tpl = templates();
    let valid = t.read(common::valid::ARXIV_RECORD);
    let rel = common::valid::ARXIV_RECORD;
    let edits = proptest::collection::vec(edit(exclusion_fields(), tag_values(&taxonomy())), 1..5);
    run(FILE_CASES, edits, |e| {
        property_on_file(&t, rel, apply(&valid, &e).as_bytes(), &tpl);
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// The claims ledger

const CLAIMS: &str = "corpus/claims.yaml";

#[test]
fn any_bytes_as_the_claims_ledger_give_diagnostics_not_a_panic() {
    let t = base_tree();
    let tpl = templates();
    run(
        FILE_CASES,
        proptest::collection::vec(any::<u8>(), 0..512),
        |b| {
            property_on_file(&t, CLAIMS, &b, &tpl);
            Ok(())
        },
    );
}

const WHERE: [&str; 14] = [
    "{}",
    "{category: survey}",
    "{category: '!survey'}",
    "{category: [survey, benchmark]}",
    "{subdecisions: '[]'}",
    "{subdecisions: '![]'}",
    "{subdecisions: o1_spawn}",
    "{strict_credit: strict}",
    "{year: 2025}",
    "{nope: x}",
    "{stage: abstract_screen}",
    "{category: {a: b}}",
    "[category]",
    "{category: survey, category: survey}",
];

const EXPECT: [&str; 12] = [
    "{count: \"== 3\"}",
    "{count: \"<= 0\"}",
    "{count: \">= 1\"}",
    "{count: 3}",
    "{count: \"== -1\"}",
    "{count: \"== 99999999999999999999999\"}",
    "{count: \"about three\"}",
    "{keys: [relay-credit2025]}",
    "{keys: []}",
    "{keys: [a, a]}",
    "{}",
    "{count: \"== 1\", keys: [x]}",
];

const OVER: [&str; 5] = ["entries", "exclusions", "audited", "papers", "[entries]"];

/// One claim, each field present or not, in a plausible or odd form.
fn claim() -> impl Strategy<Value = String> {
    let opt =
        |s: BoxedStrategy<String>| prop_oneof![4 => s.prop_map(Some), 1 => Just(None)].boxed();
    (
        opt(prop_oneof![
            Just("c1".to_string()),
            Just("c2".to_string()),
            "[a-z0-9-]{1,8}",
            Just("\"\"".to_string()),
        ]
        .boxed()),
        opt(value(vec!["A sentence.".into()]).boxed()),
        opt(proptest::sample::select(OVER.to_vec())
            .prop_map(str::to_string)
            .boxed()),
        opt(proptest::sample::select(WHERE.to_vec())
            .prop_map(str::to_string)
            .boxed()),
        opt(proptest::sample::select(EXPECT.to_vec())
            .prop_map(str::to_string)
            .boxed()),
        opt(value(vec!["What it does not mean.".into()]).boxed()),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(id, st, over, wh, ex, bd, extra)| {
            let mut lines = Vec::new();
            for (name, v) in [
                ("id", id),
                ("statement", st),
                ("over", over),
                ("where", wh),
                ("expect", ex),
                ("boundary", bd),
            ] {
                if let Some(v) = v {
                    lines.push(format!("{name}: {v}"));
                }
            }
            // Every claim names its source; without one it is only invalid.
            if !lines.is_empty() {
                lines.push("source: this_project".into());
            }
            if extra {
                lines.push("unknown: field".into());
            }
            let mut out = String::new();
            for (i, l) in lines.iter().enumerate() {
                out.push_str(if i == 0 { "  - " } else { "    " });
                out.push_str(l);
                out.push('\n');
            }
            if lines.is_empty() {
                out.push_str("  - {}\n");
            }
            out
        })
}

#[test]
fn claim_like_ledgers_give_diagnostics_not_a_panic() {
    let t = base_tree();
    let tpl = templates();
    let ledger = (
        proptest::collection::vec(claim(), 0..6),
        proptest::collection::vec(edit(vec!["claims".into()], vec!["[]".into()]), 0..2),
    )
        .prop_map(|(claims, edits)| apply(&format!("claims:\n{}", claims.concat()), &edits));
    run(FILE_CASES, ledger, |text| {
        property_on_file(&t, CLAIMS, text.as_bytes(), &tpl);
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// Export → import round trip
//
// What "valid" means for the CSV round trip (and so what is generated):
//
// - text fields are any Unicode text without control characters, with no
//   leading or trailing whitespace (import trims every cell) and not empty;
//   quotes, colons, '#', '&', '*', '!', '|', '>', leading dashes, commas,
//   semicolons and non-ASCII letters are all fair game; the title, the
//   one-liner and the notes may hold line breaks inside (CSV quotes them);
// - `notes` is absent or non-empty, `arxiv_id` absent or non-empty (an empty
//   cell reads back as absent);
// - URLs are http(s) URLs without whitespace and without ';' (a bare ';'
//   inside a URL round-trips too, pinned by its own test below);
// - waiver reasons are single-line (the cell holds one `rule: reason` line
//   per waiver) and waiver ids are rule ids of the taxonomy;
// - tags and sub-decisions are drawn from the taxonomy;
// - the year is any whole number.

fn text_char(newlines: bool) -> BoxedStrategy<char> {
    let special = proptest::sample::select(vec![
        '"', '\'', ':', '#', '-', '&', '*', '!', '|', '>', '%', '@', '`', '{', '}', '[', ']', ',',
        '?', '\\', ';', ' ', '~', '=',
    ]);
    // No control or bidirectional-override characters: `check` refuses them
    // (control-character), so they cannot be in an exportable corpus.
    let unicode = any::<char>().prop_filter("no hidden characters", |c| {
        !c.is_control() && !corpus_core::text::visible::is_hidden(*c)
    });
    if newlines {
        prop_oneof![
            6 => proptest::char::range(' ', '~'),
            3 => special,
            2 => unicode,
            1 => Just('\n'),
        ]
        .boxed()
    } else {
        prop_oneof![
            6 => proptest::char::range(' ', '~'),
            3 => special,
            2 => unicode,
        ]
        .boxed()
    }
}

/// Non-empty text without surrounding whitespace (see the rules above).
fn text(max: usize, newlines: bool) -> impl Strategy<Value = String> {
    let prefix = prop_oneof![
        4 => Just(""),
        1 => Just("- "),
        1 => Just("-"),
        1 => Just("# "),
        1 => Just("'"),
        1 => Just("\""),
        1 => Just("? "),
        1 => Just("@"),
        1 => Just("%"),
        1 => Just("yes"),
        1 => Just("NA"),
        1 => Just("2025"),
    ];
    (
        prefix,
        proptest::collection::vec(text_char(newlines), 1..max),
    )
        .prop_map(|(p, cs)| format!("{p}{}", cs.into_iter().collect::<String>()))
        .prop_map(|s| s.trim().to_string())
        .prop_filter("not empty once trimmed", |s| !s.is_empty())
}

fn url() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("https"), Just("http")],
        "[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?(\\.[a-z]{2,5}){1,2}",
        "(/[A-Za-z0-9._~%!$&'()*+,=:@-]{0,12}){0,3}",
        proptest::option::of("\\?[A-Za-z0-9=&_-]{1,10}"),
    )
        .prop_map(|(s, host, path, q)| format!("{s}://{host}{path}{}", q.unwrap_or_default()))
}

fn arxiv_id() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{4}\\.[0-9]{4,5}(v[1-9])?",
        "[a-z-]{2,8}/[0-9]{7}",
        text(12, false),
    ]
}

fn key() -> impl Strategy<Value = String> {
    "[a-z0-9]{1,8}(-[a-z0-9]{1,6}){0,2}"
}

/// Entries with tags from the taxonomy and arbitrary valid text.
fn entry(tax: &Taxonomy) -> impl Strategy<Value = Entry> {
    let pick = |field: &str| proptest::sample::select(tax.allowed(field).unwrap());
    let subs = tax.values("subdecisions").unwrap();
    let warnings: Vec<String> = tax
        .rules
        .iter()
        .filter(|r| r.severity == corpus_core::model::taxonomy::RuleSeverity::Warning)
        .map(|r| r.id.clone())
        .collect();
    let tags = (
        pick("category"),
        pick("is_rl"),
        pick("reward_type"),
        pick("credit_granularity"),
        pick("orchestration_form"),
        pick("scenario"),
        pick("is_core"),
        pick("verified"),
        proptest::option::of(proptest::sample::subsequence(subs.clone(), 0..=subs.len())),
        proptest::option::of(pick("strict_credit")),
        proptest::option::of("20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])"),
    );
    // The project's judged tags and their sources, drawn independently so
    // the round trip also meets a source without its tag.
    let sources = tax.values("subdecisions_source").unwrap();
    let units = tax.values("additional_credit_units").unwrap();
    let judged = (
        proptest::option::of(proptest::sample::subsequence(units.clone(), 0..=3)),
        proptest::sample::subsequence(sources.clone(), 0..=2),
        proptest::sample::subsequence(sources.clone(), 0..=2),
        proptest::option::of(proptest::sample::select(sources)),
        proptest::option::of(pick("added_in")),
    );
    // Citation fields: names as written in the data (no list separator),
    // keys and types BibTeX takes.
    let cited = (
        proptest::collection::vec(
            prop_oneof![
                4 => "[A-Z][a-z\u{e0}-\u{ff}'-]{0,10}( [A-Z][a-z]{1,8})?, [A-Z][a-z.]{0,8}",
                1 => "[A-Z][A-Za-z]{1,8}( [A-Z][a-z]{1,8})?",
                1 => Just("others".to_string()),
            ],
            0..4,
        ),
        proptest::option::of("[A-Za-z0-9_:.+/-]{1,16}"),
        proptest::option::of(1900i64..=2026),
        proptest::option::of(proptest::sample::select(
            corpus_core::model::fields::BIB_TYPES.to_vec(),
        )),
    );
    let texts = (
        key(),
        text(40, true),
        text(24, false),
        text(24, false),
        prop_oneof![1900i64..=2026, any::<i64>()],
        proptest::option::of(arxiv_id()),
        text(16, false),
        proptest::collection::vec(url(), 0..3),
        text(60, true),
        proptest::option::of(text(40, true)),
        proptest::collection::btree_map(proptest::sample::select(warnings), text(30, false), 0..3),
    );
    (texts, tags, judged, cited).prop_map(
        |(
            (
                key,
                title,
                first_author,
                affiliation,
                year,
                arxiv_id,
                venue,
                urls,
                one_liner,
                notes,
                waivers,
            ),
            (
                category,
                is_rl,
                reward_type,
                credit_granularity,
                orchestration_form,
                scenario,
                is_core,
                verified,
                subdecisions,
                strict_credit,
                arxiv_verified_on,
            ),
            (additional, additional_source, subdecisions_source, strict_source, added_in),
            (authors, cite_key, cite_year, bib_type),
        )| Entry {
            key,
            title,
            first_author,
            authors,
            cite_key,
            cite_year,
            bib_type: bib_type.map(str::to_string),
            affiliation,
            year,
            arxiv_id,
            venue,
            urls,
            category,
            is_rl,
            reward_type,
            credit_granularity,
            orchestration_form,
            scenario,
            is_core,
            verified,
            arxiv_verified_on,
            additional_credit_units: additional,
            additional_credit_units_source: additional_source,
            subdecisions,
            subdecisions_source,
            strict_credit,
            strict_credit_source: strict_source,
            // A link must name a trace the tree ships, which these trees do
            // not; tests/data/linked_traces.rs round-trips links.
            traces: Vec::new(),
            added_in,
            one_liner,
            notes,
            waivers,
        },
    )
}

/// Several entries with distinct keys (a repeated key is an import error).
fn entries(tax: &Taxonomy, max: usize) -> impl Strategy<Value = Vec<Entry>> {
    proptest::collection::vec(entry(tax), 1..max).prop_map(|mut v| {
        for (i, e) in v.iter_mut().enumerate() {
            e.key = format!("{}-{i}", e.key);
        }
        v
    })
}

#[test]
fn export_then_import_gives_back_the_same_entries_and_yaml() {
    let tax = taxonomy();
    run(256, entries(&tax, 6), |entries| {
        let refs: Vec<&Entry> = entries.iter().collect();
        let csv = corpus_core::exchange::export::papers_csv(&refs);
        let back = import::parse_papers("papers.csv", &csv)
            .map_err(|d| TestCaseError::fail(format!("import refused the export: {d:?}\n{csv}")))?;
        prop_assert_eq!(&back, &entries, "CSV:\n{}", csv);
        for (a, b) in entries.iter().zip(&back) {
            prop_assert_eq!(import::entry_yaml(a), import::entry_yaml(b));
        }
        Ok(())
    });
}

#[test]
fn entry_yaml_loads_back_to_the_same_entry() {
    let tax = taxonomy();
    let t = Tree::empty();
    t.write(
        Layout::TAXONOMY,
        std::fs::read(common::repo().join(Layout::TAXONOMY)).unwrap(),
    );
    run(256, entries(&tax, 4), |entries| {
        let dir = t.path(Layout::PAPERS_DIR);
        let _ = std::fs::remove_dir_all(&dir);
        for e in &entries {
            t.write(
                &format!("{}/{}.yaml", Layout::PAPERS_DIR, e.key),
                import::entry_yaml(e),
            );
        }
        let corpus = load::load(t.root(), LoadOptions::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(
            corpus.diagnostics.is_empty(),
            "loading reported {:?}",
            corpus.diagnostics
        );
        let mut want = entries.clone();
        want.sort_by(|a, b| a.key.cmp(&b.key));
        let got: Vec<Entry> = corpus.entry_list().into_iter().cloned().collect();
        prop_assert_eq!(got, want);
        Ok(())
    });
}

/// A URL holding ';' (legal in a URL path) comes back whole: the list
/// separator is " ; " with its spaces, which a URL cannot contain.
#[test]
fn url_with_a_semicolon_round_trips() {
    let e = Entry {
        key: "semi".into(),
        title: "T".into(),
        first_author: "A".into(),
        affiliation: "O".into(),
        year: 2025,
        venue: "V".into(),
        urls: vec!["https://example.com/a;b=c".into()],
        category: "survey".into(),
        is_rl: "no".into(),
        reward_type: "NA".into(),
        credit_granularity: "NA".into(),
        orchestration_form: "NA".into(),
        scenario: "general".into(),
        is_core: "supporting".into(),
        verified: "yes".into(),
        one_liner: "S".into(),
        ..Entry::default()
    };
    let csv = corpus_core::exchange::export::papers_csv(&[&e]);
    assert_eq!(import::parse_papers("p.csv", &csv).unwrap(), vec![e]);
}

// The same round trip end to end, through the binary, on entries that also
// pass `corpus check` (export refuses a corpus with errors): the imported
// files must be byte-identical to the ones exported.

/// Adjusts a generated entry so that it passes every error-level rule.
fn make_valid(mut e: Entry, i: usize) -> Entry {
    if e.category == "industry" {
        e.is_core = "case".into();
    } else if e.is_core == "case" {
        e.is_core = "core".into();
    }
    if e.orchestration_form == "NA" {
        if let Some(s) = e.subdecisions.as_mut() {
            s.clear();
        }
    }
    if e.credit_granularity == "NA" {
        e.strict_credit = e.strict_credit.map(|_| "no".to_string());
    }
    // A judged tag names its source, and a source names a judged tag.
    let judged = |j: bool, src: Vec<String>| if j { src } else { Vec::new() };
    if e.subdecisions.is_some() && e.subdecisions_source.is_empty() {
        e.subdecisions_source = vec!["project_reading".into()];
    }
    e.subdecisions_source = judged(e.subdecisions.is_some(), e.subdecisions_source);
    if let Some(units) = e.additional_credit_units.as_mut() {
        units.retain(|u| *u != e.credit_granularity);
        units.dedup();
        if e.additional_credit_units_source.is_empty() {
            e.additional_credit_units_source = vec!["contributor".into()];
        }
    }
    e.additional_credit_units_source = judged(
        e.additional_credit_units.is_some(),
        e.additional_credit_units_source,
    );
    e.strict_credit_source = match e.strict_credit {
        Some(_) => e.strict_credit_source.or(Some("spotcheck".into())),
        None => None,
    };
    e.year = e.year.rem_euclid(127) + 1900;
    // Unique titles, links and arXiv ids across entries (their normalised
    // forms must differ): the index makes them so.
    e.title = format!("{} {i}", e.title);
    // At least one link is required.
    e.urls = (0..e.urls.len().max(1))
        .map(|j| format!("https://example.org/{i}/{j}"))
        .collect();
    e.arxiv_id = e.arxiv_id.map(|_| format!("2501.{:05}", i));
    // The citation rules: the author list starts with the first author and
    // ends, if anywhere, in `others`; cite keys are distinct from every
    // entry key; a cite year comes after the year.
    e.authors.retain(|a| a != "others");
    if !e.authors.is_empty() {
        e.authors.insert(0, e.first_author.clone());
        e.authors.dedup();
    }
    e.cite_key = e.cite_key.map(|k| format!("cited:{i}:{k}"));
    e.cite_year = e.cite_year.map(|_| e.year + 1);
    e
}

#[test]
fn export_then_import_through_the_binary_gives_identical_files() {
    let tax = taxonomy();
    let valid = entries(&tax, 5).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, e)| make_valid(e, i))
            .collect::<Vec<_>>()
    });
    run(8, valid, |entries| {
        let src = Tree::empty();
        src.write(
            Layout::TAXONOMY,
            std::fs::read(common::repo().join(Layout::TAXONOMY)).unwrap(),
        );
        for e in &entries {
            src.write(
                &format!("{}/{}.yaml", Layout::PAPERS_DIR, e.key),
                import::entry_yaml(e),
            );
        }
        let out = Tree::empty();
        let csv = out.path("papers.csv");
        let csv_arg = csv.to_string_lossy().into_owned();
        let run = src.corpus(&["export", "--format", "csv", "--out", &csv_arg]);
        if run.code != Some(0) {
            let check = src.check(&[]);
            return Err(TestCaseError::fail(format!(
                "export failed: {}\ncheck says:\n{}",
                run.stderr, check.stdout
            )));
        }
        let dst = Tree::empty();
        dst.write(
            Layout::TAXONOMY,
            std::fs::read(common::repo().join(Layout::TAXONOMY)).unwrap(),
        );
        let run = dst.corpus(&["import", "--papers", &csv_arg]);
        prop_assert_eq!(
            run.code,
            Some(0),
            "import failed: {}\n{}",
            run.stderr,
            run.stdout
        );
        prop_assert_eq!(
            common::snapshot_tree(&src.path(Layout::PAPERS_DIR)),
            common::snapshot_tree(&dst.path(Layout::PAPERS_DIR))
        );
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// Statistics add up

/// A tag value: usually from the taxonomy, sometimes one it does not know
/// (the statistics count the data as it is, so unknown values get a row).
fn tag(tax: &Taxonomy, field: &str) -> BoxedStrategy<String> {
    let allowed = tax.allowed(field).unwrap();
    prop_oneof![
        9 => proptest::sample::select(allowed),
        1 => "[a-z]{1,6}",
    ]
    .boxed()
}

fn counted_entry(tax: &Taxonomy) -> impl Strategy<Value = Entry> {
    (
        (
            tag(tax, "category"),
            tag(tax, "is_rl"),
            tag(tax, "reward_type"),
            tag(tax, "credit_granularity"),
            tag(tax, "orchestration_form"),
        ),
        (
            tag(tax, "scenario"),
            tag(tax, "is_core"),
            tag(tax, "verified"),
            // Repeats allowed: a list item is counted each time it appears.
            proptest::option::of(proptest::collection::vec(tag(tax, "subdecisions"), 0..4)),
            proptest::option::of(tag(tax, "strict_credit")),
            proptest::option::of(proptest::collection::vec(
                tag(tax, "additional_credit_units"),
                0..3,
            )),
            proptest::option::of(tag(tax, "added_in")),
        ),
    )
        .prop_map(
            |(
                (category, is_rl, reward_type, credit, form),
                (scenario, core, verified, subs, strict, additional, added_in),
            )| {
                Entry {
                    category,
                    is_rl,
                    reward_type,
                    credit_granularity: credit,
                    orchestration_form: form,
                    scenario,
                    is_core: core,
                    verified,
                    subdecisions: subs,
                    strict_credit: strict,
                    additional_credit_units: additional,
                    added_in,
                    ..Entry::default()
                }
            },
        )
}

fn counted_exclusion(tax: &Taxonomy) -> impl Strategy<Value = corpus_core::model::Exclusion> {
    (
        tag(tax, "stage"),
        tag(tax, "source"),
        tag(tax, "query_family"),
    )
        .prop_map(
            |(stage, source, query_family)| corpus_core::model::Exclusion {
                stage,
                source,
                query_family,
                ..Default::default()
            },
        )
}

#[test]
fn every_count_and_crosstab_sums_to_the_number_of_entries() {
    let tax = taxonomy();
    let strategy = (
        proptest::collection::vec(counted_entry(&tax), 0..40),
        proptest::collection::vec(counted_exclusion(&tax), 0..20),
    );
    run(256, strategy, |(entries, records)| {
        let refs: Vec<&Entry> = entries.iter().collect();
        let xrefs: Vec<&corpus_core::model::Exclusion> = records.iter().collect();
        let st = stats::compute(&tax, &refs, &xrefs);
        let n = entries.len() as u64;
        prop_assert_eq!(st.retained, n);
        prop_assert_eq!(st.excluded, records.len() as u64);
        prop_assert_eq!(st.audited, n + records.len() as u64);
        for t in &st.counts {
            let want = match t.name.as_str() {
                // A list field: each entry counts once per item, so the
                // column sums to the number of items, not of entries.
                "subdecisions" => entries
                    .iter()
                    .map(|e| e.subdecision_list().len() as u64)
                    .sum(),
                "additional_credit_units" => entries
                    .iter()
                    .map(|e| e.additional_units().len() as u64)
                    .sum(),
                // Sources are not generated here: nothing to count.
                "subdecisions_source"
                | "additional_credit_units_source"
                | "strict_credit_source" => 0,
                // Every single-valued field (and the reward families, one per
                // entry, NA included; and `added_in`, every entry being of a
                // round, the first when it names none) sums to the number
                // of entries.
                _ => n,
            };
            prop_assert_eq!(t.total(), want, "count `{}`: {:?}", t.name, t.rows);
            // Every taxonomy value has a row, zeros included.
            let field = t.name.as_str();
            if let Some(allowed) = tax.allowed(field) {
                for v in allowed {
                    prop_assert!(
                        t.rows.iter().any(|(r, _)| *r == v),
                        "count `{}` lacks the row `{}`",
                        t.name,
                        v
                    );
                }
            }
        }
        for field in corpus_core::model::fields::entry_tags() {
            prop_assert!(st.count(field).is_some(), "no count for `{}`", field);
        }
        prop_assert!(st.count("reward_family").is_some());
        for x in &st.crosstabs {
            let sum: u64 = x.cells.iter().flatten().sum();
            prop_assert_eq!(sum, n, "cross-tab `{}`", x.name);
            prop_assert_eq!(x.cells.len(), x.rows.len());
            for row in &x.cells {
                prop_assert_eq!(row.len(), x.cols.len());
            }
        }
        for t in &st.exclusions {
            prop_assert_eq!(
                t.total(),
                records.len() as u64,
                "exclusion count `{}`",
                t.name
            );
        }
        // The JSON form says the same.
        let json = corpus_core::stats::render::json(&st);
        for t in &st.counts {
            let sum: u64 = json["counts"][&t.name]
                .as_object()
                .map(|m| m.values().filter_map(|v| v.as_u64()).sum())
                .unwrap_or(u64::MAX);
            prop_assert_eq!(sum, t.total(), "JSON count `{}`", t.name);
        }
        Ok(())
    });
}

/// The maps below are compared as maps so that row order does not matter.
#[test]
fn counts_agree_with_a_direct_count() {
    let tax = taxonomy();
    run(
        256,
        proptest::collection::vec(counted_entry(&tax), 0..30),
        |entries| {
            let refs: Vec<&Entry> = entries.iter().collect();
            let st = stats::compute(&tax, &refs, &[]);
            for field in ["category", "reward_type", "credit_granularity", "verified"] {
                let mut direct: BTreeMap<String, u64> = BTreeMap::new();
                for e in &entries {
                    if let Some(corpus_core::model::filter::FieldValue::One(v)) =
                        corpus_core::model::filter::Fields::field(e, field)
                    {
                        *direct.entry(v.into_owned()).or_default() += 1;
                    }
                }
                let counted: BTreeMap<String, u64> = st
                    .count(field)
                    .unwrap()
                    .rows
                    .iter()
                    .filter(|(_, n)| *n > 0)
                    .cloned()
                    .collect();
                prop_assert_eq!(counted, direct, "field `{}`", field);
            }
            Ok(())
        },
    );
}
