//! The built trace written out: events in time order, spawn edges added,
//! edges renumbered and deduplicated, and the JSON text.

use super::lead::Lead;
use super::walk::Walked;
use super::{Built, Options};
use crate::otlp::decode::{Pos, Span};
use crate::{EdgeKind, EventKind};
use serde::Serialize;
use std::collections::HashMap;

#[derive(Serialize)]
struct OutEvent<'a> {
    id: String,
    t: f64,
    #[serde(rename = "type")]
    kind: &'static str,
    agent: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trusted: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_calls: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unmapped_spans: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guardrail: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    triggered: Option<bool>,
    span_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_span_id: Option<String>,
}

#[derive(Serialize)]
struct OutEdge<'a> {
    src: &'a str,
    dst: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// What the trace's header needs of its spans, taken before they may go.
pub(crate) struct Head {
    /// The earliest start and the latest end of its spans.
    pub(super) t0: u64,
    pub(super) t_end: u64,
    pub(super) trace: u128,
    /// The task (first conversation id) and the system (root service).
    pub(super) task: Option<String>,
    pub(super) service: Option<String>,
}

impl Head {
    pub(super) fn new(all: &[(Span, Pos)], members: &[u32], lead: &Lead) -> Head {
        let n = members.len();
        let span = |i: usize| &all[members[i] as usize].0;
        Head {
            t0: (0..n).map(|i| span(i).start).min().unwrap_or(0),
            t_end: (0..n).map(|i| span(i).end).max().unwrap_or(0),
            trace: span(0).trace,
            task: lead.task.map(str::to_string),
            service: lead.service.map(str::to_string),
        }
    }
}

/// Orders the walk's events and edges and writes the trace's JSON text.
pub(super) fn write(head: Head, opts: &Options, walked: Walked, cross_trace_links: usize) -> Built {
    let Walked {
        names,
        orch,
        events,
        mut edges,
        unmapped,
        tokens_in,
        tokens_out,
        tool_calls,
        mapped,
        rep,
        ..
    } = walked;
    // Per-span facts of the walk: gone before the text is made.
    drop((mapped, rep));
    let Head {
        t0,
        t_end,
        trace,
        task,
        service: root_service,
    } = head;

    // Events in time order (stable), edges renumbered, duplicate edges dropped.
    let mut order: Vec<u32> = (0..events.len() as u32).collect();
    order.sort_by_key(|&e| (events[e as usize].t, e));
    // A spawn edge runs to the spawned agent's first event after the spawn.
    let mut open_spawn: HashMap<u32, u32> = HashMap::new();
    for &e in &order {
        let ev = &events[e as usize];
        if let Some(s) = open_spawn.remove(&ev.agent) {
            edges.push((s, e, EdgeKind::Spawn));
        }
        if ev.kind == EventKind::Spawn {
            if let Some(to) = ev.to {
                open_spawn.entry(to).or_insert(e);
            }
        }
    }
    let mut new_index = vec![0u32; events.len()];
    for (k, &e) in order.iter().enumerate() {
        new_index[e as usize] = k as u32;
    }
    let mut edge_list: Vec<(u32, u32, EdgeKind)> = edges
        .into_iter()
        .filter(|(a, b, _)| a != b)
        .map(|(a, b, k)| (new_index[a as usize], new_index[b as usize], k))
        .collect();
    edge_list.sort_by_key(|&(a, b, k)| (b, a, k));
    edge_list.dedup();
    edge_list.sort_by_key(|&(a, b, k)| (a, b, k));

    let name = |i: u32| &*names.names[i as usize];
    // Event ids are made where they are written, not kept: a string each costs more than the event.
    let id = |k: u32| {
        let ev = &events[order[k as usize] as usize];
        format!("{:016x}:{}", ev.span, ev.suffix)
    };
    let secs = |t: u64| (t - t0) as f64 / 1e9;
    let mut text = String::with_capacity(events.len() * 160 + 512);
    let trace_id = format!("{trace:032x}");
    let task_id = task.unwrap_or_else(|| trace_id.clone());
    text.push_str("{\n");
    let field = |text: &mut String, k: &str, v: &str| {
        text.push_str(&format!(
            "  {}: {},\n",
            serde_json::to_string(k).unwrap_or_default(),
            serde_json::to_string(v).unwrap_or_default()
        ));
    };
    field(&mut text, "trace_id", &trace_id);
    field(&mut text, "task_id", &task_id);
    if let Some(sys) = &root_service {
        field(&mut text, "system", sys);
    }
    if let Some(t) = &opts.topology {
        field(&mut text, "topology", t);
    }
    text.push_str("  \"events\": [\n");
    for (k, &e) in order.iter().enumerate() {
        let ev = &events[e as usize];
        let out = OutEvent {
            id: id(k as u32),
            t: secs(ev.t),
            kind: ev.kind.as_str(),
            agent: name(ev.agent),
            role: (ev.agent == orch && ev.kind != EventKind::ToolResult).then_some("orchestrator"),
            from: ev.from.map(name),
            to: ev.to.map(name),
            tool: ev.tool.map(name),
            trusted: ev.trusted,
            error: ev.error.as_deref(),
            model_calls: (ev.kind == EventKind::Return).then_some(ev.model_calls),
            unmapped_spans: (ev.unmapped > 0).then_some(ev.unmapped),
            guardrail: ev.guardrail.map(name),
            triggered: ev.triggered,
            span_id: format!("{:016x}", ev.span),
            model_span_id: (ev.model_span != 0).then(|| format!("{:016x}", ev.model_span)),
        };
        text.push_str("    ");
        text.push_str(&serde_json::to_string(&out).unwrap_or_default());
        text.push_str(if k + 1 < order.len() { ",\n" } else { "\n" });
    }
    text.push_str("  ],\n  \"edges\": [\n");
    for (k, &(a, b, kind)) in edge_list.iter().enumerate() {
        let (src, dst) = (id(a), id(b));
        let out = OutEdge {
            src: &src,
            dst: &dst,
            kind: kind.as_str(),
        };
        text.push_str("    ");
        text.push_str(&serde_json::to_string(&out).unwrap_or_default());
        text.push_str(if k + 1 < edge_list.len() { ",\n" } else { "\n" });
    }
    text.push_str("  ],\n  \"rewards\": {},\n");
    // Written by hand: serde_json holds no integer above 64 bits, and a
    // token sum may exceed that; a JSON number has no such limit.
    let wall = serde_json::to_string(&((t_end - t0) as f64 / 1e9)).unwrap_or_default();
    text.push_str(&format!(
        "  \"costs\": {{\"input_tokens\":{tokens_in},\"output_tokens\":{tokens_out},\"tokens\":{},\"tool_calls\":{tool_calls},\"wall_clock_s\":{wall}}}\n}}\n",
        tokens_in + tokens_out
    ));
    Built {
        trace_id,
        text,
        events: events.len(),
        edges: edge_list.len(),
        unmapped,
        cross_trace_links,
        errors: events.iter().filter(|e| e.error.is_some()).count(),
    }
}
