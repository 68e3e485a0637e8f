//! The CI workflow cannot rot: every `corpus` invocation in it must be a valid
//! command line of the current CLI.

use clap::Parser;

/// Splits a shell command into words, honouring double and single quotes,
/// and stops at redirections, pipes and command separators.
fn shell_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has_word = false;
    for c in cmd.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                has_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if has_word {
                    words.push(std::mem::take(&mut cur));
                    has_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                has_word = true;
            }
        }
    }
    if has_word {
        words.push(cur);
    }
    let stop = words
        .iter()
        .position(|w| matches!(w.as_str(), ">" | ">>" | "|" | "&&" | "||" | ";"))
        .unwrap_or(words.len());
    words.truncate(stop);
    words
}

/// The `corpus` command lines of the check workflow and the release workflow.
fn corpus_invocations() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for name in ["corpus.yml", "release.yml"] {
        out.extend(invocations_in(name));
    }
    out
}

fn invocations_in(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/.github/workflows/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("workflow exists");
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).expect("workflow is valid YAML");
    let mut out = Vec::new();
    for job in doc["jobs"].as_mapping().expect("jobs").values() {
        for step in job["steps"].as_sequence().expect("steps") {
            let Some(run) = step["run"].as_str() else {
                continue;
            };
            for line in run.lines() {
                let words = shell_words(line);
                if let Some(i) = words
                    .iter()
                    .position(|w| w == "corpus" || w.ends_with("/corpus"))
                {
                    let mut argv = vec!["corpus".to_string()];
                    argv.extend(words[i + 1..].iter().cloned());
                    out.push(argv);
                }
            }
        }
    }
    out
}

#[test]
fn every_corpus_invocation_in_the_workflow_parses() {
    let calls = corpus_invocations();
    assert!(
        calls.len() >= 3,
        "expected check, build --check and diff, found {calls:?}"
    );
    for argv in &calls {
        if let Err(e) = corpus::cli::Cli::try_parse_from(argv) {
            panic!(
                "workflow runs `{}`, which the CLI rejects:\n{e}",
                argv.join(" ")
            );
        }
    }
}

#[test]
fn the_workflow_runs_strict_check_fresh_build_and_diff() {
    let joined: Vec<String> = corpus_invocations().iter().map(|a| a.join(" ")).collect();
    assert!(joined
        .iter()
        .any(|c| c.contains("check --strict --format github")));
    assert!(joined.iter().any(|c| c.contains("build --check")));
    assert!(joined.iter().any(|c| c.contains("diff --base")));
}

#[test]
fn a_rotten_invocation_would_be_caught() {
    let argv = shell_words("./target/release/corpus check --stirct >> out");
    assert_eq!(argv, ["./target/release/corpus", "check", "--stirct"]);
    assert!(corpus::cli::Cli::try_parse_from(["corpus", "check", "--stirct"]).is_err());
}

fn workflow() -> (String, serde_yaml::Value) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.github/workflows/corpus.yml");
    let text = std::fs::read_to_string(path).expect("workflow exists");
    let doc = serde_yaml::from_str(&text).expect("workflow is valid YAML");
    (text, doc)
}

#[test]
fn the_workflow_is_least_privilege_cancellable_and_bounded() {
    let (_, doc) = workflow();
    assert_eq!(doc["permissions"]["contents"].as_str(), Some("read"));
    assert_eq!(
        doc["concurrency"]["cancel-in-progress"].as_bool(),
        Some(true)
    );
    let group = doc["concurrency"]["group"].as_str().unwrap_or("");
    assert!(group.contains("github.ref"), "{group}");
    for (name, job) in doc["jobs"].as_mapping().expect("jobs") {
        assert!(
            job["timeout-minutes"].as_u64().is_some(),
            "job {name:?} has no timeout-minutes"
        );
    }
}

#[test]
fn no_run_line_interpolates_an_expression_into_the_shell() {
    let (_, doc) = workflow();
    for job in doc["jobs"].as_mapping().expect("jobs").values() {
        for step in job["steps"].as_sequence().expect("steps") {
            if let Some(run) = step["run"].as_str() {
                assert!(
                    !run.contains("${{"),
                    "pass expressions through env:, not into the script: {run}"
                );
            }
        }
    }
}

#[test]
fn the_pull_request_summary_is_written_even_when_check_fails() {
    let (_, doc) = workflow();
    let steps = doc["jobs"]["check"]["steps"].as_sequence().expect("steps");
    let summary = steps
        .iter()
        .find(|s| s["run"].as_str().is_some_and(|r| r.contains("diff --base")))
        .expect("a diff step");
    let cond = summary["if"].as_str().unwrap_or("");
    assert!(
        cond.contains("!cancelled()") || cond.contains("always()"),
        "{cond}"
    );
    assert_eq!(
        summary["env"]["BASE_REF"].as_str(),
        Some("${{ github.base_ref }}")
    );
}

#[test]
fn the_tool_and_the_tests_share_one_build_profile() {
    let (text, _) = workflow();
    assert!(
        !text.contains("cargo build"),
        "a separate build compiles everything twice"
    );
    assert!(text.contains("cargo test --release --locked"));
}

#[test]
fn the_markdown_linters_run_at_pinned_versions() {
    let (text, _) = workflow();
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    for pin in ["awesome-lint@2.3.0", "markdownlint-cli2@0.22.1"] {
        assert!(text.contains(pin), "workflow lacks {pin}");
        assert!(ci.contains(pin), ".ci/run lacks {pin}");
    }
}

#[test]
fn every_pre_commit_hook_runs_a_valid_command_line() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(path).expect(".pre-commit-hooks.yaml exists");
    let hooks: serde_yaml::Value = serde_yaml::from_str(&text).expect("valid YAML");
    let mut ids = Vec::new();
    for hook in hooks.as_sequence().expect("a list of hooks") {
        let entry = hook["entry"].as_str().expect("entry");
        let mut argv = shell_words(entry);
        assert_eq!(argv.first().map(String::as_str), Some("corpus"), "{entry}");
        // pre-commit appends the matched file names when pass_filenames is on.
        if hook["pass_filenames"].as_bool() != Some(false) {
            argv.push("corpus/papers/magrpo.yaml".into());
        }
        if let Err(e) = corpus::cli::Cli::try_parse_from(&argv) {
            panic!("hook `{entry}` is not a valid command line:\n{e}");
        }
        ids.push(hook["id"].as_str().expect("id").to_string());
    }
    assert_eq!(ids, ["corpus-check", "corpus-fmt"]);
}
