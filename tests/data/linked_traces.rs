//! An entry's linked traces (`traces`): where a link may point, and what
//! `check` says when the entry's tags claim what the traces do not show.
//! The fixture's RL method is a centralized system whose coordinator
//! delegates (`o2_delegate`); [`RUN`] is a run of it that shows both.

use crate::common::{repo, valid, Tree};

/// Where the fixture's run is kept.
pub const RUN_PATH: &str = "traces/examples/relay.json";

/// A run of the fixture's RL method: the coordinator delegates a sub-problem
/// to a solver, takes its answer back and combines it.
pub const RUN: &str = r#"{
  "trace_id": "relay-credit-run-1",
  "task_id": "fixture-task",
  "system": "fixture",
  "topology": "centralized",
  "events": [
    {"id": "r1", "t": 0, "type": "orchestrator_decision", "agent": "coordinator", "to": "solver", "content_ref": "decide:solver"},
    {"id": "r2", "t": 1, "type": "message", "agent": "coordinator", "from": "coordinator", "to": "solver", "content_ref": "msg:sub-problem", "trusted": true},
    {"id": "r3", "t": 2, "type": "return", "agent": "solver", "from": "solver", "to": "coordinator", "content_ref": "answer:part", "trusted": true},
    {"id": "r4", "t": 3, "type": "aggregate", "agent": "coordinator", "content_ref": "answer:whole"}
  ],
  "edges": [
    {"src": "r1", "dst": "r2", "type": "causal"},
    {"src": "r2", "dst": "r3", "type": "message"},
    {"src": "r3", "dst": "r4", "type": "aggregate"}
  ],
  "rewards": {"team": 1.0},
  "costs": {"tokens": 100, "wall_clock_s": 3, "tool_calls": 0, "messages": 1}
}
"#;

/// Links `paths` from the fixture's RL method, where `corpus fmt` puts the field.
pub fn link(t: &Tree, paths: &[&str]) {
    let list = format!("[{}]", paths.join(", "));
    t.insert_after(valid::METHOD, "strict_credit_source", "traces", &list);
}

/// The run written and linked: the entry's tags and the run agree.
pub fn linked_run(t: &Tree) {
    t.write(RUN_PATH, RUN);
    link(t, &[RUN_PATH]);
}

