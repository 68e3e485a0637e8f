//! Span links carried over as message edges between the events that stand for the two spans.

use super::structure::Tree;
use super::walk::Walked;
use super::{reporter, Problem, NONE};
use crate::otlp::decode::{Pos, Span};
use crate::EdgeKind;
use corpus_diagnostics::diag::Severity;
use corpus_diagnostics::rules::Rule;

/// Adds the message edges of the spans' links; returns how many links
/// point into other traces.
pub(super) fn link(
    all: &[(Span, Pos)],
    members: &[u32],
    tree: &Tree,
    walked: &mut Walked,
    problems: &mut Vec<Problem>,
) -> usize {
    let n = members.len();
    let span = |i: usize| &all[members[i] as usize].0;
    let global = |i: usize| Some(members[i]);
    let mut problem = reporter(problems);
    let by_id = &tree.by_id;
    let Walked {
        events,
        edges,
        mapped,
        rep,
        ..
    } = walked;

    // Links become message edges between the events that stand for the two spans.
    let mut cross_trace_links = 0usize;
    for i in 0..n {
        let s = span(i);
        for l in &s.links {
            // The link that made the span a child of another trace's span is the tree's edge now.
            let p = tree.parent[i];
            if p != NONE && s.parent.is_none_or(|q| q != span(p as usize).id) {
                let ps = span(p as usize);
                if (ps.trace, ps.id) == (l.trace, l.span) {
                    continue;
                }
            }
            if l.trace != s.trace {
                cross_trace_links += 1;
                continue;
            }
            let Some(&j) = by_id.get(&l.span) else {
                problem(
                    global(i),
                    Rule::OtlpLinkDropped,
                    Severity::Warning,
                    format!(
                        "span {:016x} links to span {:016x}, which is not in the input",
                        s.id, l.span
                    ),
                    "export the linked span too, or ignore the warning",
                );
                continue;
            };
            let (ri, rj) = (rep[i], rep[j]);
            let reason = if ri == NONE || rj == NONE {
                Some("one of the spans maps to no event and has no mapped ancestor".to_string())
            } else {
                let dst = mapped[ri as usize].entry;
                let dt = events[dst as usize].t;
                let m = mapped[rj as usize];
                let src = [m.exit, m.entry]
                    .into_iter()
                    .find(|&e| events[e as usize].t <= dt && e != dst);
                match src {
                    Some(src) => {
                        edges.push((src, dst, EdgeKind::Message));
                        None
                    }
                    None if m.entry == dst || m.exit == dst => {
                        Some("both spans stand for the same event".to_string())
                    }
                    None => {
                        Some("the linked span starts after the linking span's event".to_string())
                    }
                }
            };
            if let Some(reason) = reason {
                problem(
                    global(i),
                    Rule::OtlpLinkDropped,
                    Severity::Warning,
                    format!(
                        "the link from span {:016x} to span {:016x} carries over as no edge: {reason}",
                        s.id, l.span
                    ),
                    "links become message edges only forward in time between mapped spans",
                );
            }
        }
    }
    cross_trace_links
}
