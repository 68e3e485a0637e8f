//! The BibTeX export is the bibliography the survey cites: every citation
//! key of the artifact's `papers/papers.bib` (its facts kept in
//! `tests/fixtures/survey/papers-bib.tsv`) with the artifact's entry type
//! and year, and the artifact's named authors in the artifact's order within
//! a list completed from arXiv; no sole author followed by "others"; no venue
//! field repeating the year. BibTeX itself compiles the export against the same
//! keys in `tests/python/test_ecosystem.py`.

use crate::common::{fixture_dir, repo, run_in};
use std::collections::BTreeMap;

/// One exported record: its type, key and fields (one `name = {value},` line each).
struct Record {
    kind: String,
    key: String,
    fields: BTreeMap<String, String>,
}

/// The records of the export, read line by line in the layout it writes.
fn records(text: &str) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::new();
    for line in text.lines() {
        if let Some(head) = line.strip_prefix('@') {
            let (kind, key) = head.split_once('{').expect("@type{key,");
            out.push(Record {
                kind: kind.to_string(),
                key: key.trim_end_matches(',').to_string(),
                fields: BTreeMap::new(),
            });
        } else if let Some((name, value)) = line.trim().split_once(" = ") {
            let value = value.trim().trim_end_matches(',');
            let value = value.strip_prefix('{').and_then(|v| v.strip_suffix('}'));
            let r = out.last_mut().expect("a field inside a record");
            r.fields
                .insert(name.trim().to_string(), value.expect("braced").to_string());
        }
    }
    out
}

/// The artifact's rows: key, type, year and the authors as a list.
fn artifact() -> Vec<(String, String, String, Vec<String>)> {
    let text = std::fs::read_to_string(fixture_dir("survey").join("papers-bib.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            assert_eq!(cells.len(), 4, "{l}");
            let authors = cells[3].split(" and ").map(str::to_string).collect();
            (cells[0].into(), cells[1].into(), cells[2].into(), authors)
        })
        .collect()
}

fn export() -> String {
    let run = run_in(&repo(), Some(&repo()), &["export", "--format", "bibtex"]);
    run.assert_code(0);
    run.stdout
}

/// An exported author field as a list of names, an organisation's braces removed.
fn names(field: &str) -> Vec<String> {
    field
        .split(" and ")
        .map(|n| {
            n.strip_prefix('{')
                .and_then(|n| n.strip_suffix('}'))
                .unwrap_or(n)
                .to_string()
        })
        .collect()
}

/// Entries whose list still ends in `others` because no source reproducing
/// arXiv's author line was found for them (see the fixtures README).
const STILL_CUT_SHORT: [(&str, &str); 2] = [
    (
        "artifactsbench2025",
        "the stored copies disagree on how many authors arXiv lists (20 or 32)",
    ),
    (
        "mtu-bench2025",
        "the stored copies split two of arXiv's names differently",
    ),
];

/// Entries where the artifact names its authors in another order than arXiv:
/// all its names are in our list, but not as a subsequence.
const ARTIFACT_ORDER_DIFFERS: [(&str, &str); 1] = [(
    "survey-agentic-rl2025",
    "the artifact names Torr before Wang; arXiv lists Jun Wang 22nd and Philip Torr 24th",
)];

/// Whether `part` appears in `whole` in the same order, gaps allowed.
fn is_subsequence(part: &[String], whole: &[String]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|p| rest.any(|w| w == p))
}

#[test]
fn every_artifact_key_is_exported_with_its_type_year_and_authors() {
    let text = export();
    let exported: BTreeMap<String, Record> = records(&text)
        .into_iter()
        .map(|r| (r.key.clone(), r))
        .collect();
    let rows = artifact();
    assert_eq!(rows.len(), 84, "the artifact's bibliography has 84 entries");
    assert_eq!(exported.len(), rows.len(), "one record per entry");
    let others = "others".to_string();
    for (key, kind, year, authors) in &rows {
        let r = exported
            .get(key)
            .unwrap_or_else(|| panic!("`\\cite{{{key}}}` finds no record"));
        assert_eq!(&r.kind, kind, "{key}: entry type");
        assert_eq!(&r.fields["year"], year, "{key}: year");
        let ours = names(&r.fields["author"]);
        if authors.last() != Some(&others) {
            assert_eq!(&ours, authors, "{key}: the artifact's full list");
            continue;
        }
        let named = &authors[..authors.len() - 1];
        assert_eq!(ours[0], named[0], "{key}: first author");
        if ARTIFACT_ORDER_DIFFERS.iter().any(|(k, _)| k == key) {
            assert!(
                !is_subsequence(named, &ours),
                "{key}: now in the artifact's order; drop it from ARTIFACT_ORDER_DIFFERS"
            );
            for n in named {
                assert!(ours.contains(n), "{key}: {n} missing from {ours:?}");
            }
        } else {
            assert!(
                is_subsequence(named, &ours),
                "{key}: the artifact's names {named:?} are not in order in {ours:?}"
            );
        }
        let cut_short = STILL_CUT_SHORT.iter().any(|(k, _)| k == key);
        assert_eq!(
            ours.last() == Some(&others),
            cut_short,
            "{key}: ends in `others` only while no arXiv author list was found"
        );
    }
}

#[test]
fn the_still_cut_short_keys_are_artifact_keys_cut_short() {
    let rows = artifact();
    for (key, reason) in STILL_CUT_SHORT.iter().chain(ARTIFACT_ORDER_DIFFERS.iter()) {
        assert!(!reason.is_empty());
        let row = rows.iter().find(|r| &r.0 == key);
        let authors = &row.unwrap_or_else(|| panic!("{key} is no artifact key")).3;
        assert_eq!(authors.last().map(String::as_str), Some("others"), "{key}");
    }
}

#[test]
fn only_lists_the_artifact_cut_short_end_in_others() {
    let text = export();
    let mut sole = 0;
    for r in records(&text) {
        let names = names(&r.fields["author"]);
        if names.len() == 1 {
            sole += 1;
        }
        assert!(
            !names[..names.len() - 1].contains(&"others".to_string()),
            "{}: `others` before the last name",
            r.key
        );
        assert!(
            names.len() > 1 || names[0] != "others",
            "{}: no author but others",
            r.key
        );
    }
    // AgentSpawn is a sole-author paper; organisations are single names too.
    assert!(sole >= 10, "{sole} records with one author");
    let agentspawn = records(&text)
        .into_iter()
        .find(|r| r.key == "agentspawn2026")
        .expect("agentspawn2026");
    assert_eq!(agentspawn.fields["author"], "Costa, Igor");
}

#[test]
fn no_venue_field_repeats_the_year() {
    for r in records(&export()) {
        let year = &r.fields["year"];
        for field in ["journal", "booktitle", "note"] {
            if let Some(v) = r.fields.get(field) {
                let words: Vec<&str> = v.split(|c: char| !c.is_ascii_alphanumeric()).collect();
                assert!(!words.contains(&year.as_str()), "{}: {field} = {v}", r.key);
            }
        }
    }
}

#[test]
fn a_misc_record_shows_its_link_in_howpublished() {
    for r in records(&export()).iter().filter(|r| r.kind == "misc") {
        let shown = &r.fields["howpublished"];
        assert_eq!(shown, &format!("\\url{{{}}}", r.fields["url"]), "{}", r.key);
    }
}

#[test]
fn the_export_of_the_shipped_corpus_is_pinned() {
    insta::assert_snapshot!("survey_bibliography", export());
}