/// The same run with its delegation replaced by a plain message: the
/// coordinator takes no delegation decision, so `o2_delegate` is not shown.
pub fn linked_run_without_delegation(t: &Tree) {
    let run = RUN.replace(
        r#""type": "orchestrator_decision", "agent": "coordinator", "to": "solver", "content_ref": "decide:solver""#,
        r#""type": "message", "agent": "coordinator", "from": "coordinator", "to": "solver", "content_ref": "msg:hello", "trusted": true"#,
    );
    let run = run.replace(r#""messages": 1}"#, r#""messages": 2}"#);
    assert_ne!(run, RUN, "the fixture's run changed");
    t.write(RUN_PATH, run);
    link(t, &[RUN_PATH]);
}

#[test]
fn a_run_that_agrees_with_the_tags_is_clean() {
    let t = Tree::valid();
    linked_run(&t);
    t.check_in_process(&["--strict"]).assert_code(0);
}

#[test]
fn a_claimed_sub_decision_no_linked_run_takes_is_a_warning_at_the_field() {
    let t = Tree::valid();
    linked_run_without_delegation(&t);
    let run = t.check_in_process(&[]);
    run.assert_code(0);
    let d = run.single();
    assert_eq!(d.rule, "trace-tags-disagree");
    assert_eq!(d.severity, "warning");
    assert_eq!(d.file, valid::METHOD);
    assert_eq!(d.field.as_deref(), Some("traces"));
    assert_eq!(d.line, Some(t.line_of(valid::METHOD, "traces:")));
    assert!(
        d.message.contains("`o2_delegate`") && d.message.contains(RUN_PATH),
        "{d:?}"
    );
    assert!(d.help.as_deref().unwrap_or("").contains("trace classify"));
    // `--strict` fails on it; a waiver with a reason acknowledges it.
    t.check_in_process(&["--strict"]).assert_code(1);
    t.append(
        valid::METHOD,
        "waivers:\n  trace-tags-disagree: the linked run is a smoke test without delegation\n",
    );
    t.check_in_process(&["--strict"]).assert_code(0);
}

#[test]
fn a_form_the_run_does_not_show_is_reported_with_the_events_that_show_another() {
    let t = Tree::valid();
    linked_run(&t);
    t.set(valid::METHOD, "orchestration_form", "swarm");
    let run = t.check_in_process(&[]);
    let d = run.single();
    assert_eq!(d.rule, "trace-tags-disagree");
    assert!(
        d.message.contains("orchestration_form `swarm`")
            && d.message.contains("shows `centralized`")
            && d.message.contains("events r1, r3, r4"),
        "{d:?}"
    );
    // A form events cannot show is never contradicted by them.
    t.set(
        valid::METHOD,
        "orchestration_form",
        "planner_executor_critic",
    );
    t.check_in_process(&["--strict"]).assert_code(0);
}

#[test]
fn a_run_showing_more_than_the_tags_is_not_a_disagreement() {
    // The run also communicates and aggregates; the entry claims neither.
    let t = Tree::valid();
    linked_run(&t);
    let c = t.corpus(&["trace", "classify", RUN_PATH]);
    assert!(c.stdout.contains("o3_communicate  r2"), "{}", c.stdout);
    t.check_in_process(&["--strict"]).assert_code(0);
}

#[test]
fn links_that_leave_the_example_folders_are_errors_not_reads() {
    let t = Tree::valid();
    t.write(RUN_PATH, RUN);
    t.write("corpus/run.json", RUN);
    let bad = [
        "traces/examples/../../corpus/run.json",
        "/etc/hosts.json",
        "corpus/run.json",
        "traces/examples/absent.json",
    ];
    let quoted: Vec<String> = bad.iter().map(|p| format!("\"{p}\"")).collect();
    link(&t, &quoted.iter().map(String::as_str).collect::<Vec<_>>());
    let run = t.check_in_process(&[]);
    run.assert_code(1);
    let hits = run.of("trace-link");
    assert_eq!(hits.len(), bad.len(), "{}", run.stdout);
    for path in bad {
        let d = hits
            .iter()
            .find(|d| d.message.contains(&format!("`{path}`")))
            .unwrap_or_else(|| panic!("no diagnostic names {path}: {}", run.stdout));
        assert_eq!(d.severity, "error");
        assert!(d.line.is_some(), "{d:?}");
        let why = if path.ends_with("absent.json") {
            "is no trace file the corpus ships"
        } else {
            "is not a path below traces/examples/ or traces/otlp/"
        };
        assert!(d.message.contains(why), "{d:?}");
    }
    // With a broken link the tags are not compared.
    assert!(run.of("trace-tags-disagree").is_empty());
}

#[test]
fn a_link_to_an_invalid_trace_is_reported_on_the_entry_and_the_trace() {
    let t = Tree::valid();
    linked_run(&t);
    t.write(RUN_PATH, "{\"trace_id\": ");
    let run = t.check_in_process(&[]);
    run.assert_code(1);
    let d = &run.of("trace-link")[0];
    assert!(d.message.contains("holds no valid trace"), "{d:?}");
    assert!(run.diags().iter().any(|d| d.file == RUN_PATH));
}

#[cfg(unix)]
#[test]
fn a_trace_reached_through_a_symbolic_link_is_not_read() {
    let t = Tree::valid();
    let outside = Tree::empty();
    outside.write("run.json", RUN);
    std::fs::create_dir_all(t.path("traces/examples")).unwrap();
    std::os::unix::fs::symlink(outside.path("run.json"), t.path(RUN_PATH)).unwrap();
    link(&t, &[RUN_PATH]);
    let run = t.check_in_process(&[]);
    run.assert_code(1);
    let unread = run.of("trace-unreadable");
    assert_eq!(unread.len(), 1, "{}", run.stdout);
    assert!(unread[0].message.contains("symbolic link"));
    assert!(run.of("trace-link")[0]
        .message
        .contains("holds no valid trace"));
}

#[test]
fn an_otlp_run_may_be_linked() {
    let t = Tree::valid();
    let otlp = "traces/otlp/research-team.json";
    t.write(
        otlp,
        std::fs::read(repo().join(otlp)).expect("the shipped OTLP example"),
    );
    link(&t, &[otlp]);
    let run = t.check_in_process(&[]);
    // The example is a centralized team run: the entry's form and its
    // delegation agree with it.
    assert!(run.of("trace-link").is_empty(), "{}", run.stdout);
    assert!(run.of("trace-tags-disagree").is_empty(), "{}", run.stdout);
}

#[test]
fn the_link_survives_a_csv_round_trip_and_fmt() {
    let t = Tree::valid();
    linked_run(&t);
    let before = t.read(valid::METHOD);
    t.export_and_reimport_csv();
    assert_eq!(t.read(valid::METHOD), before);
    t.corpus(&["fmt", "--check"]).assert_code(0);
}

#[test]
fn an_edit_of_a_linked_trace_alone_is_seen_by_the_next_check() {
    // The run is read with the other inputs, so the build record's digest
    // covers it: a recorded clean check does not hide the edit.
    let t = Tree::valid();
    linked_run(&t);
    t.check_in_process(&[]).assert_code(0);
    t.check_in_process(&[]).assert_code(0);
    let entry = t.read(valid::METHOD);
    linked_run_without_delegation(&t);
    t.write(valid::METHOD, entry);
    let run = t.check_in_process(&[]);
    assert_eq!(run.single().rule, "trace-tags-disagree");
}
