//! `corpus diff`: what a change moves — entries and records added, removed
//! and changed field by field, every count and cross-tab cell that moves,
//! and every claim whose actual value or verdict changes.

use crate::model::claims::Verdict;
use crate::model::corpus::Corpus;
use crate::stats;
use serde::Serialize;
use std::collections::BTreeMap;

/// One field that changed on an entry or record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldChange {
    /// Field name.
    pub field: String,
    /// Old value (JSON text; empty when absent).
    pub old: String,
    /// New value (JSON text; empty when absent).
    pub new: String,
}

/// One changed entry or record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Changed {
    /// Key or record id.
    pub id: String,
    /// Its changed fields.
    pub fields: Vec<FieldChange>,
}

/// An item whose file is still there but no longer loads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Broken {
    /// Key or record id (as in the old corpus).
    pub id: String,
    /// Its file, relative to the root.
    pub file: String,
    /// The first error that keeps it from loading.
    pub error: String,
}

/// Added, removed and changed items of one kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ItemDiff {
    /// Keys present only in the new corpus.
    pub added: Vec<String>,
    /// Keys present only in the old corpus (their files are gone or name another key).
    pub removed: Vec<String>,
    /// Keys whose file is still there but no longer loads: not removed, broken.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub broken: Vec<Broken>,
    /// Keys whose file did not load in the old corpus and loads now: not
    /// added, repaired (`error` is the old problem).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repaired: Vec<Broken>,
    /// Keys present in both with different fields.
    pub changed: Vec<Changed>,
}

/// One figure that moved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Moved {
    /// Where the figure lives, e.g. `counts/credit_granularity/message`.
    pub cell: String,
    /// Old value.
    pub old: u64,
    /// New value.
    pub new: u64,
}

/// One claim whose actual value or verdict moved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClaimMove {
    /// Claim id.
    pub id: String,
    /// Expected outcome as written (new ledger).
    pub expected: String,
    /// Old actual count (None when the claim is new).
    pub old: Option<u64>,
    /// New actual count (None when the claim was removed).
    pub new: Option<u64>,
    /// Old verdict.
    pub old_holds: Option<bool>,
    /// New verdict.
    pub new_holds: Option<bool>,
}

/// Everything a change moves.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Diff {
    /// Entries.
    pub entries: ItemDiff,
    /// Exclusion records.
    pub exclusions: ItemDiff,
    /// Figures that moved (counts, cross-tab cells, exclusion counts, totals).
    pub figures: Vec<Moved>,
    /// Claims whose value or verdict moved.
    pub claims: Vec<ClaimMove>,
    /// Edits of the checks themselves: claim definitions, rules,
    /// severities, vocabularies, templates.
    pub review: crate::exchange::review::Review,
}

impl Diff {
    /// Whether nothing changed at all.
    pub fn is_empty(&self) -> bool {
        self.entries == ItemDiff::default()
            && self.exclusions == ItemDiff::default()
            && self.figures.is_empty()
            && self.claims.is_empty()
            && self.review.is_empty()
    }
}

fn fields_of<T: Serialize>(item: &T) -> BTreeMap<String, serde_json::Value> {
    match serde_json::to_value(item) {
        Ok(serde_json::Value::Object(m)) => m.into_iter().collect(),
        _ => BTreeMap::new(),
    }
}

