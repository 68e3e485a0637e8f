//! Replays a trace into metrics: event counts, the spawn tree, makespan and
//! critical path, orchestration sub-decisions, rewards by family, cost per
//! unit of team reward, and untrusted content reaching returns/aggregates.
//!
//! Everything is one or two linear passes over events and edges, except the
//! untrusted-flow analysis, whose cost is bounded below (see [`untrusted`]).
//! Metrics never fail: a trace with graph-rule errors (cycles, dangling edges)
//! still gets numbers, computed on the part of the graph that makes sense.

mod critical_path;
mod spawn_tree;
mod table;
mod untrusted;

use super::graph::DepGraph;
use super::{EventKind, Trace};
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use critical_path::critical_steps;
use serde::Serialize;
use spawn_tree::spawn_tree;
use std::collections::BTreeMap;
use untrusted::untrusted;

pub use table::metrics_table;

/// The reward family whose sum is the team reward.
pub const TEAM_FAMILY: &str = "R1";

/// Rule id of a trace whose figures overflow (come out infinite or NaN).
pub const OVERFLOW_RULE: Rule = Rule::TraceOverflow;

/// Untrusted pairs listed in [`Metrics::untrusted_pairs`] at most (all are counted).
pub const MAX_LISTED_PAIRS: usize = 1000;

/// Untrusted content (`trusted: false`) reaching a return or aggregate.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct UntrustedPair {
    /// Id of the untrusted event.
    pub untrusted: String,
    /// Id of the return or aggregate event it reaches.
    pub reaches: String,
}

/// What a trace replays into; field order is the output order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metrics {
    /// `trace_id`.
    pub trace_id: String,
    /// `task_id`.
    pub task_id: String,
    /// `topology`, when given.
    pub topology: Option<String>,
    /// Number of events.
    pub events: usize,
    /// Number of edges.
    pub edges: usize,
    /// Events of each of the ten types, zeros included.
    pub events_by_type: BTreeMap<String, usize>,
    /// Distinct agents: acting agents and spawned agents; the actor of a
    /// `tool_result` counts only when it also acts otherwise (tools are not agents).
    pub agents: usize,
    /// Distinct agents named by a spawn.
    pub spawned_agents: usize,
    /// Depth of the spawn tree (roots at 0; 0 without spawns).
    pub spawn_depth: usize,
    /// Most agents spawned by one agent.
    pub max_fan_out: usize,
    /// Latest t minus earliest t.
    pub makespan: f64,
    /// Events on the longest dependency path.
    pub critical_steps: usize,
    /// Events per critical step.
    pub parallelism: f64,
    /// Orchestration sub-decisions: o1_spawn, o2_delegate, o3_communicate, o4_aggregate, o5_stop.
    pub sub_decisions: BTreeMap<String, usize>,
    /// Sum of rewards per reward family.
    pub rewards_by_family: BTreeMap<String, f64>,
    /// Reward channels with no family.
    pub unmapped_rewards: BTreeMap<String, f64>,
    /// `costs.tokens`.
    pub tokens: f64,
    /// Sum of rewards in the team family (R1).
    pub team_reward: f64,
    /// tokens / team_reward; none when the team reward is 0.
    pub tokens_per_team_reward: Option<f64>,
    /// Number of (untrusted event, return/aggregate) pairs joined by a dependency path without a safety_event.
    pub untrusted_pair_count: usize,
    /// The first pairs (at most MAX_LISTED_PAIRS), sorted.
    pub untrusted_pairs: Vec<UntrustedPair>,
    /// False when the analysis hit its work budget and the count is a lower bound.
    pub untrusted_pairs_exact: bool,
}

