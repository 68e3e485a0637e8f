//! Untrusted content (`trusted: false`) reaching returns and aggregates
//! without passing a safety_event, within a work budget.

use super::MAX_LISTED_PAIRS;
use crate::graph::DepGraph;
use crate::{EventKind, Trace};
use std::rc::Rc;

/// Work budget of the untrusted-flow analysis, in set entries built.
const UNTRUSTED_BUDGET: usize = 1 << 24;

/// The pairs found, as event indices.
pub(super) struct Flow {
    pub(super) count: usize,
    pub(super) listed: Vec<(u32, u32)>,
    pub(super) exact: bool,
}

/// Which untrusted events reach which returns and aggregates without a safety_event.
///
/// Each node gets the sorted set of untrusted events reaching it, pushed
/// along dependency edges in topological order; a safety_event's set is empty,
/// which is what blocks the flow. Nodes that cannot reach a return or
/// aggregate without a safety_event are pruned first (one reverse pass), and a
/// node with a single non-empty input shares its predecessor's set (`Rc`)
/// instead of copying it, so chains cost nothing. Cost: O(V + E) plus the
/// size of the sets merged at join points, which is bounded by
/// `UNTRUSTED_BUDGET`; past it the analysis stops and reports `exact: false`.
/// The count of pairs is the sum of the set sizes at returns/aggregates, so
/// it is never enumerated beyond the listed pairs.
pub(super) fn untrusted(trace: &Trace, graph: &DepGraph, order: &[u32]) -> Flow {
    let n = trace.events.len();
    let kind = |v: usize| trace.events[v].kind;
    let is_sink = |v: usize| matches!(kind(v), EventKind::Return | EventKind::Aggregate);
    let is_safety = |v: usize| kind(v) == EventKind::SafetyEvent;

    // useful[v]: v's content can reach a sink without passing a safety_event.
    let mut useful = vec![false; n];
    for &v in order.iter().rev() {
        let v = v as usize;
        if is_safety(v) {
            continue;
        }
        useful[v] = graph
            .successors(v)
            .iter()
            .any(|&(d, _)| is_sink(d as usize) || useful[d as usize]);
    }

    let mut incoming: Vec<Option<Rc<Vec<u32>>>> = vec![None; n];
    let mut done = vec![false; n];
    let mut flow = Flow {
        count: 0,
        listed: Vec::new(),
        exact: true,
    };
    let mut budget = UNTRUSTED_BUDGET;
    for &v in order {
        let v = v as usize;
        done[v] = true;
        let reaching = incoming[v].take();
        if is_sink(v) {
            if let Some(set) = &reaching {
                flow.count += set.len();
                for &s in set.iter() {
                    if flow.listed.len() >= MAX_LISTED_PAIRS {
                        break;
                    }
                    flow.listed.push((s, v as u32));
                }
            }
        }
        if is_safety(v) || !useful[v] {
            continue;
        }
        let own = if trace.events[v].trusted == Some(false) {
            let mut set = reaching.as_deref().cloned().unwrap_or_default();
            if let Err(at) = set.binary_search(&(v as u32)) {
                set.insert(at, v as u32);
            }
            budget = budget.saturating_sub(set.len());
            Some(Rc::new(set))
        } else {
            reaching
        };
        let Some(own) = own else {
            continue;
        };
        for &(d, _) in graph.successors(v) {
            let d = d as usize;
            if done[d] || !(useful[d] || is_sink(d)) {
                continue;
            }
            incoming[d] = Some(match incoming[d].take() {
                None => Rc::clone(&own),
                Some(old) if Rc::ptr_eq(&old, &own) => old,
                Some(old) => {
                    let merged = union(&old, &own);
                    budget = budget.saturating_sub(merged.len());
                    Rc::new(merged)
                }
            });
        }
        if budget == 0 {
            flow.exact = false;
            break;
        }
    }
    flow
}

fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}
