//! One command-line vocabulary across the subcommands: format names, the
//! place of the global options, value lists in help and errors, and the
//! queries of `corpus list --where` (aliases, did-you-mean, text search,
//! comparisons), each run on the binary against a fixture tree.

use crate::common::{run_in, valid, Tree};
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

/// Commands that read no corpus data file, so `--max-file-size` limits
/// nothing there and their help does not show it.
const READS_NO_DATA: &[&str] = &["init", "completions", "trace"];

#[test]
fn global_options_sit_under_one_heading_in_every_subcommand() {
    for (name, mut cmd) in all_commands() {
        let help = cmd.render_long_help().to_string();
        let heading = help
            .find("Global options:")
            .unwrap_or_else(|| panic!("`corpus {name} --help` has no Global options:\n{help}"));
        let reads_data = !READS_NO_DATA.contains(&name.split(' ').next().unwrap_or_default());
        let mut flags = vec![
            "--root <DIR>",
            "--no-cache",
            "--quiet",
            "--verbose",
            "--color <WHEN>",
        ];
        if reads_data {
            flags.push("--max-file-size <BYTES>");
        } else {
            assert!(
                !help.contains("--max-file-size"),
                "`corpus {name}` reads no data file, yet its help shows --max-file-size"
            );
        }
        for flag in flags {
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
        for stream in ["standard output", "standard error"] {
            assert!(
                help.contains(stream),
                "`corpus {name} --help` does not say what goes to {stream}"
            );
        }
    }
}

/// The shared vocabulary of long flags: one name for each idea across
/// every subcommand. A new flag joins this list only when no name here
/// already says what it does.
const FLAGS: &[&str] = &[
    // Global.
    "root",
    "max-file-size",
    "no-cache",
    "quiet",
    "verbose",
    "color",
    "help",
    "version",
    // Output and writing.
    "format",
    "out",
    "out-dir",
    "write",
    "check",
    "force",
    "strict",
    // Queries.
    "where",
    "search",
    "exclusions",
    "base",
    // Network.
    "offline",
    "timeout",
    "cache",
    "max-age",
    "fail-after",
    "jobs",
    "per-host",
    "retries",
    "max-wait",
    "backoff",
    "pause",
    "arxiv-api",
    "arxiv-pause",
    "openalex-api",
    "openalex-pause",
    "contact",
    "fetch",
    // Entries, imports, the survey's artifact and traces.
    "artifact",
    "rev",
    "arxiv",
    "category",
    "papers",
    "excluded",
    "explain",
    "from",
    "max-trace-size",
    "orchestrator",
    "topology",
    "trace-id",
    // Agreement among annotators.
    "alpha",
    "no-corpus",
    "resamples",
    "seed",
    // Discovery, screening and releases.
    "to",
    "query",
    "key",
    "max-results",
    "include",
    "exclude",
    "stage",
    "reason",
    "date",
];

/// The shared names of output formats.
const FORMATS: &[&str] = &[
    "human",
    "json",
    "github",
    "markdown",
    "keys",
    "csv",
    "bibtex",
    "jsonl",
    "bash",
    "zsh",
    "fish",
    "elvish",
    "powershell",
];

#[test]
fn every_flag_and_format_in_every_help_belongs_to_the_shared_vocabulary() {
    let mut seen = 0;
    for (name, cmd) in all_commands() {
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let Some(long) = arg.get_long() else { continue };
            seen += 1;
            assert!(
                FLAGS.contains(&long),
                "`corpus {name} --{long}` is outside the shared vocabulary of flags"
            );
            for value in arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
            {
                let v = value.get_name();
                if long == "format" {
                    assert!(
                        FORMATS.contains(&v),
                        "`corpus {name} --format {v}` is outside the shared format names"
                    );
                }
            }
        }
    }
    assert!(seen > 100, "only {seen} flags walked");
}

