//! Graph rules of a trace that a JSON Schema cannot express, and the
//! dependency graph shared with the metrics.
//!
//! Rules (all errors): unique event ids; edges name existing events; no
//! self-loops; dependency edges (every type but `temporal`) go forward in time
//! and form no cycle; a spawn names the spawned agent in `to`; a spawned agent
//! does not act before its spawn; a despawn stops an agent that was spawned;
//! a message names `from` and `to`; declared tool-call and message counts
//! match the events. Each rule is linear in the size of the trace.

use super::finding::Finding;
use super::model::End;
use super::{EventKind, Trace};
use corpus_diagnostics::rules::Rule;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The dependency graph: non-temporal edges with both ends resolved, minus self-loops.
pub(crate) struct DepGraph {
    /// Successors of node `v` are `succ[start[v]..start[v + 1]]`, as (node, edge index).
    start: Vec<u32>,
    succ: Vec<(u32, u32)>,
}

impl DepGraph {
    /// Builds the graph in compressed sparse rows (two passes, no per-node vectors).
    pub fn new(trace: &Trace) -> Self {
        let n = trace.events.len();
        let mut start = vec![0u32; n + 1];
        let deps =
            || {
                trace.edges.iter().enumerate().filter_map(|(k, e)| {
                    match (e.src.get(), e.dst.get()) {
                        (Some(s), Some(d)) if s != d && e.kind.is_dependency() => {
                            Some((s, d, k as u32))
                        }
                        _ => None,
                    }
                })
            };
        for (s, _, _) in deps() {
            start[s as usize + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut succ = vec![(0u32, 0u32); start[n] as usize];
        for (s, d, k) in deps() {
            let slot = &mut fill[s as usize];
            succ[*slot as usize] = (d, k);
            *slot += 1;
        }
        DepGraph { start, succ }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Successors of `v` with the index of the edge leading there.
    pub fn successors(&self, v: usize) -> &[(u32, u32)] {
        &self.succ[self.start[v] as usize..self.start[v + 1] as usize]
    }

    /// A processing order: a topological order of the acyclic part (Kahn,
    /// ties broken by index), then the nodes on or behind cycles by index.
    /// Returns the order and how many nodes are in its acyclic prefix.
    pub fn order(&self) -> (Vec<u32>, usize) {
        let n = self.len();
        let mut indegree = vec![0u32; n];
        for &(d, _) in &self.succ {
            indegree[d as usize] += 1;
        }
        let mut order: Vec<u32> = (0..n as u32)
            .filter(|&v| indegree[v as usize] == 0)
            .collect();
        let mut head = 0;
        while head < order.len() {
            let v = order[head] as usize;
            head += 1;
            for &(d, _) in self.successors(v) {
                indegree[d as usize] -= 1;
                if indegree[d as usize] == 0 {
                    order.push(d);
                }
            }
        }
        let acyclic = order.len();
        order.extend((0..n as u32).filter(|&v| indegree[v as usize] > 0));
        (order, acyclic)
    }

    /// One cycle, as the edge indices along it, if the graph has any.
    pub fn find_cycle(&self) -> Option<Vec<u32>> {
        let (order, acyclic) = self.order();
        if acyclic == order.len() {
            return None;
        }
        // Every node left over by Kahn has a predecessor that is left over too,
        // so walking predecessors from one of them must come back on itself.
        let n = self.len();
        let mut left = vec![false; n];
        for &v in &order[acyclic..] {
            left[v as usize] = true;
        }
        let mut pred: Vec<Option<(u32, u32)>> = vec![None; n];
        for v in 0..n {
            if !left[v] {
                continue;
            }
            for &(d, k) in self.successors(v) {
                if left[d as usize] && pred[d as usize].is_none() {
                    pred[d as usize] = Some((v as u32, k));
                }
            }
        }
        let mut seen_at: HashMap<u32, usize> = HashMap::new();
        let mut walk: Vec<u32> = Vec::new();
        let mut v = order[acyclic];
        loop {
            if let Some(&i) = seen_at.get(&v) {
                let mut cycle: Vec<u32> = walk[i..].to_vec();
                cycle.reverse();
                return Some(cycle);
            }
            seen_at.insert(v, walk.len());
            let (p, k) = pred[v as usize]?;
            walk.push(k);
            v = p;
        }
    }
}

fn t(x: f64) -> String {
    format!("{x}")
}

/// Every graph-rule problem of `trace`, in rule order.
pub(crate) fn check(trace: &Trace) -> Vec<Finding> {
    let mut out = Vec::new();
    duplicate_ids(trace, &mut out);
    edges(trace, &mut out);
    cycle(trace, &mut out);
    spawns(trace, &mut out);
    messages(trace, &mut out);
    costs(trace, &mut out);
    out
}

fn duplicate_ids(trace: &Trace, out: &mut Vec<Finding>) {
    for &(dup, first) in &trace.duplicate_ids {
        out.push(
            Finding::error(
                Rule::TraceDuplicateId,
                format!("/events/{dup}/id"),
                format!(
                    "event id \"{}\" is already used by /events/{first}",
                    trace.event_id(dup)
                ),
            )
            .help("give every event its own id; edges resolve to the first one"),
        );
    }
}

fn edges(trace: &Trace, out: &mut Vec<Finding>) {
    for u in &trace.unresolved {
        out.push(
            Finding::error(
                Rule::TraceDanglingEdge,
                format!("/edges/{}/{}", u.edge, u.end.key()),
                format!("edge {} \"{}\" names no event", u.end.key(), u.name),
            )
            .help("point the edge at the id of an event in this trace"),
        );
    }
    let id = |i: u32| trace.event_id(i);
    let names = |k: usize| -> (String, String) {
        let name = |end: End| {
            let resolved = match end {
                End::Src => trace.edges[k].src.get(),
                End::Dst => trace.edges[k].dst.get(),
            };
            match resolved {
                Some(i) => id(i).to_string(),
                None => {
                    // `unresolved` is sorted by (edge, end): binary search keeps this linear overall.
                    let key = (k as u32, end == End::Dst);
                    let at = trace
                        .unresolved
                        .partition_point(|u| (u.edge, u.end == End::Dst) < key);
                    trace
                        .unresolved
                        .get(at)
                        .filter(|u| (u.edge, u.end == End::Dst) == key)
                        .map_or(String::new(), |u| u.name.to_string())
                }
            }
        };
        (name(End::Src), name(End::Dst))
    };
    for (k, e) in trace.edges.iter().enumerate() {
        let self_loop = match (e.src.get(), e.dst.get()) {
            (Some(s), Some(d)) => s == d,
            (None, None) => {
                let (s, d) = names(k);
                s == d
            }
            _ => false,
        };
        if self_loop {
            let (s, _) = names(k);
            out.push(
                Finding::error(
                    Rule::TraceSelfLoop,
                    format!("/edges/{k}"),
                    format!("{} edge from \"{s}\" to itself", e.kind.as_str()),
                )
                .help("an event cannot depend on itself; remove the edge or fix one end"),
            );
            continue;
        }
        if let (Some(s), Some(d), true) = (e.src.get(), e.dst.get(), e.kind.is_dependency()) {
            let (ts, td) = (trace.events[s as usize].t, trace.events[d as usize].t);
            if ts > td {
                out.push(
                    Finding::error(
                        Rule::TraceTimeOrder,
                        format!("/edges/{k}"),
                        format!(
                            "{} edge {} -> {} goes back in time (t={} -> t={})",
                            e.kind.as_str(),
                            id(s),
                            id(d),
                            t(ts),
                            t(td)
                        ),
                    )
                    .help("dependency edges point from the earlier event to the later one; swap src and dst or fix a time"),
                );
            }
        }
    }
}

/// Ids listed in a cycle message at most; a long cycle is elided in the middle.
const MAX_CYCLE_IDS: usize = 12;

fn cycle(trace: &Trace, out: &mut Vec<Finding>) {
    let Some(cycle) = DepGraph::new(trace).find_cycle() else {
        return;
    };
    let id = |k: u32| -> &str {
        let e = &trace.edges[k as usize];
        e.src.get().map_or("", |s| trace.event_id(s))
    };
    let mut path = String::new();
    for (i, &k) in cycle.iter().enumerate() {
        if cycle.len() > MAX_CYCLE_IDS && i == MAX_CYCLE_IDS / 2 {
            let _ = write!(path, "… ({} more) -> ", cycle.len() - MAX_CYCLE_IDS);
        }
        if cycle.len() <= MAX_CYCLE_IDS
            || i < MAX_CYCLE_IDS / 2
            || i >= cycle.len() - MAX_CYCLE_IDS / 2
        {
            let _ = write!(path, "{} -> ", id(k));
        }
    }
    path.push_str(id(cycle[0]));
    out.push(
        Finding::error(
            Rule::TraceCycle,
            format!("/edges/{}", cycle[0]),
            format!("dependency edges form a cycle: {path}"),
        )
        .help("a trace's dependencies cannot loop; reverse one edge or make it temporal"),
    );
}

fn spawns(trace: &Trace, out: &mut Vec<Finding>) {
    // Earliest spawn time of every agent, by interned name.
    let mut spawned_at: Vec<Option<f64>> = vec![None; trace.agent_count()];
    for (i, e) in trace.events.iter().enumerate() {
        if e.kind != EventKind::Spawn {
            continue;
        }
        match e.to.get().filter(|&a| !trace.agent_name(a).is_empty()) {
            Some(a) => {
                let slot = &mut spawned_at[a as usize];
                *slot = Some(slot.map_or(e.t, |s| s.min(e.t)));
            }
            None => out.push(
                Finding::error(
                    Rule::TraceSpawnTarget,
                    if e.to.is_some() {
                        format!("/events/{i}/to")
                    } else {
                        format!("/events/{i}")
                    },
                    format!(
                        "spawn event \"{}\" does not name the spawned agent",
                        trace.event_id(i as u32)
                    ),
                )
                .help("put the spawned agent's name in `to`"),
            ),
        }
    }
    for (i, e) in trace.events.iter().enumerate() {
        if let Some(ts) = spawned_at[e.agent as usize] {
            if e.t < ts {
                out.push(
                    Finding::error(
                        Rule::TraceActBeforeSpawn,
                        format!("/events/{i}/agent"),
                        format!(
                            "agent \"{}\" acts at t={} (event \"{}\") before it is spawned at t={}",
                            trace.agent_name(e.agent),
                            t(e.t),
                            trace.event_id(i as u32),
                            t(ts)
                        ),
                    )
                    .help("an agent exists only from its spawn on; fix the times or the agent"),
                );
            }
        }
        if e.kind == EventKind::Despawn {
            // The stopped agent is `to`; without it, the acting agent stops itself.
            let (target, key) = match e.to.get() {
                Some(a) => (a, "to"),
                None => (e.agent, "agent"),
            };
            let problem = match spawned_at[target as usize] {
                None => Some("which is never spawned".to_string()),
                Some(ts) if ts > e.t => Some(format!("before it is spawned at t={}", t(ts))),
                Some(_) => None,
            };
            if let Some(problem) = problem {
                out.push(
                    Finding::error(
                        Rule::TraceDespawnUnknown,
                        format!("/events/{i}/{key}"),
                        format!(
                            "despawn event \"{}\" stops agent \"{}\" {problem}",
                            trace.event_id(i as u32),
                            trace.agent_name(target)
                        ),
                    )
                    .help("name a spawned agent in `to`, or add its spawn event"),
                );
            }
        }
    }
}

fn messages(trace: &Trace, out: &mut Vec<Finding>) {
    for (i, e) in trace.events.iter().enumerate() {
        if e.kind != EventKind::Message {
            continue;
        }
        let missing: Vec<&str> = [("from", e.from.get()), ("to", e.to.get())]
            .into_iter()
            .filter(|(_, v)| v.is_none_or(|a| trace.agent_name(a).is_empty()))
            .map(|(k, _)| k)
            .collect();
        if !missing.is_empty() {
            out.push(
                Finding::error(
                    Rule::TraceMessageEndpoints,
                    format!("/events/{i}"),
                    format!(
                        "message event \"{}\" lacks {}",
                        trace.event_id(i as u32),
                        missing
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                )
                .help("a message names its sender in `from` and its recipient in `to`"),
            );
        }
    }
}

fn costs(trace: &Trace, out: &mut Vec<Finding>) {
    for (key, kind) in [
        ("tool_calls", EventKind::ToolCall),
        ("messages", EventKind::Message),
    ] {
        let Some(&declared) = trace.costs.get(key) else {
            continue;
        };
        let counted = trace.events.iter().filter(|e| e.kind == kind).count();
        if declared != counted as f64 {
            out.push(
                Finding::error(
                    Rule::TraceCostMismatch,
                    format!("/costs/{key}"),
                    format!(
                        "costs.{key} is {} but the trace has {counted} {} events",
                        t(declared),
                        kind.as_str()
                    ),
                )
                .help(format!(
                    "set costs.{key} to {counted}, or add the missing events"
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{base, has, problems};
    use serde_json::{json, Value};

    fn fires(rule: &str, edit: impl FnOnce(&mut Value)) -> Vec<(String, String)> {
        let mut v = base();
        assert!(!has(&v, rule), "{rule} fires on the base trace");
        edit(&mut v);
        let p = problems(&v);
        assert!(
            p.iter().any(|(r, _)| r == rule),
            "{rule} did not fire: {p:?}"
        );
        p.into_iter().filter(|(r, _)| r == rule).collect()
    }

    fn quiet(rule: &str, edit: impl FnOnce(&mut Value)) {
        let mut v = base();
        edit(&mut v);
        let p = problems(&v);
        assert!(!p.iter().any(|(r, _)| r == rule), "{rule} fired: {p:?}");
    }

    fn push_event(v: &mut Value, e: Value) {
        v["events"].as_array_mut().unwrap().push(e);
    }

    fn push_edge(v: &mut Value, src: &str, dst: &str, ty: &str) {
        v["edges"]
            .as_array_mut()
            .unwrap()
            .push(json!({"src": src, "dst": dst, "type": ty}));
    }

    #[test]
    fn duplicate_id() {
        let p = fires("trace-duplicate-id", |v| v["events"][3]["id"] = "b".into());
        assert_eq!(p, [("trace-duplicate-id".into(), "/events/3/id".into())]);
        quiet("trace-duplicate-id", |v| v["events"][3]["id"] = "d2".into());
    }

    #[test]
    fn dangling_edge() {
        let p = fires("trace-dangling-edge", |v| {
            v["edges"][2]["dst"] = "zz".into()
        });
        assert_eq!(p[0].1, "/edges/2/dst");
        quiet("trace-dangling-edge", |v| {
            push_edge(v, "a", "g", "temporal")
        });
    }

    #[test]
    fn self_loop() {
        let p = fires("trace-self-loop", |v| push_edge(v, "c", "c", "temporal"));
        assert_eq!(p[0].1, "/edges/6");
        fires("trace-self-loop", |v| push_edge(v, "zz", "zz", "causal"));
        quiet("trace-self-loop", |v| push_edge(v, "c", "d", "temporal"));
    }

    #[test]
    fn time_order() {
        let p = fires("trace-time-order", |v| push_edge(v, "g", "a", "causal"));
        assert_eq!(p[0].1, "/edges/6");
        // Temporal edges are exempt, and equal times are fine.
        quiet("trace-time-order", |v| {
            push_edge(v, "g", "a", "temporal");
            v["events"][1]["t"] = 0.into();
        });
    }

    #[test]
    fn cycle() {
        let p = fires("trace-cycle", |v| {
            for e in v["events"].as_array_mut().unwrap() {
                e["t"] = 1.into();
            }
            push_edge(v, "e", "c", "causal");
        });
        assert_eq!(p.len(), 1);
        let mut v = base();
        for e in v["events"].as_array_mut().unwrap() {
            e["t"] = 1.into();
        }
        push_edge(&mut v, "e", "c", "causal");
        let text = serde_json::to_string(&v).unwrap();
        let d = crate::validate_bytes("x", text.as_bytes());
        let msg = &d.iter().find(|d| d.rule == "trace-cycle").unwrap().message;
        assert!(msg.ends_with("c -> d -> e -> c"), "{msg}");
        // A back edge that is temporal closes no dependency cycle.
        quiet("trace-cycle", |v| push_edge(v, "e", "c", "temporal"));
    }

    #[test]
    fn long_cycles_are_elided() {
        let mut v = base();
        let events: Vec<Value> = (0..40)
            .map(|i| json!({"id": format!("n{i}"), "t": 0, "type": "message", "agent": "a", "from": "a", "to": "b"}))
            .collect();
        v["events"] = Value::Array(events);
        v["edges"] = Value::Array(
            (0..40)
                .map(|i| json!({"src": format!("n{i}"), "dst": format!("n{}", (i + 1) % 40), "type": "message"}))
                .collect(),
        );
        v["costs"]["messages"] = 40.into();
        v["costs"]["tool_calls"] = 0.into();
        let text = serde_json::to_string(&v).unwrap();
        let d = crate::validate_bytes("x", text.as_bytes());
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].message.contains("(28 more)"), "{}", d[0].message);
    }

    #[test]
    fn spawn_target() {
        let p = fires("trace-spawn-target", |v| {
            v["events"][1].as_object_mut().unwrap().remove("to");
        });
        assert_eq!(p[0].1, "/events/1");
        let p = fires("trace-spawn-target", |v| v["events"][1]["to"] = "".into());
        assert_eq!(p[0].1, "/events/1/to");
        quiet("trace-spawn-target", |v| {
            v["events"][1]["to"] = "worker2".into()
        });
    }

    #[test]
    fn act_before_spawn() {
        let p = fires("trace-act-before-spawn", |v| {
            v["events"][0]["agent"] = "worker".into()
        });
        assert_eq!(p[0].1, "/events/0/agent");
        // Acting at the spawn time itself is allowed.
        quiet("trace-act-before-spawn", |v| {
            v["events"][2]["t"] = 1.into();
            v["events"][2]["agent"] = "worker".into();
        });
    }

    #[test]
    fn despawn_unknown() {
        let p = fires("trace-despawn-unknown", |v| {
            push_event(
                v,
                json!({"id": "h", "t": 7, "type": "despawn", "agent": "lead", "to": "ghost"}),
            )
        });
        assert_eq!(p[0].1, "/events/7/to");
        let p = fires("trace-despawn-unknown", |v| {
            push_event(
                v,
                json!({"id": "h", "t": 7, "type": "despawn", "agent": "lead"}),
            )
        });
        assert_eq!(p[0].1, "/events/7/agent");
        fires("trace-despawn-unknown", |v| {
            push_event(
                v,
                json!({"id": "h", "t": 0.5, "type": "despawn", "agent": "lead", "to": "worker"}),
            )
        });
        quiet("trace-despawn-unknown", |v| {
            push_event(
                v,
                json!({"id": "h", "t": 7, "type": "despawn", "agent": "lead", "to": "worker"}),
            )
        });
        quiet("trace-despawn-unknown", |v| {
            push_event(
                v,
                json!({"id": "h", "t": 7, "type": "despawn", "agent": "worker"}),
            )
        });
    }

    #[test]
    fn message_endpoints() {
        let p = fires("trace-message-endpoints", |v| {
            v["events"][2].as_object_mut().unwrap().remove("from");
        });
        assert_eq!(p[0].1, "/events/2");
        fires("trace-message-endpoints", |v| {
            v["events"][2]["to"] = "".into()
        });
        quiet("trace-message-endpoints", |v| {
            // A return without endpoints is not a message.
            v["events"][5].as_object_mut().unwrap().remove("from");
        });
    }

    #[test]
    fn cost_mismatch() {
        let p = fires("trace-cost-mismatch", |v| {
            v["costs"]["tool_calls"] = 2.into()
        });
        assert_eq!(p[0].1, "/costs/tool_calls");
        let p = fires("trace-cost-mismatch", |v| {
            v["costs"]["messages"] = 0.5.into()
        });
        assert_eq!(p[0].1, "/costs/messages");
        // Undeclared counts are not checked.
        quiet("trace-cost-mismatch", |v| {
            v["costs"].as_object_mut().unwrap().remove("tool_calls");
            v["costs"].as_object_mut().unwrap().remove("messages");
            push_event(
                v,
                json!({"id": "h", "t": 7, "type": "tool_call", "agent": "worker"}),
            );
        });
    }

    #[test]
    fn graph_rules_wait_for_valid_items() {
        let mut v = base();
        v["events"][0]["type"] = "nope".into();
        v["edges"][2]["dst"] = "zz".into();
        let p = problems(&v);
        assert!(p.iter().all(|(r, _)| r == "trace-schema"), "{p:?}");
    }
}
