//! One command-line vocabulary across the subcommands: format names, the
//! place of the global options, value lists in help and errors, and the
//! queries of `corpus list --where` (aliases, did-you-mean, text search,
//! comparisons), each run on the binary against a fixture tree.

use crate::common::{run_in, Tree};
use clap::CommandFactory;

/// Every subcommand, nested ones included, with its path of names.
fn all_commands() -> Vec<(String, clap::Command)> {
    fn walk(prefix: &str, cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        for sub in cmd.get_subcommands().filter(|c| c.get_name() != "help") {
            let name = format!("{prefix} {}", sub.get_name()).trim().to_string();
            out.push((name.clone(), sub.clone()));
            walk(&name, sub, out);
        }
    }
    let mut out = Vec::new();
    let mut root = corpus::cli::Cli::command();
    root.build();
    walk("", &root, &mut out);
    out
}

#[test]
fn every_format_option_calls_the_format_for_a_person_human() {
    let mut with_format = 0;
    for (name, cmd) in all_commands() {
        let Some(format) = cmd.get_arguments().find(|a| a.get_id() == "format") else {
            continue;
        };
        with_format += 1;
        let shown: Vec<String> = format
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        for old in ["table", "text", "plain"] {
            assert!(
                !shown.contains(&old.to_string()),
                "`corpus {name} --format` shows `{old}`; the shared name is `human`: {shown:?}"
            );
        }
    }
    assert!(
        with_format >= 8,
        "only {with_format} commands have --format"
    );
}

#[test]
fn old_format_names_still_work() {
    let t = Tree::valid();
    let human = t.corpus(&["list", "--format", "human"]);
    human.assert_code(0);
    assert_eq!(
        t.corpus(&["list", "--format", "table"]).stdout,
        human.stdout
    );
    assert!(human.stdout.contains("3 matching"), "{}", human.stdout);
}

#[test]
fn global_options_sit_under_one_heading_in_every_subcommand() {
    for (name, mut cmd) in all_commands() {
        let help = cmd.render_long_help().to_string();
        let heading = help
            .find("Global options:")
            .unwrap_or_else(|| panic!("`corpus {name} --help` has no Global options:\n{help}"));
        for flag in ["--root <DIR>", "--max-file-size <BYTES>", "--no-cache"] {
            let at = help
                .find(flag)
                .unwrap_or_else(|| panic!("`corpus {name} --help` lacks {flag}"));
            assert!(
                at > heading,
                "`corpus {name} --help`: {flag} before the heading"
            );
        }
        assert!(
            !help.contains("--max-trace-size") || name.starts_with("trace"),
            "`corpus {name} --help` points at --max-trace-size, which it does not have"
        );
    }
}

