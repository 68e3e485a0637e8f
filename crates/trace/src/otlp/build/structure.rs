//! Structure checks of one trace id's spans: unique span ids, parents that
//! exist, no cycles through parent ids, clocks that run forwards; and the
//! span tree they leave, children ordered by start time.

use super::{reporter, Problem, NONE};
use crate::otlp::decode::{Pos, Span};
use corpus_diagnostics::diag::Severity;
use corpus_diagnostics::rules::Rule;
use std::collections::HashMap;

/// The span tree of one trace id, in local indices.
pub(super) struct Tree {
    /// Local index of each span id.
    pub(super) by_id: HashMap<u64, usize>,
    /// Parent of each span, or NONE for a root.
    pub(super) parent: Vec<u32>,
    /// Children of span `p` are `children[child_count[p]..child_count[p + 1]]`.
    pub(super) child_count: Vec<u32>,
    /// Children of every span, ordered by start time.
    pub(super) children: Vec<u32>,
    /// Roots, ordered by start time.
    pub(super) roots: Vec<u32>,
}

/// Checks the spans' structure, reporting every problem; `None` when one
/// of them keeps the trace from being built (or there are no spans).
pub(super) fn check(
    all: &[(Span, Pos)],
    members: &[u32],
    problems: &mut Vec<Problem>,
) -> Option<Tree> {
    let n = members.len();
    let span = |i: usize| &all[members[i] as usize].0;
    let global = |i: usize| Some(members[i]);
    let mut fatal = false;
    let mut problem = reporter(problems);

    // Ids: unique within the trace.
    let mut by_id: HashMap<u64, usize> = HashMap::with_capacity(n);
    for i in 0..n {
        let s = span(i);
        if s.id == 0 {
            fatal = true; // reported when decoded
            continue;
        }
        if let Some(&first) = by_id.get(&s.id) {
            fatal = true;
            let at = all[members[first] as usize].1.pointer();
            problem(
                global(i),
                Rule::OtlpDuplicateSpan,
                Severity::Error,
                format!("span id {:016x} is already used by the span at {at}", s.id),
                "every span of a trace needs its own spanId; the trace was not imported",
            );
        } else {
            by_id.insert(s.id, i);
        }
        if s.start == 0 || s.end == 0 {
            fatal = true; // reported when decoded
        }
    }

    // Parents: a missing parent makes the span a root.
    let mut parent: Vec<u32> = vec![NONE; n];
    for (i, slot) in parent.iter_mut().enumerate() {
        let Some(p) = span(i).parent else { continue };
        match by_id.get(&p) {
            Some(&pi) if pi != i => *slot = pi as u32,
            Some(_) => {
                fatal = true;
                problem(
                    global(i),
                    Rule::OtlpParentCycle,
                    Severity::Error,
                    format!("span {:016x} is its own parent", span(i).id),
                    "a span's parentSpanId must name another span; the trace was not imported",
                );
            }
            None => problem(
                global(i),
                Rule::OtlpMissingParent,
                Severity::Warning,
                format!(
                    "span {:016x} names parent {p:016x}, which is not in the input; it is imported as a root",
                    span(i).id
                ),
                "export the whole trace (a sampler or a split file may have dropped the parent)",
            ),
        }
    }

    // Children, ordered by start time; a walk from the roots reaches every span
    // unless parent ids run in a cycle.
    // An A2A server span that is a root of its own trace and links to a span
    // of another trace in the input (the A2A client's, when the context was
    // not propagated) is that span's child: the request crossed processes.
    for (i, slot) in parent.iter_mut().enumerate() {
        if *slot == NONE {
            if let Some(j) = adopted_parent(span(i), &by_id) {
                *slot = j as u32;
            }
        }
    }

    let mut child_count = vec![0u32; n + 1];
    for &p in &parent {
        if p != NONE {
            child_count[p as usize + 1] += 1;
        }
    }
    for i in 0..n {
        child_count[i + 1] += child_count[i];
    }
    let mut fill = child_count.clone();
    let mut children = vec![0u32; child_count[n] as usize];
    for (i, &p) in parent.iter().enumerate() {
        if p != NONE {
            children[fill[p as usize] as usize] = i as u32;
            fill[p as usize] += 1;
        }
    }
    let kids = |p: usize| child_count[p] as usize..child_count[p + 1] as usize;
    for p in 0..n {
        children[kids(p)].sort_by_key(|&c| (span(c as usize).start, c));
    }
    let mut roots: Vec<u32> = (0..n as u32)
        .filter(|&i| parent[i as usize] == NONE)
        .collect();
    roots.sort_by_key(|&r| (span(r as usize).start, r));

    let mut reached = vec![false; n];
    let mut stack: Vec<u32> = roots.clone();
    while let Some(v) = stack.pop() {
        reached[v as usize] = true;
        stack.extend_from_slice(&children[kids(v as usize)]);
    }
    let mut in_cycle_reported = vec![false; n];
    for start in 0..n {
        if reached[start] || in_cycle_reported[start] {
            continue;
        }
        fatal = true;
        // Walk up the parents until a span repeats: that loop is the cycle.
        let mut seen: HashMap<usize, usize> = HashMap::new();
        let mut path = Vec::new();
        let mut v = start;
        while !seen.contains_key(&v) && !in_cycle_reported[v] {
            seen.insert(v, path.len());
            path.push(v);
            if parent[v] == NONE {
                break;
            }
            v = parent[v] as usize;
        }
        for &p in &path {
            in_cycle_reported[p] = true;
        }
        if let Some(&from) = seen.get(&v) {
            let cycle = &path[from..];
            let mut ids: Vec<String> = cycle
                .iter()
                .take(8)
                .map(|&c| format!("{:016x}", span(c).id))
                .collect();
            if cycle.len() > 8 {
                ids.push(format!("… ({} more)", cycle.len() - 8));
            }
            ids.push(format!("{:016x}", span(cycle[0]).id));
            problem(
                global(cycle[0]),
                Rule::OtlpParentCycle,
                Severity::Error,
                format!("parent ids run in a cycle: {}", ids.join(" -> ")),
                "parentSpanId must point up a tree; the trace was not imported",
            );
        }
    }

    // Clocks: a span ends after it starts and starts no earlier than its parent.
    for i in 0..n {
        let s = span(i);
        if s.start == 0 || s.end == 0 {
            continue;
        }
        if s.end < s.start {
            fatal = true;
            problem(
                global(i),
                Rule::OtlpClock,
                Severity::Error,
                format!(
                    "span {:016x} ends {} ns before it starts",
                    s.id,
                    s.start - s.end
                ),
                "the clock ran backwards; the trace was not imported",
            );
        }
        let p = parent[i];
        if p != NONE && reached[i] {
            let ps = span(p as usize);
            if ps.start > 0 && s.start < ps.start {
                fatal = true;
                problem(
                    global(i),
                    Rule::OtlpClock,
                    Severity::Error,
                    format!(
                        "span {:016x} starts {} ns before its parent {:016x}",
                        s.id,
                        ps.start - s.start,
                        ps.id
                    ),
                    "the clocks of parent and child disagree; the trace was not imported",
                );
            }
        }
    }
    if fatal || n == 0 {
        return None;
    }
    Some(Tree {
        by_id,
        parent,
        child_count,
        children,
        roots,
    })
}

/// The span an A2A server span is adopted by: the first span of another trace
/// it links to, when the input holds it and the span has no parent of its own.
pub(crate) fn adopted_parent(s: &Span, by_id: &HashMap<u64, usize>) -> Option<usize> {
    if s.parent.is_some_and(|p| by_id.contains_key(&p)) {
        return None;
    }
    if crate::otlp::mapping::role_of(s, crate::otlp::mapping::Convention::GenAi)
        .is_none_or(|o| o.role != crate::otlp::mapping::Role::A2aServer)
    {
        return None;
    }
    s.links
        .iter()
        .filter(|l| l.trace != s.trace)
        .find_map(|l| by_id.get(&l.span).copied())
}
