//! End-to-end tests of one agents-SDK run (a triage agent hands the
//! conversation to a writer, which calls a tool twice and answers), recorded
//! in the shapes of two instrumentations and three encodings: the handoff
//! passes control without a return, sequence is not read as parallelism,
//! tools are not agents, and every recording imports to the same trace.

use crate::support::{fixture, import, imported, metrics};

use serde_json::Value;

#[test]
fn a_handoff_passes_control_without_a_return() {
    let trace: Value = serde_json::from_str(&imported("otlp", "agents-handoff.json").0).unwrap();
    let events = trace["events"].as_array().unwrap();
    let kinds: Vec<(&str, &str)> = events
        .iter()
        .map(|e| (e["type"].as_str().unwrap(), e["agent"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("orchestrator_decision", "triage"),
            ("tool_call", "writer"),
            ("tool_result", "writer"),
            ("tool_call", "writer"),
            ("tool_result", "writer"),
            ("return", "writer"),
        ]
    );
    // Triage decides inside its own span (0.1 s to 2.0 s), when the model call
    // that asked for the handoff ended, and the decision names that call.
    let decision = &events[0];
    assert_eq!(decision["t"], 1.5);
    assert_eq!(decision["to"], "writer");
    assert_eq!(decision["model_span_id"], "0000000000000003");
    // The writer's answer ends the run: its return goes back to no agent.
    let answer = &events[5];
    assert_eq!(answer["t"], 9.8);
    assert!(answer.get("to").is_none(), "{answer}");
    assert_eq!(answer["model_calls"], 3);
    let edge = |src: &str, dst: &str| {
        trace["edges"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["src"] == src && e["dst"] == dst && e["type"] == "causal")
    };
    assert!(edge("0000000000000004:handoff", "0000000000000007:call"));
    // The second tool call comes after the first one's result.
    assert!(edge("0000000000000007:result", "0000000000000009:call"));
    assert!(edge("0000000000000009:result", "0000000000000005:return"));

    let m = metrics(&trace.to_string());
    assert_eq!(m["agents"], 2);
    assert_eq!(m["parallelism"], 1.0);
    assert_eq!(m["critical_steps"], 6);
    assert_eq!(m["sub_decisions"]["o2_delegate"], 1);
    assert_eq!(m["events_by_type"]["return"], 1);
    assert_eq!(m["tokens"], 1222.0);
}

#[test]
fn the_same_run_in_openinference_conventions_imports_to_the_same_trace() {
    let genai = imported("otlp", "agents-handoff.json").0;
    let oi = imported("openinference", "agents-handoff.openinference.json").0;
    assert_eq!(oi, genai);
}

#[test]
fn protobuf_json_and_json_lines_import_identically() {
    let genai = imported("otlp", "agents-handoff.json").0;
    assert_eq!(imported("otlp", "agents-handoff.protobuf.json").0, genai);
    assert_eq!(imported("otlp", "agents-handoff.jsonl").0, genai);
}

#[test]
fn a_file_in_the_other_convention_is_named_with_the_flag_that_reads_it() {
    let (code, stdout, stderr) = import("otlp", &fixture("agents-handoff.openinference.json"));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("warning[otlp-other-convention]"),
        "{stderr}"
    );
    assert!(stderr.contains("OpenInference"), "{stderr}");
    assert!(stderr.contains("--from openinference"), "{stderr}");
    let (code, _, stderr) = import("openinference", &fixture("agents-handoff.json"));
    assert_eq!(code, 1);
    assert!(stderr.contains("--from otlp"), "{stderr}");
    // Read in its own convention, the rule stays quiet.
    let (_, _, stderr) = import(
        "openinference",
        &fixture("agents-handoff.openinference.json"),
    );
    assert!(!stderr.contains("otlp-other-convention"), "{stderr}");
}

#[test]
fn elided_problems_are_counted_last_and_not_as_problems() {
    let spans: Vec<Value> = (1..=60u64)
        .map(|k| {
            serde_json::json!({
                "traceId": "0000000000000000000000000000abcd",
                "spanId": format!("{k:016x}"),
                "name": "chat",
                "startTimeUnixNano": "1000",
                "endTimeUnixNano": "2000",
                "attributes": [{"key": "gen_ai.operation.name", "value": {"floatValue": 1}}]
            })
        })
        .collect();
    let doc = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
    let dir = crate::common::scratch();
    let path = dir.path().join("many.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let (_, _, stderr) = import("otlp", &path);
    let note = stderr
        .find("10 more `otlp-attribute-type` problem(s)")
        .expect(&stderr);
    assert!(note > stderr.rfind("warning[").unwrap(), "{stderr}");
    assert_eq!(stderr.matches("warning[otlp-attribute-type]").count(), 50);
    assert!(stderr.contains("0 errors, 51 warnings"), "{stderr}");
}
