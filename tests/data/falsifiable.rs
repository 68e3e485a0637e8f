//! Every claim of the shipped ledger can fail: for each one a search finds
//! an edit of a single entry or record (one tag set to another value of the
//! vocabulary, a judged list grown or shrunk by one value, or the file
//! removed) after which the claim no longer holds while every other rule of
//! `check` stays as satisfied as before. `check` itself only decides this
//! from the claim's form (`claim-unfalsifiable`); this search is the proof
//! on the data, and its counterpart shows a claim of the refused form has no
//! such edit.

use crate::common::{repo, Tree};
use corpus_core::check::check;
use corpus_core::load::{parse, read_inputs, Inputs, LoadOptions};
use corpus_core::model::claims::{evaluate, Claim, Over, Pool};
use corpus_core::model::corpus::Corpus;
use corpus_core::model::fields;
use corpus_core::model::format::{format, FileKind};
use serde_yaml::{Mapping, Value};
use std::collections::BTreeSet;

/// Diagnostics that say something other than a claim's verdict, as
/// comparable strings.
fn other_findings(c: &Corpus) -> BTreeSet<String> {
    check(c)
        .diagnostics
        .into_iter()
        .filter(|d| !d.rule.starts_with("claim-"))
        .map(|d| format!("{} {} {}", d.rule, d.file, d.message))
        .collect()
}

/// The claim judged on the list it counts.
fn verdict(claim: &Claim, c: &Corpus) -> corpus_core::model::claims::Verdict {
    match claim.pool {
        Pool::Survey => evaluate(claim, &c.survey_entries(), &c.survey_exclusions()),
        Pool::Living => evaluate(claim, &c.entry_list(), &c.exclusion_list()),
    }
}

/// One single-file edit: the folder (0 entries, 1 records), the file's
/// index, and its new text (None: the file is removed).
struct Edit {
    folder: usize,
    index: usize,
    text: Option<String>,
    what: String,
}

/// The file's mapping with `field` set to `value` (Null removes it), in the
/// layout `corpus fmt` writes.
fn with_field(text: &str, kind: FileKind, set: &[(&str, Value)]) -> Option<String> {
    let mut map: Mapping = serde_yaml::from_str(text).ok()?;
    for (field, value) in set {
        if value.is_null() {
            map.remove(*field);
        } else {
            map.insert(Value::from(*field), value.clone());
        }
    }
    let body = serde_yaml::to_string(&map).ok()?;
    let head = if kind == FileKind::Entry {
        format!("{}\n", fields::MODELINE)
    } else {
        String::new()
    };
    format(&format!("{head}{body}"), kind).ok()
}