fn show(v: Option<&serde_json::Value>) -> String {
    match v {
        None => String::new(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

fn item_diff<T: Serialize>(old: BTreeMap<String, &T>, new: BTreeMap<String, &T>) -> ItemDiff {
    let mut d = ItemDiff::default();
    for (k, n) in &new {
        match old.get(k) {
            None => d.added.push(k.clone()),
            Some(o) => {
                let (of, nf) = (fields_of(*o), fields_of(*n));
                let mut names: Vec<&String> = of.keys().chain(nf.keys()).collect();
                names.sort();
                names.dedup();
                let fields: Vec<FieldChange> = names
                    .into_iter()
                    .filter(|f| of.get(*f) != nf.get(*f))
                    .map(|f| FieldChange {
                        field: f.clone(),
                        old: show(of.get(f)),
                        new: show(nf.get(f)),
                    })
                    .collect();
                if !fields.is_empty() {
                    d.changed.push(Changed {
                        id: k.clone(),
                        fields,
                    });
                }
            }
        }
    }
    d.removed = old
        .keys()
        .filter(|k| !new.contains_key(*k))
        .cloned()
        .collect();
    d
}

/// The first error that keeps a file of a corpus from loading whole.
fn load_error(c: &Corpus, file: &str) -> Option<Broken> {
    c.diagnostics
        .iter()
        .find(|g| g.file == file && g.fails(false))
        .map(|g| Broken {
            id: String::new(),
            file: file.to_string(),
            error: g.message.clone(),
        })
}

/// Sorts out items whose file fails to load on either side. A paper whose
/// YAML broke was not deleted; one whose fields failed to load (a value of
/// the wrong type) did not change to a default; one whose file loads again
/// was not added. A job summary must say none of those.
fn split_broken(
    d: &mut ItemDiff,
    old_files: &BTreeMap<&str, &str>,
    new_files: &BTreeMap<&str, &str>,
    old: &Corpus,
    new: &Corpus,
) {
    let broken_in_new = |id: &str, files: &BTreeMap<&str, &str>| {
        files
            .get(id)
            .and_then(|f| load_error(new, f))
            .map(|b| Broken {
                id: id.to_string(),
                ..b
            })
    };
    for id in std::mem::take(&mut d.removed) {
        match broken_in_new(&id, old_files) {
            Some(b) => d.broken.push(b),
            None => d.removed.push(id),
        }
    }
    for c in std::mem::take(&mut d.changed) {
        if let Some(b) = broken_in_new(&c.id, new_files) {
            d.broken.push(b);
        } else if let Some(b) = old_files
            .get(c.id.as_str())
            .and_then(|f| load_error(old, f))
        {
            d.repaired.push(Broken { id: c.id, ..b });
        } else {
            d.changed.push(c);
        }
    }
    for id in std::mem::take(&mut d.added) {
        if let Some(b) = broken_in_new(&id, new_files) {
            d.broken.push(b);
        } else if let Some(b) = new_files.get(id.as_str()).and_then(|f| load_error(old, f)) {
            d.repaired.push(Broken { id, ..b });
        } else {
            d.added.push(id);
        }
    }
}

/// Flattens the stats JSON into `path → n`.
fn flatten(prefix: &str, v: &serde_json::Value, out: &mut BTreeMap<String, u64>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}/{k}")
                };
                flatten(&p, v, out);
            }
        }
        serde_json::Value::Number(n) => {
            out.insert(prefix.to_string(), n.as_u64().unwrap_or(0));
        }
        _ => {}
    }
}

fn verdicts(c: &Corpus) -> BTreeMap<String, Verdict> {
    c.verdicts()
        .iter()
        .map(|v| (v.id.clone(), v.clone()))
        .collect()
}