#[test]
fn import_needs_papers_or_excluded_before_it_runs() {
    let t = Tree::valid();
    let run = t.corpus(&["import"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--papers"), "{}", run.stderr);
    assert!(run.stderr.contains("--excluded"), "{}", run.stderr);
    assert!(
        run.stderr.contains("Usage:"),
        "a usage error: {}",
        run.stderr
    );
}

#[test]
fn a_wrong_category_of_new_is_answered_with_the_categories() {
    let t = Tree::valid();
    let run = t.corpus(&["new", "x2026", "--category", "surveys"]);
    run.assert_code(2);
    assert!(run.stderr.contains("rl_method"), "{}", run.stderr);
    assert!(!t.path("corpus/papers/x2026.yaml").exists());
}

#[test]
fn site_reports_on_stdout_as_build_does() {
    let t = Tree::valid_with_templates();
    let run = t.corpus(&["site"]);
    run.assert_code(0);
    assert!(run.stdout.starts_with("wrote "), "{}", run.stdout);
    assert_eq!(run.stderr, "");
}

fn keys(t: &Tree, conditions: &[&str]) -> Vec<String> {
    let mut args = vec!["list", "--format", "keys"];
    for c in conditions {
        args.extend(["--where", c]);
    }
    let run = t.corpus(&args);
    run.assert_code(0);
    run.stdout.lines().map(str::to_string).collect()
}

#[test]
fn where_takes_the_readme_tag_names_as_aliases() {
    let t = Tree::valid();
    assert_eq!(
        keys(&t, &["reward=shared"]),
        keys(&t, &["reward_type=shared"])
    );
    assert_eq!(
        keys(&t, &["reward=shared"]),
        ["grid-foraging1999", "relay-credit2025"]
    );
}

#[test]
fn where_compares_searches_text_and_negates() {
    let t = Tree::valid();
    assert_eq!(
        keys(&t, &["year>=2025"]),
        ["harbor-ops", "relay-credit2025"]
    );
    assert_eq!(keys(&t, &["year<2020"]), ["grid-foraging1999"]);
    assert_eq!(keys(&t, &["year>2025"]), ["harbor-ops"]);
    assert_eq!(keys(&t, &["year<=1999"]), ["grid-foraging1999"]);
    assert_eq!(keys(&t, &["title~RELAY credit"]), ["relay-credit2025"]);
    assert_eq!(keys(&t, &["is_rl!=yes"]), ["harbor-ops"]);
    assert_eq!(
        keys(&t, &["title!~harbor", "year>=2020"]),
        ["relay-credit2025"]
    );
}

#[test]
fn where_refuses_a_year_comparison_with_text() {
    let t = Tree::valid();
    let run = t.corpus(&["list", "--where", "year>=soon"]);
    run.assert_code(2);
    assert!(run.stderr.contains("`year` is a number"), "{}", run.stderr);
}

#[test]
fn a_misspelt_where_field_gets_a_suggestion() {
    let t = Tree::valid();
    let run = t.corpus(&["list", "--where", "rewrd=shared"]);
    run.assert_code(2);
    insta::assert_snapshot!("where_typo", run.stderr);
}

#[test]
fn list_help_lists_the_fields_and_the_syntax() {
    let help = run_in(&crate::common::repo(), None, &["list", "--help"]);
    help.assert_code(0);
    insta::assert_snapshot!("list_help", help.stdout);
}

/// What bash offers after `corpus WORDS…` once the generated script is loaded.
fn bash_completes(words: &[&str]) -> Vec<String> {
    let script = run_in(&crate::common::repo(), None, &["completions", "bash"]);
    script.assert_code(0);
    let dir = Tree::empty();
    dir.write("corpus.bash", &script.stdout);
    let line = words.join(" ");
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let probe = format!(
        "source corpus.bash\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE='{line}'\nCOMP_POINT={}\n\
         _corpus corpus '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        quoted.join(" "),
        words.len() - 1,
        line.len(),
        words[words.len() - 1],
        words[words.len().saturating_sub(2)],
    );
    let out = std::process::Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(probe)
        .current_dir(dir.root())
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completion_script_loads_and_completes_subcommands_and_values() {
    let subcommands = bash_completes(&["corpus", "cl"]);
    assert_eq!(subcommands, ["claims"]);
    let all = bash_completes(&["corpus", ""]);
    for name in ["check", "build", "list", "completions", "trace"] {
        assert!(
            all.contains(&name.to_string()),
            "{name} not offered: {all:?}"
        );
    }
    let formats = bash_completes(&["corpus", "list", "--format", ""]);
    assert_eq!(formats, ["human", "json", "keys"]);
}

#[test]
fn zsh_and_fish_scripts_name_every_subcommand() {
    for shell in ["zsh", "fish"] {
        let run = run_in(&crate::common::repo(), None, &["completions", shell]);
        run.assert_code(0);
        for name in ["check", "list", "completions"] {
            assert!(run.stdout.contains(name), "{shell}: {name}");
        }
    }
}

#[test]
fn search_finds_text_in_any_of_the_texts_of_an_entry() {
    let t = Tree::valid();
    let run = t.corpus(&["list", "--format", "keys", "--search", "HARBOR"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "harbor-ops\n");
    let run = t.corpus(&["list", "--format", "keys", "--search", "Relay CREDIT"]);
    assert_eq!(run.stdout, "relay-credit2025\n");
    let run = t.corpus(&[
        "list",
        "--format",
        "keys",
        "--search",
        "relay credit",
        "--where",
        "year<2000",
    ]);
    assert_eq!(run.stdout, "", "both must hold");
    let run = t.corpus(&["list", "--format", "keys", "--search", "no such words"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "");
}
