//! One small hand-written input per mapping rule of `mapping` (handoffs,
//! transfers, guardrails, people, sequence, OpenInference, old attribute
//! names, encodings), each pinned to the events and edges it must give.

use super::*;
use serde_json::{json, Value};

const TRACE: &str = "000000000000000000000000000c0f1e";

/// A span of TRACE: times in seconds, attributes as (key, value) pairs.
fn span(
    id: u64,
    parent: Option<u64>,
    name: &str,
    start: f64,
    end: f64,
    attrs: &[(&str, Value)],
) -> Value {
    let ns = |s: f64| (1_000_000_000_000u64 + (s * 1e9) as u64).to_string();
    let attributes: Vec<Value> = attrs
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Value::Bool(b) => json!({"boolValue": b}),
                Value::Number(n) => json!({"intValue": n.to_string()}),
                other => json!({"stringValue": other}),
            };
            json!({"key": k, "value": value})
        })
        .collect();
    let mut s = json!({
        "traceId": TRACE,
        "spanId": format!("{id:016x}"),
        "name": name,
        "startTimeUnixNano": ns(start),
        "endTimeUnixNano": ns(end),
        "attributes": attributes,
    });
    if let Some(p) = parent {
        s["parentSpanId"] = json!(format!("{p:016x}"));
    }
    s
}

fn agent(id: u64, parent: Option<u64>, who: &str, start: f64, end: f64) -> Value {
    let attrs = [
        ("gen_ai.operation.name", json!("invoke_agent")),
        ("gen_ai.agent.name", json!(who)),
    ];
    span(
        id,
        parent,
        &format!("invoke_agent {who}"),
        start,
        end,
        &attrs,
    )
}

fn tool(id: u64, parent: u64, name: &str, start: f64, end: f64) -> Value {
    let attrs = [
        ("gen_ai.operation.name", json!("execute_tool")),
        ("gen_ai.tool.name", json!(name)),
    ];
    span(
        id,
        Some(parent),
        &format!("execute_tool {name}"),
        start,
        end,
        &attrs,
    )
}

fn chat(id: u64, parent: u64, start: f64, end: f64) -> Value {
    span(
        id,
        Some(parent),
        "chat m",
        start,
        end,
        &[("gen_ai.operation.name", json!("chat"))],
    )
}

/// Imports the spans; returns the one trace as JSON, with no diagnostics allowed.
fn import_with(spans: Vec<Value>, convention: Convention) -> Value {
    let doc = json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
    let input = Input {
        label: "in.json".into(),
        bytes: serde_json::to_vec(&doc).unwrap(),
    };
    let opts = Options {
        convention,
        ..Options::default()
    };
    let out = import(&[input], &opts);
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    assert_eq!(out.traces.len(), 1);
    serde_json::from_str(&out.traces[0].text).unwrap()
}

fn one(spans: Vec<Value>) -> Value {
    import_with(spans, Convention::GenAi)
}

/// Events as "type agent [-> to]" in time order.
fn events(t: &Value) -> Vec<String> {
    t["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let to = e["to"]
                .as_str()
                .map_or(String::new(), |to| format!(" -> {to}"));
            format!(
                "{} {}{to}",
                e["type"].as_str().unwrap(),
                e["agent"].as_str().unwrap()
            )
        })
        .collect()
}

fn has_edge(t: &Value, src: &str, dst: &str, kind: &str) -> bool {
    t["edges"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["src"] == src && e["dst"] == dst && e["type"] == kind)
}

fn metrics_of(t: &Value) -> crate::Metrics {
    let trace = crate::parse("t", t.to_string().as_bytes()).expect("parses");
    crate::metrics(&trace, &Default::default())
}

#[test]
fn a_handoff_span_passes_control() {
    let t = one(vec![
        agent(1, None, "triage", 0.0, 2.0),
        chat(2, 1, 0.1, 1.0),
        span(
            3,
            Some(1),
            "agent_handoff",
            1.2,
            1.3,
            &[
                ("gen_ai.operation.name", json!("agent_handoff")),
                ("gen_ai.handoff.from_agent", json!("triage")),
                ("gen_ai.handoff.to_agent", json!("writer")),
            ],
        ),
        agent(4, None, "writer", 2.5, 4.0),
    ]);
    assert_eq!(
        events(&t),
        ["orchestrator_decision triage -> writer", "return writer"]
    );
    assert_eq!(t["events"][0]["t"], 1.0);
    assert_eq!(t["events"][0]["model_span_id"], "0000000000000002");
    assert!(has_edge(
        &t,
        "0000000000000003:handoff",
        "0000000000000004:return",
        "causal"
    ));
}

