//! An import's problems before they are placed: capped per rule, then
//! located in their input by line, column and JSON pointer.

use super::{decode, Src};
use corpus_diagnostics::diag::Diagnostic;
use std::collections::{BTreeMap, HashMap};

/// Diagnostics of one rule in one input shown at most; the rest are counted.
pub(super) const MAX_PER_RULE: usize = 50;

/// Depth of a span in a document: resourceSpans/i/scopeSpans/j/spans/k.
const SPAN_DEPTH: usize = 6;

/// A problem before it is located: input index, position of the span (if
/// any), an extra pointer suffix, and the diagnostic without a location.
pub(super) struct Pending {
    pub(super) input: u32,
    pub(super) pos: Option<decode::Pos>,
    pub(super) suffix: String,
    pub(super) diag: Diagnostic,
}

/// Keeps at most MAX_PER_RULE diagnostics per (input, rule); the rest are
/// counted in notes, one per (input, rule), which are not problems themselves:
/// they go after the report, in its summary.
pub(super) fn cap(pending: Vec<Pending>) -> (Vec<Pending>, Vec<String>) {
    let mut seen: HashMap<(u32, String), usize> = HashMap::new();
    let mut files: HashMap<u32, String> = HashMap::new();
    let mut kept = Vec::new();
    for p in pending {
        files.entry(p.input).or_insert_with(|| p.diag.file.clone());
        let n = seen.entry((p.input, p.diag.rule.clone())).or_insert(0);
        *n += 1;
        if *n <= MAX_PER_RULE {
            kept.push(p);
        }
    }
    let mut over: Vec<((u32, String), usize)> = seen
        .into_iter()
        .filter(|(_, n)| *n > MAX_PER_RULE)
        .collect();
    over.sort();
    let notes = over
        .into_iter()
        .map(|((input, rule), n)| {
            let file = files.get(&input).map_or("", String::as_str);
            format!(
                "{file}: {} more `{rule}` problem(s) like the ones above, not shown",
                n - MAX_PER_RULE
            )
        })
        .collect();
    (kept, notes)
}

/// Gives every span diagnostic its line, column and JSON pointer; fails
/// only when an input file cannot be read again.
pub(super) fn locate(
    inputs: &[Src],
    docs: &[decode::Doc],
    pending: Vec<Pending>,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    // Group pointers by document so each document is scanned once.
    let mut by_doc: BTreeMap<(u32, usize), Vec<usize>> = BTreeMap::new();
    for (k, p) in pending.iter().enumerate() {
        if let Some(pos) = p.pos {
            by_doc
                .entry((p.input, docs[pos.doc as usize].start))
                .or_default()
                .push(k);
        }
    }
    // The documents are read again, one pass over each input that has some.
    let mut texts: BTreeMap<(u32, usize), (usize, Vec<u8>)> = BTreeMap::new();
    let mut starts: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for &(input, start) in by_doc.keys() {
        starts.entry(input).or_default().push(start);
    }
    for (input, starts) in starts {
        let src = inputs[input as usize];
        let found = decode::documents_at(src.open()?, &starts)
            .map_err(|e| super::read_failure(src.label(), &e))?;
        for (start, doc) in starts.into_iter().zip(found) {
            if let Some(doc) = doc {
                texts.insert((input, start), doc);
            }
        }
    }
    let mut places: Vec<Option<(usize, usize)>> = vec![None; pending.len()];
    let mut pointers: Vec<Option<String>> = vec![None; pending.len()];
    for (key, ks) in by_doc {
        let Some((lead, doc)) = texts.get(&key) else {
            continue;
        };
        let ptrs: Vec<String> = ks
            .iter()
            .map(|&k| {
                let p = &pending[k];
                let pos = p.pos.expect("grouped by position");
                format!("{}{}", pos.pointer(), p.suffix)
            })
            .collect();
        let refs: Vec<&str> = ptrs.iter().map(String::as_str).collect();
        // Index down to the spans arrays: pointers into one large array cost one scan of it.
        let found = crate::locate::locate_indexed(doc, &refs, SPAN_DEPTH);
        for ((&k, place), ptr) in ks.iter().zip(found).zip(ptrs) {
            let doc_line = pending[k].pos.map_or(1, |p| docs[p.doc as usize].line);
            // The first line of a document may start mid-line.
            places[k] = place.map(|(l, c)| {
                let col = if l == 1 { c + lead } else { c };
                (doc_line + l - 1, col)
            });
            pointers[k] = Some(ptr);
        }
    }
    Ok(pending
        .into_iter()
        .zip(places.into_iter().zip(pointers))
        .map(|(p, (place, ptr))| {
            let mut d = p.diag;
            if let Some(ptr) = ptr {
                d = d.field(ptr);
            }
            if let Some((l, c)) = place {
                d = d.at(l, c);
            }
            d
        })
        .collect())
}
