//! The mapping rules for edges between processes and people, one small
//! input each: A2A client and server spans (current and older names, one
//! trace or two joined by a link), tool-call approval decisions, and every
//! pair of older and current attribute names of `mapping::RENAMED`.

use super::*;

/// A span with a span kind (an OTLP integer, or protobuf's enum name).
fn kinded(mut s: Value, kind: Value) -> Value {
    s["kind"] = kind;
    s
}

/// An A2A client span: `a2a.method.name` on a CLIENT span, naming the remote agent.
fn a2a_client(id: u64, parent: u64, remote: &str, start: f64, end: f64) -> Value {
    let attrs = [
        ("a2a.method.name", json!("SendMessage")),
        ("gen_ai.agent.name", json!(remote)),
    ];
    let s = span(id, Some(parent), "SendMessage", start, end, &attrs);
    kinded(s, json!(3))
}

/// An A2A server span, likewise, on a SERVER span.
fn a2a_server(id: u64, parent: u64, remote: &str, start: f64, end: f64) -> Value {
    let attrs = [
        ("a2a.method.name", json!("SendMessage")),
        ("gen_ai.agent.name", json!(remote)),
    ];
    let s = span(id, Some(parent), "SendMessage", start, end, &attrs);
    kinded(s, json!("SPAN_KIND_SERVER"))
}

/// A `gen_ai.tool.call.decision` span event.
fn decision(t: f64, outcome: &str, call: Option<&str>, tool: &str) -> Value {
    let mut attributes = vec![
        json!({"key": "gen_ai.tool.call.decision.outcome", "value": {"stringValue": outcome}}),
        json!({"key": "gen_ai.tool.name", "value": {"stringValue": tool}}),
    ];
    if let Some(call) = call {
        attributes.push(json!({"key": "gen_ai.tool.call.id", "value": {"stringValue": call}}));
    }
    json!({
        "name": "gen_ai.tool.call.decision",
        "timeUnixNano": (1_000_000_000_000u64 + (t * 1e9) as u64).to_string(),
        "attributes": attributes,
    })
}

fn with_events(mut s: Value, events: Vec<Value>) -> Value {
    s["events"] = json!(events);
    s
}

#[test]
fn an_a2a_reply_with_nothing_recorded_inside_answers_the_request() {
    let t = one(vec![
        agent(1, None, "planner", 0.0, 5.0),
        a2a_client(2, 1, "weather", 1.0, 3.0),
        a2a_server(3, 2, "weather", 1.5, 2.5),
    ]);
    assert_eq!(
        events(&t),
        ["message planner -> weather", "message weather -> planner"]
    );
    assert!(has_edge(
        &t,
        "0000000000000002:request",
        "0000000000000003:reply",
        "message"
    ));
    let m = metrics_of(&t);
    assert_eq!((m.agents, m.sub_decisions["o3_communicate"]), (2, 2));
}

#[test]
fn a_request_whose_server_side_was_not_recorded_is_one_message() {
    let t = one(vec![
        agent(1, None, "planner", 0.0, 5.0),
        a2a_client(2, 1, "weather", 1.0, 3.0),
        tool(3, 1, "notes", 3.5, 4.0),
    ]);
    assert_eq!(
        events(&t),
        [
            "message planner -> weather",
            "tool_call planner",
            "tool_result planner"
        ]
    );
    // What follows the request in time still follows it.
    assert!(has_edge(
        &t,
        "0000000000000002:request",
        "0000000000000003:call",
        "causal"
    ));
}

#[test]
fn a_server_span_with_no_client_only_names_the_agent_inside() {
    let mut root = a2a_server(1, 1, "weather", 0.0, 2.0);
    root.as_object_mut().unwrap().remove("parentSpanId");
    let t = one(vec![root, tool(2, 1, "forecast", 0.5, 1.0)]);
    assert_eq!(events(&t), ["tool_call weather", "tool_result weather"]);
}

#[test]
fn an_a2a_call_inside_the_remote_agent_reaches_a_third_process() {
    // planner -> weather (A2A), and weather asks geo in turn (A2A again).
    let t = one(vec![
        agent(1, None, "planner", 0.0, 10.0),
        a2a_client(2, 1, "weather", 1.0, 9.0),
        a2a_server(3, 2, "weather", 1.5, 8.5),
        a2a_client(4, 3, "geo", 2.0, 4.0),
        a2a_server(5, 4, "geo", 2.5, 3.5),
        tool(6, 5, "lookup", 2.6, 3.0),
    ]);
    assert_eq!(
        events(&t),
        [
            "message planner -> weather",
            "message weather -> geo",
            "tool_call geo",
            "tool_result geo",
            "message geo -> weather",
            "message weather -> planner",
        ]
    );
    assert!(has_edge(
        &t,
        "0000000000000002:request",
        "0000000000000004:request",
        "message"
    ));
    assert!(has_edge(
        &t,
        "0000000000000004:request",
        "0000000000000006:call",
        "message"
    ));
    assert_eq!(metrics_of(&t).agents, 3);
}