/// Metrics of a trace that parsed (validation errors in graph rules may still be present; metrics must not panic on any parsed trace, e.g. with cycles).
pub fn metrics(trace: &Trace, channel_family: &BTreeMap<String, String>) -> Metrics {
    let mut by_type: BTreeMap<String, usize> = EventKind::ALL
        .iter()
        .map(|k| (k.as_str().to_string(), 0))
        .collect();
    let mut count = [0usize; EventKind::ALL.len()];
    for e in &trace.events {
        count[e.kind as usize] += 1;
    }
    for k in EventKind::ALL {
        by_type.insert(k.as_str().to_string(), count[k as usize]);
    }
    let sub_decisions: BTreeMap<String, usize> = [
        ("o1_spawn", EventKind::Spawn),
        ("o2_delegate", EventKind::OrchestratorDecision),
        ("o3_communicate", EventKind::Message),
        ("o4_aggregate", EventKind::Aggregate),
        ("o5_stop", EventKind::Despawn),
    ]
    .into_iter()
    .map(|(name, k)| (name.to_string(), count[k as usize]))
    .collect();

    let tree = spawn_tree(trace);
    let (lo, hi) = trace
        .events
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), e| {
            (lo.min(e.t), hi.max(e.t))
        });
    let makespan = if trace.events.is_empty() {
        0.0
    } else {
        hi - lo
    };

    let graph = DepGraph::new(trace);
    let (order, _) = graph.order();
    let critical_steps = critical_steps(&graph, &order);
    let parallelism = if critical_steps == 0 {
        0.0
    } else {
        trace.events.len() as f64 / critical_steps as f64
    };

    let mut rewards_by_family: BTreeMap<String, f64> = BTreeMap::new();
    let mut unmapped_rewards = BTreeMap::new();
    for (channel, &value) in &trace.rewards {
        match channel_family.get(channel) {
            Some(family) => *rewards_by_family.entry(family.clone()).or_default() += value,
            None => {
                unmapped_rewards.insert(channel.clone(), value);
            }
        }
    }
    let team_reward = rewards_by_family.get(TEAM_FAMILY).copied().unwrap_or(0.0);
    let tokens = trace.costs.get("tokens").copied().unwrap_or(0.0);
    let tokens_per_team_reward = (team_reward != 0.0).then(|| tokens / team_reward);

    let flow = untrusted(trace, &graph, &order);
    let id = |i: u32| trace.event_id(i).to_string();
    let mut untrusted_pairs: Vec<UntrustedPair> = flow
        .listed
        .iter()
        .map(|&(s, r)| UntrustedPair {
            untrusted: id(s),
            reaches: id(r),
        })
        .collect();
    untrusted_pairs.sort();

    Metrics {
        trace_id: trace.trace_id.clone(),
        task_id: trace.task_id.clone(),
        topology: trace.topology.clone(),
        events: trace.events.len(),
        edges: trace.edges.len(),
        events_by_type: by_type,
        agents: tree.agents,
        spawned_agents: tree.spawned,
        spawn_depth: tree.depth,
        max_fan_out: tree.fan_out,
        makespan,
        critical_steps,
        parallelism,
        sub_decisions,
        rewards_by_family,
        unmapped_rewards,
        tokens,
        team_reward,
        tokens_per_team_reward,
        untrusted_pair_count: flow.count,
        untrusted_pairs,
        untrusted_pairs_exact: flow.exact,
    }
}

impl Metrics {
    /// The figures that came out infinite or NaN (sums or ratios of values
    /// too large for a float). JSON cannot hold them and a table would print
    /// `inf`, so such metrics are refused rather than shown two ways.
    pub fn non_finite(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |name: String, x: f64| {
            if !x.is_finite() {
                out.push(name);
            }
        };
        check("makespan".into(), self.makespan);
        check("parallelism".into(), self.parallelism);
        check("tokens".into(), self.tokens);
        check("team_reward".into(), self.team_reward);
        if let Some(r) = self.tokens_per_team_reward {
            check("tokens_per_team_reward".into(), r);
        }
        for (k, v) in &self.rewards_by_family {
            check(format!("rewards_by_family.{k}"), *v);
        }
        for (k, v) in &self.unmapped_rewards {
            check(format!("unmapped_rewards.{k}"), *v);
        }
        out
    }