/// Compares two corpora.
pub fn diff(old: &Corpus, new: &Corpus) -> Diff {
    let entries = item_diff(
        old.entries
            .iter()
            .map(|e| (e.entry.key.clone(), &e.entry))
            .collect(),
        new.entries
            .iter()
            .map(|e| (e.entry.key.clone(), &e.entry))
            .collect(),
    );
    let exclusions = item_diff(
        old.exclusions
            .iter()
            .map(|x| (x.record.record_id.clone(), &x.record))
            .collect(),
        new.exclusions
            .iter()
            .map(|x| (x.record.record_id.clone(), &x.record))
            .collect(),
    );
    let files = |c: &'_ Corpus| -> BTreeMap<String, String> {
        c.entries
            .iter()
            .map(|e| (e.entry.key.clone(), c.file(e.file).rel.clone()))
            .chain(
                c.exclusions
                    .iter()
                    .map(|x| (x.record.record_id.clone(), c.file(x.file).rel.clone())),
            )
            .collect()
    };
    let (old_owned, new_owned) = (files(old), files(new));
    let old_files: BTreeMap<&str, &str> = old_owned
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let new_files: BTreeMap<&str, &str> = new_owned
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let mut entries = entries;
    let mut exclusions = exclusions;
    split_broken(&mut entries, &old_files, &new_files, old, new);
    split_broken(&mut exclusions, &old_files, &new_files, old, new);
    let (mut of, mut nf) = (BTreeMap::new(), BTreeMap::new());
    flatten(
        "",
        &crate::stats::render::json(&stats::of_corpus(old)),
        &mut of,
    );
    flatten(
        "",
        &crate::stats::render::json(&stats::of_corpus(new)),
        &mut nf,
    );
    let mut cells: Vec<&String> = of.keys().chain(nf.keys()).collect();
    cells.sort();
    cells.dedup();
    let figures = cells
        .into_iter()
        .filter_map(|c| {
            let (o, n) = (
                of.get(c).copied().unwrap_or(0),
                nf.get(c).copied().unwrap_or(0),
            );
            (o != n).then(|| Moved {
                cell: c.clone(),
                old: o,
                new: n,
            })
        })
        .collect();
    let (ov, nv) = (verdicts(old), verdicts(new));
    let mut ids: Vec<&String> = ov.keys().chain(nv.keys()).collect();
    ids.sort();
    ids.dedup();
    let claims = ids
        .into_iter()
        .filter_map(|id| {
            let (o, n) = (ov.get(id), nv.get(id));
            let moved = o.map(|v| (v.actual, v.holds)) != n.map(|v| (v.actual, v.holds));
            moved.then(|| ClaimMove {
                id: id.clone(),
                expected: n.or(o).map(|v| v.expected.clone()).unwrap_or_default(),
                old: o.map(|v| v.actual),
                new: n.map(|v| v.actual),
                old_holds: o.map(|v| v.holds),
                new_holds: n.map(|v| v.holds),
            })
        })
        .collect();
    Diff {
        entries,
        exclusions,
        figures,
        claims,
        review: crate::exchange::review::review(old, new),
    }
}

use crate::text::markdown::code_span;

fn cell_md(s: &str) -> String {
    crate::text::markdown::escape_markdown(s)
}

fn opt(n: Option<u64>) -> String {
    n.map(|n| n.to_string()).unwrap_or_else(|| "–".into())
}

fn verdict(h: Option<bool>) -> &'static str {
    match h {
        Some(true) => "holds",
        Some(false) => "**broken**",
        None => "–",
    }
}