#[test]
fn span_kinds_are_read_as_integers_or_enum_names() {
    let as_int = one(vec![
        agent(1, None, "planner", 0.0, 5.0),
        a2a_client(2, 1, "weather", 1.0, 3.0),
    ]);
    let mut client = a2a_client(2, 1, "weather", 1.0, 3.0);
    client["kind"] = json!("SPAN_KIND_CLIENT");
    let as_name = one(vec![agent(1, None, "planner", 0.0, 5.0), client]);
    assert_eq!(as_int, as_name);
    // Without a span kind, a2a.method.name alone does not say which side it is.
    let mut unkinded = a2a_client(2, 1, "weather", 1.0, 3.0);
    unkinded.as_object_mut().unwrap().remove("kind");
    let doc = json!({"resourceSpans": [{"scopeSpans": [{"spans": [
        agent(1, None, "planner", 0.0, 5.0), unkinded
    ]}]}]});
    let input = Input {
        label: "in.json".into(),
        bytes: serde_json::to_vec(&doc).unwrap(),
    };
    let out = import(&[input], &Options::default());
    assert!(out.traces.is_empty());
}

#[test]
fn only_an_answer_to_a_request_put_to_a_person_is_an_intervention() {
    let run = |events: Vec<Value>| {
        let t = one(vec![
            agent(1, None, "ops", 0.0, 5.0),
            with_events(tool(2, 1, "drop_table", 1.0, 4.0), events),
        ]);
        t["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "human_intervention")
            .map(|e| {
                (
                    e["agent"].as_str().unwrap().to_string(),
                    e["t"].as_f64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let asked = decision(1.5, "require_approval", Some("c1"), "drop_table");
    // Asked and answered (approved or rejected): one intervention by the calling agent.
    let yes = decision(2.0, "allow", Some("c1"), "drop_table");
    let no = decision(2.0, "deny", Some("c1"), "drop_table");
    assert_eq!(run(vec![asked.clone(), yes.clone()]), [("ops".into(), 2.0)]);
    assert_eq!(run(vec![asked.clone(), no]), [("ops".into(), 2.0)]);
    // Asked, no answer recorded (the run stopped waiting): none.
    assert!(run(vec![asked.clone()]).is_empty());
    // A policy's decision, with nothing put to a person: none.
    assert!(run(vec![yes.clone()]).is_empty());
    // An answer about another call: none.
    let other = decision(2.0, "allow", Some("c2"), "drop_table");
    assert!(run(vec![asked, other]).is_empty());
    // Without call ids, the tool's name ties answer to request.
    let asked = decision(1.5, "require_approval", None, "drop_table");
    let yes = decision(2.0, "allow", None, "drop_table");
    assert_eq!(run(vec![asked, yes]), [("ops".into(), 2.0)]);
    // An answer stamped outside its span is kept within it.
    let asked = decision(1.5, "require_approval", None, "drop_table");
    let late = decision(4.5, "allow", None, "drop_table");
    assert_eq!(run(vec![asked, late]), [("ops".into(), 4.0)]);
}

#[test]
fn every_older_name_reads_like_the_current_one() {
    use crate::otlp::mapping::{keys, RENAMED};
    let tokens = |key: &str| {
        vec![
            agent(1, None, "lead", 0.0, 3.0),
            span(
                2,
                Some(1),
                "chat m",
                0.5,
                1.0,
                &[("gen_ai.operation.name", json!("chat")), (key, json!(40))],
            ),
            tool(3, 1, "search", 1.5, 2.0),
        ]
    };
    // One of the two handoff keys under the name given, the other under its current name.
    let handoff = |key: &str| {
        let from_key = if key.starts_with(keys::HANDOFF_FROM) {
            key
        } else {
            keys::HANDOFF_FROM
        };
        let to_key = if key.starts_with(keys::HANDOFF_TO) {
            key
        } else {
            keys::HANDOFF_TO
        };
        vec![
            agent(1, None, "lead", 0.0, 5.0),
            agent(2, Some(1), "triage", 0.1, 2.0),
            span(
                3,
                Some(2),
                "agent_handoff",
                1.2,
                1.3,
                &[
                    ("gen_ai.operation.name", json!("agent_handoff")),
                    (from_key, json!("triage")),
                    (to_key, json!("writer")),
                ],
            ),
            agent(4, Some(1), "writer", 2.5, 4.0),
        ]
    };
    let workflow = |key: &str| {
        let attrs = [
            ("gen_ai.operation.name", json!("invoke_workflow")),
            (key, json!("pipeline")),
        ];
        vec![
            agent(1, None, "lead", 0.0, 3.0),
            span(2, Some(1), "run", 0.5, 2.0, &attrs),
        ]
    };
    let oi = |key: &str| {
        let attrs = [
            ("openinference.span.kind", json!("AGENT")),
            (key, json!("lead")),
        ];
        vec![
            span(1, None, "lead", 0.0, 3.0, &attrs),
            span(
                2,
                Some(1),
                "tool",
                1.0,
                2.0,
                &[
                    ("openinference.span.kind", json!("TOOL")),
                    ("tool.name", json!("search")),
                ],
            ),
        ]
    };
    let a2a = |older: bool| {
        let (client, server) = if older {
            let c = span(
                2,
                Some(1),
                "a2a.client.transports.rest.RestTransport.send_message",
                1.0,
                3.0,
                &[],
            );
            let s = span(
                3,
                Some(2),
                "a2a.server.request_handlers.rest_handler.RESTHandler.on_message_send",
                1.5,
                2.5,
                &[],
            );
            (c, s)
        } else {
            let c = span(
                2,
                Some(1),
                "SendMessage",
                1.0,
                3.0,
                &[("a2a.method.name", json!("SendMessage"))],
            );
            let s = span(
                3,
                Some(2),
                "SendMessage",
                1.5,
                2.5,
                &[("a2a.method.name", json!("SendMessage"))],
            );
            (kinded(c, json!(3)), kinded(s, json!(2)))
        };
        vec![
            agent(1, None, "planner", 0.0, 5.0),
            client,
            server,
            agent(4, Some(3), "weather", 1.6, 2.4),
            tool(5, 4, "forecast", 1.7, 2.0),
        ]
    };
    for row in RENAMED {
        let (current, older) = match row.current {
            keys::INPUT_TOKENS | keys::OUTPUT_TOKENS => (tokens(row.current), tokens(row.older)),
            keys::HANDOFF_FROM | keys::HANDOFF_TO => (handoff(row.current), handoff(row.older)),
            keys::AGENT_NAME => (workflow(row.current), workflow(row.older)),
            keys::OI_AGENT_NAME => {
                let read = |s| import_with(s, Convention::OpenInference);
                assert_eq!(read(oi(row.current)), read(oi(row.older)), "{}", row.older);
                continue;
            }
            keys::A2A_METHOD => (a2a(false), a2a(true)),
            other => panic!("no case for the older name of {other}: add one"),
        };
        let (current, older) = (one(current), one(older));
        assert_eq!(current, older, "{} <- {}", row.current, row.older);
        assert!(!events(&current).is_empty(), "{}", row.current);
        if row.current.starts_with("gen_ai.usage.") {
            assert_eq!(current["costs"]["tokens"], 40, "{}", row.older);
        }
        if row.current.starts_with(keys::HANDOFF_FROM) || row.current.starts_with(keys::HANDOFF_TO)
        {
            assert!(
                events(&current).contains(&"orchestrator_decision triage -> writer".to_string())
            );
        }
    }
}

#[test]
fn a_joined_trace_is_not_written_when_a_trace_it_joins_is_broken() {
    const SERVER: &str = "0000000000000000000000000000beef";
    let mut server = a2a_server(3, 3, "weather", 1.5, 2.5);
    server.as_object_mut().unwrap().remove("parentSpanId");
    server["traceId"] = json!(SERVER);
    server["links"] = json!([{"traceId": TRACE, "spanId": format!("{:016x}", 2)}]);
    let mut broken = tool(4, 3, "forecast", 1.6, 2.0);
    broken["traceId"] = json!(SERVER);
    let spans = |broken: Value| {
        vec![
            agent(1, None, "planner", 0.0, 5.0),
            a2a_client(2, 1, "weather", 1.0, 3.0),
            server.clone(),
            broken,
        ]
    };
    let run = |spans: Vec<Value>| {
        let doc = json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
        let input = Input {
            label: "in.json".into(),
            bytes: serde_json::to_vec(&doc).unwrap(),
        };
        import(&[input], &Options::default())
    };
    let whole = run(spans(broken.clone()));
    assert!(whole.diagnostics.is_empty(), "{:?}", whole.diagnostics);
    assert_eq!(whole.traces.len(), 1);
    assert_eq!(whole.traces[0].trace_id, TRACE);
    assert_eq!(whole.cross_trace_links, 0);
    broken["endTimeUnixNano"] = json!("soon");
    let out = run(spans(broken));
    assert!(out.traces.is_empty());
    assert!(out.diagnostics.iter().any(|d| d.rule == "otlp-span-time"));
}
