//! The build fingerprint (a record in this user's store, outside the tree) is a shortcut, never a
//! different answer: after any change to any input or output, `build`,
//! `build --check`, `check` and `stats` say and write exactly what they do
//! on the same tree without a fingerprint (the full path).
//!
//! The shipped tree is the subject of the tests of the shortcut on the real
//! data (a second build, a build with errors, a record trusted or forged,
//! the key); the tests that try every kind of change run on a miniature of
//! it with every kind of input and output, where each command costs a
//! fraction of a run on the shipped corpus.

use crate::common::{copy_tree, fixture_dir, repo, snapshot_tree, valid, Tree};

/// The text of a tree's record.
fn read_record(t: &Tree) -> String {
    std::fs::read_to_string(t.record_path()).expect("a record")
}

/// Replaces a tree's record with `text`.
fn write_record(t: &Tree, text: impl AsRef<[u8]>) {
    std::fs::write(t.record_path(), text).expect("write the record");
}

/// The tests' store, which keys every record.
fn store() -> corpus_io::store::Store {
    corpus_io::store::Store::open(crate::common::cache_dir()).expect("the tests' store")
}

/// An entry of the shipped corpus.
const AN_ENTRY: &str = "corpus/papers/agent-lightning.yaml";

/// A tree, built once, so it holds a fingerprint.
fn build(t: Tree) -> Tree {
    let _ = std::fs::remove_file(t.record_path());
    t.corpus(&["build"]).assert_code(0);
    assert!(t.record_path().is_file(), "build records a fingerprint");
    t
}

/// A copy of the shipped tree, built once, so it holds a fingerprint.
fn built() -> Tree {
    build(Tree::repo_copy())
}

/// A miniature of the shipped tree, built once, so it holds a fingerprint:
/// the valid fixture's three entries and two records, the shipped taxonomy,
/// templates and traces, and a claims ledger and survey written for the
/// fixture (`tests/fixtures/fingerprint/`). Like the shipped tree it has
/// every input the fingerprint's key covers and every generated output,
/// and it checks clean. The templates are the shipped ones because they
/// render the claims, the survey and the example traces into the README: a
/// key that missed one of those inputs shows up as a different answer.
fn built_miniature() -> Tree {
    let t = Tree::valid_with_templates();
    copy_tree(&repo().join("traces"), &t.path("traces"));
    copy_tree(&fixture_dir("fingerprint"), t.root());
    let t = build(t);
    let check = t.corpus(&["check", "--format", "json"]);
    check.assert_code(0);
    assert_eq!(check.stdout, "", "the miniature checks clean");
    t
}

/// A copy of a tree, fingerprint included. A test that tries several
/// changes builds once and makes each change on a copy of that build: the
/// build is the slow part, and it gives the same tree every time.
fn copy_of(t: &Tree) -> Tree {
    let u = Tree::empty();
    copy_tree(t.root(), u.root());
    if t.record_path().is_file() {
        std::fs::copy(t.record_path(), u.record_path()).expect("copy the record");
    }
    u
}

/// The same tree without the fingerprint.
fn without_fingerprint(t: &Tree) -> Tree {
    let u = copy_of(t);
    let _ = std::fs::remove_file(u.record_path());
    u
}

/// Every file of a root (the record is kept outside it).
fn files(t: &Tree) -> Vec<(String, Vec<u8>)> {
    snapshot_tree(t.root())
}

/// A tree and its copy without the fingerprint (the full path), on which
/// commands run side by side. After each command both hold the same files
/// (it asserts so), so the copy is made once per pair rather than once per
/// command; the tree is not edited while its pair is in use.
struct Pair<'a> {
    t: &'a Tree,
    full: Tree,
}

