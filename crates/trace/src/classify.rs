//! A third rater for the corpus's tags: the orchestration form a trace
//! exercises and the sub-decisions it takes, inferred from its events alone,
//! each with the events that show it.
//!
//! The forms are the taxonomy's, tried in this order, the first that fits
//! winning: `debate` (two agents exchange messages both ways), `hierarchical`
//! (an agent starts one that starts another: spawns, or delegations that
//! return, two levels deep), `swarm` (one agent starts four or more whose work
//! overlaps in time), `centralized` (one agent dispatches work and combines or
//! receives the results). Forms the events cannot show (planner-executor-critic
//! roles, a harness) are never inferred; a trace that fits none is `unknown`.

use crate::{EventKind, Trace};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The forms [`classify`] may infer, in the order it tries them; any other
/// form of the taxonomy is one the events cannot show.
pub const FORMS: [&str; 4] = ["debate", "hierarchical", "swarm", "centralized"];

/// Event ids listed as evidence at most, per item (all are counted).
pub const MAX_EVIDENCE: usize = 20;

/// Events that show something: how many, and the first ids.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Evidence {
    /// How many events show it.
    pub count: usize,
    /// The first [`MAX_EVIDENCE`] of their ids, in trace order.
    pub events: Vec<String>,
}

impl Evidence {
    fn of(trace: &Trace, mut idx: Vec<u32>) -> Evidence {
        idx.sort_unstable();
        idx.dedup();
        Evidence {
            count: idx.len(),
            events: idx
                .iter()
                .take(MAX_EVIDENCE)
                .map(|&i| trace.event_id(i).to_string())
                .collect(),
        }
    }
}

/// What a trace exercises, by its events.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classification {
    /// `trace_id`.
    pub trace_id: String,
    /// The topology the trace declares, if any.
    pub declared: Option<String>,
    /// The inferred orchestration form, or `unknown`.
    pub form: String,
    /// Why, in one sentence.
    pub reason: String,
    /// The events that show the form.
    pub evidence: Evidence,
    /// Each of the five sub-decisions with the events that take it (count 0: not exercised).
    pub sub_decisions: BTreeMap<String, Evidence>,
}

impl Classification {
    /// Whether the declared topology and the inferred form disagree (an
    /// `unknown` inference, or no declaration, disagrees with nothing).
    pub fn disagrees(&self) -> bool {
        self.form != "unknown" && self.declared.as_deref().is_some_and(|d| d != self.form)
    }
}

/// Classifies a parsed trace.
pub fn classify(trace: &Trace) -> Classification {
    let sub = |kind: EventKind| {
        let idx = (0..trace.events.len() as u32)
            .filter(|&i| trace.events[i as usize].kind == kind)
            .collect();
        Evidence::of(trace, idx)
    };
    let sub_decisions = [
        ("o1_spawn", EventKind::Spawn),
        ("o2_delegate", EventKind::OrchestratorDecision),
        ("o3_communicate", EventKind::Message),
        ("o4_aggregate", EventKind::Aggregate),
        ("o5_stop", EventKind::Despawn),
    ]
    .into_iter()
    .map(|(name, kind)| (name.to_string(), sub(kind)))
    .collect();
    let (form, reason, idx) = infer(trace);
    Classification {
        trace_id: trace.trace_id.clone(),
        declared: trace.topology.clone(),
        form: form.to_string(),
        reason,
        evidence: Evidence::of(trace, idx),
        sub_decisions,
    }
}

