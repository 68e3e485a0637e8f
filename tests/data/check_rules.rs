//! Every rule of `corpus/taxonomy.yaml` has a mutation of the valid fixture
//! that fires it and a near miss that does not.
//!
//! The list of rules is read from the taxonomy itself, so a rule added there
//! without a case here fails `every_taxonomy_rule_has_a_case`. The cases test
//! rules, not the binary, so they run the command line in process.

use crate::common::{severity_of, taxonomy_rules, valid, Diag, Run, Tree};
use std::collections::BTreeSet;

/// A root to start from, and an edit applied to it.
type Base = fn() -> Tree;
type Edit = fn(&Tree);

/// One rule: what fires it, where the diagnostic must point, and a near miss.
struct Case {
    rule: &'static str,
    /// Arguments `check --strict` takes besides (a base revision, say).
    args: &'static [&'static str],
    base: Base,
    /// A change that must fire the rule.
    fires: Edit,
    /// The file (relative to the root) the diagnostic names.
    file: &'static str,
    /// The field it names (None for file-level problems).
    field: Option<&'static str>,
    /// A similar change that must leave the corpus clean under `--strict`.
    near_miss: Edit,
}

const SEARCH: &str = "corpus/search.yaml";

/// The repository's search file.
fn shipped_search() -> String {
    std::fs::read_to_string(crate::common::repo().join(SEARCH)).expect("corpus/search.yaml")
}

/// The valid fixture plus the repository's templates, built once so README.md
/// and stats/ are fresh.
fn published() -> Tree {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t
}

fn give_industry_arxiv(t: &Tree, id: &str) {
    t.replace(
        valid::INDUSTRY,
        "venue:",
        &format!("arxiv_id: \"{id}\"\nvenue:"),
    );
    t.replace(
        valid::INDUSTRY,
        "  - https://harbor.example.com/blog/agent-platform",
        &format!(
            "  - https://harbor.example.com/blog/agent-platform\n  - https://arxiv.org/abs/{id}"
        ),
    );
}

fn copy_industry_as(t: &Tree, key: &str) -> String {
    let rel = format!("corpus/papers/{key}.yaml");
    t.write(&rel, t.read(valid::INDUSTRY));
    rel
}

/// The first line of every entry file.
const MODELINE: &str = "# yaml-language-server: $schema=../entry.schema.json";

const LEDGER_HEAD: &str =
    "claims:\n  - id: pool-size\n    source: this_project\n    locator: the fixture's own count\n    statement: The pool holds three entries.\n    where: {}\n";
const LEDGER_TAIL: &str = "    boundary: Only the fixture.\n";

const SURVEY: &str = "corpus/survey.yaml";

/// A survey file whose sub-decision figure names the fixture method at
/// `level`, and whose one Benchmark Gap row cites `cited`.
fn survey_naming_method(level: &str, cited: &str) -> String {
    format!(
        "paper:\n  title: A Fixture Survey\n  authors: [\"Doe, Jane\"]\n  year: 2026\n  arxiv_id: \"2601.00001\"\n  artifact: https://example.org/artifact\n  snapshot: \"2026-01-02\"\nfigures:\n  - id: subs\n    title: Sub-decisions\n    field: subdecisions\n    levels:\n      - value: {level}\n        entries: [relay-credit2025]\nmeasures_note: E1 is the task outcome.\nbenchmark_gap:\n  - domain: Math\n    benchmarks: {cited}\n    mas_native: \"No\"\n    measures: E1 only\n"
    )
}

const LOCATORS: &str = "corpus/locators.yaml";

/// A locators file for the valid fixture: a reason for each reading, the
/// first round's commit and, when `strict`, the method's spot-check row.
fn locators(strict: bool) -> String {
    let reading = |key: &str| {
        format!("  - {{key: {key}, field: subdecisions, source: project_reading, reason: The summary names what the paper learns.}}\n")
    };
    let mut out = String::from("judgements:\n");
    for key in ["grid-foraging1999", "harbor-ops", "relay-credit2025"] {
        out += &reading(key);
    }
    if strict {
        out += "  - {key: relay-credit2025, field: strict_credit, source: spotcheck, file: docs/spotcheck.csv, place: row 1}\n";
    }
    out + "rounds:\n  - {round: survey_screening, commit: 0123456789abcdef0123456789abcdef01234567, file: papers.csv, place: every row}\n"
}

/// A survey file naming no entry, whose abstract is a published source.
const PUBLISHING_SURVEY: &str = "paper:\n  title: A Fixture Survey\n  authors: [\"Doe, Jane\"]\n  year: 2026\n  arxiv_id: \"2601.00001\"\n  artifact: https://example.org/artifact\n  snapshot: \"2026-01-02\"\npublished_sources: [survey_abstract]\nfigures: []\nmeasures_note: E1 is the task outcome.\nbenchmark_gap: []\n";

/// The ledger's one claim, from the survey's abstract, expecting `count`.
fn abstract_claim(source: &str, count: &str) -> String {
    LEDGER_HEAD.replace("this_project", source)
        + &format!("    expect: {{count: \"{count}\"}}\n")
        + LEDGER_TAIL
}

/// The valid fixture with that survey and claim, committed to git: the
/// base `check --base HEAD` compares the claims with.
fn committed_survey_claim() -> Tree {
    let t = Tree::valid();
    t.write(SURVEY, PUBLISHING_SURVEY);
    t.write(
        "corpus/claims.yaml",
        abstract_claim("survey_abstract", "== 3"),
    );
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &["commit", "-q", "-m", "base"],
    ] {
        crate::common::git(t.root(), args);
    }
    t
}

