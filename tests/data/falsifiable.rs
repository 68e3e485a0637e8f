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
use corpus_core::load::examples::Traces;
use corpus_core::load::{parse, read_inputs, Folder, Inputs, LoadOptions, Outputs};
use corpus_core::model::claims::{evaluate, Claim, Over, Pool};
use corpus_core::model::corpus::Corpus;
use corpus_core::model::fields;
use corpus_core::model::format::{format, FileKind};
use corpus_core::model::{Entry, Exclusion};
use corpus_io::reader::ReadError;
use serde_yaml::{Mapping, Value};
use std::collections::{BTreeSet, HashMap};

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
/// index, and the fields it sets (None: the file is removed). The new text
/// is written only when the edit is tried: a claim has hundreds of edits and
/// the search tries a few.
struct Edit {
    folder: usize,
    index: usize,
    set: Option<Vec<(String, Value)>>,
}

impl Edit {
    /// The edited file's root-relative path.
    fn rel<'a>(&self, inputs: &'a Inputs) -> &'a str {
        &inputs.folders[self.folder].files[self.index].0
    }

    /// The file's new text (None: removed), or None when the file is
    /// unread or its new fields cannot be written out.
    fn text(&self, inputs: &Inputs) -> Option<Option<String>> {
        let Some(set) = &self.set else {
            return Some(None);
        };
        let read = inputs.folders[self.folder].files[self.index]
            .1
            .as_ref()
            .ok()?;
        let kind = [FileKind::Entry, FileKind::Record][self.folder];
        let set: Vec<(&str, Value)> = set.iter().map(|(f, v)| (f.as_str(), v.clone())).collect();
        with_field(read, kind, &set).map(Some)
    }

    /// The edit in words, for a report.
    fn what(&self, inputs: &Inputs) -> String {
        let rel = self.rel(inputs);
        match self.set.as_ref().and_then(|s| s.first()) {
            Some((field, v)) => {
                let v = serde_yaml::to_string(v).unwrap_or_default();
                format!("{rel}: {field} = {}", v.trim())
            }
            None => format!("remove {rel}"),
        }
    }
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
    let folders: &[usize] = match claim.over {
        Over::Entries => &[0],
        Over::Exclusions => &[1],
        Over::Audited => &[0, 1],
    };
    let filter_fields: BTreeSet<&str> = claim
        .filter
        .conditions
        .iter()
        .map(|c| c.field.as_str())
        .filter(|f| *f != fields::KEY)
        .collect();
    for &folder in folders {
        for (index, (_, read)) in inputs.folders[folder].files.iter().enumerate() {
            let Ok(text) = read else { continue };
            out.push(Edit {
                folder,
                index,
                set: None,
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
                    let mut set = vec![(field.to_string(), v)];
                    // A judgement made where there was none names its source.
                    if let (Some(s), None) = (source, current) {
                        let src = Value::from("contributor");
                        let one = s == fields::STRICT_CREDIT_SOURCE;
                        let src = if one { src } else { Value::Sequence(vec![src]) };
                        set.push((s.to_string(), src));
                    }
                    out.push(Edit {
                        folder,
                        index,
                        set: Some(set),
                    });
                }
            }
        }
    }
    out
}

/// How the search judges an edit.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Search {
    /// Every edit on the whole corpus parsed again and checked.
    Exhaustive,
    /// A first look at the claim alone (`verdict_after`) passes over an
    /// edit after which the claim still holds; any other edit is judged as
    /// in the exhaustive search. Most edits leave the claim standing, and
    /// the first look costs the parse of one file rather than the corpus.
    FirstLook,
}