/// The form, the reason and the evidence (event indices).
fn infer(trace: &Trace) -> (&'static str, String, Vec<u32>) {
    let name = |a: u32| trace.agent_name(a).to_string();
    let ev = &trace.events;
    let sender = |i: usize| ev[i].from.get().unwrap_or(ev[i].agent);

    // Debate: a pair of agents with messages both ways.
    let mut said: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    for (i, e) in ev.iter().enumerate() {
        if let (EventKind::Message, Some(to)) = (e.kind, e.to.get()) {
            said.entry((sender(i), to)).or_default().push(i as u32);
        }
    }
    let mut pairs: Vec<(u32, u32)> = said
        .keys()
        .filter(|&&(a, b)| a < b && said.contains_key(&(b, a)))
        .copied()
        .collect();
    pairs.sort_unstable();
    if let Some(&(a, b)) = pairs.first() {
        let idx = pairs
            .iter()
            .flat_map(|&(a, b)| said[&(a, b)].iter().chain(&said[&(b, a)]).copied())
            .collect();
        return (
            "debate",
            format!("{} and {} exchange messages both ways", name(a), name(b)),
            idx,
        );
    }

    // Who starts whom: spawns, and delegations the target returns from.
    let returned: BTreeSet<(u32, u32)> = ev
        .iter()
        .filter(|e| e.kind == EventKind::Return)
        .filter_map(|e| Some((e.to.get()?, e.from.get().unwrap_or(e.agent))))
        .collect();
    let mut starts: Vec<(u32, u32, u32)> = Vec::new(); // (starter, started, event)
    for (i, e) in ev.iter().enumerate() {
        let Some(to) = e.to.get() else { continue };
        let counts = match e.kind {
            EventKind::Spawn => true,
            EventKind::OrchestratorDecision => returned.contains(&(e.agent, to)),
            _ => false,
        };
        if counts && to != e.agent {
            starts.push((e.agent, to, i as u32));
        }
    }
    let mut parent: HashMap<u32, (u32, u32)> = HashMap::new();
    for &(a, b, i) in &starts {
        parent.entry(b).or_insert((a, i));
    }
    // The longest chain of starts, cut where it would loop.
    let mut deepest: Vec<u32> = Vec::new();
    for &b in parent.keys() {
        let mut chain = Vec::new();
        let mut seen = BTreeSet::new();
        let mut v = b;
        while let Some(&(a, i)) = parent.get(&v) {
            if !seen.insert(v) {
                break;
            }
            chain.push(i);
            v = a;
        }
        if chain.len() > deepest.len() || (chain.len() == deepest.len() && chain < deepest) {
            deepest = chain;
        }
    }
    if deepest.len() >= 2 {
        let mut path: Vec<String> = deepest
            .iter()
            .rev()
            .map(|&i| name(ev[i as usize].agent))
            .collect();
        if let Some(&last) = deepest.first() {
            path.push(name(ev[last as usize].to.get().unwrap_or(0)));
        }
        return (
            "hierarchical",
            format!(
                "agents start agents over {} levels: {}",
                deepest.len(),
                path.join(" -> ")
            ),
            deepest,
        );
    }

    // Swarm: one agent starts four or more whose work overlaps.
    let mut by_starter: BTreeMap<u32, (BTreeSet<u32>, Vec<u32>)> = BTreeMap::new();
    for &(a, b, i) in &starts {
        let entry = by_starter.entry(a).or_default();
        entry.0.insert(b);
        entry.1.push(i);
    }
    // An agent's work: its own events (tool results aside), one span per
    // time it is started, so an agent started twice does not seem to work
    // through everything others did in between.
    let spans_of = |agent: u32| {
        let mut at: Vec<f64> = starts
            .iter()
            .filter(|s| s.1 == agent)
            .map(|s| ev[s.2 as usize].t)
            .collect();
        at.sort_by(f64::total_cmp);
        let mut spans: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
        for e in ev
            .iter()
            .filter(|e| e.agent == agent && e.kind != EventKind::ToolResult)
        {
            let k = at.partition_point(|&s| s <= e.t);
            let span = spans.entry(k.max(1)).or_insert((e.t, e.t));
            *span = (span.0.min(e.t), span.1.max(e.t));
        }
        spans.into_values().collect::<Vec<_>>()
    };
    for (&a, (started, idx)) in &by_starter {
        if started.len() < 4 {
            continue;
        }
        let mut spans: Vec<(f64, f64)> = started.iter().flat_map(|&b| spans_of(b)).collect();
        spans.sort_by(|x, y| x.0.total_cmp(&y.0));
        let overlap = spans.windows(2).any(|w| w[1].0 < w[0].1);
        if overlap {
            return (
                "swarm",
                format!(
                    "{} starts {} agents whose work overlaps in time",
                    name(a),
                    started.len()
                ),
                idx.clone(),
            );
        }
    }

    // Centralized: one agent dispatches and combines or receives the results.
    for (&a, (started, idx)) in &by_starter {
        let combines: Vec<u32> = ev
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                (e.kind == EventKind::Aggregate && e.agent == a)
                    || (e.kind == EventKind::Return && e.to.get() == Some(a))
            })
            .map(|(i, _)| i as u32)
            .collect();
        if !combines.is_empty() {
            let mut all = idx.clone();
            all.extend(combines);
            return (
                "centralized",
                format!(
                    "{} dispatches work to {} agent(s) and takes their results",
                    name(a),
                    started.len()
                ),
                all,
            );
        }
    }
    let handoffs: Vec<u32> = ev
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == EventKind::OrchestratorDecision && e.to.is_some())
        .map(|(i, _)| i as u32)
        .collect();
    let reason = if handoffs.is_empty() {
        "no agent starts, delegates to or debates with another".to_string()
    } else {
        "control passes between agents without coming back, which no form of the taxonomy names"
            .to_string()
    };
    ("unknown", reason, handoffs)
}