fn cases() -> Vec<Case> {
    vec![
        // Files and fields
        Case {
            rule: "yaml-syntax",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::INDUSTRY, "venue", "Company blog: engineering"),
            file: valid::INDUSTRY,
            field: None,
            near_miss: |t| t.set(valid::INDUSTRY, "venue", "\"Company blog: engineering\""),
        },
        Case {
            rule: "file-unreadable",
            args: &[],
            base: Tree::valid,
            fires: |t| t.write("corpus/papers/empty.yaml", ""),
            file: "corpus/papers/empty.yaml",
            field: None,
            near_miss: |t| {
                let text = t.read(valid::METHOD);
                t.write(valid::METHOD, format!("{text}# A closing comment.\n"));
            },
        },
        Case {
            rule: "stray-file",
            args: &[],
            base: Tree::valid,
            fires: |t| t.write("corpus/papers/notes.txt", "to do\n"),
            file: "corpus/papers/notes.txt",
            field: None,
            near_miss: |t| t.write("corpus/papers/.gitkeep", ""),
        },
        Case {
            rule: "leftover-temp-file",
            base: Tree::valid,
            args: &[],
            fires: |t| t.write("corpus/papers/.corpus-tmp-0badf00d", "half a fi"),
            file: "corpus/papers/.corpus-tmp-0badf00d",
            field: None,
            // A name of the tool's own form at the root, but not a temporary file's.
            near_miss: |t| t.write(".corpus-tmp-notes", "mine\n"),
        },
        Case {
            rule: "file-name-encoding",
            base: Tree::valid,
            args: &[],
            fires: |t| {
                use std::os::unix::ffi::OsStrExt;
                let name = std::ffi::OsStr::from_bytes(b"caf\xe9.yaml");
                std::fs::write(t.path("corpus/papers").join(name), "key: x\n").unwrap();
            },
            file: "corpus/papers/caf\u{fffd}.yaml",
            field: None,
            // The same letters in UTF-8 make a stray-file-free housekeeping name.
            near_miss: |t| t.write("corpus/papers/.gitkeep", "caf\u{e9}\n"),
        },
        Case {
            rule: "unknown-field",
            args: &[],
            base: Tree::valid,
            fires: |t| t.append(valid::METHOD, "tags: [marl]\n"),
            file: valid::METHOD,
            field: Some("tags"),
            near_miss: |t| t.append(valid::METHOD, "notes: An optional remark.\n"),
        },
        Case {
            rule: "missing-field",
            args: &[],
            base: Tree::valid,
            fires: |t| t.delete_field(valid::METHOD, "venue"),
            file: valid::METHOD,
            field: Some("venue"),
            // arxiv_id is optional.
            near_miss: |t| t.delete_field(valid::METHOD, "arxiv_id"),
        },
        Case {
            rule: "duplicate-field",
            args: &[],
            base: Tree::valid,
            fires: |t| t.append(valid::INDUSTRY, "scenario: web\n"),
            file: valid::INDUSTRY,
            field: Some("scenario"),
            near_miss: |t| {
                t.replace(
                    valid::METHOD,
                    "  - o2_delegate",
                    "  - o1_spawn\n  - o2_delegate",
                )
            },
        },
        Case {
            rule: "field-type",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.replace(
                    valid::METHOD,
                    "subdecisions:\n  - o2_delegate",
                    "subdecisions: o2_delegate",
                )
            },
            file: valid::METHOD,
            field: Some("subdecisions"),
            near_miss: |t| {
                t.replace(
                    valid::METHOD,
                    "subdecisions:\n  - o2_delegate",
                    "subdecisions: []",
                )
            },
        },
        Case {
            rule: "schema-modeline",
            args: &[],
            base: Tree::valid,
            fires: |t| t.replace(valid::METHOD, &format!("{MODELINE}\n"), ""),
            file: valid::METHOD,
            field: None,
            // Comments may follow the modeline.
            near_miss: |t| {
                t.replace(
                    valid::METHOD,
                    &format!("{MODELINE}\n"),
                    &format!("{MODELINE}\n# A fixture entry.\n"),
                )
            },
        },
        Case {
            rule: "empty-field",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::CLASSICAL, "one_liner", "\"   \""),
            file: valid::CLASSICAL,
            field: Some("one_liner"),
            // Optional text may be empty.
            near_miss: |t| t.append(valid::CLASSICAL, "notes: \"\"\n"),
        },
        // Values
        Case {
            rule: "unknown-value",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::METHOD, "reward_type", "shard"),
            file: valid::METHOD,
            field: Some("reward_type"),
            near_miss: |t| t.set(valid::METHOD, "scenario", "NA"),
        },
        Case {
            rule: "key-format",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.rename(valid::INDUSTRY, "corpus/papers/Harbor_Ops.yaml");
                t.set("corpus/papers/Harbor_Ops.yaml", "key", "Harbor_Ops");
            },
            file: "corpus/papers/Harbor_Ops.yaml",
            field: Some("key"),
            near_miss: |t| {
                t.rename(valid::INDUSTRY, "corpus/papers/harbor-ops-2.yaml");
                t.set("corpus/papers/harbor-ops-2.yaml", "key", "harbor-ops-2");
            },
        },
        Case {
            rule: "key-mismatch",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::INDUSTRY, "key", "harbour-ops"),
            file: valid::INDUSTRY,
            field: Some("key"),
            near_miss: |t| {
                t.set(valid::INDUSTRY, "key", "harbour-ops");
                t.rename(valid::INDUSTRY, "corpus/papers/harbour-ops.yaml");
            },
        },
        Case {
            rule: "arxiv-format",
            args: &[],
            base: Tree::valid,
            // Since 2015 the number after the dot has five digits.
            fires: |t| t.set(valid::METHOD, "arxiv_id", "\"2503.1230\""),
            file: valid::METHOD,
            field: Some("arxiv_id"),
            near_miss: |t| t.set(valid::METHOD, "arxiv_id", "\"2503.01230v2\""),
        },
        Case {
            rule: "not-formatted",
            args: &[],
            base: Tree::valid,
            // A list item at the key's indentation is valid YAML but not the layout.
            fires: |t| {
                t.replace(
                    valid::METHOD,
                    "  - https://arxiv.org/abs/2503.01230",
                    "- https://arxiv.org/abs/2503.01230",
                )
            },
            file: valid::METHOD,
            field: None,
            // Comments are part of the layout and kept where they are.
            near_miss: |t| t.replace(valid::METHOD, "urls:\n", "# the paper itself\nurls:\n"),
        },
        Case {
            rule: "yaml-ambiguous-scalar",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::METHOD, "verified", "yes"),
            file: valid::METHOD,
            field: Some("verified"),
            near_miss: |t| t.set(valid::METHOD, "verified", "\"yes\""),
        },
        // Citation
        Case {
            rule: "authors-missing",
            args: &[],
            base: Tree::valid,
            fires: |t| t.delete_field(valid::METHOD, "authors"),
            file: valid::METHOD,
            field: Some("first_author"),
            // A sole author is a whole list.
            near_miss: |t| t.replace(valid::METHOD, "  - Quist, Ben\n", ""),
        },
        Case {
            rule: "authors-first-author",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.replace(
                    valid::CLASSICAL,
                    "  - Lindqvist, Per\n  - Moreau, Claire",
                    "  - Moreau, Claire\n  - Lindqvist, Per",
                )
            },
            file: valid::CLASSICAL,
            field: Some("authors"),
            near_miss: |t| t.replace(valid::CLASSICAL, "  - Moreau, Claire", "  - Moreau, Anne"),
        },
        Case {
            rule: "authors-others",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.replace(
                    valid::METHOD,
                    "  - Quist, Ben",
                    "  - others\n  - Quist, Ben",
                )
            },
            file: valid::METHOD,
            field: Some("authors"),
            near_miss: |t| {
                t.replace(
                    valid::CLASSICAL,
                    "  - Moreau, Claire",
                    "  - Moreau, Claire\n  - others",
                )
            },
        },
        Case {
            rule: "cite-key-format",
            args: &[],
            base: Tree::valid,
            fires: |t| t.insert_after(valid::METHOD, "urls", "cite_key", "\"relay credit, 2025\""),
            file: valid::METHOD,
            field: Some("cite_key"),
            near_miss: |t| t.insert_after(valid::METHOD, "urls", "cite_key", "okafor:2025.relay"),
        },
        Case {
            rule: "duplicate-cite-key",
            args: &[],
            base: Tree::valid,
            // Cited by the key the classical entry is cited by.
            fires: |t| t.insert_after(valid::METHOD, "urls", "cite_key", "grid-foraging1999"),
            file: valid::METHOD,
            field: Some("cite_key"),
            near_miss: |t| t.insert_after(valid::METHOD, "urls", "cite_key", "grid-foraging2025"),
        },
        Case {
            rule: "bib-type",
            args: &[],
            base: Tree::valid,
            fires: |t| t.insert_after(valid::INDUSTRY, "urls", "bib_type", "blogpost"),
            file: valid::INDUSTRY,
            field: Some("bib_type"),
            near_miss: |t| t.insert_after(valid::INDUSTRY, "urls", "bib_type", "techreport"),
        },
        Case {
            rule: "cite-year-order",
            args: &[],
            base: Tree::valid,
            fires: |t| t.insert_after(valid::METHOD, "urls", "cite_year", "2025"),
            file: valid::METHOD,
            field: Some("cite_year"),
            near_miss: |t| t.insert_after(valid::METHOD, "urls", "cite_year", "2026"),
        },
        Case {
            rule: "latex-escape",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.set(valid::CLASSICAL, "first_author", r#"M\"{u}ller, Ada"#);
                t.replace(
                    valid::CLASSICAL,
                    "  - Lindqvist, Per",
                    r#"  - M\"{u}ller, Ada"#,
                );
            },
            file: valid::CLASSICAL,
            field: Some("first_author"),
            near_miss: |t| {
                t.set(valid::CLASSICAL, "first_author", "Müller, Ada");
                t.replace(valid::CLASSICAL, "  - Lindqvist, Per", "  - Müller, Ada");
            },
        },
        Case {
            rule: "arxiv-unquoted",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::METHOD, "arxiv_id", "2503.01230"),
            file: valid::METHOD,
            field: Some("arxiv_id"),
            near_miss: |t| t.set(valid::METHOD, "arxiv_id", "\"2503.01230\""),
        },
        Case {
            rule: "url-scheme",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.replace(
                    valid::INDUSTRY,
                    "https://harbor.example.com",
                    "ftp://harbor.example.com",
                )
            },
            file: valid::INDUSTRY,
            field: Some("urls"),
            near_miss: |t| {
                t.replace(
                    valid::INDUSTRY,
                    "https://harbor.example.com",
                    "http://harbor.example.com",
                )
            },
        },
        Case {
            rule: "year-range",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::CLASSICAL, "year", "1899"),
            file: valid::CLASSICAL,
            field: Some("year"),
            near_miss: |t| t.set(valid::CLASSICAL, "year", "1900"),
        },
        Case {
            rule: "date-invalid",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::DOCS_RECORD, "date_screened", "\"2026-02-29\""),
            file: valid::DOCS_RECORD,
            field: Some("date_screened"),
            near_miss: |t| t.set(valid::DOCS_RECORD, "date_screened", "\"2024-02-29\""),
        },
        Case {
            rule: "date-after-cutoff",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::DOCS_RECORD, "date_screened", "\"2026-05-05\""),
            file: valid::DOCS_RECORD,
            field: Some("date_screened"),
            near_miss: |t| t.set(valid::DOCS_RECORD, "date_screened", "\"2026-05-04\""),
        },
        Case {
            rule: "identifier-format",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::DOCS_RECORD, "identifier", "example-sdk-docs"),
            file: valid::DOCS_RECORD,
            field: Some("identifier"),
            near_miss: |t| t.set(valid::DOCS_RECORD, "identifier", "github:example/agent-sdk"),
        },
        // Across files
        Case {
            rule: "duplicate-key",
            args: &[],
            base: Tree::valid,
            // The copy keeps key harbor-ops; it sorts after harbor-ops.yaml.
            fires: |t| {
                let rel = copy_industry_as(t, "harbor-ops2");
                t.set(&rel, "title", "A Second Harbor Entry");
                t.replace(&rel, "agent-platform", "second-entry");
            },
            file: "corpus/papers/harbor-ops2.yaml",
            field: Some("key"),
            near_miss: |t| {
                let rel = copy_industry_as(t, "harbor-ops2");
                t.set(&rel, "key", "harbor-ops2");
                t.set(&rel, "title", "A Second Harbor Entry");
                t.replace(&rel, "agent-platform", "second-entry");
            },
        },
        Case {
            rule: "duplicate-arxiv",
            args: &[],
            base: Tree::valid,
            fires: |t| give_industry_arxiv(t, "2503.01230v2"),
            file: valid::METHOD,
            field: Some("arxiv_id"),
            near_miss: |t| give_industry_arxiv(t, "2503.01231"),
        },
        Case {
            rule: "duplicate-url",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.replace(
                    valid::CLASSICAL,
                    "https://example.org/papers/grid-foraging.pdf",
                    "https://harbor.example.com/blog/agent-platform",
                )
            },
            file: valid::INDUSTRY,
            field: Some("urls"),
            near_miss: |t| {
                t.replace(
                    valid::CLASSICAL,
                    "https://example.org/papers/grid-foraging.pdf",
                    "https://harbor.example.com/blog/agent-platform-2",
                )
            },
        },
        Case {
            rule: "duplicate-title",
            args: &[],
            base: Tree::valid,
            // Compared ignoring case and punctuation.
            fires: |t| t.set(valid::CLASSICAL, "title", "\"HARBOR OPS: agent platform!\""),
            file: valid::INDUSTRY,
            field: Some("title"),
            near_miss: |t| {
                t.set(
                    valid::CLASSICAL,
                    "title",
                    "\"Harbor Ops: Agent Platform Two\"",
                )
            },
        },
        Case {
            rule: "excluded-retained",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::ARXIV_RECORD, "identifier", "arXiv:2503.01230"),
            file: valid::ARXIV_RECORD,
            field: Some("identifier"),
            // Another paper: its identifier and its link both name it.
            near_miss: |t| {
                t.set(valid::ARXIV_RECORD, "identifier", "arXiv:2503.01231");
                t.set(
                    valid::ARXIV_RECORD,
                    "url",
                    "https://arxiv.org/abs/2503.01231",
                );
            },
        },
        // Between fields
        Case {
            rule: "industry-is-case",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::INDUSTRY, "is_core", "supporting"),
            file: valid::INDUSTRY,
            field: Some("is_core"),
            // `is_core: case` on an industry entry is what the rule asks for.
            near_miss: |t| {
                t.set(valid::CLASSICAL, "category", "industry");
                t.set(valid::CLASSICAL, "is_core", "case");
            },
        },
        Case {
            rule: "case-is-industry",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::METHOD, "is_core", "case"),
            file: valid::METHOD,
            field: Some("category"),
            near_miss: |t| t.set(valid::METHOD, "is_core", "supporting"),
        },
        Case {
            rule: "credit-without-reward",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::INDUSTRY, "credit_granularity", "agent"),
            file: valid::INDUSTRY,
            field: Some("reward_type"),
            near_miss: |t| {
                t.set(valid::INDUSTRY, "credit_granularity", "agent");
                t.set(valid::INDUSTRY, "reward_type", "individual");
            },
        },
        Case {
            rule: "reward-without-rl",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.set(valid::INDUSTRY, "is_rl", "\"no\"");
                t.set(valid::INDUSTRY, "reward_type", "verifier");
            },
            file: valid::INDUSTRY,
            field: Some("reward_type"),
            near_miss: |t| t.set(valid::INDUSTRY, "is_rl", "\"no\""),
        },
        Case {
            rule: "classical-marl-not-rl",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.set(valid::CLASSICAL, "is_rl", "\"no\"");
                t.set(valid::CLASSICAL, "reward_type", "NA");
                t.set(valid::CLASSICAL, "credit_granularity", "NA");
            },
            file: valid::CLASSICAL,
            field: Some("is_rl"),
            near_miss: |t| t.set(valid::CLASSICAL, "is_rl", "partial"),
        },
        Case {
            rule: "subdecisions-without-form",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::METHOD, "orchestration_form", "NA"),
            file: valid::METHOD,
            field: Some("subdecisions"),
            near_miss: |t| {
                t.set(valid::METHOD, "orchestration_form", "NA");
                t.set(valid::METHOD, "subdecisions", "[]");
            },
        },
        // The project's judged tags
        Case {
            rule: "judgement-unsourced",
            args: &[],
            base: Tree::valid,
            fires: |t| t.delete_field(valid::METHOD, "subdecisions_source"),
            file: valid::METHOD,
            field: Some("subdecisions"),
            near_miss: |t| t.set(valid::METHOD, "subdecisions_source", "[contributor]"),
        },
        Case {
            rule: "subdecisions-not-judged",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.delete_field(valid::CLASSICAL, "subdecisions");
                t.delete_field(valid::CLASSICAL, "subdecisions_source");
            },
            file: valid::CLASSICAL,
            field: Some("is_rl"),
            // Judged "none" is a judgement.
            near_miss: |t| t.set(valid::CLASSICAL, "subdecisions_source", "[contributor]"),
        },
        Case {
            rule: "trace-link",
            args: &[],
            base: Tree::valid,
            fires: |t| crate::linked_traces::link(t, &["traces/examples/absent.json"]),
            file: valid::METHOD,
            field: Some("traces"),
            near_miss: crate::linked_traces::linked_run,
        },
        Case {
            rule: "trace-tags-disagree",
            args: &[],
            base: Tree::valid,
            fires: crate::linked_traces::linked_run_without_delegation,
            file: valid::METHOD,
            field: Some("traces"),
            near_miss: crate::linked_traces::linked_run,
        },
        Case {
            rule: "additional-unit-repeats-primary",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                // Where `corpus fmt` puts it: after `verified`, before `subdecisions`.
                t.insert_after(
                    valid::METHOD,
                    "verified",
                    "additional_credit_units",
                    "[turn]",
                );
                t.insert_after(
                    valid::METHOD,
                    "additional_credit_units",
                    "additional_credit_units_source",
                    "[contributor]",
                );
            },
            file: valid::METHOD,
            field: Some("additional_credit_units"),
            near_miss: |t| {
                // Where `corpus fmt` puts it: after `verified`, before `subdecisions`.
                t.insert_after(
                    valid::METHOD,
                    "verified",
                    "additional_credit_units",
                    "[message]",
                );
                t.insert_after(
                    valid::METHOD,
                    "additional_credit_units",
                    "additional_credit_units_source",
                    "[contributor]",
                );
            },
        },
        Case {
            rule: "survey-figure-membership",
            args: &[],
            base: Tree::valid,
            // The figure names the entry at a sub-decision it does not carry.
            fires: |t| t.write(SURVEY, survey_naming_method("o1_spawn", "[]")),
            file: valid::METHOD,
            field: Some("subdecisions"),
            near_miss: |t| {
                t.write(SURVEY, survey_naming_method("o2_delegate", "[]"));
                t.set(valid::METHOD, "subdecisions_source", "[survey_figure]");
            },
        },
        Case {
            rule: "judgement-locator",
            args: &[],
            base: Tree::valid,
            // The method's strict credit comes from the spot-check, but no row says where.
            fires: |t| t.write(LOCATORS, locators(false)),
            file: valid::METHOD,
            field: Some("strict_credit"),
            near_miss: |t| t.write(LOCATORS, locators(true)),
        },
        Case {
            rule: "survey-reference",
            args: &[],
            base: Tree::valid,
            // A Benchmark Gap row cites a method entry as a benchmark.
            fires: |t| {
                t.write(
                    SURVEY,
                    survey_naming_method("o2_delegate", "[relay-credit2025]"),
                )
            },
            file: SURVEY,
            field: Some("benchmark_gap"),
            near_miss: |t| {
                t.write(SURVEY, survey_naming_method("o2_delegate", "[]"));
                t.set(
                    valid::METHOD,
                    "subdecisions_source",
                    "[survey_figure, project_reading]",
                );
            },
        },
        Case {
            rule: "search-protocol",
            args: &[],
            base: Tree::valid,
            // Two queries share an id; the shipped search file is the near miss.
            fires: |t| {
                t.write(
                    SEARCH,
                    shipped_search().replace("  - id: credit\n", "  - id: mas-rl\n"),
                )
            },
            file: SEARCH,
            field: None,
            near_miss: |t| t.write(SEARCH, shipped_search()),
        },
        Case {
            rule: "strict-credit-without-unit",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::METHOD, "credit_granularity", "NA"),
            file: valid::METHOD,
            field: Some("credit_granularity"),
            near_miss: |t| {
                t.set(valid::METHOD, "credit_granularity", "NA");
                t.set(valid::METHOD, "strict_credit", "\"no\"");
            },
        },
        Case {
            rule: "arxiv-url-mismatch",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.replace(
                    valid::METHOD,
                    "https://arxiv.org/abs/2503.01230",
                    "https://relay.example.org/",
                )
            },
            file: valid::METHOD,
            field: Some("urls"),
            near_miss: |t| {
                t.replace(
                    valid::METHOD,
                    "https://arxiv.org/abs/2503.01230",
                    "http://www.arxiv.org/pdf/2503.01230",
                )
            },
        },
        Case {
            rule: "arxiv-link-id",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.replace(
                    valid::METHOD,
                    "https://arxiv.org/abs/2503.01230",
                    "https://arxiv.org/abs/2503.01230\n  - https://arxiv.org/pdf/2503.09999v2",
                )
            },
            file: valid::METHOD,
            field: Some("urls"),
            // Another version of the same paper is the same paper.
            near_miss: |t| {
                t.replace(
                    valid::METHOD,
                    "https://arxiv.org/abs/2503.01230",
                    "https://arxiv.org/html/2503.01230v3",
                )
            },
        },
        Case {
            rule: "control-character",
            args: &[],
            base: Tree::valid,
            // `\e` in a double-quoted YAML string is the escape character.
            fires: |t| t.set(valid::METHOD, "title", "\"Relay \\e[2J Credit\""),
            file: valid::METHOD,
            field: Some("title"),
            // A backslash written out is printable text.
            near_miss: |t| t.set(valid::METHOD, "title", "Relay \\e[2J Credit"),
        },
        Case {
            rule: "arxiv-year",
            args: &[],
            base: Tree::valid,
            fires: |t| t.set(valid::METHOD, "year", "2024"),
            file: valid::METHOD,
            field: Some("year"),
            near_miss: |t| t.set(valid::METHOD, "year", "2026"),
        },
        Case {
            rule: "waiver-unused",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.append(
                    valid::METHOD,
                    "waivers:\n  arxiv-year: the journal version came later\n",
                )
            },
            file: valid::METHOD,
            field: Some("waivers"),
            near_miss: |t| {
                t.set(valid::METHOD, "year", "2024");
                t.append(
                    valid::METHOD,
                    "waivers:\n  arxiv-year: the journal version came later\n",
                );
            },
        },
        // Generated files
        Case {
            rule: "stale-generated",
            args: &[],
            base: published,
            // The one-liner is on the README's entry line.
            fires: |t| {
                t.set(
                    valid::METHOD,
                    "one_liner",
                    "A shorter summary of the method.",
                )
            },
            file: "README.md",
            field: None,
            // A comment changes no generated file.
            near_miss: |t| t.append(valid::METHOD, "# reviewed again\n"),
        },
        // The claims ledger
        Case {
            rule: "claim-invalid",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.write(
                    "corpus/claims.yaml",
                    format!("{LEDGER_HEAD}    expect: {{count: \"about 3\"}}\n{LEDGER_TAIL}"),
                )
            },
            file: "corpus/claims.yaml",
            field: Some("claims.pool-size"),
            near_miss: |t| {
                t.write(
                    "corpus/claims.yaml",
                    format!("{LEDGER_HEAD}    expect: {{count: \">= 3\"}}\n{LEDGER_TAIL}"),
                )
            },
        },
        Case {
            rule: "claim-expectation-rewritten",
            args: &["--base", "HEAD"],
            base: committed_survey_claim,
            // The expectation moves, the source stays: a weaker check of a published figure.
            fires: |t| {
                t.write(
                    "corpus/claims.yaml",
                    abstract_claim("survey_abstract", "<= 3"),
                )
            },
            file: "corpus/claims.yaml",
            field: Some("claims.pool-size"),
            // The same move with a new source named.
            near_miss: |t| t.write("corpus/claims.yaml", abstract_claim("this_project", "<= 3")),
        },
        Case {
            rule: "claim-unfalsifiable",
            args: &[],
            base: Tree::valid,
            // Three entries match: removing one still leaves at least two.
            fires: |t| {
                t.write(
                    "corpus/claims.yaml",
                    format!("{LEDGER_HEAD}    expect: {{count: \">= 2\"}}\n{LEDGER_TAIL}"),
                )
            },
            file: "corpus/claims.yaml",
            field: Some("claims.pool-size"),
            // On its edge, one entry removed breaks it.
            near_miss: |t| {
                t.write(
                    "corpus/claims.yaml",
                    format!("{LEDGER_HEAD}    expect: {{count: \">= 3\"}}\n{LEDGER_TAIL}"),
                )
            },
        },
        Case {
            rule: "claim-broken",
            args: &[],
            base: Tree::valid,
            fires: |t| {
                t.write(
                    "corpus/claims.yaml",
                    format!("{LEDGER_HEAD}    expect: {{count: \"== 4\"}}\n{LEDGER_TAIL}"),
                )
            },
            file: "corpus/claims.yaml",
            field: Some("claims.pool-size"),
            near_miss: |t| {
                t.write(
                    "corpus/claims.yaml",
                    format!("{LEDGER_HEAD}    expect: {{count: \"== 3\"}}\n{LEDGER_TAIL}"),
                )
            },
        },
    ]
}