/// The claim's verdict after `edit` gave the file `text` (None: removed),
/// from `corpus` (the unedited corpus `inputs` gives) with only the edited
/// file parsed again: alone, with the taxonomy, its entry or record takes
/// the place of the one the corpus holds (none when the edit removes the
/// file or its new text does not parse into one). The pools are those of
/// the unedited corpus.
fn verdict_after(
    corpus: &Corpus,
    inputs: &Inputs,
    claim: &Claim,
    edit: &Edit,
    text: Option<&str>,
) -> corpus_core::model::claims::Verdict {
    let rel = edit.rel(inputs);
    let edited = text.and_then(|text| {
        let name = rel.rsplit('/').next().unwrap_or_default().to_string();
        let folder = |i: usize| Folder {
            dir: inputs.folders[i].dir,
            names: Ok(if i == edit.folder {
                vec![name.clone()]
            } else {
                Vec::new()
            }),
            not_utf8: Vec::new(),
            files: if i == edit.folder {
                vec![(rel.to_string(), Ok(text.into()))]
            } else {
                Vec::new()
            },
        };
        let alone = Inputs {
            root: inputs.root.clone(),
            opts: inputs.opts,
            taxonomy: Ok(inputs.taxonomy.as_ref().ok()?.clone()),
            folders: [folder(0), folder(1)],
            claims: None,
            survey: None,
            locators: None,
            search: None,
            status: None,
            releases: None,
            traces: Traces {
                native: Ok(Vec::new()),
                otlp: Ok(Vec::new()),
                runs: Ok(Vec::new()),
            },
            templates: Ok(Vec::new()),
            previous: Outputs {
                changelog_present: false,
                changelog: Err(ReadError::Missing),
                manifest: Err(ReadError::Missing),
                man_page: None,
            },
        };
        parse(&alone).ok()
    });
    let kept = |file: usize| corpus.files[file].rel != *rel;
    let in_pool =
        |added_in: Option<&str>| claim.pool == Pool::Living || corpus.in_survey_pool(added_in);
    let entries: Vec<&Entry> = corpus
        .entries
        .iter()
        .filter(|e| kept(e.file))
        .map(|e| &e.entry)
        .chain(
            edited
                .iter()
                .flat_map(|c| c.entries.iter().map(|e| &e.entry)),
        )
        .filter(|e| in_pool(e.added_in.as_deref()))
        .collect();
    let records: Vec<&Exclusion> = corpus
        .exclusions
        .iter()
        .filter(|x| kept(x.file))
        .map(|x| &x.record)
        .chain(
            edited
                .iter()
                .flat_map(|c| c.exclusions.iter().map(|x| &x.record)),
        )
        .filter(|x| in_pool(x.added_in.as_deref()))
        .collect();
    evaluate(claim, &entries, &records)
}

/// What the whole corpus parsed again after one edit says, for every claim
/// of a search: None when it does not load or another finding appears
/// (then the edit falsifies no claim), else whether each claim still holds.
type Parsed = Option<Vec<bool>>;

/// The full parses of one search over several claims, by edit (folder,
/// file, new text): the claims of a ledger share most of their edits (the
/// same entries' same fields), and a full parse is the slow part, so each
/// edited corpus is parsed and checked once for all of them.
struct Parses<'a> {
    claims: &'a [Claim],
    done: HashMap<(usize, usize, Option<String>), Parsed>,
}

