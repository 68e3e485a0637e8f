//! The BibTeX export is the bibliography the survey cites: every citation
//! key of the artifact's `papers/papers.bib` (its facts kept in
//! `tests/fixtures/survey/papers-bib.tsv`) with the artifact's entry type,
//! year and authors; no sole author followed by "others"; no venue field
//! repeating the year. BibTeX itself compiles the export against the same
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
    for (key, kind, year, authors) in &rows {
        let r = exported
            .get(key)
            .unwrap_or_else(|| panic!("`\\cite{{{key}}}` finds no record"));
        assert_eq!(&r.kind, kind, "{key}: entry type");
        assert_eq!(&r.fields["year"], year, "{key}: year");
        assert_eq!(&names(&r.fields["author"]), authors, "{key}: authors");
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