/// Every single-file edit that could move `claim`: its filter's fields (and
/// a judged field's source) set to each other value, and each file removed.
fn edits(inputs: &Inputs, c: &Corpus, claim: &Claim) -> Vec<Edit> {
    let tax = &c.taxonomy;
    let mut out = Vec::new();
    let folders: &[(usize, FileKind)] = match claim.over {
        Over::Entries => &[(0, FileKind::Entry)],
        Over::Exclusions => &[(1, FileKind::Record)],
        Over::Audited => &[(0, FileKind::Entry), (1, FileKind::Record)],
    };
    let filter_fields: BTreeSet<&str> = claim
        .filter
        .conditions
        .iter()
        .map(|c| c.field.as_str())
        .filter(|f| *f != fields::KEY)
        .collect();
    for &(folder, kind) in folders {
        for (index, (rel, read)) in inputs.folders[folder].files.iter().enumerate() {
            let Ok(text) = read else { continue };
            out.push(Edit {
                folder,
                index,
                text: None,
                what: format!("remove {rel}"),
            });
            let Ok(map) = serde_yaml::from_str::<Mapping>(text) else {
                continue;
            };
            for field in &filter_fields {
                let allowed = tax.allowed(field).unwrap_or_default();
                let current = map.get(*field);
                let source = corpus_core::model::JUDGED_TAGS
                    .iter()
                    .find(|(t, _)| t == field)
                    .map(|(_, s)| *s);
                let mut values: Vec<Value> = Vec::new();
                match current {
                    Some(Value::Sequence(list)) => {
                        for v in &allowed {
                            let v = Value::from(v.as_str());
                            let mut l = list.clone();
                            match l.iter().position(|x| *x == v) {
                                Some(i) => {
                                    l.remove(i);
                                }
                                None => l.push(v),
                            }
                            values.push(Value::Sequence(l));
                        }
                    }
                    _ => {
                        for v in &allowed {
                            if current.and_then(Value::as_str) != Some(v.as_str()) {
                                values.push(Value::from(v.as_str()));
                            }
                        }
                    }
                }
                for v in values {
                    let mut set = vec![(*field, v.clone())];
                    // A judgement made where there was none names its source.
                    if let (Some(s), None) = (source, current) {
                        let src = Value::from("contributor");
                        let one = s == fields::STRICT_CREDIT_SOURCE;
                        set.push((s, if one { src } else { Value::Sequence(vec![src]) }));
                    }
                    if let Some(t) = with_field(text, kind, &set) {
                        out.push(Edit {
                            folder,
                            index,
                            text: Some(t),
                            what: format!(
                                "{rel}: {field} = {}",
                                serde_yaml::to_string(&v).unwrap_or_default().trim()
                            ),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The first edit after which `claim` fails and no other finding appears.
fn falsifying_edit(inputs: &mut Inputs, base: &BTreeSet<String>, claim: &Claim) -> Option<String> {
    let corpus = parse(inputs).expect("the shipped corpus loads");
    let mut candidates = edits(inputs, &corpus, claim);
    // Edits of the files the claim counts are tried first: they move it.
    let matching: BTreeSet<String> = corpus
        .verdicts()
        .iter()
        .find(|v| v.id == claim.id)
        .map(|v| v.matching.iter().cloned().collect())
        .unwrap_or_default();
    candidates.sort_by_key(|e| {
        let rel = &inputs.folders[e.folder].files[e.index].0;
        let stem = rel
            .rsplit('/')
            .next()
            .unwrap_or("")
            .trim_end_matches(".yaml");
        (!matching.contains(stem), e.text.is_none())
    });
    for edit in candidates {
        let slot = &mut inputs.folders[edit.folder].files;
        let saved = match &edit.text {
            Some(t) => std::mem::replace(&mut slot[edit.index].1, Ok(t.as_str().into())),
            None => Ok("".into()),
        };
        let removed = edit.text.is_none().then(|| slot.remove(edit.index));
        let names_saved = removed.as_ref().map(|(rel, _)| {
            let name = rel.rsplit('/').next().unwrap_or("").to_string();
            if let Ok(names) = &mut inputs.folders[edit.folder].names {
                names.retain(|n| *n != name);
            }
            name
        });
        let fails = parse(inputs).ok().is_some_and(|c| {
            let v = verdict(claim, &c);
            !v.holds && other_findings(&c) == *base
        });
        // Restore the file before the next edit.
        let slot = &mut inputs.folders[edit.folder].files;
        match removed {
            Some(file) => {
                slot.insert(edit.index, file);
                if let (Some(name), Ok(names)) =
                    (names_saved, &mut inputs.folders[edit.folder].names)
                {
                    names.push(name);
                    names.sort();
                }
            }
            None => slot[edit.index].1 = saved,
        }
        if fails {
            return Some(edit.what);
        }
    }
    None
}

#[test]
fn every_claim_has_a_falsifying_edit() {
    let mut inputs = read_inputs(&repo(), LoadOptions::default());
    let corpus = parse(&inputs).expect("the shipped corpus loads");
    let base = other_findings(&corpus);
    let (ledger, _) = corpus
        .claims
        .clone()
        .expect("the shipped corpus has a ledger");
    assert!(ledger.claims.len() >= 15);
    let mut unfalsified = Vec::new();
    for claim in &ledger.claims {
        match falsifying_edit(&mut inputs, &base, claim) {
            Some(edit) => eprintln!("{}: fails after {edit}", claim.id),
            None => unfalsified.push(claim.id.clone()),
        }
    }
    assert!(
        unfalsified.is_empty(),
        "no single edit breaks: {unfalsified:?}"
    );
}

#[test]
fn a_claim_check_refuses_has_no_falsifying_edit() {
    // The search tries every edit when none breaks the claim, each one a
    // full parse: it runs on the valid fixture with a third record (two at
    // the abstract screen) rather than on the shipped corpus, where the same
    // search takes a minute of a debug build. The refused form is the same:
    // at least n with n + 1 matching.
    let t = Tree::valid();
    t.write(
        "exclusions/E003.yaml",
        "record_id: E003\ntitle: Another Prompted Committee\nidentifier: arXiv:2404.05551\nurl: https://arxiv.org/abs/2404.05551\nsource: arXiv\nquery_family: multi-agent LLM\ndate_screened: \"2026-04-20\"\nstage: abstract_screen\nreason: A fixture record, prompting only, nothing is trained.\n",
    );
    let mut inputs = read_inputs(t.root(), LoadOptions::default());
    let corpus = parse(&inputs).expect("the fixture loads");
    let base = other_findings(&corpus);
    // Two records were excluded at the abstract screen: one edit leaves one.
    let text = "claims:\n  - id: loose\n    source: this_project\n    locator: a test\n    statement: The abstract screen excluded at least one record.\n    over: exclusions\n    where: {stage: abstract_screen}\n    expect: {count: \">= 1\"}\n    boundary: A test.\n";
    let ledger = corpus_core::model::claims::parse(text).expect("the claim parses");
    let claim = &ledger.claims[0];
    let verdict = verdict(claim, &corpus);
    assert!(verdict.holds && verdict.actual == 2, "{verdict:?}");
    assert!(corpus_core::model::claims::unfalsifiable(claim, &verdict).is_some());
    // Every record removed, or moved to each other stage: twelve edits.
    assert_eq!(edits(&inputs, &corpus, claim).len(), 12);
    assert_eq!(falsifying_edit(&mut inputs, &base, claim), None);
}