#[test]
fn an_agent_that_hands_over_again_gives_no_answer() {
    let handoff = |id, parent, to: &str, start| {
        span(
            id,
            Some(parent),
            "handoff",
            start,
            start + 0.1,
            &[
                ("gen_ai.operation.name", json!("handoff")),
                ("gen_ai.handoff.to_agent.name", json!(to)),
            ],
        )
    };
    let t = one(vec![
        agent(1, None, "triage", 0.0, 1.0),
        handoff(2, 1, "writer", 0.5),
        agent(3, None, "writer", 1.0, 2.0),
        handoff(4, 3, "editor", 1.5),
        agent(5, None, "editor", 2.0, 3.0),
    ]);
    assert_eq!(
        events(&t),
        [
            "orchestrator_decision triage -> writer",
            "orchestrator_decision writer -> editor",
            "return editor"
        ]
    );
    assert!(has_edge(
        &t,
        "0000000000000002:handoff",
        "0000000000000004:handoff",
        "causal"
    ));
    assert_eq!(metrics_of(&t).parallelism, 1.0);
}

#[test]
fn transfers_return_or_pass_control_and_reach_people() {
    let transfer = |id, mode: &str, target: &str, kind: &str, start| {
        span(
            id,
            Some(1),
            "execute_tool transfer",
            start,
            start + 1.0,
            &[
                ("gen_ai.operation.name", json!("execute_tool")),
                ("gen_ai.tool.name", json!("transfer")),
                ("gen_ai.agent.name", json!("lead")),
                ("gen_ai.transfer.mode", json!(mode)),
                ("gen_ai.transfer.target.name", json!(target)),
                ("gen_ai.transfer.target.type", json!(kind)),
            ],
        )
    };
    let t = one(vec![
        agent(1, None, "lead", 0.0, 10.0),
        transfer(2, "return_to_caller", "weather", "agent", 1.0),
        transfer(3, "return_to_caller", "approver", "human", 3.0),
        transfer(4, "pass_control", "closer", "agent", 5.0),
        agent(5, Some(1), "closer", 7.0, 9.0),
    ]);
    assert_eq!(
        events(&t),
        [
            "orchestrator_decision lead -> weather",
            "return weather -> lead",
            "human_intervention approver",
            "orchestrator_decision lead -> closer",
            "return closer",
        ]
    );
    assert_eq!(metrics_of(&t).critical_steps, 5);
}