impl<'a> Pair<'a> {
    fn of(t: &'a Tree) -> Pair<'a> {
        Pair {
            t,
            full: without_fingerprint(t),
        }
    }

    /// Runs `args` on the tree and on its copy without a fingerprint; both
    /// must answer alike and leave the same files.
    fn same(&self, args: &[&str]) -> (i32, String) {
        // A build on the copy records a fingerprint there: removed, so the
        // copy takes the full path again.
        let _ = std::fs::remove_file(self.full.record_path());
        let a = self.t.corpus(args);
        let b = self.full.corpus(args);
        assert_eq!(
            (a.code, &a.stdout, &a.stderr),
            (b.code, &b.stdout, &b.stderr),
            "`{}` with and without the fingerprint",
            args.join(" ")
        );
        assert!(
            files(self.t) == files(&self.full),
            "`{}` left other files",
            args.join(" ")
        );
        (a.code.expect("exit code"), a.stdout)
    }

    /// `stats` in every format answers as on the full path.
    fn stats_same(&self) {
        for format in STATS_FORMATS {
            self.same(&["stats", "--format", format]);
        }
    }
}

/// The formats of `stats`.
const STATS_FORMATS: [&str; 4] = ["table", "markdown", "json", "csv"];

/// After `change` to a copy of the built tree `base`, every command answers
/// as on the full path, and the build that follows brings the tree back to
/// a fresh one.
fn after(base: &Tree, change: impl Fn(&Tree)) -> (i32, String) {
    let t = copy_of(base);
    change(&t);
    let pair = Pair::of(&t);
    let check = pair.same(&["check", "--format", "json"]);
    pair.same(&["check", "--format", "github"]);
    // Whether the record may answer is decided before the format is chosen;
    // every format against a stale record is pinned once, in
    // `every_stats_format_passes_over_a_stale_record`.
    pair.same(&["stats", "--format", "json"]);
    pair.same(&["build", "--check"]);
    pair.same(&["build"]);
    pair.same(&["check", "--format", "json"]);
    pair.same(&["check", "--strict"]);
    // Recorded figures and counted ones are printed by the same renderer
    // of each format, so JSON (every figure) shows whether the record holds
    // the figures of the changed tree, and `stats --write` compares every
    // format's files; every format from a fresh record is pinned in
    // `a_second_build_takes_the_shortcut_with_the_same_answer` and
    // `a_corpus_with_warnings_answers_alike_with_and_without_the_record`.
    pair.same(&["stats", "--format", "json"]);
    pair.same(&["stats", "--write"]);
    check
}

#[test]
fn a_second_build_takes_the_shortcut_with_the_same_answer() {
    let t = built();
    let before = files(&t);
    let pair = Pair::of(&t);
    let (code, out) = pair.same(&["build"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("0 changed, "), "{out}");
    assert!(files(&t) == before);
    pair.same(&["build", "--check"]);
    pair.same(&["check", "--format", "json"]);
    pair.stats_same();
    // `stats --format json` prints what the build wrote.
    let (code, json) = pair.same(&["stats", "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(json, t.read("stats/stats.json"));
    pair.same(&["stats", "--write", "--check"]);
    pair.same(&["stats", "--write"]);
}

#[test]
fn an_edited_entry_is_rebuilt() {
    let base = built_miniature();
    let (code, out) = after(&base, |t| {
        t.replace(valid::METHOD, "one_liner: ", "one_liner: Changed. ")
    });
    assert_eq!(code, 1, "the README is stale: {out}");
    assert!(out.contains("stale-generated"), "{out}");
}

#[test]
fn every_stats_format_passes_over_a_stale_record() {
    let t = copy_of(&built_miniature());
    t.replace(valid::METHOD, "one_liner: ", "one_liner: Changed. ");
    Pair::of(&t).stats_same();
}

#[test]
fn a_comment_in_an_entry_takes_the_full_path_and_finds_nothing_stale() {
    let base = built_miniature();
    let (code, _) = after(&base, |t| t.append(valid::METHOD, "# a note\n"));
    assert_eq!(code, 0);
}

#[test]
fn a_removed_or_added_entry_is_rebuilt() {
    let base = built_miniature();
    after(&base, |t| t.remove(valid::METHOD));
    after(&base, |t| {
        t.rename("exclusions/E001.yaml", "exclusions/E001.yml")
    });
}

#[test]
fn an_edited_template_taxonomy_claim_or_survey_is_rebuilt() {
    let base = built_miniature();
    after(&base, |t| {
        t.append("templates/README.md.tera", "One more line.\n")
    });
    after(&base, |t| {
        t.append("templates/STATS.md.tera", "One more line.\n")
    });
    after(&base, |t| t.append("corpus/taxonomy.yaml", "# a comment\n"));
    after(&base, |t| {
        t.replace(
            "corpus/claims.yaml",
            "statement: One entry makes the delegate decision (O2).",
            "statement: One entry makes the delegate decision, O2.",
        )
    });
    after(&base, |t| t.append("corpus/survey.yaml", "# a comment\n"));
}

#[test]
fn an_edited_or_removed_example_trace_is_rebuilt() {
    let base = built_miniature();
    after(&base, |t| {
        t.replace(
            "traces/examples/swarm.json",
            "\"system\": \"hand-written example\"",
            "\"system\": \"hand-written example, edited\"",
        )
    });
    after(&base, |t| t.remove("traces/examples/swarm.json"));
}

#[test]
fn a_hand_edited_missing_or_extra_output_is_caught() {
    let base = built_miniature();
    let (code, out) = after(&base, |t| t.append("README.md", "A hand-written line.\n"));
    assert_eq!(code, 1, "{out}");
    after(&base, |t| t.append("stats/count_category.csv", "x,1\n"));
    after(&base, |t| t.remove("stats/chart_reward_family.svg"));
    after(&base, |t| t.remove("corpus/entry.schema.json"));
    after(&base, |t| {
        t.write("stats/count_legacy.csv", "a,b\n");
        t.append("stats/.generated", "stats/count_legacy.csv\n");
    });
}

#[test]
fn a_garbled_forged_or_foreign_fingerprint_changes_nothing() {
    let base = built_miniature();
    after(&base, |t| write_record(t, "not a fingerprint\n"));
    after(&base, |t| write_record(t, ""));
    // The right key with wrong digests: the outputs are judged by their bytes.
    after(&base, |t| {
        let text = read_record(t);
        let forged: String = text
            .lines()
            .map(|l| match l.split_once(' ') {
                Some((h, p)) if h.len() == 32 => format!("{} {p}\n", "0".repeat(32)),
                _ => format!("{l}\n"),
            })
            .collect();
        write_record(t, forged);
    });
    // A key of another tool or tree: the full path decides.
    after(&base, |t| {
        let text = read_record(t);
        let mut lines: Vec<&str> = text.lines().collect();
        let other = format!("key {}", "f".repeat(32));
        lines[1] = &other;
        write_record(t, lines.join("\n") + "\n");
    });
    // Paths outside the generated files are refused, not read.
    after(&base, |t| {
        let text = read_record(t) + &format!("{} ../outside\n", "0".repeat(32));
        write_record(t, text)
    });
}

#[test]
fn a_build_with_errors_records_nothing() {
    let t = Tree::repo_copy();
    let _ = std::fs::remove_file(t.record_path());
    t.set(AN_ENTRY, "year", "not-a-year");
    assert_ne!(t.corpus(&["build"]).code, Some(0));
    assert!(!t.record_path().exists());
}

#[test]
fn the_shortcut_is_taken_and_trusts_only_its_record() {
    // A record re-written by hand for a hand-edited README is believed: this
    // shows the second build skips rendering, and why the record is a local
    // cache that is never committed.
    let t = built();
    t.append("README.md", "A hand-written line.\n");
    let edited = corpus_io::digest::Digest::of(store().key(), t.read("README.md").as_bytes());
    let text = read_record(&t);
    let resigned: String = text
        .lines()
        .map(|l| match l.split_once(' ') {
            Some((_, "README.md")) => format!("{edited:032x} README.md\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    write_record(&t, resigned);
    let run = t.corpus(&["build", "--check"]);
    run.assert_code(0);
    assert!(run.stdout.starts_with("all "), "{}", run.stdout);
    // Without the record, the full path finds the edit.
    let full = without_fingerprint(&t);
    full.corpus(&["build", "--check"]).assert_code(1);
}

/// Rewrites the record's key to the key of the tree as it is now, so the
/// record (made for the tree before an edit) is believed for the edited tree.
fn forge_record_for_this_tree(t: &Tree) {
    let key = corpus_core::publish::generate::fingerprint_key(
        &store(),
        &corpus_core::load::read_inputs(t.root(), corpus_core::load::LoadOptions::default()),
        corpus_core::publish::generate::Part::All,
    )
    .expect("a key");
    let text = read_record(t);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[1] = format!("key {key:032x}");
    write_record(t, lines.join("\n") + "\n");
}

/// The tree `t` changed so that its data yields warnings and no error (a
/// stray file, a hidden one, `entry` out of layout), built once.
fn built_with_warnings(t: Tree, entry: &str) -> Tree {
    t.write("corpus/papers/notes.txt", "not data\n");
    t.write("exclusions/.draft.yaml", "id: E999\n");
    t.replace(entry, "one_liner: ", "one_liner:   ");
    let check = t.corpus(&["check", "--format", "json"]);
    check.assert_code(0);
    for rule in ["stray-file", "not-formatted"] {
        assert!(check.stdout.contains(rule), "{rule}: {}", check.stdout);
    }
    build(t)
}

#[test]
fn a_corpus_with_warnings_answers_alike_with_and_without_the_record() {
    let base = built_with_warnings(built_miniature(), valid::METHOD);
    let t = copy_of(&base);
    let pair = Pair::of(&t);
    let (code, out) = pair.same(&["build"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("0 changed, "), "{out}");
    pair.same(&["build", "--check"]);
    for format in ["human", "json", "github"] {
        pair.same(&["check", "--format", format]);
    }
    let (strict, _) = pair.same(&["check", "--strict"]);
    assert_eq!(strict, 1, "warnings fail --strict");
    pair.stats_same();
    // Every kind of change, on top of the warnings.
    for change in [
        |t: &Tree| t.append(valid::METHOD, "# a note\n"),
        |t: &Tree| t.remove("corpus/papers/notes.txt"),
        |t: &Tree| t.append("templates/README.md.tera", "One more line.\n"),
        |t: &Tree| t.append("README.md", "A hand-written line.\n"),
        |t: &Tree| write_record(t, "not a fingerprint\n"),
    ] {
        let t = copy_of(&base);
        change(&t);
        let pair = Pair::of(&t);
        pair.same(&["check", "--format", "json"]);
        pair.same(&["build", "--check"]);
        // One format per change, stale record then fresh, as in `after`.
        pair.same(&["stats", "--format", "json"]);
        pair.same(&["build"]);
        pair.same(&["check", "--format", "github"]);
        pair.same(&["stats", "--format", "json"]);
    }
}

#[test]
fn a_new_stray_or_hidden_file_is_seen() {
    let base = built_miniature();
    let (code, out) = after(&base, |t| t.write("corpus/papers/notes.txt", "not data\n"));
    assert_eq!(code, 0);
    assert!(out.contains("stray-file"), "{out}");
    let (_, out) = after(&base, |t| t.write("exclusions/.draft.yaml", "id: E999\n"));
    assert!(out.contains("stray-file"), "{out}");
    // A housekeeping file is no data and changes nothing.
    after(&base, |t| t.write("corpus/papers/.gitkeep", ""));
}

/// The digest of the inputs read below a tree's root.
fn key_of(t: &Tree, opts: corpus_core::load::LoadOptions) -> Option<u128> {
    corpus_core::load::read_inputs(t.root(), opts).digest(store().key())
}

#[test]
fn the_key_is_the_bytes_read_and_changes_with_any_of_them() {
    let opts = corpus_core::load::LoadOptions::default();
    let with_warnings = built_with_warnings(Tree::repo_copy(), AN_ENTRY);
    for t in [Tree::repo_copy(), with_warnings] {
        let key = key_of(&t, opts);
        assert!(key.is_some(), "every input reads");
        assert_eq!(key, key_of(&t, opts), "the same tree read twice");
    }
    // One byte of any input, or one more name in a data folder, is another key.
    type Edit = fn(&Tree);
    let edits: [(&str, Edit); 8] = [
        ("an entry", |t| {
            t.replace(
                "corpus/papers/agent-lightning.yaml",
                "one_liner: ",
                "one_liner:  ",
            )
        }),
        ("a record", |t| t.append("exclusions/E001.yaml", "#\n")),
        ("a stray file", |t| t.write("corpus/papers/notes.txt", "")),
        ("the taxonomy", |t| t.append("corpus/taxonomy.yaml", "#\n")),
        ("the claims", |t| t.append("corpus/claims.yaml", "#\n")),
        ("a template", |t| t.append("templates/README.md.tera", "\n")),
        ("an example trace", |t| {
            t.append("traces/examples/swarm.json", " ")
        }),
        ("an OTLP example", |t| {
            t.append("traces/otlp/research-team.json", " ")
        }),
    ];
    for (what, edit) in edits {
        let t = Tree::repo_copy();
        let before = key_of(&t, opts);
        edit(&t);
        assert_ne!(key_of(&t, opts), before, "{what}");
    }
    // Another size limit is another key.
    let t = Tree::repo_copy();
    let small = corpus_core::load::LoadOptions {
        max_file_bytes: 1 << 20,
    };
    assert_ne!(key_of(&t, small), key_of(&t, opts));
    // An input that cannot be read leaves no key to trust.
    t.write("corpus/papers/broken.yaml", b"title: \xff\n");
    assert_eq!(key_of(&t, opts), None);
}

#[test]
fn a_fresh_record_lets_build_skip_parsing_and_checking() {
    // A record forged for the key of a tree with an error is believed: this
    // shows the build with nothing to write neither parses nor checks, and
    // why only a build that found no error writes a record.
    let t = built();
    t.set(AN_ENTRY, "year", "not-a-year");
    forge_record_for_this_tree(&t);
    let run = t.corpus(&["build"]);
    run.assert_code(0);
    assert!(run.stdout.starts_with("0 changed, "), "{}", run.stdout);
    // `check` prints the recorded check's result, found before the edit.
    let run = t.corpus(&["check"]);
    run.assert_code(0);
    assert!(run.stdout.contains("checked 84 entries"), "{}", run.stdout);
    // `stats` prints the recorded figures, with no warning.
    let run = t.corpus(&["stats", "--format", "json"]);
    run.assert_code(0);
    assert_eq!(run.stdout, t.read("stats/stats.json"));
    assert_eq!(run.stderr, "");
    // Without the record, the full path finds the error.
    let full = without_fingerprint(&t);
    full.corpus(&["build"]).assert_code(1);
    full.corpus(&["check"]).assert_code(1);
    let run = full.corpus(&["stats", "--format", "json"]);
    run.assert_code(0);
    assert!(run.stderr.contains("1 error(s)"), "{}", run.stderr);
}

#[test]
fn stats_from_the_record_are_its_figures_and_those_of_stats_json() {
    // A record forged for the key of a tree with one entry fewer is
    // believed: `stats` then prints the recorded figures (3 retained)
    // without counting, where the full path counts 2.
    let t = built_miniature();
    t.remove(valid::METHOD);
    forge_record_for_this_tree(&t);
    let fast = t.corpus(&["stats", "--format", "json"]);
    fast.assert_code(0);
    assert!(fast.stdout.contains("\"retained\": 3"), "{}", fast.stdout);
    let full = without_fingerprint(&t).corpus(&["stats", "--format", "json"]);
    assert!(full.stdout.contains("\"retained\": 2"), "{}", full.stdout);
    // Recorded figures that are not exactly stats/stats.json are not
    // believed, nor garbled or repeated ones.
    let forged = read_record(&t).replace("\"retained\":3", "\"retained\":4");
    assert_ne!(forged, read_record(&t), "the figures are recorded");
    let cases = [
        forged,
        read_record(&t).replace("\nstats {", "\nstats ["),
        read_record(&t).replace("\nstats ", "\nstatistics "),
        {
            let line = read_record(&t)
                .lines()
                .find(|l| l.starts_with("stats "))
                .expect("a stats line")
                .to_string();
            read_record(&t) + &line + "\n"
        },
    ];
    // The full path's answers, the same for every case.
    let full_path = without_fingerprint(&t);
    let wants = STATS_FORMATS.map(|format| full_path.corpus(&["stats", "--format", format]));
    for case in cases {
        let u = Tree::empty();
        copy_tree(t.root(), u.root());
        write_record(&u, case);
        for (format, want) in STATS_FORMATS.iter().zip(&wants) {
            let run = u.corpus(&["stats", "--format", format]);
            assert_eq!(
                (run.code, &run.stdout, &run.stderr),
                (want.code, &want.stdout, &want.stderr),
                "{format}"
            );
        }
    }
}

#[test]
fn garbled_or_forged_recorded_diagnostics_take_the_full_path() {
    let rewrite = |t: &Tree, f: &dyn Fn(&str) -> String| {
        let text = read_record(t);
        write_record(t, text.lines().map(|l| f(l) + "\n").collect::<String>());
    };
    let cases: [&dyn Fn(&str) -> String; 4] = [
        &|l| match l.strip_prefix("diag ") {
            Some(json) => format!("diag {}", &json[1..]),
            None => l.to_string(),
        },
        &|l| match l.strip_prefix("checked ") {
            Some(_) => "checked 1 2".to_string(),
            None => l.to_string(),
        },
        &|l| match l.strip_prefix("checked ") {
            Some(_) => "checked 1 2 3 4".to_string(),
            None => l.to_string(),
        },
        &|l| {
            if l.starts_with("diag ") {
                String::new()
            } else {
                l.to_string()
            }
        },
    ];
    let base = built_with_warnings(built_miniature(), valid::METHOD);
    for case in cases {
        let t = copy_of(&base);
        assert!(read_record(&t).contains("\ndiag {"), "warnings recorded");
        rewrite(&t, case);
        let pair = Pair::of(&t);
        for args in [
            &["check", "--format", "json"][..],
            &["check", "--strict"],
            &["stats", "--format", "table"],
            &["stats", "--format", "csv"],
            &["build", "--check"],
            &["build"],
        ] {
            pair.same(args);
        }
    }
}

#[test]
fn the_record_lives_in_the_users_store_not_in_the_tree() {
    let t = built_miniature();
    assert!(t.record_path().starts_with(crate::common::cache_dir()));
    assert!(!t.path(".cache/corpus-build.fingerprint").exists());
    assert!(!t.path("stats/.fingerprint").exists());
}
