//! The weekly links workflow cannot rot: its `corpus` command lines parse,
//! the cache it restores and saves is the one `corpus links` writes, and
//! the report goes to the job summary.

use clap::Parser;

fn workflow() -> serde_yaml::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.github/workflows/links.yml");
    let text = std::fs::read_to_string(path).expect("links workflow exists");
    serde_yaml::from_str(&text).expect("links workflow is valid YAML")
}

fn steps() -> Vec<serde_yaml::Value> {
    let doc = workflow();
    doc["jobs"]
        .as_mapping()
        .expect("jobs")
        .values()
        .flat_map(|j| j["steps"].as_sequence().expect("steps").clone())
        .collect()
}

/// `corpus …` command lines of the run steps, cut at redirections and `||`.
fn corpus_calls() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for step in steps() {
        let Some(run) = step["run"].as_str() else {
            continue;
        };
        for line in run.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(i) = words.iter().position(|w| w.ends_with("/corpus")) else {
                continue;
            };
            let mut argv = vec!["corpus".to_string()];
            argv.extend(
                words[i + 1..]
                    .iter()
                    .take_while(|w| !matches!(**w, ">" | ">>" | "|" | "||" | "&&" | ";"))
                    .map(|w| w.to_string()),
            );
            out.push(argv);
        }
    }
    out
}

#[test]
fn every_corpus_command_in_the_links_workflow_parses() {
    let calls = corpus_calls();
    let names: Vec<&str> = calls.iter().map(|c| c[1].as_str()).collect();
    assert_eq!(names, ["links", "verify"], "{calls:?}");
    for argv in &calls {
        if let Err(e) = corpus::cli::Cli::try_parse_from(argv) {
            panic!(
                "the workflow runs `{}`, which the CLI rejects:\n{e}",
                argv.join(" ")
            );
        }
    }
    assert!(calls[0].join(" ").contains("--format markdown"));
}

#[test]
fn the_workflow_is_weekly_and_on_demand_and_carries_the_cache() {
    let doc = workflow();
    let on = &doc["on"];
    assert!(on["schedule"][0]["cron"].as_str().is_some());
    assert!(on.get("workflow_dispatch").is_some());
    let cache_paths: Vec<String> = steps()
        .iter()
        .filter(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/cache/"))
        })
        .map(|s| s["with"]["path"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(cache_paths.len(), 2, "restore and save");
    for p in cache_paths {
        assert_eq!(p, corpus_core::network::links::default_cache());
    }
    let runs: String = steps()
        .iter()
        .filter_map(|s| s["run"].as_str().map(str::to_string))
        .collect();
    assert!(runs.contains("$GITHUB_STEP_SUMMARY"));
    assert!(runs.contains("exit 1"));
}