#[test]
fn a_guardrail_is_a_safety_check_on_the_path() {
    let t = one(vec![
        agent(1, None, "lead", 0.0, 10.0),
        agent(2, Some(1), "worker", 1.0, 9.0),
        tool(3, 2, "web", 2.0, 3.0),
        span(
            4,
            Some(2),
            "guardrail_check",
            4.0,
            5.0,
            &[
                ("gen_ai.operation.name", json!("guardrail_check")),
                ("gen_ai.guardrail.name", json!("pii")),
                ("gen_ai.guardrail.triggered", json!(false)),
            ],
        ),
    ]);
    let guard = t["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "safety_event")
        .unwrap();
    assert_eq!(
        (&guard["agent"], &guard["guardrail"], &guard["triggered"]),
        (&json!("worker"), &json!("pii"), &json!(false))
    );
    // The web result reaches the return only through the guardrail.
    assert_eq!(metrics_of(&t).untrusted_pair_count, 0);
    let mut unguarded = t.clone();
    unguarded["events"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .for_each(|e| {
            if e["type"] == "safety_event" {
                e["type"] = json!("message");
            }
        });
    let trace = crate::parse("t", unguarded.to_string().as_bytes()).unwrap();
    assert_eq!(
        crate::metrics(&trace, &Default::default()).untrusted_pair_count,
        1
    );
}

#[test]
fn siblings_in_sequence_are_ordered_and_overlapping_ones_are_not() {
    let t = one(vec![
        agent(1, None, "lead", 0.0, 10.0),
        tool(2, 1, "a", 1.0, 2.0),
        chat(3, 1, 2.0, 3.0),
        tool(4, 1, "b", 3.0, 4.0),
        tool(5, 1, "c", 5.0, 7.0),
        tool(6, 1, "d", 5.5, 6.0),
    ]);
    assert!(has_edge(
        &t,
        "0000000000000002:result",
        "0000000000000004:call",
        "causal"
    ));
    assert!(has_edge(
        &t,
        "0000000000000004:result",
        "0000000000000005:call",
        "causal"
    ));
    assert!(has_edge(
        &t,
        "0000000000000004:result",
        "0000000000000006:call",
        "causal"
    ));
    assert!(!has_edge(
        &t,
        "0000000000000005:call",
        "0000000000000006:call",
        "causal"
    ));
    let m = metrics_of(&t);
    assert_eq!((m.events, m.critical_steps, m.agents), (8, 6, 1));
}

#[test]
fn model_calls_under_other_names_and_old_token_names() {
    let t = one(vec![
        agent(1, None, "lead", 0.0, 10.0),
        agent(2, Some(1), "worker", 1.0, 4.0),
        span(
            3,
            Some(1),
            "call_llm",
            5.0,
            6.0,
            &[
                ("gen_ai.usage.prompt_tokens", json!(30)),
                ("gen_ai.usage.completion_tokens", json!(12)),
            ],
        ),
    ]);
    // The model call after the worker's return aggregates it.
    assert_eq!(events(&t).last().unwrap(), "aggregate lead");
    assert_eq!(t["costs"]["tokens"], 42);
}

#[test]
fn openinference_spans_import_in_their_own_convention() {
    let kind = |k: &str| ("openinference.span.kind", json!(k));
    let spans = vec![
        span(
            1,
            None,
            "lead",
            0.0,
            10.0,
            &[kind("AGENT"), ("agent.name", json!("lead"))],
        ),
        span(
            2,
            Some(1),
            "worker",
            1.0,
            8.0,
            &[kind("AGENT"), ("graph.node.id", json!("worker"))],
        ),
        span(
            3,
            Some(2),
            "search",
            2.0,
            3.0,
            &[kind("TOOL"), ("tool.name", json!("search"))],
        ),
        span(
            4,
            Some(2),
            "response",
            4.0,
            5.0,
            &[
                kind("LLM"),
                ("llm.token_count.prompt", json!(7)),
                ("llm.token_count.completion", json!(3)),
            ],
        ),
        span(
            5,
            Some(2),
            "input guardrail",
            5.0,
            6.0,
            &[kind("GUARDRAIL")],
        ),
        span(6, Some(1), "plan", 9.0, 9.5, &[kind("CHAIN")]),
    ];
    let t = import_with(spans, Convention::OpenInference);
    assert_eq!(
        events(&t),
        [
            "orchestrator_decision lead -> worker",
            "tool_call worker",
            "tool_result worker",
            "safety_event worker",
            "return worker -> lead",
        ]
    );
    assert_eq!(t["events"][3]["guardrail"], "input guardrail");
    assert_eq!(t["costs"]["tokens"], 10);
}

#[test]
fn an_openinference_graph_parent_stands_in_for_a_missing_handoff_span() {
    let kind = |k: &str| ("openinference.span.kind", json!(k));
    let spans = vec![
        span(
            1,
            None,
            "triage",
            0.0,
            2.0,
            &[kind("AGENT"), ("agent.name", json!("triage"))],
        ),
        span(2, Some(1), "response", 0.2, 1.5, &[kind("LLM")]),
        span(
            3,
            None,
            "writer",
            2.5,
            4.0,
            &[
                kind("AGENT"),
                ("agent.name", json!("writer")),
                ("graph.node.parent_id", json!("triage")),
            ],
        ),
    ];
    let t = import_with(spans, Convention::OpenInference);
    assert_eq!(
        events(&t),
        ["orchestrator_decision triage -> writer", "return writer"]
    );
    assert_eq!(t["events"][0]["t"], 1.5);
    assert_eq!(t["events"][0]["model_span_id"], "0000000000000002");
}

#[test]
fn the_other_convention_is_named_and_not_otherwise() {
    let spans = vec![span(
        1,
        None,
        "lead",
        0.0,
        1.0,
        &[("openinference.span.kind", json!("AGENT"))],
    )];
    let doc = json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
    let input = || Input {
        label: "oi.json".into(),
        bytes: serde_json::to_vec(&doc).unwrap(),
    };
    let rules = |convention| -> Vec<String> {
        let opts = Options {
            convention,
            ..Options::default()
        };
        import(&[input()], &opts)
            .diagnostics
            .into_iter()
            .map(|d| d.rule)
            .collect()
    };
    assert_eq!(rules(Convention::GenAi), ["otlp-other-convention"]);
    // Read as OpenInference the one root span is the run itself: no events, and no hint.
    assert_eq!(rules(Convention::OpenInference), ["otlp-no-events"]);
}

#[test]
fn base64_ids_read_like_hex_ones() {
    let hex = one(vec![
        agent(1, None, "lead", 0.0, 2.0),
        tool(2, 1, "a", 0.5, 1.0),
    ]);
    let b64 = |h: &str| {
        let bytes: Vec<u8> = (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
            .collect();
        // Standard base64 of the id's bytes, as protobuf's JSON printer writes it.
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for c in bytes.chunks(3) {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
            for k in 0..=c.len() {
                out.push(A[((n >> (18 - 6 * k)) & 63) as usize] as char);
            }
        }
        while !out.len().is_multiple_of(4) {
            out.push('=');
        }
        out
    };
    let mut spans = vec![agent(1, None, "lead", 0.0, 2.0), tool(2, 1, "a", 0.5, 1.0)];
    for s in &mut spans {
        for key in ["traceId", "spanId", "parentSpanId"] {
            if let Some(v) = s[key].as_str().map(b64) {
                s[key] = json!(v);
            }
        }
        s["status"] = json!({"code": "STATUS_CODE_OK"});
        s["kind"] = json!("SPAN_KIND_INTERNAL");
    }
    assert_eq!(one(spans), hex);
}

mod edges;
mod logfire;