/// What a person reads of a command's options: each argument's name, value
/// name, help, defaults and values, in help order.
fn options_as_read(cmd: &clap::Command) -> Vec<String> {
    cmd.get_arguments()
        .filter(|a| !a.is_hide_set())
        .map(|a| {
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .map(|v| format!("{}={:?}", v.get_name(), v.get_help().map(|h| h.to_string())))
                .collect();
            format!(
                "{} --{:?} <{:?}> {:?} default {:?} values {values:?}",
                a.get_id(),
                a.get_long(),
                a.get_value_names(),
                a.get_help().map(|h| h.to_string()),
                a.get_default_values(),
            )
        })
        .collect()
}

#[test]
fn trace_classify_and_trace_metrics_take_their_options_alike() {
    let commands = all_commands();
    let find = |name: &str| {
        commands
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| panic!("no `corpus {name}`"))
    };
    let (mut classify, mut metrics) = (find("trace classify"), find("trace metrics"));
    let options = options_as_read(&classify);
    assert!(
        options.iter().any(|o| o.starts_with("file ")),
        "{options:?}"
    );
    assert_eq!(options, options_as_read(&metrics));
    // Past the first line (what the command does) and the usage line, both
    // helps read word for word alike.
    let body = |c: &mut clap::Command| {
        let help = c.render_long_help().to_string();
        help.lines().skip(3).map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(body(&mut classify), body(&mut metrics));
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

/// A valid tree with one misspelt field, which `check` reports as an error.
fn tree_with_a_typo() -> Tree {
    let t = Tree::valid();
    t.replace(valid::INDUSTRY, "reward_type:", "reward_tpe:");
    t
}

#[test]
fn color_always_styles_human_reports_and_never_or_a_pipe_does_not() {
    let t = tree_with_a_typo();
    let plain = t.corpus(&["check"]);
    plain.assert_code(1);
    assert!(!plain.stdout.contains('\x1b'), "a pipe gets no colour");
    let always = t.corpus(&["check", "--color", "always"]);
    always.assert_code(1);
    assert!(
        always
            .stdout
            .contains("\x1b[1;31merror[unknown-field]:\x1b[0m"),
        "{}",
        always.stdout
    );
    let never = t.corpus(&["check", "--color", "never"]);
    assert_eq!(never.stdout, plain.stdout);
    let json = t.corpus(&["check", "--format", "json", "--color", "always"]);
    assert!(!json.stdout.contains('\x1b'), "machine formats stay plain");
}

#[test]
fn no_color_is_honoured_unless_colour_is_asked_for_by_name() {
    let t = tree_with_a_typo();
    let mut cmd = crate::common::corpus_cmd(t.root());
    let out = cmd
        .env("NO_COLOR", "1")
        .args(["check", "--color", "always"])
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains('\x1b'));
    let mut cmd = crate::common::corpus_cmd(t.root());
    let out = cmd
        .env("NO_COLOR", "1")
        .arg("check")
        .output()
        .expect("runs");
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'));
}

#[test]
fn quiet_keeps_results_and_drops_the_reports_of_a_run_that_succeeds() {
    let t = Tree::valid();
    let loud = t.corpus(&["export", "--format", "json", "--out", "all.json"]);
    loud.assert_code(0);
    assert!(loud.stderr.contains("wrote"), "{}", loud.stderr);
    let quiet = t.corpus(&["export", "--format", "json", "--out", "again.json", "-q"]);
    quiet.assert_code(0);
    assert_eq!(quiet.stderr, "");
    assert_eq!(t.read("again.json"), t.read("all.json"));
    let listed = t.corpus(&["list", "--format", "keys", "--quiet"]);
    assert_eq!(
        listed.stdout,
        t.corpus(&["list", "--format", "keys"]).stdout
    );
    let failed = t.corpus(&["list", "--where", "rewrd=shared", "--quiet"]);
    failed.assert_code(2);
    assert!(failed.stderr.contains("error"), "a failure still says why");
    let both = t.corpus(&["list", "--quiet", "--verbose"]);
    both.assert_code(2);
}

#[test]
fn verbose_names_the_root_and_leaves_the_results_alone() {
    let t = Tree::valid();
    let run = t.corpus(&["check", "--verbose"]);
    run.assert_code(0);
    assert!(run.stderr.contains("note: corpus root: "), "{}", run.stderr);
    assert_eq!(run.stdout, t.corpus(&["check"]).stdout, "results unchanged");
}