    /// The `trace-overflow` error of these metrics, when a figure is not a
    /// finite number: every output (table, JSON, README) refuses the same
    /// trace with the same words instead of printing `inf` or `null`.
    pub fn overflow(&self, file: &str) -> Option<Diagnostic> {
        let names = self.non_finite();
        let first = names.first()?;
        // Where the numbers that overflowed are written in the trace.
        let pointer = match first.as_str() {
            "makespan" | "parallelism" => "/events",
            "tokens" => "/costs/tokens",
            _ => "/rewards",
        };
        let list = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        Some(
            Diagnostic::new(
                OVERFLOW_RULE,
                Severity::Error,
                file,
                format!(
                    "{list} cannot be computed: the trace's numbers are too large to add or divide, so the result is no number"
                ),
            )
            .field(pointer)
            .help("write rewards, costs and times at ordinary magnitudes (sums and ratios must stay below about 1e308); no metrics are shown for this trace"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::base;
    use serde_json::{json, Value};

    fn families() -> BTreeMap<String, String> {
        [("team", "R1"), ("tool", "R5"), ("orchestration", "R7")]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    fn of(v: &Value) -> Metrics {
        let text = serde_json::to_string(v).unwrap();
        let trace = crate::parse("t", text.as_bytes()).expect("parses");
        metrics(&trace, &families())
    }

    fn pairs(m: &Metrics) -> Vec<(String, String)> {
        m.untrusted_pairs
            .iter()
            .map(|p| (p.untrusted.clone(), p.reaches.clone()))
            .collect()
    }

    /// The survey's reference example, with our own ids and names.
    fn reference_like() -> Value {
        let text = include_str!("../../../../tests/fixtures/traces/reference_equivalent.json");
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn reference_equivalent_pins() {
        let m = of(&reference_like());
        assert_eq!(m.events, 8);
        assert_eq!(m.makespan, 7.0);
        assert_eq!(m.critical_steps, 7);
        assert_eq!(m.spawn_depth, 1);
        assert_eq!(m.max_fan_out, 2);
        assert_eq!(m.spawned_agents, 2);
        // lead, planner_a, executor_a: the tool web.lookup is not an agent.
        assert_eq!(m.agents, 3);
        assert_eq!(m.untrusted_pair_count, 2);
        assert_eq!(
            pairs(&m),
            [
                ("r6".to_string(), "r7".to_string()),
                ("r6".to_string(), "r8".to_string())
            ]
        );
        assert!((m.parallelism - 8.0 / 7.0).abs() < 1e-12);
        assert_eq!(m.sub_decisions["o1_spawn"], 2);
        assert_eq!(m.sub_decisions["o2_delegate"], 1);
        assert_eq!(m.sub_decisions["o3_communicate"], 1);
        assert_eq!(m.sub_decisions["o4_aggregate"], 1);
        assert_eq!(m.sub_decisions["o5_stop"], 0);
        assert_eq!(m.rewards_by_family["R1"], 1.0);
        assert_eq!(m.tokens_per_team_reward, Some(12000.0));
        assert_eq!(m.events_by_type.len(), 10);
        assert_eq!(m.events_by_type["human_intervention"], 0);
    }

    #[test]
    fn reference_equivalent_is_valid() {
        let text = include_str!("../../../../tests/fixtures/traces/reference_equivalent.json");
        assert_eq!(crate::validate_bytes("r", text.as_bytes()), vec![]);
    }

    #[test]
    fn a_safety_event_blocks_untrusted_flow() {
        let mut v = base();
        assert_eq!(of(&v).untrusted_pair_count, 2);
        v["events"][5]["type"] = "safety_event".into();
        let m = of(&v);
        assert_eq!(m.untrusted_pair_count, 0);
        // Temporal edges carry no content.
        let mut v = base();
        v["edges"][4]["type"] = "temporal".into();
        assert_eq!(of(&v).untrusted_pair_count, 0);
    }

    #[test]
    fn untrusted_flow_around_a_guard_still_counts() {
        let mut v = base();
        v["events"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "s", "t": 4.5, "type": "safety_event", "agent": "guard"}));
        v["edges"] = json!([
            {"src": "e", "dst": "s", "type": "safety_flow"},
            {"src": "s", "dst": "f", "type": "causal"},
            {"src": "e", "dst": "g", "type": "aggregate"}
        ]);
        let m = of(&v);
        assert_eq!(pairs(&m), [("e".to_string(), "g".to_string())]);
    }

    #[test]
    fn joins_merge_sources() {
        let events: Vec<Value> = (0..4)
            .map(|i| json!({"id": format!("u{i}"), "t": 0, "type": "tool_result", "agent": "tool", "trusted": false}))
            .chain([json!({"id": "r", "t": 1, "type": "return", "agent": "w"}),
                    json!({"id": "g", "t": 2, "type": "aggregate", "agent": "lead"})])
            .collect();
        let mut edges: Vec<Value> = (0..4)
            .map(|i| json!({"src": format!("u{i}"), "dst": "r", "type": "return"}))
            .collect();
        edges.push(json!({"src": "r", "dst": "g", "type": "aggregate"}));
        edges.push(json!({"src": "u0", "dst": "g", "type": "aggregate"}));
        let mut v = base();
        v["events"] = Value::Array(events);
        v["edges"] = Value::Array(edges);
        let m = of(&v);
        assert_eq!(m.untrusted_pair_count, 8);
        assert_eq!(m.critical_steps, 3);
        assert_eq!(m.makespan, 2.0);
    }

    #[test]
    fn swarm_fan_out_and_depth() {
        let text = include_str!("../../../../traces/examples/swarm.json");
        let trace = crate::parse("s", text.as_bytes()).unwrap();
        let m = metrics(&trace, &families());
        assert_eq!(m.max_fan_out, 8);
        assert_eq!(m.spawn_depth, 1);
        assert!(m.parallelism > 2.0, "{}", m.parallelism);
    }

    #[test]
    fn nested_spawns_deepen_the_tree() {
        let mut v = base();
        let evs = v["events"].as_array_mut().unwrap();
        evs.push(json!({"id": "h", "t": 7, "type": "spawn", "agent": "worker", "to": "sub"}));
        evs.push(json!({"id": "i", "t": 8, "type": "spawn", "agent": "sub", "to": "subsub"}));
        evs.push(json!({"id": "j", "t": 9, "type": "spawn", "agent": "sub", "to": "subsub2"}));
        let m = of(&v);
        assert_eq!(m.spawn_depth, 3);
        assert_eq!(m.max_fan_out, 2);
        assert_eq!(m.spawned_agents, 4);
    }

    #[test]
    fn cycles_and_spawn_loops_do_not_panic() {
        let mut v = base();
        for e in v["events"].as_array_mut().unwrap() {
            e["t"] = 1.into();
        }
        v["edges"]
            .as_array_mut()
            .unwrap()
            .push(json!({"src": "g", "dst": "a", "type": "causal"}));
        let evs = v["events"].as_array_mut().unwrap();
        evs.push(json!({"id": "h", "t": 0, "type": "spawn", "agent": "worker", "to": "lead"}));
        evs.push(json!({"id": "i", "t": 0, "type": "spawn", "agent": "x", "to": "x"}));
        let m = of(&v);
        assert_eq!(m.events, 9);
        assert!(m.critical_steps >= 1 && m.critical_steps <= 9);
        assert!(m.spawn_depth <= 3);
        let _ = metrics_table(&m);
    }

    #[test]
    fn rewards_map_through_families() {
        let mut v = base();
        v["rewards"] = json!({"team": 0.5, "process": 0.25, "tool": 0.1, "mystery": 2});
        let mut fam = families();
        fam.insert("process".into(), "R1".into());
        let text = serde_json::to_string(&v).unwrap();
        let m = metrics(&crate::parse("t", text.as_bytes()).unwrap(), &fam);
        assert_eq!(m.rewards_by_family["R1"], 0.75);
        assert_eq!(m.unmapped_rewards["mystery"], 2.0);
        assert!((m.tokens_per_team_reward.unwrap() - 100.0 / 0.75).abs() < 1e-9);
        v["rewards"] = json!({"team": 0});
        assert_eq!(of(&v).tokens_per_team_reward, None);
        v["rewards"] = json!({});
        assert_eq!(of(&v).tokens_per_team_reward, None);
    }

    #[test]
    fn json_field_order_is_stable() {
        let m = of(&base());
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.starts_with("{\"trace_id\":\"t-base\",\"task_id\":\"task-base\""));
        let a = text.find("\"makespan\"").unwrap();
        let b = text.find("\"untrusted_pairs\"").unwrap();
        assert!(a < b);
    }

    #[test]
    fn table_fits_80_columns() {
        let m = of(&reference_like());
        let table = metrics_table(&m);
        for line in table.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
        assert!(table.contains("r6 -> r7"));
        assert!(table.contains("critical steps"));
    }

    #[test]
    fn listed_pairs_are_capped_but_all_counted() {
        let n = MAX_LISTED_PAIRS + 50;
        let mut events: Vec<Value> = (0..n)
            .map(|i| json!({"id": format!("u{i}"), "t": 0, "type": "tool_result", "agent": "tool", "trusted": false}))
            .collect();
        events.push(json!({"id": "g", "t": 1, "type": "aggregate", "agent": "lead"}));
        let edges: Vec<Value> = (0..n)
            .map(|i| json!({"src": format!("u{i}"), "dst": "g", "type": "aggregate"}))
            .collect();
        let mut v = base();
        v["events"] = Value::Array(events);
        v["edges"] = Value::Array(edges);
        let m = of(&v);
        assert_eq!(m.untrusted_pair_count, n);
        assert_eq!(m.untrusted_pairs.len(), MAX_LISTED_PAIRS);
        assert!(m.untrusted_pairs_exact);
    }
}
