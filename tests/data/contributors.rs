//! What a contributor and other tools meet: `corpus new`, the editor schema,
//! and `corpus export` (CSV round-trip, JSON, BibTeX).

use crate::common::{self, corpus_cmd as corpus, repo as manifest, Tree};

/// A root holding only the project's taxonomy.
fn empty_root() -> Tree {
    Tree::taxonomy_only()
}

fn json_lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(out)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_scaffold_fails_only_on_the_fields_left_to_fill_in() {
    let root = empty_root();
    corpus(root.root())
        .args([
            "new",
            "my-paper",
            "--arxiv",
            "2601.01234",
            "--category",
            "rl_method",
        ])
        .assert()
        .success();
    let out = corpus(root.root())
        .args(["check", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let diags = json_lines(&out.stdout);
    let mut fields: Vec<&str> = diags.iter().map(|d| d["field"].as_str().unwrap()).collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "affiliation",
            "credit_granularity",
            "first_author",
            "is_core",
            "is_rl",
            "one_liner",
            "orchestration_form",
            "reward_type",
            "scenario",
            "title",
            "venue",
            "verified"
        ]
    );
    assert!(diags.iter().all(|d| d["rule"] == "missing-field"));
    assert!(diags
        .iter()
        .all(|d| d["message"].as_str().unwrap().contains("still empty")));
}

#[test]
fn a_filled_in_scaffold_passes_check() {
    let root = empty_root();
    corpus(root.root())
        .args(["new", "filled", "--arxiv", "2601.01234"])
        .assert()
        .success();
    let path = root.root().join("corpus/papers/filled.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let fill = [
        ("title", "A Filled In Paper"),
        ("first_author", "Doe, Jane"),
        ("authors", "\n  - Doe, Jane"),
        ("affiliation", "Example University"),
        ("venue", "arXiv"),
        ("category", "rl_method"),
        ("is_rl", "partial"),
        ("reward_type", "shared"),
        ("credit_granularity", "agent"),
        ("orchestration_form", "centralized"),
        ("scenario", "general"),
        ("is_core", "supporting"),
        ("verified", "partial"),
        ("subdecisions", "[]"),
        // A list in block style, the layout `corpus fmt` writes.
        ("subdecisions_source", "\n  - contributor"),
        ("one_liner", "A paper written to test the scaffold."),
    ];
    let filled: String = text
        .lines()
        .map(|l| {
            let hit = fill.iter().find(|(f, _)| l.starts_with(&format!("{f}:")));
            match hit {
                Some((f, v)) if v.starts_with('\n') => format!("{f}:{v}\n"),
                Some((f, v)) => format!("{f}: {v}\n"),
                None => format!("{l}\n"),
            }
        })
        .collect();
    std::fs::write(&path, filled).unwrap();
    corpus(root.root())
        .args(["check", "--strict"])
        .assert()
        .success();
}

#[test]
fn new_refuses_existing_files_and_keys_that_could_escape_the_folder() {
    let root = empty_root();
    corpus(root.root()).args(["new", "one"]).assert().success();
    let before = std::fs::read(root.root().join("corpus/papers/one.yaml")).unwrap();
    // An existing key is a refusal to run (2), not a problem in the data.
    corpus(root.root()).args(["new", "one"]).assert().code(2);
    assert_eq!(
        std::fs::read(root.root().join("corpus/papers/one.yaml")).unwrap(),
        before
    );
    for bad in ["../evil", "Upper", "a/b", "a--b", ""] {
        corpus(root.root()).args(["new", bad]).assert().code(2);
    }
    assert!(!root.root().join("corpus/evil.yaml").exists());
}

fn schema_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(manifest().join("corpus/entry.schema.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn yaml_as_json(text: &str) -> serde_json::Value {
    let v: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
    serde_json::to_value(v).unwrap()
}

#[test]
fn every_shipped_entry_validates_against_the_committed_schema() {
    let v = schema_validator();
    let mut n = 0;
    for e in std::fs::read_dir(manifest().join("corpus/papers")).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# yaml-language-server: $schema=../entry.schema.json\n"));
        let errors: Vec<String> = v
            .iter_errors(&yaml_as_json(&text))
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        n += 1;
    }
    assert_eq!(n, common::yaml_files("corpus/papers"));
}