impl<'a> Parses<'a> {
    fn of(claims: &'a [Claim]) -> Parses<'a> {
        Parses {
            claims,
            done: HashMap::new(),
        }
    }
}

/// The first edit after which `claim` (one of `parses.claims`) fails and no
/// other finding appears; `corpus` is the unedited corpus `inputs` gives,
/// and `base` its findings.
fn falsifying_edit(
    inputs: &mut Inputs,
    corpus: &Corpus,
    base: &BTreeSet<String>,
    parses: &mut Parses,
    claim: &Claim,
    search: Search,
) -> Option<String> {
    let which = parses
        .claims
        .iter()
        .position(|c| c.id == claim.id)
        .expect("the claim is one of the search's");
    let mut candidates = edits(inputs, corpus, claim);
    // Edits of the files the claim counts are tried first: they move it.
    let matching: BTreeSet<String> = corpus
        .verdicts()
        .iter()
        .find(|v| v.id == claim.id)
        .map(|v| v.matching.iter().cloned().collect())
        .unwrap_or_default();
    candidates.sort_by_key(|e| {
        let stem = e
            .rel(inputs)
            .rsplit('/')
            .next()
            .unwrap_or("")
            .trim_end_matches(".yaml");
        (!matching.contains(stem), e.set.is_none())
    });
    for edit in candidates {
        let Some(text) = edit.text(inputs) else {
            continue;
        };
        if search == Search::FirstLook
            && verdict_after(corpus, inputs, claim, &edit, text.as_deref()).holds
        {
            continue;
        }
        let what = edit.what(inputs);
        let key = (edit.folder, edit.index, text.clone());
        if let Some(parsed) = parses.done.get(&key) {
            if parsed.as_ref().is_some_and(|holds| !holds[which]) {
                return Some(what);
            }
            continue;
        }
        let slot = &mut inputs.folders[edit.folder].files;
        let saved = match &text {
            Some(t) => std::mem::replace(&mut slot[edit.index].1, Ok(t.as_str().into())),
            None => Ok("".into()),
        };
        let removed = text.is_none().then(|| slot.remove(edit.index));
        let names_saved = removed.as_ref().map(|(rel, _)| {
            let name = rel.rsplit('/').next().unwrap_or("").to_string();
            if let Ok(names) = &mut inputs.folders[edit.folder].names {
                names.retain(|n| *n != name);
            }
            name
        });
        let parsed: Parsed = parse(inputs)
            .ok()
            .filter(|c| other_findings(c) == *base)
            .map(|c| {
                parses
                    .claims
                    .iter()
                    .map(|cl| verdict(cl, &c).holds)
                    .collect()
            });
        let fails = parsed.as_ref().is_some_and(|holds| !holds[which]);
        parses.done.insert(key, parsed);
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
            return Some(what);
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
    let mut parses = Parses::of(&ledger.claims);
    for claim in &ledger.claims {
        match falsifying_edit(
            &mut inputs,
            &corpus,
            &base,
            &mut parses,
            claim,
            Search::FirstLook,
        ) {
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
    let now = verdict(claim, &corpus);
    assert!(now.holds && now.actual == 2, "{now:?}");
    assert!(corpus_core::model::claims::unfalsifiable(claim, &now).is_some());
    // Every record removed, or moved to each other stage: twelve edits.
    let edits = edits(&inputs, &corpus, claim);
    assert_eq!(edits.len(), 12);
    assert_eq!(
        falsifying_edit(
            &mut inputs,
            &corpus,
            &base,
            &mut Parses::of(std::slice::from_ref(claim)),
            claim,
            Search::Exhaustive
        ),
        None
    );
    // The first look agrees with the whole corpus parsed again, edit by
    // edit, on what the claim counts.
    for edit in &edits {
        let text = edit.text(&inputs).expect("each edit can be written");
        let whole = {
            let mut t = read_inputs(t.root(), LoadOptions::default());
            let files = &mut t.folders[edit.folder].files;
            match &text {
                Some(text) => files[edit.index].1 = Ok(text.as_str().into()),
                None => {
                    let (rel, _) = files.remove(edit.index);
                    if let Ok(names) = &mut t.folders[edit.folder].names {
                        names.retain(|n| !rel.ends_with(&format!("/{n}")));
                    }
                }
            }
            verdict(claim, &parse(&t).expect("the edited fixture loads"))
        };
        let first_look = verdict_after(&corpus, &inputs, claim, edit, text.as_deref());
        assert_eq!(
            (first_look.holds, first_look.actual, &first_look.matching),
            (whole.holds, whole.actual, &whole.matching),
            "{}",
            edit.what(&inputs)
        );
    }
}