fn case(rule: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.rule == rule)
        .unwrap_or_else(|| panic!("no case for `{rule}`"))
}

fn show(run: &Run) -> String {
    format!("exit {:?}\n{}{}", run.code, run.stdout, run.stderr)
}

/// Applies a case's firing edit and returns the root and the strict run.
fn fire(c: &Case) -> (Tree, Run) {
    let t = (c.base)();
    (c.fires)(&t);
    let run = t.check_in_process(&[&["--strict"], c.args].concat());
    (t, run)
}

/// Problems with a case, empty when it behaves.
fn problems(c: &Case) -> Vec<String> {
    let mut out = Vec::new();
    let severity = severity_of(c.rule);

    let (_t, run) = fire(c);
    let hits: Vec<Diag> = run.of(c.rule);
    if run.code != Some(1) {
        out.push(format!(
            "{}: firing edit: strict check did not exit 1: {}",
            c.rule,
            show(&run)
        ));
    }
    // An empty field name counts as none here; that schema-modeline prints
    // `"field": ""` is pinned by its own (ignored) test below.
    let field = |d: &Diag| d.field.clone().filter(|f| !f.is_empty());
    if !hits
        .iter()
        .any(|d| d.file == c.file && field(d).as_deref() == c.field)
    {
        out.push(format!(
            "{}: firing edit: no `{}` diagnostic on {} field {:?}: {}",
            c.rule,
            c.rule,
            c.file,
            c.field,
            show(&run)
        ));
    }
    for d in &hits {
        if d.severity != severity {
            out.push(format!(
                "{}: reported as {} but the taxonomy says {severity}",
                c.rule, d.severity
            ));
        }
        if d.message.trim().is_empty() {
            out.push(format!("{}: empty message", c.rule));
        }
        if c.field.is_some() && d.line.is_none() {
            out.push(format!(
                "{}: field-level diagnostic without a line: {d:?}",
                c.rule
            ));
        }
    }

    let t = (c.base)();
    (c.near_miss)(&t);
    let run = t.check_in_process(&[&["--strict"], c.args].concat());
    if !run.of(c.rule).is_empty() {
        out.push(format!(
            "{}: near miss fired the rule: {}",
            c.rule,
            show(&run)
        ));
    }
    if run.code != Some(0) || !run.stdout.is_empty() {
        out.push(format!(
            "{}: near miss is not clean under --strict: {}",
            c.rule,
            show(&run)
        ));
    }
    out
}

