//! The spawn tree: agents, spawned agents, its depth and the widest fan-out.

use crate::{EventKind, Trace};

/// The figures of a trace's spawn tree.
pub(super) struct SpawnTree {
    pub(super) agents: usize,
    pub(super) spawned: usize,
    pub(super) depth: usize,
    pub(super) fan_out: usize,
}

/// The spawn tree: an agent's parent is the agent of its earliest spawn.
pub(super) fn spawn_tree(trace: &Trace) -> SpawnTree {
    let n = trace.agent_count();
    let mut present = vec![false; n];
    let mut parent: Vec<Option<u32>> = vec![None; n];
    let mut spawned = vec![false; n];
    let mut spawns: Vec<usize> = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        // A tool_result's actor is the tool (or the agent it answers, which
        // acts elsewhere too): tools are not agents.
        if e.kind != EventKind::ToolResult {
            present[e.agent as usize] = true;
        }
        if e.kind == EventKind::Spawn {
            if let Some(to) = e.to.get().filter(|&a| !trace.agent_name(a).is_empty()) {
                present[to as usize] = true;
                spawned[to as usize] = true;
                spawns.push(i);
            }
        }
    }
    spawns.sort_by(|&a, &b| {
        trace.events[a]
            .t
            .total_cmp(&trace.events[b].t)
            .then(a.cmp(&b))
    });
    for &i in &spawns {
        let e = &trace.events[i];
        if let Some(to) = e.to.get() {
            if parent[to as usize].is_none() && to != e.agent {
                parent[to as usize] = Some(e.agent);
            }
        }
    }
    let mut children = vec![0usize; n];
    for p in parent.iter().flatten() {
        children[*p as usize] += 1;
    }

    // Depths by walking up to a known depth; a spawn cycle (no root) is cut
    // where the walk meets itself, which is then treated as a root.
    const UNKNOWN: usize = usize::MAX;
    const ON_PATH: usize = usize::MAX - 1;
    let mut depth = vec![UNKNOWN; n];
    let mut path: Vec<u32> = Vec::new();
    for start in 0..n as u32 {
        let mut v = start;
        let mut base = loop {
            match depth[v as usize] {
                UNKNOWN => {}
                ON_PATH => break 0,
                d => break d + 1,
            }
            match parent[v as usize] {
                None => {
                    depth[v as usize] = 0;
                    break 1;
                }
                Some(p) => {
                    depth[v as usize] = ON_PATH;
                    path.push(v);
                    v = p;
                }
            }
        };
        // Unwind: the node nearest the known part gets `base`, and so on outwards.
        while let Some(u) = path.pop() {
            depth[u as usize] = base;
            base += 1;
        }
    }
    let max_depth = (0..n)
        .filter(|&a| spawned[a])
        .map(|a| depth[a])
        .max()
        .unwrap_or(0);
    SpawnTree {
        agents: present.iter().filter(|&&p| p).count(),
        spawned: spawned.iter().filter(|&&s| s).count(),
        depth: max_depth,
        fan_out: children.into_iter().max().unwrap_or(0),
    }
}
