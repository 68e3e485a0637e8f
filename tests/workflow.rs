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

fn corpus_invocations() -> Vec<Vec<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.github/workflows/corpus.yml");
    let text = std::fs::read_to_string(path).expect("workflow exists");
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