/// The diff as a pull-request comment.
pub fn markdown(d: &Diff) -> String {
    let mut out = String::from("## Corpus diff\n\n");
    if d.is_empty() {
        out.push_str("No changes to entries, records, figures, claims, rules, severities, vocabularies or templates.\n");
        return out;
    }
    let r = &d.review;
    if !r.is_empty() {
        out.push_str(&format!(
            "**Checks edited:** {} claim definition(s), {} rule(s), {} severit(ies), {} vocabulary value(s), {} template(s); review these first.\n",
            r.claims.len(),
            r.rules.len(),
            r.severities.len(),
            r.vocabularies.len(),
            r.templates.len()
        ));
        out.push_str(&crate::exchange::review::markdown(r));
        out.push('\n');
    }
    let broken: Vec<&ClaimMove> = d
        .claims
        .iter()
        .filter(|c| c.new_holds == Some(false))
        .collect();
    let broken_files = d.entries.broken.len() + d.exclusions.broken.len();
    if broken_files > 0 {
        out.push_str(&format!(
            "**{broken_files} file(s) no longer load**, so this diff leaves them out; run `corpus check`.\n\n"
        ));
    }
    let repaired = d.entries.repaired.len() + d.exclusions.repaired.len();
    if repaired > 0 {
        out.push_str(&format!(
            "**{repaired} file(s) load again** that the base could not load; they are not counted as added.\n\n"
        ));
    }
    out.push_str(&format!(
        "**Entries:** {} added, {} removed, {} changed. **Exclusions:** {} added, {} removed, {} changed. **Figures moved:** {}. **Claims moved:** {}{}.\n",
        d.entries.added.len(),
        d.entries.removed.len(),
        d.entries.changed.len(),
        d.exclusions.added.len(),
        d.exclusions.removed.len(),
        d.exclusions.changed.len(),
        d.figures.len(),
        d.claims.len(),
        if broken.is_empty() { String::new() } else { format!(" ({} now broken)", broken.len()) }
    ));
    for (title, items) in [
        ("Entries", &d.entries),
        ("Exclusion records", &d.exclusions),
    ] {
        if *items == ItemDiff::default() {
            continue;
        }
        out.push_str(&format!(
            "\n### {title}\n\n| | key | field | old | new |\n|---|---|---|---|---|\n"
        ));
        for k in &items.added {
            out.push_str(&format!("| added | {} | | | |\n", code_span(k)));
        }
        for k in &items.removed {
            out.push_str(&format!("| removed | {} | | | |\n", code_span(k)));
        }
        for b in &items.broken {
            out.push_str(&format!(
                "| **broken** | {} | {} | | {} |\n",
                code_span(&b.id),
                crate::text::markdown::code_span(&b.file),
                cell_md(&b.error)
            ));
        }
        for b in &items.repaired {
            out.push_str(&format!(
                "| repaired | {} | {} | {} | |\n",
                code_span(&b.id),
                crate::text::markdown::code_span(&b.file),
                cell_md(&b.error)
            ));
        }
        for c in &items.changed {
            for f in &c.fields {
                out.push_str(&format!(
                    "| changed | {} | {} | {} | {} |\n",
                    code_span(&c.id),
                    crate::text::markdown::code_span(&f.field),
                    cell_md(&f.old),
                    cell_md(&f.new)
                ));
            }
        }
    }
    if !d.claims.is_empty() {
        out.push_str(
            "\n### Claims\n\n| claim | expected | old | new | verdict |\n|---|---|---:|---:|---|\n",
        );
        for c in &d.claims {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} → {} |\n",
                code_span(&c.id),
                crate::text::markdown::code_span(&c.expected),
                opt(c.old),
                opt(c.new),
                verdict(c.old_holds),
                verdict(c.new_holds)
            ));
        }
    }
    if !d.figures.is_empty() {
        out.push_str("\n### Figures\n\n| figure | old | new |\n|---|---:|---:|\n");
        for m in &d.figures {
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                crate::text::markdown::code_span(&m.cell),
                m.old,
                m.new
            ));
        }
    }
    out
}

/// The diff as plain text for a terminal.
pub fn text(d: &Diff) -> String {
    if d.is_empty() {
        return "no changes\n".into();
    }
    // Edits of the checks come first: they can make a check pass as surely as a data fix.
    let mut out = crate::exchange::review::text(&d.review);
    for (what, items) in [("entry", &d.entries), ("record", &d.exclusions)] {
        for k in &items.added {
            out.push_str(&format!("+ {what} {k}\n"));
        }
        for k in &items.removed {
            out.push_str(&format!("- {what} {k}\n"));
        }
        for b in &items.broken {
            out.push_str(&format!(
                "! {what} {} is broken: {}: {}\n",
                b.id, b.file, b.error
            ));
        }
        for b in &items.repaired {
            out.push_str(&format!(
                "* {what} {} loads again (the base could not load {}: {})\n",
                b.id, b.file, b.error
            ));
        }
        for c in &items.changed {
            for f in &c.fields {
                out.push_str(&format!(
                    "~ {what} {}: {}: {} -> {}\n",
                    c.id, f.field, f.old, f.new
                ));
            }
        }
    }
    for c in &d.claims {
        out.push_str(&format!(
            "claim {}: {} -> {} ({} -> {})\n",
            c.id,
            opt(c.old),
            opt(c.new),
            verdict(c.old_holds).trim_matches('*'),
            verdict(c.new_holds).trim_matches('*')
        ));
    }
    for m in &d.figures {
        out.push_str(&format!("{}: {} -> {}\n", m.cell, m.old, m.new));
    }
    out
}
