//! The recorded runs the corpus ships (`traces/runs/`) against the entries
//! that link them: `corpus trace classify` on each linked run shows the
//! entry's orchestration form and every sub-decision it claims, and `check`
//! reports the entry whose tags the run does not show.

use crate::common::{self, Tree};
use crate::support::{classification, import};

use serde_json::Value;

/// The classifications of the traces in a file the corpus ships.
fn classified(rel: &str) -> Vec<Value> {
    let path = common::repo().join(rel);
    let traces: Vec<String> = if rel.starts_with("traces/otlp/") {
        let (code, out, stderr) = import("otlp", &path);
        assert_eq!(code, 0, "{rel}: {stderr}");
        serde_json::Deserializer::from_str(&out)
            .into_iter::<Value>()
            .map(|t| t.unwrap().to_string())
            .collect()
    } else {
        vec![std::fs::read_to_string(&path).unwrap()]
    };
    traces.iter().map(|t| classification(t)).collect()
}

/// Every entry file's key, orchestration form, sub-decisions and linked traces, for the entries that link any.
fn linking_entries() -> Vec<(String, String, Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    let dir = common::repo().join("corpus/papers");
    for f in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        let e: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        let list = |k: &str| -> Vec<String> {
            e[k].as_sequence()
                .map(|s| s.iter().map(|v| v.as_str().unwrap().to_string()).collect())
                .unwrap_or_default()
        };
        let traces = list("traces");
        if !traces.is_empty() {
            out.push((
                e["key"].as_str().unwrap().to_string(),
                e["orchestration_form"].as_str().unwrap().to_string(),
                list("subdecisions"),
                traces,
            ));
        }
    }
    out.sort();
    out
}

#[test]
fn every_linked_run_shows_the_tags_of_its_entry() {
    let entries = linking_entries();
    assert!(
        entries
            .iter()
            .any(|(_, _, _, t)| t.iter().any(|p| p.starts_with("traces/runs/"))),
        "no entry links a recorded run: {entries:?}"
    );
    for (key, form, subs, traces) in &entries {
        let shown: Vec<Value> = traces.iter().flat_map(|p| classified(p)).collect();
        // Forms the events cannot show (a harness, planner-executor-critic roles) are not compared.
        let showable = ["debate", "hierarchical", "swarm", "centralized"].contains(&form.as_str());
        assert!(
            !showable || shown.iter().any(|c| c["form"] == form.as_str()),
            "{key} is tagged {form}; its runs show {:?}",
            shown.iter().map(|c| &c["form"]).collect::<Vec<_>>()
        );
        for s in subs {
            assert!(
                shown
                    .iter()
                    .any(|c| c["sub_decisions"][s]["count"].as_u64() > Some(0)),
                "{key} claims {s}; no linked run takes it"
            );
        }
    }
}

#[test]
fn the_recorded_puppeteer_run_is_dispatch_and_return_by_one_orchestrator() {
    let c = &classified("traces/runs/puppeteer-mmlu-pro.json")[0];
    assert_eq!(c["form"], "centralized");
    assert!(
        c["reason"]
            .as_str()
            .unwrap()
            .starts_with("Puppeteer dispatches work to 7 agent(s)"),
        "{c}"
    );
    assert_eq!(c["sub_decisions"]["o2_delegate"]["count"], 8);
    assert_eq!(c["sub_decisions"]["o4_aggregate"]["count"], 7);
    for none in ["o1_spawn", "o3_communicate", "o5_stop"] {
        assert_eq!(c["sub_decisions"][none]["count"], 0, "{none}");
    }
}

#[test]
fn check_reports_an_entry_whose_tags_its_recorded_run_does_not_show() {
    let t = Tree::repo_copy();
    let entry = "corpus/papers/puppeteer.yaml";
    t.replace(
        entry,
        "orchestration_form: centralized",
        "orchestration_form: swarm",
    );
    let run = t.check_in_process(&[]);
    let found = run.of("trace-tags-disagree");
    assert_eq!(found.len(), 1, "{}", run.stdout);
    let d = &found[0];
    assert_eq!(d.file, entry);
    assert_eq!(d.field.as_deref(), Some("traces"));
    assert!(
        d.message.contains("swarm") && d.message.contains("centralized"),
        "{d:?}"
    );
}