#[test]
fn the_schema_rejects_a_wrong_tag_and_an_unknown_field() {
    let v = schema_validator();
    let text = std::fs::read_to_string(manifest().join("corpus/papers/magrpo.yaml")).unwrap();
    let bad_tag = text.replace("reward_type: shared", "reward_type: shard");
    assert!(!v.is_valid(&yaml_as_json(&bad_tag)));
    let bad_field = text.replace("venue: arXiv", "venue: arXiv\nvenu: arXiv");
    assert!(!v.is_valid(&yaml_as_json(&bad_field)));
    assert!(v.is_valid(&yaml_as_json(&text)));
}

#[test]
fn the_schema_command_prints_the_committed_schema() {
    let out = corpus(&manifest()).arg("schema").output().unwrap();
    assert!(out.status.success());
    let committed = std::fs::read(manifest().join("corpus/entry.schema.json")).unwrap();
    assert_eq!(out.stdout, committed);
}

/// Copies the shipped corpus data into a temporary root.
fn shipped_copy() -> Tree {
    Tree::data_copy()
}

#[test]
fn export_then_import_gives_back_identical_yaml() {
    let src = shipped_copy();
    let csv_dir = crate::common::scratch();
    let papers = csv_dir.path().join("papers.csv");
    let excluded = csv_dir.path().join("excluded.csv");
    corpus(src.root())
        .args(["export", "--format", "csv", "--out"])
        .arg(&papers)
        .assert()
        .success();
    corpus(src.root())
        .args(["export", "--format", "csv", "--exclusions", "--out"])
        .arg(&excluded)
        .assert()
        .success();
    let dst = empty_root();
    corpus(dst.root())
        .args(["import", "--papers"])
        .arg(&papers)
        .arg("--excluded")
        .arg(&excluded)
        .assert()
        .success();
    // What import writes is what check accepts, beside the runs its entries link.
    common::copy_tree(&src.path("traces/runs"), &dst.path("traces/runs"));
    corpus(dst.root()).arg("check").assert().success();
    for sub in ["corpus/papers", "exclusions"] {
        let mut names: Vec<_> = std::fs::read_dir(src.root().join(sub))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert!(!names.is_empty());
        for n in names {
            let a = std::fs::read_to_string(src.root().join(sub).join(&n)).unwrap();
            let b = std::fs::read_to_string(dst.root().join(sub).join(&n)).unwrap();
            assert_eq!(a, b, "{sub}/{}", n.to_string_lossy());
        }
    }
}

#[test]
fn export_out_never_overwrites_without_force() {
    let dir = crate::common::scratch();
    let out = dir.path().join("mine.json");
    std::fs::write(&out, "precious").unwrap();
    corpus(&manifest())
        .args(["export", "--format", "json", "--out"])
        .arg(&out)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    corpus(&manifest())
        .args(["export", "--format", "json", "--force", "--out"])
        .arg(&out)
        .assert()
        .success();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        doc["entries"].as_array().unwrap().len(),
        common::yaml_files("corpus/papers")
    );
    assert_eq!(
        doc["exclusions"].as_array().unwrap().len(),
        common::yaml_files("exclusions")
    );
}

