//! No silent failure: every kind of quiet failure seen on the tool, pinned
//! end to end so that none comes back unnoticed. The sections group them:
//! output lost while the exit code says success, checks that pass when they
//! should not, messages that mislead, exit codes and round trips. Each test
//! is named for the behaviour it pins.

use crate::common::{self, fixture_dir, mkfifo, raw_command, run_in, valid, Tree};
use std::process::Stdio;

/// Runs `corpus --root <root> <args>` with standard output on /dev/full (a full disk).
fn to_full_disk(t: &Tree, args: &[&str]) -> (Option<i32>, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full");
    let out = raw_command(t.root(), args)
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .expect("run corpus");
    (
        out.status.code(),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

// ---------------------------------------------------------------------------
// Output that is lost while the exit code says success
// ---------------------------------------------------------------------------

/// A failed write to standard output is an error, for every command that prints.
#[test]
fn every_printing_command_fails_loudly_on_a_full_disk() {
    let t = Tree::repo_copy();
    let old = Tree::repo_copy();
    let old_root = old.root().display().to_string();
    let trace = t
        .path("traces/examples/centralized.json")
        .display()
        .to_string();
    let commands: Vec<Vec<&str>> = vec![
        vec!["export", "--format", "json"],
        vec!["export", "--format", "csv"],
        vec!["export", "--format", "bibtex"],
        vec!["stats"],
        vec!["stats", "--format", "json"],
        vec!["check"],
        vec!["list"],
        vec!["list", "--format", "keys"],
        vec!["schema"],
        vec!["claims"],
        vec!["diff", &old_root],
        vec!["trace", "metrics", &trace],
        vec!["trace", "validate", &trace],
        vec!["--help"],
        vec!["list", "--help"],
        vec!["--version"],
    ];
    for args in commands {
        let (code, stderr) = to_full_disk(&t, &args);
        assert_eq!(code, Some(2), "`corpus {}` to a full disk", args.join(" "));
        assert!(
            stderr.contains("cannot write standard output"),
            "`corpus {}` says why it failed: {stderr}",
            args.join(" ")
        );
    }
}

/// A closed pipe (`corpus list | head -1`) stops quietly with the command's own status.
#[test]
fn a_closed_pipe_stops_quietly_with_the_commands_own_status() {
    let t = Tree::repo_copy();
    let mut child = raw_command(t.root(), &["list", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run corpus");
    // Close the reading end before the tool has loaded the corpus and written.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for corpus");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "no error text");
}

/// `--out --force` writes only to a regular file; a symlink is refused, not replaced.
#[test]
fn out_force_refuses_a_symlink() {
    let t = Tree::valid();
    t.write("mine.txt", "keep me\n");
    std::os::unix::fs::symlink(t.path("mine.txt"), t.path("link.json")).expect("symlink");
    let run = t.corpus(&[
        "export",
        "--format",
        "json",
        "--out",
        "link.json",
        "--force",
    ]);
    run.assert_code(2);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    let meta = std::fs::symlink_metadata(t.path("link.json")).expect("still there");
    assert!(
        meta.file_type().is_symlink(),
        "the symlink is left as it was"
    );
    assert_eq!(t.read("mine.txt"), "keep me\n");
}

/// A FIFO at `--out` is refused (a reader on it would get nothing while the tool said "wrote").
#[test]
fn out_force_refuses_a_fifo() {
    let t = Tree::valid();
    mkfifo(&t.path("pipe.json"));
    let run = t.corpus(&[
        "export",
        "--format",
        "json",
        "--out",
        "pipe.json",
        "--force",
    ]);
    run.assert_code(2);
    assert!(run.stderr.contains("named pipe"), "{}", run.stderr);
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::symlink_metadata(t.path("pipe.json")).expect("still there");
    assert!(meta.file_type().is_fifo(), "the FIFO is left as it was");
}

/// A device node at `--out` (here /dev/null itself) is refused, never swallowed or replaced.
#[test]
fn out_force_refuses_a_device() {
    use std::os::unix::fs::FileTypeExt;
    let t = Tree::valid();
    let run = t.corpus(&[
        "export",
        "--format",
        "json",
        "--out",
        "/dev/null",
        "--force",
    ]);
    run.assert_code(2);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(!run.stderr.is_empty(), "the refusal is said");
    let meta = std::fs::symlink_metadata("/dev/null").expect("still there");
    assert!(
        meta.file_type().is_char_device(),
        "/dev/null is left a device"
    );
}

/// The same rule holds for every command that writes user files (`new --force`).
#[test]
fn new_force_refuses_a_symlink_in_place_of_the_entry() {
    let t = Tree::valid();
    t.write("elsewhere.yaml", "mine\n");
    std::os::unix::fs::symlink(t.path("elsewhere.yaml"), t.path("corpus/papers/fresh.yaml"))
        .expect("symlink");
    let run = t.corpus(&["new", "fresh", "--force"]);
    run.assert_code(2);
    assert_eq!(t.read("elsewhere.yaml"), "mine\n");
    let meta = std::fs::symlink_metadata(t.path("corpus/papers/fresh.yaml")).expect("there");
    assert!(meta.file_type().is_symlink());
}

/// `fmt` rewrites regular files only; an entry that is a symlink is
/// refused, not replaced by a copy (the user's link and its target stay).
#[test]
fn fmt_refuses_a_symlinked_entry() {
    let t = Tree::valid();
    let target = t.path("elsewhere.yaml");
    let text = t.read(valid::INDUSTRY).replace("venue: ", "venue:    ");
    t.write("elsewhere.yaml", &text);
    t.remove(valid::INDUSTRY);
    std::os::unix::fs::symlink(&target, t.path(valid::INDUSTRY)).expect("symlink");
    let run = t.corpus(&["fmt"]);
    assert_ne!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    let meta = std::fs::symlink_metadata(t.path(valid::INDUSTRY)).expect("there");
    assert!(meta.file_type().is_symlink(), "the link is left as it was");
    assert_eq!(t.read("elsewhere.yaml"), text);
}

/// `build` does not replace a generated file's place when a symlink sits there.
#[test]
fn build_refuses_a_symlinked_generated_file() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t.write("mine.md", "my own notes\n");
    t.remove("README.md");
    std::os::unix::fs::symlink(t.path("mine.md"), t.path("README.md")).expect("symlink");
    let run = t.corpus(&["build"]);
    run.assert_code(2);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    assert_eq!(t.read("mine.md"), "my own notes\n");
    let meta = std::fs::symlink_metadata(t.path("README.md")).expect("there");
    assert!(meta.file_type().is_symlink());
}

/// A regular file at `--out` is still replaced with `--force`, atomically.
#[test]
fn out_force_still_replaces_a_regular_file() {
    let t = Tree::valid();
    t.write("out.json", "old\n");
    let run = t.corpus(&["export", "--format", "json", "--out", "out.json", "--force"]);
    run.assert_code(0);
    let v: serde_json::Value = serde_json::from_str(&t.read("out.json")).expect("JSON");
    assert!(v["entries"].is_array());
}

/// Braces in any title, author or venue export to BibTeX that parsers accept.
#[test]
fn unbalanced_braces_export_to_valid_bibtex() {
    let t = Tree::valid();
    t.set(valid::METHOD, "title", "'Set {A} size { test'");
    t.set(valid::INDUSTRY, "first_author", "'Harbor } Labs'");
    t.set(valid::INDUSTRY, "authors", "\n  - 'Harbor } Labs'");
    t.set(valid::CLASSICAL, "venue", "'Journal of {{Agents'");
    // Braces and backslashes are no URL characters (RFC 3986): `check`
    // refuses them raw, and the percent-encoded link exports as written.
    t.replace(
        valid::CLASSICAL,
        "  - https://example.org/papers/grid-foraging.pdf",
        "  - 'https://example.org/a}b{c\\d'",
    );
    assert_eq!(t.check(&[]).of("url-scheme").len(), 1);
    t.replace(
        valid::CLASSICAL,
        "  - 'https://example.org/a}b{c\\d'",
        "  - 'https://example.org/a%7Db%7Bc%5Cd'",
    );
    t.check(&[]).assert_code(0);
    let run = t.corpus(&["export", "--format", "bibtex"]);
    run.assert_code(0);
    let bib = biblatex::Bibliography::parse(&run.stdout)
        .unwrap_or_else(|e| panic!("the export parses as BibTeX ({e:?}):\n{}", run.stdout));
    assert_eq!(bib.len(), 3, "{}", run.stdout);
    // A link with braces keeps naming the same address (percent-encoded), not another.
    assert!(
        run.stdout
            .contains("url           = {https://example.org/a%7Db%7Bc%5Cd}"),
        "{}",
        run.stdout
    );
    for line in run.stdout.lines().filter(|l| l.contains(" = ")) {
        let opens = line.matches('{').count();
        let closes = line.matches('}').count();
        assert_eq!(opens, closes, "braces balance in `{line}`");
    }
}

// ---------------------------------------------------------------------------
// Checks that pass when they should not
// ---------------------------------------------------------------------------

const LEDGER: &str = "claims:
  - id: stop-decisions
    source: this_project
    locator: the fixture's own data
    statement: Some entries learn when to stop.
    where: {subdecisions: o5_stp}
    expect: {count: \"== 0\"}
    boundary: Counts tagged entries only.
";

/// A claim filtering on a value outside the vocabulary is invalid, not vacuously true.
#[test]
fn claim_filter_values_outside_the_vocabulary_are_invalid() {
    let t = Tree::valid();
    t.write("corpus/claims.yaml", LEDGER);
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.of("claim-invalid");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    assert!(d[0].message.contains("o5_stp"), "{}", d[0].message);
    assert!(
        d[0].message.contains("did you mean `o5_stop`"),
        "{}",
        d[0].message
    );
    // The near miss: the real value is accepted.
    t.write("corpus/claims.yaml", LEDGER.replace("o5_stp", "o5_stop"));
    let run = t.check(&[]);
    assert!(run.of("claim-invalid").is_empty(), "{}", run.stdout);
}

/// A claim filtering on a field its items do not have says so in plain words, with a suggestion.
#[test]
fn claim_filter_fields_are_checked_with_a_suggestion() {
    let t = Tree::valid();
    t.write(
        "corpus/claims.yaml",
        LEDGER.replace("subdecisions: o5_stp", "catgory: rl_method"),
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert!(
        d.message
            .contains("which entries do not have; did you mean `category`?"),
        "{}",
        d.message
    );
}

/// A taxonomy rule whose `when` names no real value is an error, not a rule that never fires.
#[test]
fn rule_filter_values_outside_the_vocabulary_are_errors() {
    let t = Tree::valid();
    t.replace(
        "corpus/taxonomy.yaml",
        "when: {category: industry}",
        "when: {category: industri}",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d: Vec<_> = run
        .of("unknown-value")
        .into_iter()
        .filter(|d| d.file == "corpus/taxonomy.yaml")
        .collect();
    assert_eq!(d.len(), 1, "{}", run.stdout);
    assert!(
        d[0].message.contains("did you mean `industry`"),
        "{}",
        d[0].message
    );
    assert!(d[0].line.is_some());
}

/// A rule whose `require` names no real value is reported once, in
/// the taxonomy, and does not blame the entries it would wrongly fail.
#[test]
fn a_broken_rule_blames_no_entry() {
    let t = Tree::valid();
    t.replace(
        "corpus/taxonomy.yaml",
        "require: {is_core: case}",
        "require: {is_core: cas}",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "unknown-value", "{}", run.stdout);
    assert_eq!(d.file, "corpus/taxonomy.yaml");
    assert!(d.message.contains("did you mean `case`"), "{}", d.message);
}

/// `list --where` with a value outside the vocabulary is a usage error with a suggestion.
#[test]
fn list_where_values_outside_the_vocabulary_are_usage_errors() {
    let t = Tree::valid();
    let run = t.corpus(&["list", "--where", "reward_type=shard"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("did you mean `shared`"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    let run = t.corpus(&["list", "--where", "strict_credit=yes"]);
    run.assert_code(2);
    // Real values, NA and the empty list still work.
    for ok in [
        "reward_type=shared",
        "reward_type=NA",
        "subdecisions=[]",
        "year=2025",
    ] {
        t.corpus(&["list", "--where", ok]).assert_code(0);
    }
}

/// A year no entry can have (before the earliest accepted, after the cutoff) is refused too.
#[test]
fn years_outside_the_accepted_range_are_refused() {
    let t = Tree::valid();
    for bad in ["year=20255", "year=1850"] {
        let run = t.corpus(&["list", "--where", bad]);
        run.assert_code(2);
        assert!(run.stderr.contains("matches nothing"), "{}", run.stderr);
    }
    t.corpus(&["list", "--where", "year=2025"]).assert_code(0);
    // The same in a claim's filter.
    t.write(
        "corpus/claims.yaml",
        LEDGER.replace("subdecisions: o5_stp", "year: 20255"),
    );
    let run = t.check(&[]);
    run.assert_code(1);
    assert_eq!(run.of("claim-invalid").len(), 1, "{}", run.stdout);
}

/// An arxiv.org link that names another paper than `arxiv_id` is an error.
#[test]
fn arxiv_links_must_name_the_entry_id() {
    let t = Tree::valid();
    t.replace(
        valid::METHOD,
        "  - https://arxiv.org/abs/2503.01230",
        "  - https://arxiv.org/abs/2503.01230\n  - https://arxiv.org/abs/2503.99999",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "arxiv-link-id");
    assert!(d.message.contains("2503.99999"), "{}", d.message);
    // pdf, html and versioned links of the same paper are fine.
    let t = Tree::valid();
    t.replace(
        valid::METHOD,
        "  - https://arxiv.org/abs/2503.01230",
        "  - https://arxiv.org/abs/2503.01230\n  - https://arxiv.org/pdf/2503.01230v2.pdf",
    );
    // ... but they are one link for duplicate detection.
    let run = t.check(&[]);
    assert_eq!(run.rules(), ["duplicate-url"], "{}", run.stdout);
}

/// `/pdf/X` in one entry and `/abs/X` in another are the same link.
#[test]
fn pdf_and_abs_links_are_one_link_across_entries() {
    let t = Tree::valid();
    t.replace(
        valid::INDUSTRY,
        "  - https://harbor.example.com/blog/agent-platform",
        "  - https://harbor.example.com/blog/agent-platform\n  - https://arxiv.org/pdf/2503.01230",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    assert!(
        run.rules().contains(&"duplicate-url".to_string()),
        "{}",
        run.stdout
    );
}

/// An exclusion record's arxiv.org link must name the paper of its `arXiv:` identifier.
#[test]
fn a_record_link_must_name_its_identifier() {
    let t = Tree::valid();
    t.set(
        valid::ARXIV_RECORD,
        "url",
        "https://arxiv.org/pdf/2404.99999v2",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "arxiv-link-id");
    assert_eq!(d.field.as_deref(), Some("url"));
    assert!(d.message.contains("2404.99999"), "{}", d.message);
    // Another version of the same paper is the same paper.
    t.set(
        valid::ARXIV_RECORD,
        "url",
        "https://arxiv.org/abs/2404.05550v3",
    );
    t.check(&[]).assert_code(0);
}

/// A third exclusion record, distinct from both fixture records.
fn third_record(t: &Tree) {
    let rel = "exclusions/E003.yaml";
    t.write(rel, t.read(valid::DOCS_RECORD).replace("E002", "E003"));
    t.set(rel, "identifier", "OTHER-DOCS");
    t.set(rel, "url", "https://docs.example.com/other");
    t.set(rel, "title", "Another Handbook");
}

/// Two exclusion records of the same item are duplicates, by identifier, link or title.
#[test]
fn duplicate_exclusion_records_are_reported() {
    // Each repeats one thing of E001 (an arXiv record), written differently.
    for (field, value) in [
        ("identifier", "arXiv:2404.05550v2"),
        ("url", "https://arxiv.org/pdf/2404.05550"),
        ("title", "prompted committees, without training"),
    ] {
        let t = Tree::valid();
        third_record(&t);
        t.set("exclusions/E003.yaml", field, &format!("'{value}'"));
        let run = t.check(&[]);
        run.assert_code(1);
        let d = run.single();
        assert_eq!(d.file, "exclusions/E003.yaml", "{field}");
        assert_eq!(d.field.as_deref(), Some(field), "{}", run.stdout);
        assert!(d.rule.starts_with("duplicate-"), "{}", run.stdout);
    }
    // A distinct record is fine.
    let t = Tree::valid();
    third_record(&t);
    t.check(&[]).assert_code(0);
}

/// Metrics of a trace that `trace validate` rejects are refused with its diagnostics.
#[test]
fn metrics_refuse_an_invalid_trace() {
    let dir = fixture_dir("traces");
    for (file, rule) in [
        ("trace-cycle.json", "trace-cycle"),
        ("trace-duplicate-id.json", "trace-duplicate-id"),
        ("trace-time-order.json", "trace-time-order"),
        ("trace-dangling-edge.json", "trace-dangling"),
    ] {
        let path = dir.join(file).display().to_string();
        let validate = run_in(&dir, None, &["trace", "validate", &path]);
        validate.assert_code(1);
        let metrics = run_in(&dir, None, &["trace", "metrics", &path, "--format", "json"]);
        metrics.assert_code(1);
        assert_eq!(metrics.stdout, "", "no figures for {file}");
        assert!(metrics.stderr.contains(rule), "{file}: {}", metrics.stderr);
    }
    let good = fixture_dir("traces").join("reference_equivalent.json");
    run_in(
        &dir,
        None,
        &["trace", "metrics", &good.display().to_string()],
    )
    .assert_code(0);
}

/// Traces have their own size limit, and it is honoured.
#[test]
fn the_trace_size_limit_is_honoured() {
    let dir = fixture_dir("traces");
    let path = dir.join("reference_equivalent.json");
    let size = std::fs::metadata(&path).expect("fixture").len();
    let p = path.display().to_string();
    let limit = (size - 1).to_string();
    let v = run_in(
        &dir,
        None,
        &["trace", "validate", "--max-trace-size", &limit, &p],
    );
    v.assert_code(1);
    assert!(v.stdout.contains("limit"), "{}", v.stdout);
    let m = run_in(
        &dir,
        None,
        &["trace", "metrics", "--max-trace-size", &limit, &p],
    );
    assert_ne!(m.code, Some(0), "{}", m.stdout);
    // Standard input has the same limit, and its help names the trace flag.
    let stdin = common::raw_command(&dir, &["trace", "metrics", "--max-trace-size", &limit, "-"])
        .stdin(std::fs::File::open(&path).expect("fixture"))
        .output()
        .expect("run corpus");
    assert_eq!(stdin.status.code(), Some(1));
    let err = String::from_utf8_lossy(&stdin.stderr);
    assert!(
        err.contains("--max-trace-size") && !err.contains("--max-file-size"),
        "{err}"
    );
    let enough = size.to_string();
    run_in(
        &dir,
        None,
        &["trace", "validate", "--max-trace-size", &enough, &p],
    )
    .assert_code(0);
}

// ---------------------------------------------------------------------------
// Messages that mislead
// ---------------------------------------------------------------------------

/// One broken file yields one diagnostic, not a pile of derived ones.
#[test]
fn one_broken_file_is_one_diagnostic() {
    let t = Tree::repo_copy();
    t.append("corpus/papers/magrpo.yaml", "extra: [unclosed\n");
    let run = t.check(&[]);
    run.assert_code(1);
    assert_eq!(run.rules(), ["yaml-syntax"], "{}", run.stdout);
    let human = t.corpus(&["check"]);
    assert!(
        human.stdout.contains("once these errors are fixed"),
        "{}",
        human.stdout
    );
}

/// Stale generated files are one diagnostic that names the command
/// regenerating them; `build --check` lists every file.
#[test]
fn staleness_is_one_diagnostic_naming_the_command() {
    let t = Tree::repo_copy();
    // The scenario is counted in stats/; the one-liner is on the README's entry line.
    t.set("corpus/papers/magrpo.yaml", "scenario", "coding");
    t.set(
        "corpus/papers/magrpo.yaml",
        "one_liner",
        "Trains several LLM agents together with a group-relative policy method.",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "stale-generated");
    assert!(d.message.contains("README.md"), "{}", d.message);
    assert!(
        d.message.contains("`corpus build` regenerates them"),
        "{}",
        d.message
    );
    let listed = t.corpus(&["build", "--check"]);
    for f in ["README.md", "stats/stats.json", "stats/count_scenario.csv"] {
        assert!(listed.stdout.contains(f), "{f} listed: {}", listed.stdout);
    }
}

/// A second YAML document is explained in the tool's words; a lone final `---` is fine.
#[test]
fn a_second_document_is_explained_and_a_final_marker_accepted() {
    let t = Tree::valid();
    t.append(valid::METHOD, "---\n");
    t.check(&[]).assert_code(0);
    t.append(valid::METHOD, "key: other\n");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert!(!d.message.contains("deserializ"), "{}", d.message);
    assert!(
        d.message.contains("more than one YAML document"),
        "{}",
        d.message
    );
    assert!(d.line.is_some() && d.help.is_some());
}

/// Numbers the parser cannot hold, and fractional years, are named plainly.
#[test]
fn number_messages_name_the_value_not_the_parser_type() {
    let t = Tree::valid();
    t.set(valid::METHOD, "year", "99999999999999999999999999");
    let d = t.check(&[]).single();
    assert!(
        !d.message.contains("u128") && !d.message.contains("invalid type"),
        "{}",
        d.message
    );
    assert!(d.message.contains("too large"), "{}", d.message);
    assert_eq!(d.field.as_deref(), Some("year"));
    assert!(d.line.is_some() && d.help.is_some());
    t.set(valid::METHOD, "year", "2026.5");
    let d = t.check(&[]).single();
    assert!(d.message.contains("2026.5"), "{}", d.message);
    assert!(
        !d.help.clone().unwrap_or_default().contains("unquoted"),
        "{:?}",
        d.help
    );
}

/// Words of the parser that must never lead a diagnostic.
const PARSER_INTERNALS: [&str; 9] = [
    "invalid type:",
    "invalid value:",
    "deserializ",
    "did not find expected",
    "while scanning",
    "while parsing",
    "u128",
    "found character that cannot start any token",
    "mapping values are not allowed",
];

/// Every parser error a contributor can make in an entry is said in
/// the tool's words, at the right line, with a help line.
#[test]
fn parser_errors_are_explained_in_own_words() {
    let file = valid::METHOD;
    let fixture = Tree::valid();
    let original = fixture.read(file);
    let line = |prefix: &str| fixture.line_of(file, prefix);
    let venue = line("venue:");
    let closing_quote = ["Language Agents'", "Language Agents\""]
        .into_iter()
        .find(|q| original.contains(q))
        .expect("a quoted title in the fixture");
    // (kind, the file's new content, the rule, the line the diagnostic names)
    let swap = |old: &str, new: &str| {
        assert_eq!(original.matches(old).count(), 1, "`{old}` in the fixture");
        original.replacen(old, new, 1).into_bytes()
    };
    let cases: Vec<(&str, Vec<u8>, &str, usize)> = vec![
        (
            "bad indentation",
            swap("\nyear:", "\n year:"),
            "yaml-syntax",
            line("year:"),
        ),
        (
            "list item out of line",
            swap(
                "  - https://arxiv.org/abs/2503.01230\n",
                "  - https://arxiv.org/abs/2503.01230\n - https://b.example.org\n",
            ),
            "yaml-syntax",
            line("urls:") + 2,
        ),
        (
            "tab for indentation",
            swap("  - https://arxiv.org", "\t- https://arxiv.org"),
            "yaml-syntax",
            line("urls:") + 1,
        ),
        (
            "unclosed quote",
            swap(closing_quote, "Language Agents"),
            "yaml-syntax",
            line("title:"),
        ),
        (
            "unclosed double quote",
            swap("venue: arXiv", "venue: \"arXiv"),
            "yaml-syntax",
            venue,
        ),
        (
            "unclosed flow list",
            swap("venue: arXiv", "venue: [arXiv, NeurIPS"),
            "yaml-syntax",
            venue,
        ),
        (
            "mapping value in a value",
            swap("venue: arXiv", "venue: arXiv: 2025"),
            "yaml-syntax",
            venue,
        ),
        (
            "duplicate key",
            swap("venue: arXiv", "venue: arXiv\nvenue: ICML"),
            "duplicate-field",
            venue + 1,
        ),
        (
            "unknown alias",
            swap("venue: arXiv", "venue: *nothing"),
            "yaml-syntax",
            venue,
        ),
        (
            "anchor without a name",
            swap("venue: arXiv", "venue: & co"),
            "yaml-syntax",
            venue,
        ),
        (
            "stray list item",
            swap("venue: arXiv", "venue: arXiv\n- stray"),
            "yaml-syntax",
            venue + 1,
        ),
        (
            "invalid escape",
            swap("venue: arXiv", "venue: \"ar\\qXiv\""),
            "yaml-syntax",
            venue,
        ),
        (
            "missing colon",
            swap("venue: arXiv", "venue arXiv"),
            "yaml-syntax",
            venue,
        ),
        (
            "reserved first character",
            swap("venue: arXiv", "venue: @arXiv"),
            "yaml-syntax",
            venue,
        ),
        (
            "byte-order mark inside",
            swap("venue: arXiv", "\u{feff}venue: arXiv"),
            "yaml-syntax",
            venue,
        ),
        (
            "control character",
            swap("venue: arXiv", "venue: ar\u{1}Xiv"),
            "yaml-syntax",
            venue,
        ),
        (
            "not UTF-8",
            [original.as_bytes(), b"notes: caf\xe9\n"].concat(),
            "file-unreadable",
            original.lines().count() + 1,
        ),
        ("empty file", Vec::new(), "file-unreadable", 1),
        (
            "a list, not a mapping",
            b"- key: relay-credit2025\n- title: x\n".to_vec(),
            "yaml-syntax",
            1,
        ),
        (
            "wrong type: a list for one value",
            swap("venue: arXiv", "venue: [arXiv, NeurIPS]"),
            "field-type",
            venue,
        ),
        (
            "wrong type: text for a number",
            swap("year: 2025", "year: twenty"),
            "field-type",
            line("year:"),
        ),
        (
            "number too large",
            swap("year: 2025", "year: 99999999999999999999999"),
            "field-type",
            line("year:"),
        ),
        (
            "unknown field",
            swap("venue: arXiv", "venue: arXiv\nvenu: arXiv"),
            "unknown-field",
            venue + 1,
        ),
    ];
    for (kind, content, rule, want_line) in cases {
        let t = Tree::valid();
        t.write(file, &content);
        let run = t.check(&[]);
        run.assert_code(1);
        let found = run.of(rule);
        assert_eq!(found.len(), 1, "{kind}: one `{rule}`:\n{}", run.stdout);
        let d = &found[0];
        let lead = d.message.split(" (the parser reports").next().unwrap_or("");
        for word in PARSER_INTERNALS {
            assert!(!lead.contains(word), "{kind}: `{word}` in {:?}", d.message);
        }
        let help = d.help.clone().unwrap_or_default();
        assert!(!help.trim().is_empty(), "{kind}: a help line: {d:?}");
        assert_eq!(d.line, Some(want_line), "{kind}: {d:?}");
        assert_eq!(d.file, file, "{kind}");
    }
    // A byte-order mark at the very start is allowed by YAML, and accepted.
    let t = Tree::valid();
    t.write(file, format!("\u{feff}{original}"));
    t.check(&[]).assert_code(0);
}

/// `corpus fmt` explains a file it cannot parse in the same words as `check`.
#[test]
fn fmt_explains_parse_errors_in_own_words() {
    let t = Tree::valid();
    t.set(valid::METHOD, "venue", "arXiv: 2025");
    let run = t.corpus(&["fmt"]);
    run.assert_code(1);
    for word in PARSER_INTERNALS {
        assert!(!run.stderr.contains(word), "`{word}` in {}", run.stderr);
    }
    let line = t.line_of(valid::METHOD, "venue:");
    assert!(
        run.stderr.contains(&format!(
            "{}:{line}: not valid YAML: the value of `venue`",
            valid::METHOD
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("help: quote the value"),
        "{}",
        run.stderr
    );
}

/// The other YAML files (taxonomy, claims ledger) say their parser errors in the same words.
#[test]
fn taxonomy_and_ledger_parse_errors_are_explained_too() {
    let t = Tree::valid();
    t.write(
        "corpus/claims.yaml",
        "claims:\n  - id: x\n    sourc: this_project\n",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.line, Some(3), "{d:?}");
    assert!(d.message.contains("`sourc`"), "{d:?}");
    let t = Tree::valid();
    t.write("corpus/taxonomy.yaml", "na: NA\ncategory: [\n");
    let run = t.check(&[]);
    run.assert_code(2);
    let t = Tree::valid();
    t.write("corpus/taxonomy.yaml", "na: NA\ncategory: 'open\n");
    let run = t.check(&[]);
    run.assert_code(2);
    for d in run.diags() {
        for word in PARSER_INTERNALS {
            assert!(!d.message.contains(word), "`{word}` in {:?}", d.message);
        }
        assert_eq!(d.line, Some(2), "{d:?}");
        assert!(d.help.is_some(), "{d:?}");
    }
    // serde's names of Rust types never reach the reader.
    let t = Tree::valid();
    t.write("corpus/taxonomy.yaml", "[]\n");
    let d = t.check(&[]).single();
    assert!(
        !d.message.contains("struct") && !d.message.contains("sequence"),
        "{d:?}"
    );
    assert!(d.message.contains("a list"), "{d:?}");
}

// ---------------------------------------------------------------------------
// Exit codes and round trips
// ---------------------------------------------------------------------------

/// Failures to run exit 2, not 1.
#[test]
fn failures_to_run_exit_2() {
    // stats/ cannot be written: a file is where the folder should be.
    let t = Tree::valid_with_templates();
    t.write("stats", "not a folder\n");
    let run = t.corpus(&["build"]);
    run.assert_code(2);
    assert!(!run.stderr.is_empty());

    // --out cannot be written.
    let t = Tree::valid();
    t.write("blocker", "a file, not a folder\n");
    t.corpus(&["export", "--format", "json", "--out", "blocker/out.json"])
        .assert_code(2);

    // `new` on an existing key.
    let run = t.corpus(&["new", "relay-credit2025"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--force"), "{}", run.stderr);

    // An empty taxonomy.
    let e = Tree::valid();
    e.write("corpus/taxonomy.yaml", "");
    e.corpus(&["check"]).assert_code(2);

    // A template that fails to render.
    let t = Tree::valid_with_templates();
    t.write(
        "templates/README.md.tera",
        "{{ no_such_variable.at_all }}\n",
    );
    let run = t.corpus(&["build"]);
    run.assert_code(2);
    assert!(run.stderr.contains("README.md.tera"), "{}", run.stderr);
}

/// A `--root` that is a file, or a template that does not parse, is a failure to run that names its cause.
#[test]
fn an_unusable_root_or_template_is_named() {
    let t = Tree::valid_with_templates();
    t.write("a-file", "x\n");
    let run = run_in(t.root(), None, &["--root", "a-file", "check"]);
    run.assert_code(2);
    assert!(run.stderr.contains("not a directory"), "{}", run.stderr);
    t.write("templates/README.md.tera", "{% for x in %}\n");
    let run = t.corpus(&["build"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("templates/README.md.tera"),
        "{}",
        run.stderr
    );
    let d = t.check(&[]).single();
    assert_eq!(d.file, "templates/README.md.tera");
    // The place of the error in the template: after `in`, on line 2.
    t.write("templates/README.md.tera", "# List\n{% for x in %}\n");
    let d = t.check(&[]).single();
    assert_eq!((d.line, d.column), (Some(2), Some(13)), "{}", d.message);
    assert!(d.help.is_some_and(|h| h.contains("Tera 2")));
}

/// `--help` states the exit-code contract, and the README repeats it.
#[test]
fn the_exit_code_contract_is_documented() {
    let t = Tree::valid();
    let help = t.corpus(&["--help"]);
    help.assert_code(0);
    for part in ["0 clean", "1 problems in the data", "2 could not run"] {
        assert!(
            help.stdout.contains(part),
            "--help says `{part}`:\n{}",
            help.stdout
        );
    }
    // The tool's documentation, one link from the README, states them too.
    let doc = std::fs::read_to_string(common::repo().join("docs/tooling.md")).expect("docs");
    assert!(
        doc.contains("could not run"),
        "docs/tooling.md states the exit codes"
    );
}

/// An entry whose file no longer parses is reported broken, not removed, and the diff fails.
#[test]
fn diff_reports_a_broken_entry_as_broken() {
    let old = Tree::valid();
    let new = Tree::valid();
    new.append(valid::METHOD, "extra: [unclosed\n");
    let old_root = old.root().display().to_string();
    for format in ["text", "markdown", "json"] {
        let run = new.corpus(&["diff", &old_root, "--format", format]);
        run.assert_code(1);
        assert!(run.stdout.contains("broken"), "{format}:\n{}", run.stdout);
        assert!(
            run.stdout.contains(valid::METHOD),
            "{format} names the file:\n{}",
            run.stdout
        );
        assert!(
            !run.stdout.contains("removed | `relay-credit2025`"),
            "{}",
            run.stdout
        );
        assert!(
            !run.stdout.contains("- entry relay-credit2025"),
            "{}",
            run.stdout
        );
    }
    let json = new.corpus(&["diff", &old_root, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(v["entries"]["removed"], serde_json::json!([]));
    assert_eq!(v["entries"]["broken"][0]["id"], "relay-credit2025");
    // A real deletion is still a removal, and a clean diff exits 0.
    let gone = Tree::valid();
    gone.remove(valid::METHOD);
    let run = gone.corpus(&["diff", &old_root]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("- entry relay-credit2025"),
        "{}",
        run.stdout
    );
}

/// An entry whose field no longer loads (a value of the wrong type)
/// is broken, not changed to a default; one the base could not load is
/// repaired, not added.
#[test]
fn diff_neither_invents_values_nor_additions() {
    let old = Tree::valid();
    let new = Tree::valid();
    new.set(valid::INDUSTRY, "year", "[2025]");
    let old_root = old.root().display().to_string();
    let new_root = new.root().display().to_string();
    let run = new.corpus(&["diff", &old_root, "--format", "json"]);
    run.assert_code(1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(
        v["entries"]["changed"],
        serde_json::json!([]),
        "{}",
        run.stdout
    );
    assert_eq!(
        v["entries"]["broken"][0]["id"], "harbor-ops",
        "{}",
        run.stdout
    );
    // The other way round: the base is broken, the head repairs it.
    let run = old.corpus(&["diff", &new_root]);
    run.assert_code(0);
    assert!(!run.stdout.contains("+ entry harbor-ops"), "{}", run.stdout);
    assert!(
        run.stdout.contains("entry harbor-ops loads again"),
        "{}",
        run.stdout
    );
    let md = old.corpus(&["diff", &new_root, "--format", "markdown"]);
    assert!(
        md.stdout.contains("| repaired | `harbor-ops`"),
        "{}",
        md.stdout
    );
    assert!(md.stdout.contains("0 added"), "{}", md.stdout);
}

/// `trace validate` on a folder without traces refuses instead of validating nothing.
#[test]
fn trace_validate_on_an_empty_folder_refuses() {
    let t = Tree::empty();
    std::fs::create_dir_all(t.path("logs")).expect("folder");
    t.write("logs/notes.txt", "not a trace\n");
    let run = run_in(t.root(), None, &["trace", "validate", "logs"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("no .json trace files"),
        "{}",
        run.stderr
    );
}

/// `check` says when the README template is missing instead of passing.
#[test]
fn check_reports_a_missing_readme_template() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t.remove("templates/README.md.tera");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert!(d.message.contains("README.md.tera"), "{}", d.message);
}

/// A root that has been built (its manifest is there) but lost its
/// whole templates/ folder is not taken for a data-only corpus.
#[test]
fn check_reports_a_missing_templates_folder() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    std::fs::remove_dir_all(t.path("templates")).expect("remove templates/");
    let run = t.check(&[]);
    run.assert_code(1);
    assert!(
        run.stdout.contains("templates"),
        "the missing templates are named: {}",
        run.stdout
    );
}

/// Hidden files among the entries are named, not silently skipped.
#[test]
fn hidden_files_under_papers_are_reported() {
    let t = Tree::valid();
    t.write("corpus/papers/.draft.yaml", t.read(valid::METHOD));
    let run = t.check(&[]);
    let d = run.single();
    assert_eq!(d.rule, "stray-file");
    assert_eq!(d.file, "corpus/papers/.draft.yaml");
    assert!(d.message.contains("hidden"), "{}", d.message);
    t.check_strict().assert_code(1);
}

/// An annotation file with a header and no rows is refused, not an empty table.
#[test]
fn agreement_with_no_rows_is_refused() {
    let t = Tree::fixture("agreement");
    t.write("ann.csv", "key,ann_category\n");
    let run = t.corpus(&["agreement", "ann.csv"]);
    run.assert_code(1);
    assert!(run.stdout.contains("no annotations"), "{}", run.stdout);
}

/// Rows whose annotation cells are all blank are refused too, not a table of "undefined".
#[test]
fn agreement_with_only_blank_cells_is_refused() {
    let t = Tree::fixture("agreement");
    t.write("ann.csv", "key,ann_category\nalpha,\n");
    let run = t.corpus(&["agreement", "ann.csv"]);
    run.assert_code(1);
    assert!(run.stdout.contains("blank"), "{}", run.stdout);
    t.write("ann.yaml", "- key: alpha\n  category: ''\n");
    t.corpus(&["agreement", "ann.yaml"]).assert_code(1);
}

/// `list` says which files it left out because they do not load.
#[test]
fn list_names_the_files_it_leaves_out() {
    let t = Tree::valid();
    t.append(valid::METHOD, "extra: [unclosed\n");
    for format in ["table", "keys", "json"] {
        let run = t.corpus(&["list", "--format", format]);
        assert!(
            run.stderr.contains("left out") && run.stderr.contains(valid::METHOD),
            "{format}: {}",
            run.stderr
        );
    }
    let clean = Tree::valid();
    assert_eq!(clean.corpus(&["list"]).stderr, "");
}

/// A waiver with an empty reason waives nothing.
#[test]
fn a_waiver_without_a_reason_waives_nothing() {
    let t = Tree::valid();
    t.set(valid::METHOD, "year", "2024");
    t.append(valid::METHOD, "waivers:\n  arxiv-year: \"\"\n");
    let run = t.check(&[]);
    let mut rules = run.rules();
    rules.sort();
    assert_eq!(rules, ["arxiv-year", "waiver-unused"], "{}", run.stdout);
    t.check_strict().assert_code(1);
    // With a reason it waives.
    let t = Tree::valid();
    t.set(valid::METHOD, "year", "2024");
    t.append(
        valid::METHOD,
        "waivers:\n  arxiv-year: the journal version came first\n",
    );
    t.check_strict().assert_code(0);
}

/// CSV diagnostics point at the record's own line (header = line 1), CRLF included.
#[test]
fn csv_diagnostics_give_the_line_in_the_file() {
    let t = Tree::fixture("agreement");
    for eol in ["\n", "\r\n"] {
        let text = ["key,ann_category", "alpha,rl_method", "bravo,rl-mthod", ""].join(eol);
        t.write("ann.csv", &text);
        let run = t.corpus(&["agreement", "ann.csv", "--format", "json"]);
        run.assert_code(1);
        let d = run.single();
        assert_eq!(d.line, Some(3), "eol {eol:?}: {}", run.stdout);
    }
    // import: an exported CSV with CRLF endings and one bad row.
    let src = Tree::valid();
    let csv = src.corpus(&["export", "--format", "csv"]);
    csv.assert_code(0);
    let mut lines: Vec<String> = csv.stdout.lines().map(str::to_string).collect();
    lines[2] = lines[2].replacen("harbor-ops", "Bad Key", 1);
    let bad_line = 3;
    assert!(lines[2].starts_with("Bad Key"), "{}", lines[2]);
    let dst = Tree::valid();
    dst.write("in.csv", lines.join("\r\n") + "\r\n");
    let run = dst.corpus(&["import", "--papers", "in.csv", "--force"]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(&format!("in.csv:{bad_line}")),
        "{}",
        run.stdout
    );
}

/// The key-mismatch help proposes only keys that pass the key rule.
#[test]
fn key_suggestions_pass_the_key_rule() {
    let key_ok = regex::Regex::new(r"^[a-z0-9]+(-[a-z0-9]+)*$").expect("regex");
    let t = Tree::valid();
    t.rename(valid::INDUSTRY, "corpus/papers/c3 copy.yaml");
    t.set("corpus/papers/c3 copy.yaml", "key", "My-Arxiv-2026");
    let run = t.check(&[]);
    let d = run.of("key-mismatch");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    let help = d[0].help.clone().expect("a help line");
    let suggested: Vec<&str> = help.split('`').skip(1).step_by(2).collect();
    assert!(!suggested.is_empty(), "{help}");
    for s in suggested {
        let name = s
            .strip_suffix(".yaml")
            .or_else(|| s.strip_prefix("key: "))
            .unwrap_or(s);
        assert!(
            key_ok.is_match(name),
            "suggested `{s}` breaks the key rule: {help}"
        );
    }
}

/// The record-id mismatch help proposes an id built from the digits written, and a valid one.
#[test]
fn record_id_suggestions_follow_the_digits_and_pass_the_rule() {
    let id_ok = regex::Regex::new(r"^E[0-9]{3,}$").expect("regex");
    let t = Tree::valid();
    t.rename(valid::DOCS_RECORD, "exclusions/e9.yaml");
    t.set("exclusions/e9.yaml", "record_id", "E9");
    let run = t.check(&[]);
    let d = run.of("key-mismatch");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    let help = d[0].help.clone().expect("a help line");
    assert!(help.contains("`E009.yaml`"), "{help}");
    let suggested: Vec<&str> = help
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|s| {
            s.strip_suffix(".yaml")
                .or_else(|| s.strip_prefix("record_id: "))
        })
        .collect();
    assert!(!suggested.is_empty(), "{help}");
    for id in suggested {
        assert!(
            id_ok.is_match(id),
            "suggested `{id}` breaks the id rule: {help}"
        );
    }
}

/// With `--format json`, every stdout line is JSON, on the error path too.
#[test]
fn json_formats_print_only_json() {
    let t = Tree::fixture("agreement");
    t.write("ann.csv", "key,ann_category\nalpha,rl-mthod\n");
    let run = t.corpus(&["agreement", "ann.csv", "--format", "json"]);
    run.assert_code(1);
    assert!(!run.stdout.is_empty());
    for line in run.stdout.lines() {
        serde_json::from_str::<serde_json::Value>(line)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    }
    // A broken claims ledger under `claims --format json`.
    let t = Tree::valid();
    t.write("corpus/claims.yaml", LEDGER);
    let run = t.corpus(&["claims", "--format", "json"]);
    run.assert_code(1);
    for line in run.stdout.lines() {
        serde_json::from_str::<serde_json::Value>(line)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    }
    // A broken taxonomy under `stats --format json`: prose goes to stderr.
    let t = Tree::valid();
    t.write("corpus/taxonomy.yaml", "na: NA\ncategory: [\n");
    let run = t.corpus(&["stats", "--format", "json"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert!(!run.stderr.is_empty());
}

/// Exports the valid tree (entries and records) as CSV, imports both files
/// back over it, and returns the JSON export before and after.
fn csv_round_trip(t: &Tree) -> (String, String) {
    let before = t.corpus(&["export", "--format", "json"]);
    before.assert_code(0);
    t.export_and_reimport_csv();
    let after = t.corpus(&["export", "--format", "json"]);
    after.assert_code(0);
    (before.stdout, after.stdout)
}

/// Export then import gives back exactly the data: spaces and a block scalar's final newline kept.
#[test]
fn the_csv_round_trip_is_exact() {
    let t = Tree::valid();
    t.set(valid::METHOD, "title", "\"  Padded Title  \"");
    t.append(valid::METHOD, "notes: |\n  first line\n  second line\n");
    t.set(valid::ARXIV_RECORD, "reason", "\" leading space kept\"");
    t.check(&[]).assert_code(0);
    let (before, after) = csv_round_trip(&t);
    assert_eq!(before, after);
    assert!(before.contains("second line\\n"), "{before}");
}

/// A CSV column import does not know is refused, not dropped.
#[test]
fn an_unknown_csv_column_is_refused() {
    let t = Tree::valid();
    let papers = t.corpus(&["export", "--format", "csv"]).stdout;
    let mut lines: Vec<String> = papers.lines().map(str::to_string).collect();
    for (i, l) in lines.iter_mut().enumerate() {
        l.push_str(if i == 0 { ",reviewer" } else { ",someone" });
    }
    t.write("in/papers.csv", lines.join("\n") + "\n");
    let before = common::snapshot_tree(t.root());
    let run = t.corpus(&["import", "--papers", "in/papers.csv", "--force"]);
    run.assert_code(1);
    assert!(run.stdout.contains("reviewer"), "{}", run.stdout);
    assert_eq!(common::snapshot_tree(t.root()), before, "nothing written");
}

/// A CSV column named twice is refused, not read as one of the two.
#[test]
fn a_csv_column_named_twice_is_refused() {
    let t = Tree::valid();
    let papers = t.corpus(&["export", "--format", "csv"]).stdout;
    let mut lines: Vec<String> = papers.lines().map(str::to_string).collect();
    for (i, l) in lines.iter_mut().enumerate() {
        l.push_str(if i == 0 { ",venue" } else { ",Another Venue" });
    }
    t.write("in/papers.csv", lines.join("\n") + "\n");
    let before = common::snapshot_tree(t.root());
    let run = t.corpus(&["import", "--papers", "in/papers.csv", "--force"]);
    run.assert_code(1);
    assert!(run.stdout.contains("named twice: venue"), "{}", run.stdout);
    assert_eq!(common::snapshot_tree(t.root()), before, "nothing written");
}

/// A value that starts like a formula is exported as text and imported back unchanged.
#[test]
fn formulas_are_exported_as_text_and_imported_back() {
    let t = Tree::valid();
    t.set(
        valid::METHOD,
        "one_liner",
        "\"=HYPERLINK(\\\"http://x\\\") looks like a formula.\"",
    );
    t.set(valid::INDUSTRY, "affiliation", "\"@Harbor Labs\"");
    t.set(valid::CLASSICAL, "venue", "\"+Journal\"");
    t.set(valid::DOCS_RECORD, "reason", "\"-not a formula, a dash.\"");
    t.check(&[]).assert_code(0);
    let csv = t.corpus(&["export", "--format", "csv"]).stdout;
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    for rec in rdr.records() {
        for cell in rec.expect("CSV row").iter() {
            assert!(
                !cell.starts_with(['=', '+', '-', '@']),
                "a cell a spreadsheet would run: {cell}"
            );
        }
    }
    assert!(csv.contains("'=HYPERLINK"), "{csv}");
    let (before, after) = csv_round_trip(&t);
    assert_eq!(before, after);
}

/// Every CSV the tool writes is spreadsheet-safe, `stats --format csv` included
/// (its labels come from the data, which may not have passed `check` yet).
#[test]
fn stats_csv_cells_never_start_like_formulas() {
    let t = Tree::valid();
    t.set(valid::ARXIV_RECORD, "source", "\"@SUM(1)\"");
    t.set(valid::ARXIV_RECORD, "query_family", "\"=HYPERLINK(1)\"");
    let run = t.corpus(&["stats", "--format", "csv"]);
    run.assert_code(0);
    assert!(run.stdout.contains("'=HYPERLINK(1)"), "{}", run.stdout);
    let mut rdr = csv::Reader::from_reader(run.stdout.as_bytes());
    for rec in rdr.records() {
        for cell in rec.expect("CSV row").iter() {
            assert!(
                !cell.starts_with(['=', '+', '-', '@']),
                "a cell a spreadsheet would run: {cell}"
            );
        }
    }
}

/// A figure that overflows is refused the same way in every format, not `inf` here and `null` there.
/// The trace is replayed inside a corpus root, whose taxonomy maps its team
/// reward channel, so the tokens per unit of team reward are computed.
#[test]
fn non_finite_figures_are_refused_in_every_format() {
    let t = Tree::valid();
    t.write("big.json", overflowing_trace());
    for format in ["table", "json"] {
        let run = run_in(
            t.root(),
            None,
            &["trace", "metrics", "big.json", "--format", format],
        );
        run.assert_code(1);
        assert_eq!(run.stdout, "", "{format}");
        assert!(
            run.stderr.contains("tokens_per_team_reward"),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("inf"), "{}", run.stderr);
    }
}

/// Outside a corpus root the tool has no taxonomy: reward channels keep
/// their own names and no family-based figure is made up.
#[test]
fn outside_a_corpus_reward_channels_stay_unmapped() {
    let t = Tree::empty();
    t.write(
        "t.json",
        std::fs::read(fixture_dir("traces").join("reference_equivalent.json")).expect("fixture"),
    );
    let run = run_in(
        t.root(),
        None,
        &["trace", "metrics", "t.json", "--format", "json"],
    );
    run.assert_code(0);
    let m: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON metrics");
    assert_eq!(
        m["rewards_by_family"],
        serde_json::json!({}),
        "{}",
        run.stdout
    );
    assert!(
        m["unmapped_rewards"]
            .as_object()
            .is_some_and(|o| !o.is_empty()),
        "{}",
        run.stdout
    );
}

/// A copy of a valid fixture trace whose tokens per unit of team reward overflow.
fn overflowing_trace() -> String {
    let text = std::fs::read_to_string(fixture_dir("traces").join("reference_equivalent.json"))
        .expect("fixture");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    v["rewards"] = serde_json::json!({"team": 1e-300});
    // The most tokens a trace counts, per almost no reward: the ratio overflows.
    v["costs"]["tokens"] = serde_json::json!(corpus_trace::MAX_TOKENS);
    serde_json::to_string_pretty(&v).expect("JSON")
}

/// An example trace whose figures overflow fails the build and the
/// check with a diagnostic, and nothing is written (no `inf` in the README).
#[test]
fn an_example_trace_that_overflows_fails_the_build() {
    let t = Tree::valid_with_templates();
    t.write(
        "traces/examples/fine.json",
        std::fs::read(fixture_dir("traces").join("reference_equivalent.json")).expect("fixture"),
    );
    t.corpus(&["build"]).assert_code(0);
    let before = common::snapshot_tree(t.root());
    t.write("traces/examples/big.json", overflowing_trace());
    let before_big = common::snapshot_tree(t.root());
    assert_ne!(before, before_big);
    let run = t.corpus(&["build"]);
    run.assert_code(1);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    for part in [
        "error[trace-overflow]",
        "traces/examples/big.json",
        "tokens_per_team_reward",
        "help:",
    ] {
        assert!(run.stderr.contains(part), "`{part}`: {}", run.stderr);
    }
    assert!(!run.stderr.contains("inf"), "{}", run.stderr);
    assert_eq!(
        common::snapshot_tree(t.root()),
        before_big,
        "nothing written"
    );
    let readme = t.read("README.md");
    assert!(
        !readme.contains("inf |") && !readme.contains("NaN"),
        "{readme}"
    );
    // `check` reports the same problem as data, with its file and a help line.
    let check = t.check(&[]);
    check.assert_code(1);
    let d = check.single();
    assert_eq!(d.rule, "trace-overflow");
    assert_eq!(d.file, "traces/examples/big.json");
    assert!(d.help.is_some(), "{d:?}");
    // `trace metrics` on the same file says the same thing.
    let metrics = t.corpus(&["trace", "metrics", "traces/examples/big.json"]);
    metrics.assert_code(1);
    assert!(
        metrics.stderr.contains("error[trace-overflow]"),
        "{}",
        metrics.stderr
    );
}

/// Token counts summed from OTLP spans never wrap (or panic), and a sum no
/// trace can hold exactly is refused, not written and not shown rounded.
#[test]
fn otlp_token_sums_do_not_wrap() {
    let t = Tree::empty();
    let text = std::fs::read_to_string(common::repo().join("traces/otlp/research-team.json"))
        .expect("shipped OTLP example");
    let huge = i64::MAX.to_string();
    let spans = text.matches("gen_ai.usage.input_tokens").count();
    assert!(spans >= 3, "enough model calls to overflow 64 bits");
    let re = regex::Regex::new(r#"("gen_ai.usage.input_tokens", "value": \{"intValue": ")\d+"#)
        .expect("regex");
    t.write(
        "big.json",
        re.replace_all(&text, format!("${{1}}{huge}")).as_ref(),
    );
    let run = run_in(
        t.root(),
        None,
        &["trace", "import", "--from", "otlp", "big.json"],
    );
    run.assert_code(1);
    assert_eq!(run.stdout, "", "no trace is written");
    assert!(run.stderr.contains("otlp-token-overflow"), "{}", run.stderr);
    // The sum is said exactly, wider than 64 bits as it is, never rounded.
    let sum = (spans as u128 * i64::MAX as u128).to_string();
    assert!(run.stderr.contains(&sum), "{sum}: {}", run.stderr);
}

/// Control and bidi characters in data are flagged, and never reach the terminal raw.
#[test]
fn control_characters_are_flagged_and_shown_escaped() {
    let t = Tree::valid();
    // `\e[2J` clears the screen; U+202E reverses the text after it.
    t.set(valid::METHOD, "title", "\"Relay \\e[2J Credit\"");
    t.set(
        valid::INDUSTRY,
        "one_liner",
        "\"A platform \\u202E that reverses text.\"",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.of("control-character");
    assert_eq!(d.len(), 2, "{}", run.stdout);
    let fields: Vec<_> = d
        .iter()
        .map(|d| d.field.clone().unwrap_or_default())
        .collect();
    assert!(fields.contains(&"title".to_string()) && fields.contains(&"one_liner".to_string()));
    // Human outputs escape them: check's snippet, list's table, diff's text.
    let human = t.corpus(&["check"]);
    let old = Tree::valid();
    let old_root = old.root().display().to_string();
    let list = t.corpus(&["list"]);
    let diff = t.corpus(&["diff", &old_root]);
    for (what, out) in [
        ("check", &human.stdout),
        ("list", &list.stdout),
        ("diff", &diff.stdout),
    ] {
        assert!(
            !out.contains('\u{1b}') && !out.contains('\u{202e}'),
            "{what}: raw character"
        );
    }
    assert!(diff.stdout.contains("\\u{1b}"), "{}", diff.stdout);
    assert!(
        human.stdout.contains("\\u{202e}") || human.stdout.contains("\\u202E"),
        "{}",
        human.stdout
    );
}
