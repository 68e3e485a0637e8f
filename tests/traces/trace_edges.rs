//! End-to-end tests of the edges between processes and people: an agent
//! asks a remote agent over A2A (recorded in one trace across two resources,
//! or in two traces joined by a span link, with the span names of older
//! a2a-python releases), and a person answers tool-call approval requests.

use crate::support;

use serde_json::Value;

/// Imports a fixture of tests/fixtures/otlp; returns the trace and stderr.
fn imported(name: &str) -> (Value, String) {
    let (trace, stderr) = support::imported("otlp", name);
    (serde_json::from_str(&trace).unwrap(), stderr)
}

/// Events as "type agent [-> to] @t".
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
                "{} {}{to} @{}",
                e["type"].as_str().unwrap(),
                e["agent"].as_str().unwrap(),
                e["t"]
            )
        })
        .collect()
}

/// Edges as "src type dst".
fn edges(t: &Value) -> Vec<String> {
    t["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} {} {}",
                e["src"].as_str().unwrap(),
                e["type"].as_str().unwrap(),
                e["dst"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn an_a2a_request_is_a_message_across_processes_and_its_reply_another() {
    let (trace, stderr) = imported("a2a-remote.json");
    assert_eq!(
        events(&trace),
        [
            "message planner -> weather @1.1",
            "tool_call weather @1.4",
            "tool_result weather @2.5",
            "message weather -> planner @5.8",
        ]
    );
    assert_eq!(
        edges(&trace),
        [
            // The request reaches the first thing the remote agent does: a message edge.
            "0000000000000003:request message 0000000000000007:call",
            "0000000000000007:call tool_dependency 0000000000000007:result",
            "0000000000000007:result causal 0000000000000005:reply",
        ]
    );
    // The transport span inside the request stands for the same request.
    assert!(
        stderr.contains("a2a.client (inside an A2A request) 1"),
        "{stderr}"
    );
    let m = support::metrics(&trace.to_string());
    assert_eq!(m["agents"], 2);
    assert_eq!(m["sub_decisions"]["o3_communicate"], 2);
    assert_eq!(m["sub_decisions"]["o2_delegate"], 0);
    assert_eq!(m["parallelism"], 1.0);
}

#[test]
fn a_server_trace_linked_to_its_client_span_joins_the_clients_trace() {
    // The same run with no context propagated: the server's spans are a trace
    // of their own whose root links to the client span, and both sides carry
    // the span names of older a2a-python releases (no a2a.method.name, no
    // agent name on the A2A spans: the remote agent is the one invoked inside).
    let (linked, stderr) = imported("a2a-linked.json");
    let (remote, _) = imported("a2a-remote.json");
    assert_eq!(linked["trace_id"], remote["trace_id"]);
    assert_eq!(events(&linked), events(&remote));
    assert_eq!(edges(&linked), edges(&remote));
    assert!(stderr.contains("imported 1 of 1 trace(s)"), "{stderr}");
    assert!(!stderr.contains("other traces"), "{stderr}");
}

#[test]
fn a_persons_answer_to_an_approval_request_is_a_human_intervention() {
    let (trace, _) = imported("tool-approval.json");
    assert_eq!(
        events(&trace),
        [
            "tool_call ops @1.1",
            // Approved on the tool's own span, while the call waited.
            "human_intervention ops @3.0",
            "tool_result ops @4.0",
            // Denied on the agent's span: the tool never ran.
            "human_intervention ops @6.5",
            // Allowed by a policy with no request put to a person: no intervention.
            "tool_call ops @7.1",
            "tool_result ops @7.5",
        ]
    );
    let edges = edges(&trace);
    for e in [
        "0000000000000003:call causal 0000000000000003:approval",
        "0000000000000003:approval causal 0000000000000003:result",
        "0000000000000003:result causal 0000000000000001:approval",
        "0000000000000001:approval causal 0000000000000005:call",
    ] {
        assert!(edges.iter().any(|x| x == e), "{e} not in {edges:?}");
    }
    let m = support::metrics(&trace.to_string());
    assert_eq!(m["events_by_type"]["human_intervention"], 2);
    assert_eq!(m["agents"], 1);
    assert_eq!(m["parallelism"], 1.0);
}

#[test]
fn explain_lists_the_a2a_spans_the_decision_event_and_every_older_name() {
    let text = support::explain();
    for needle in [
        "a2a.client",
        "a2a.server",
        "gen_ai.tool.call.decision",
        "gen_ai.tool.call.decision.outcome",
        "gen_ai.usage.input_tokens <- gen_ai.usage.prompt_tokens",
        "gen_ai.agent.name <- gen_ai.workflow.name",
        "a2a.method.name <- span name a2a.client.* / a2a.server.*",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
}