#[test]
fn bibtex_export_parses_with_a_real_bibtex_parser() {
    let out = corpus(&manifest())
        .args(["export", "--format", "bibtex"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let bib = biblatex::Bibliography::parse(&text).expect("the export parses as BibTeX");
    assert_eq!(bib.len(), common::yaml_files("corpus/papers"));
    let magrpo = bib.get("magrpo2025").unwrap();
    assert_eq!(magrpo.entry_type, biblatex::EntryType::Article);
    let puppeteer = bib.get("puppeteer2025").unwrap();
    assert_eq!(puppeteer.entry_type, biblatex::EntryType::InProceedings);
    let blog = bib.get("anthropic-c-compiler2026").unwrap();
    assert_eq!(blog.entry_type, biblatex::EntryType::Misc);
    assert!(text.contains("journal       = {arXiv preprint arXiv:2508.04652}"));
    assert!(text.contains("{LLM} Collaboration"));
}

#[test]
fn import_refuses_a_record_id_that_check_would_reject() {
    // `E1` is not the record-id format check holds files to; import must not
    // write an `exclusions/E1.yaml` that the next check rejects.
    let csv_dir = crate::common::scratch();
    let excluded = csv_dir.path().join("excluded.csv");
    std::fs::write(
        &excluded,
        "record_id,source,query_family,screening_label,identifier,url,date_screened,stage,exclusion_reason\n\
         E1,arXiv,multi-agent LLM,A title,arXiv:2305.14325,https://arxiv.org/abs/2305.14325,2026-04-26,abstract_screen,out of scope\n",
    )
    .unwrap();
    let dst = empty_root();
    let out = corpus(dst.root())
        .args(["import", "--excluded"])
        .arg(&excluded)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("record_id `E1` must be E followed by at least three digits"),
        "{out}"
    );
    assert!(!dst.root().join("exclusions/E1.yaml").exists());
}

#[test]
fn a_failed_import_counts_rows_and_problems_apart_and_names_the_rows() {
    // Three rows, each on one line; the second has two problems (no title,
    // no is_core), the third one (a repeated key). The summary must not call
    // three problems three bad rows.
    let csv_dir = crate::common::scratch();
    let papers = csv_dir.path().join("papers.csv");
    let src = shipped_copy();
    corpus(src.root())
        .args(["export", "--format", "csv", "--out"])
        .arg(&papers)
        .assert()
        .success();
    let mut r = csv::Reader::from_path(&papers).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut rows: Vec<Vec<String>> = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect::<Vec<_>>())
        .filter(|cells| cells.iter().all(|c| !c.contains('\n')))
        .take(3)
        .collect();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    rows[1][col("title")] = String::new();
    rows[1][col("is_core")] = String::new();
    rows[2][col("key")] = rows[0][col("key")].clone();
    let mut w = csv::Writer::from_path(&papers).unwrap();
    w.write_record(&header).unwrap();
    for row in &rows {
        w.write_record(row).unwrap();
    }
    w.flush().unwrap();

    let dst = empty_root();
    let out = corpus(dst.root())
        .args(["import", "--papers"])
        .arg(&papers)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("3 problem(s) in 2 of 3 row(s) of"),
        "rows and problems apart: {out}"
    );
    assert!(out.contains("(lines 3, 4)"), "the failing rows: {out}");
    assert!(
        !dst.root()
            .join("corpus/papers/.")
            .read_dir()
            .is_ok_and(|mut d| d.next().is_some()),
        "nothing was written"
    );
}

/// Text with Markdown escapes and line breaks taken out, for comparing one
/// sentence across a YAML file, Markdown and YAML comments.
fn plain_words(text: &str) -> String {
    text.replace('\\', "")
        .replace("\n# ", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn each_judged_tag_has_one_criterion_shown_word_for_word_where_it_is_written() {
    let text = std::fs::read_to_string(manifest().join("corpus/taxonomy.yaml")).unwrap();
    let tax = corpus_core::model::taxonomy::Taxonomy::from_yaml(&text).unwrap();
    let readme = plain_words(&std::fs::read_to_string(manifest().join("README.md")).unwrap());
    let contributing =
        plain_words(&std::fs::read_to_string(manifest().join("CONTRIBUTING.md")).unwrap());
    let root = empty_root();
    corpus(root.root())
        .args(["new", "judged"])
        .assert()
        .success();
    let scaffold = plain_words(&root.read("corpus/papers/judged.yaml"));
    for tag in ["subdecisions", "strict_credit"] {
        let rule = plain_words(&tax.criteria[tag]);
        assert!(readme.contains(&rule), "README lacks the {tag} criterion");
        assert!(
            contributing.contains(&rule),
            "CONTRIBUTING lacks the {tag} criterion"
        );
        assert!(
            scaffold.contains(&format!("{tag} criterion: {rule}")),
            "`corpus new` lacks the {tag} criterion:\n{scaffold}"
        );
    }
    // The vocabulary of strict credit keeps the ledger's three readings.
    assert_eq!(
        tax.values("strict_credit").unwrap(),
        ["strict", "near_strict", "no"]
    );
}
