//! The critical path: events on the longest dependency path.

use crate::graph::DepGraph;

/// Events on the longest dependency path; isolated events are paths of 1.
pub(super) fn critical_steps(graph: &DepGraph, order: &[u32]) -> usize {
    let mut longest = vec![1usize; graph.len()];
    let mut done = vec![false; graph.len()];
    for &v in order {
        let v = v as usize;
        done[v] = true;
        for &(d, _) in graph.successors(v) {
            // On a cycle, edges back to finished nodes are ignored.
            if !done[d as usize] {
                longest[d as usize] = longest[d as usize].max(longest[v] + 1);
            }
        }
    }
    longest.into_iter().max().unwrap_or(0)
}