#[test]
fn every_taxonomy_rule_has_a_case() {
    let rules: BTreeSet<String> = taxonomy_rules().into_iter().map(|(id, _)| id).collect();
    let covered: BTreeSet<String> = cases().iter().map(|c| c.rule.to_string()).collect();
    let untested: Vec<&String> = rules.difference(&covered).collect();
    let unknown: Vec<&String> = covered.difference(&rules).collect();
    assert!(
        untested.is_empty(),
        "rules without a test case: {untested:?}"
    );
    assert!(
        unknown.is_empty(),
        "cases for rules the taxonomy does not have: {unknown:?}"
    );
    assert_eq!(cases().len(), covered.len(), "one case per rule");
}

#[test]
fn every_rule_fires_on_its_mutation_and_not_on_its_near_miss() {
    let failures: Vec<String> = cases().iter().flat_map(problems).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn warnings_alone_do_not_fail_a_check_without_strict() {
    let mut failures = Vec::new();
    for c in cases() {
        if severity_of(c.rule) != "warning" {
            continue;
        }
        let t = (c.base)();
        (c.fires)(&t);
        let run = t.check_in_process(c.args);
        let diags = run.diags();
        if diags.iter().all(|d| d.severity == "warning") && run.code != Some(0) {
            failures.push(format!("{}: {}", c.rule, show(&run)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_fail_a_check_without_strict() {
    let mut failures = Vec::new();
    for c in cases() {
        if severity_of(c.rule) != "error" {
            continue;
        }
        let t = (c.base)();
        (c.fires)(&t);
        let run = t.check_in_process(c.args);
        if run.code != Some(1) {
            failures.push(format!("{}: {}", c.rule, show(&run)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Waivers

/// Warning rules that fire on an entry and so can be waived in it.
const ENTRY_WARNINGS: [&str; 12] = [
    "schema-modeline",
    "authors-missing",
    "subdecisions-not-judged",
    "not-formatted",
    "yaml-ambiguous-scalar",
    "latex-escape",
    "credit-without-reward",
    "reward-without-rl",
    "classical-marl-not-rl",
    "arxiv-url-mismatch",
    "arxiv-year",
    "trace-tags-disagree",
];

#[test]
fn every_warning_rule_is_either_waivable_in_an_entry_or_listed_as_not() {
    // stray-file and leftover-temp-file are about files that are not
    // entries; waiver-unused is about the waivers themselves.
    let not_waivable = ["stray-file", "leftover-temp-file", "waiver-unused"];
    for (id, severity) in taxonomy_rules() {
        if severity == "warning" {
            assert!(
                ENTRY_WARNINGS.contains(&id.as_str()) || not_waivable.contains(&id.as_str()),
                "warning rule `{id}` needs a waiver test"
            );
        }
    }
}

#[test]
fn a_waiver_in_the_entry_suppresses_each_entry_warning() {
    let mut failures = Vec::new();
    for rule in ENTRY_WARNINGS {
        let c = case(rule);
        let (t, run) = fire(&c);
        assert!(
            !run.of(rule).is_empty(),
            "{rule} does not fire: {}",
            show(&run)
        );
        t.append(
            c.file,
            &format!("waivers:\n  {rule}: a genuine exception, explained here\n"),
        );
        let run = t.check_in_process(&["--strict"]);
        if run.code != Some(0) || !run.stdout.is_empty() {
            failures.push(format!(
                "{rule}: waived warning still reported: {}",
                show(&run)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn waived_warnings_are_counted_in_the_human_summary() {
    let c = case("arxiv-year");
    let (t, _) = fire(&c);
    t.append(
        c.file,
        "waivers:\n  arxiv-year: the journal version came later\n",
    );
    let run = t.corpus(&["check", "--strict"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("0 errors, 0 warnings (1 waived)"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_waiver_for_a_rule_that_does_not_fire_is_reported_as_unused() {
    let t = Tree::valid();
    t.append(
        valid::METHOD,
        "waivers:\n  arxiv-year: the journal version came later\n",
    );
    let run = t.check_in_process(&[]);
    run.assert_code(0);
    let d = run.single();
    assert_eq!(d.rule, "waiver-unused");
    assert_eq!(d.severity, "warning");
    assert_eq!(d.field.as_deref(), Some("waivers"));
    assert_eq!(d.line, Some(t.line_of(valid::METHOD, "  arxiv-year:")));
    t.check_in_process(&["--strict"]).assert_code(1);
}

#[test]
fn a_waiver_does_not_silence_an_error() {
    let t = Tree::valid();
    t.set(valid::INDUSTRY, "is_core", "supporting");
    t.append(
        valid::INDUSTRY,
        "waivers:\n  industry-is-case: we disagree\n",
    );
    let run = t.check_in_process(&[]);
    run.assert_code(1);
    assert_eq!(run.of("industry-is-case").len(), 1, "{}", run.stdout);
    let unused = run.of("waiver-unused");
    assert_eq!(unused.len(), 1, "{}", run.stdout);
    assert!(unused[0].message.contains("error"), "{}", unused[0].message);
}

#[test]
fn a_waiver_for_a_misspelt_rule_suggests_the_rule() {
    let t = Tree::valid();
    t.set(valid::METHOD, "year", "2024");
    t.append(
        valid::METHOD,
        "waivers:\n  arxiv-yaer: the journal version came later\n",
    );
    let run = t.check_in_process(&["--strict"]);
    run.assert_code(1);
    let unused = run.of("waiver-unused");
    assert_eq!(unused.len(), 1, "{}", run.stdout);
    assert!(unused[0]
        .help
        .clone()
        .unwrap_or_default()
        .contains("`arxiv-year`"));
    // The warning it meant to waive is still reported.
    assert_eq!(run.of("arxiv-year").len(), 1);
}

#[test]
fn a_waiver_without_a_reason_is_reported() {
    let t = Tree::valid();
    t.set(valid::METHOD, "year", "2024");
    t.append(valid::METHOD, "waivers:\n  arxiv-year: \"  \"\n");
    let run = t.check_in_process(&["--strict"]);
    run.assert_code(1);
    // ... and waives nothing: the warning it meant to waive is still reported.
    let mut rules = run.rules();
    rules.sort();
    assert_eq!(rules, ["arxiv-year", "waiver-unused"]);
}

#[test]
fn a_waiver_in_one_entry_does_not_cover_another() {
    let t = Tree::valid();
    t.set(valid::METHOD, "year", "2024");
    t.append(valid::INDUSTRY, "waivers:\n  arxiv-year: not this entry\n");
    let run = t.check_in_process(&[]);
    let mut got: Vec<(String, String)> =
        run.diags().into_iter().map(|d| (d.rule, d.file)).collect();
    got.sort();
    assert_eq!(
        got,
        [
            ("arxiv-year".to_string(), valid::METHOD.to_string()),
            ("waiver-unused".to_string(), valid::INDUSTRY.to_string()),
        ]
    );
}

// ---------------------------------------------------------------------------
// All problems at once

#[test]
fn three_problems_in_one_file_give_three_diagnostics() {
    let t = Tree::valid();
    t.set(valid::METHOD, "reward_type", "shard");
    t.replace(
        valid::METHOD,
        "  - https://arxiv.org/abs/2503.01230",
        "  - https://arxiv.org/abs/2503.01230\n  - ftp://relay.example.org/code",
    );
    t.append(valid::METHOD, "tags: [marl]\n");
    let run = t.check_in_process(&[]);
    run.assert_code(1);
    let diags = run.diags();
    let mut rules: Vec<&str> = diags.iter().map(|d| d.rule.as_str()).collect();
    rules.sort();
    assert_eq!(
        rules,
        ["unknown-field", "unknown-value", "url-scheme"],
        "{}",
        run.stdout
    );
    assert!(diags.iter().all(|d| d.file == valid::METHOD));
    // Each at its own line, in line order.
    let lines: Vec<usize> = diags.iter().map(|d| d.line.expect("located")).collect();
    let mut sorted = lines.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(lines, sorted);
}

#[test]
fn problems_in_entries_and_records_are_reported_together() {
    let t = Tree::valid();
    t.set(valid::CLASSICAL, "category", "classic_marl");
    t.set(valid::INDUSTRY, "is_core", "supporting");
    t.set(valid::DOCS_RECORD, "stage", "abstract");
    t.set(valid::ARXIV_RECORD, "date_screened", "\"2026-13-01\"");
    let run = t.check_in_process(&[]);
    run.assert_code(1);
    let mut got: Vec<(String, String)> =
        run.diags().into_iter().map(|d| (d.file, d.rule)).collect();
    got.sort();
    let mut want: Vec<(String, String)> = [
        (valid::CLASSICAL, "unknown-value"),
        (valid::INDUSTRY, "industry-is-case"),
        (valid::DOCS_RECORD, "unknown-value"),
        (valid::ARXIV_RECORD, "date-invalid"),
    ]
    .iter()
    .map(|(f, r)| (f.to_string(), r.to_string()))
    .collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn duplicate_record_ids_across_exclusion_files_are_reported() {
    let t = Tree::valid();
    t.write(
        "exclusions/E003.yaml",
        t.read(valid::DOCS_RECORD).replace("E002", "E003"),
    );
    t.set("exclusions/E003.yaml", "record_id", "E002");
    let run = t.check_in_process(&[]);
    // The copy repeats the identifier and title too; those are reported apart.
    let dups: Vec<_> = run
        .of("duplicate-key")
        .into_iter()
        .filter(|d| d.field.as_deref() == Some("record_id"))
        .collect();
    assert_eq!(dups.len(), 1, "{}", run.stdout);
    assert_eq!(dups[0].file, "exclusions/E003.yaml");
}

#[test]
fn layout_is_reported_only_in_a_file_without_errors() {
    let t = Tree::valid();
    // A list item at the key's indentation: out of the layout, in two files.
    for file in [valid::METHOD, valid::INDUSTRY] {
        t.replace(file, "urls:\n  - ", "urls:\n- ");
    }
    // An error in one of them: its layout waits until that is fixed.
    t.set(valid::INDUSTRY, "year", "2027");
    let run = t.check_in_process(&["--strict"]);
    let layout: Vec<String> = run
        .of("not-formatted")
        .into_iter()
        .map(|d| d.file)
        .collect();
    assert_eq!(layout, [valid::METHOD], "{}", show(&run));
    assert_eq!(run.of("year-range").len(), 1, "{}", show(&run));
}

#[test]
fn a_year_after_the_cutoff_year_is_out_of_range() {
    let t = Tree::valid();
    t.set(valid::INDUSTRY, "year", "2027");
    let d = t.check_in_process(&[]).single();
    assert_eq!(d.rule, "year-range");
    assert_eq!(d.field.as_deref(), Some("year"));
}

#[test]
fn a_missing_modeline_names_no_field() {
    let t = Tree::valid();
    t.replace(valid::METHOD, &format!("{MODELINE}\n"), "");
    let d = t.check_in_process(&[]).single();
    assert_eq!(d.rule, "schema-modeline");
    assert_eq!(d.field, None);
}
