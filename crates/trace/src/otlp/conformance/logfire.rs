//! The mapping rules for Logfire's OpenAI Agents spans (`mapping::LOGFIRE`),
//! and for a handoff asked for in the same model answer as a tool call.

use super::*;

/// A span as Logfire's integration writes it: the template as its name and
/// as `logfire.msg_template`, the SDK's own attribute names; `last`
/// puts the template after the other attributes.
fn logfire(
    id: u64,
    parent: Option<u64>,
    template: &str,
    (start, end): (f64, f64),
    attrs: &[(&str, Value)],
    last: bool,
) -> Value {
    let mut all: Vec<(&str, Value)> = attrs.to_vec();
    let tpl = ("logfire.msg_template", json!(template));
    if last {
        all.push(tpl);
    } else {
        all.insert(0, tpl);
    }
    span(id, parent, template, start, end, &all)
}

fn model(id: u64, parent: u64, start: f64, end: f64) -> Value {
    span(
        id,
        Some(parent),
        "Responses API with {gen_ai.request.model!r}",
        start,
        end,
        &[
            ("gen_ai.operation.name", json!("chat")),
            ("gen_ai.request.model", json!("m")),
        ],
    )
}

#[test]
fn logfire_spans_map_by_template_whatever_the_attribute_order() {
    for last in [false, true] {
        let t = one(vec![
            logfire(
                1,
                None,
                "Agent run: {name!r}",
                (0.0, 10.0),
                &[("name", json!("a"))],
                last,
            ),
            model(2, 1, 1.0, 2.0),
            logfire(
                3,
                Some(1),
                "Function: {name}",
                (2.5, 3.0),
                &[("name", json!("calc"))],
                last,
            ),
            logfire(
                4,
                Some(1),
                "Guardrail {name!r} {triggered=}",
                (3.5, 4.0),
                &[("name", json!("g")), ("triggered", json!(true))],
                last,
            ),
            logfire(
                5,
                Some(1),
                "Handoff: {from_agent} → {to_agent}",
                (4.5, 5.0),
                &[("from_agent", json!("a")), ("to_agent", json!("b"))],
                last,
            ),
            logfire(
                6,
                None,
                "Agent run: {name!r}",
                (6.0, 9.0),
                &[("name", json!("b"))],
                last,
            ),
        ]);
        assert_eq!(
            events(&t),
            [
                "orchestrator_decision a -> b",
                "tool_call a",
                "tool_result a",
                "safety_event a",
                "return b",
            ],
            "template last: {last}"
        );
        assert_eq!(t["events"][1]["tool"], "calc");
        assert_eq!(t["events"][3]["guardrail"], "g");
        assert_eq!(t["events"][3]["triggered"], true);
    }
}

#[test]
fn plain_names_mean_nothing_without_a_logfire_template() {
    let doc = json!({"resourceSpans": [{"scopeSpans": [{"spans": [
        span(1, None, "job", 0.0, 1.0, &[("name", json!("a")), ("logfire.msg_template", json!("job {name}"))]),
        span(2, Some(1), "step", 0.2, 0.4, &[("to_agent", json!("b")), ("triggered", json!(true))]),
    ]}]}]});
    let input = Input {
        label: "in.json".into(),
        bytes: serde_json::to_vec(&doc).unwrap(),
    };
    let out = import(&[input], &Options::default());
    assert!(out.traces.is_empty());
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.rule == corpus_diagnostics::rules::Rule::OtlpNoEvents));
}

#[test]
fn a_handoff_asked_for_with_a_tool_call_precedes_the_tool_and_the_next_agent_follows_it() {
    // One model answer (1-2 s) asks for a tool and a handoff; the SDK runs
    // the tool (3-4 s), then the handoff span (5-6 s), then the next agent.
    let t = one(vec![
        agent(1, None, "triage", 0.0, 7.0),
        chat(2, 1, 1.0, 2.0),
        tool(3, 1, "lookup", 3.0, 4.0),
        span(
            4,
            Some(1),
            "agent_handoff",
            5.0,
            6.0,
            &[
                ("gen_ai.operation.name", json!("agent_handoff")),
                ("gen_ai.handoff.to_agent", json!("writer")),
            ],
        ),
        agent(5, None, "writer", 8.0, 9.0),
    ]);
    assert_eq!(
        events(&t),
        [
            "orchestrator_decision triage -> writer",
            "tool_call triage",
            "tool_result triage",
            "return writer",
        ]
    );
    let d = "0000000000000004:handoff";
    assert!(has_edge(&t, d, "0000000000000003:call", "causal"));
    assert!(has_edge(
        &t,
        "0000000000000003:result",
        "0000000000000005:return",
        "causal"
    ));
    assert!(has_edge(&t, d, "0000000000000005:return", "causal"));
    let m = metrics_of(&t);
    assert_eq!((m.parallelism, m.critical_steps, m.agents), (1.0, 4, 2));
}
