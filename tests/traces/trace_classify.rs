//! End-to-end tests of `corpus trace classify`: the shipped example traces
//! classify as the topology they declare, with the events that show it, and
//! a declared topology the events do not show is reported.

use crate::common;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

fn classify(args: &[&str], stdin: Option<String>) -> (i32, String, String) {
    let mut cmd = cargo_bin_cmd!("corpus");
    cmd.args(["trace", "classify"]).args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_shipped_examples_classify_as_they_declare() {
    for (name, form, shown) in [
        ("centralized", "centralized", "c14"),
        ("debate", "debate", "d05"),
        ("swarm", "swarm", "s8a"),
    ] {
        let path = common::repo().join(format!("traces/examples/{name}.json"));
        let (code, stdout, stderr) = classify(&[path.to_str().unwrap(), "--format", "json"], None);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(stderr.is_empty(), "{name}: {stderr}");
        let c: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(c["form"], form);
        assert_eq!(c["declared"], form);
        let events: Vec<&str> = c["evidence"]["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap())
            .collect();
        assert!(events.contains(&shown), "{name}: {events:?}");
        assert_eq!(c["sub_decisions"].as_object().unwrap().len(), 5);
    }
}

#[test]
fn a_topology_the_events_do_not_show_is_reported() {
    let path = common::repo().join("traces/examples/swarm.json");
    let text = std::fs::read_to_string(path).unwrap();
    let wrong = text.replace("\"topology\": \"swarm\"", "\"topology\": \"debate\"");
    assert_ne!(wrong, text);
    let (code, stdout, stderr) = classify(&["-"], Some(wrong));
    assert_eq!(code, 0, "a warning: {stderr}");
    assert!(stderr.contains("warning[trace-form-disagrees]"), "{stderr}");
    assert!(
        stderr.contains("declares topology `debate`, but its events show `swarm`"),
        "{stderr}"
    );
    assert!(stdout.contains("inferred form:     swarm"), "{stdout}");
}

#[test]
fn an_invalid_trace_is_refused() {
    let (code, stdout, stderr) = classify(&["-"], Some("{\"events\": []}".into()));
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("no classification of an invalid trace"),
        "{stderr}"
    );
}