/// The classification as text for the terminal.
pub fn classification_text(c: &Classification) -> String {
    let list = |e: &Evidence| {
        if e.count == 0 {
            "none".to_string()
        } else if e.count > e.events.len() {
            format!(
                "{} ({} more)",
                e.events.join(", "),
                e.count - e.events.len()
            )
        } else {
            e.events.join(", ")
        }
    };
    let mut out = format!("trace {}\n", c.trace_id);
    out.push_str(&format!(
        "  declared topology: {}\n",
        c.declared.as_deref().unwrap_or("-")
    ));
    out.push_str(&format!("  inferred form:     {} ({})\n", c.form, c.reason));
    out.push_str(&format!("  shown by:          {}\n", list(&c.evidence)));
    out.push_str("  sub-decisions:\n");
    for (k, v) in &c.sub_decisions {
        out.push_str(&format!("    {k:<15} {}\n", list(v)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Classification {
        classify(&crate::parse("t", text.as_bytes()).expect("parses"))
    }

    #[test]
    fn the_shipped_examples_classify_as_they_declare() {
        for text in [
            include_str!("../../../traces/examples/centralized.json"),
            include_str!("../../../traces/examples/debate.json"),
            include_str!("../../../traces/examples/swarm.json"),
        ] {
            let c = of(text);
            assert_eq!(Some(c.form.as_str()), c.declared.as_deref(), "{c:?}");
            assert!(!c.disagrees());
            assert!(c.evidence.count > 0);
        }
    }

    #[test]
    fn evidence_names_the_events() {
        let c = of(include_str!("../../../traces/examples/debate.json"));
        assert_eq!(c.evidence.events, ["d05", "d06", "d09", "d10"]);
        assert_eq!(c.sub_decisions["o1_spawn"].events, ["d02", "d03", "d04"]);
        assert_eq!(c.sub_decisions["o5_stop"].count, 2);
        let text = classification_text(&c);
        assert!(text.contains("debate (proponent and opponent"), "{text}");
    }

    #[test]
    fn an_agent_started_twice_works_twice_not_throughout() {
        // The lead delegates to a, b, c, d one after another, then to a again:
        // nothing overlaps, though a's two answers enclose the others'.
        let mut events = Vec::new();
        let mut edges = Vec::new();
        for (k, who) in ["a", "b", "c", "d", "a"].iter().enumerate() {
            let t = 2 * k;
            events.push(format!(
                r#"{{"id": "d{k}", "t": {t}, "type": "orchestrator_decision", "agent": "lead", "to": "{who}"}}"#
            ));
            events.push(format!(
                r#"{{"id": "r{k}", "t": {}, "type": "return", "agent": "{who}", "from": "{who}", "to": "lead"}}"#,
                t + 1
            ));
            edges.push(format!(
                r#"{{"src": "d{k}", "dst": "r{k}", "type": "causal"}}"#
            ));
        }
        let text = format!(
            r#"{{"trace_id": "t", "task_id": "t", "events": [{}], "edges": [{}], "rewards": {{}}, "costs": {{"tokens": 0, "wall_clock_s": 0}}}}"#,
            events.join(","),
            edges.join(",")
        );
        assert_eq!(of(&text).form, "centralized");
        // Work that does overlap still makes a swarm: b acts at 3 and answers at 9.
        let overlapping = text.replace(
            r#"{"id": "r1", "t": 3"#,
            r#"{"id": "b1", "t": 3, "type": "tool_call", "agent": "b", "tool": "z"}, {"id": "r1", "t": 9"#,
        );
        assert_ne!(overlapping, text);
        assert_eq!(of(&overlapping).form, "swarm");
    }

    #[test]
    fn a_declared_topology_the_events_do_not_show_disagrees() {
        let text = include_str!("../../../traces/examples/swarm.json")
            .replace("\"topology\": \"swarm\"", "\"topology\": \"debate\"");
        let c = of(&text);
        assert_eq!(c.form, "swarm");
        assert!(c.disagrees());
    }
}
