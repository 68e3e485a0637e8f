//! The tool's documentation and CONTRIBUTING keep up with the CLI: every
//! subcommand that `corpus --help` lists is documented where a user would
//! look, and the README keeps exactly its two set-up commands.

use clap::CommandFactory;

fn subcommands() -> Vec<String> {
    corpus::cli::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

#[test]
fn the_tool_documentation_lists_every_subcommand() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tooling.md")).unwrap();
    for name in subcommands() {
        assert!(
            doc.contains(&format!("| `corpus {name}")),
            "docs/tooling.md has no row for `corpus {name}` in its command table"
        );
    }
}

#[test]
fn contributing_shows_the_commands_a_contributor_runs() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CONTRIBUTING.md")).unwrap();
    for name in [
        "new",
        "check",
        "build",
        "claims",
        "list",
        "diff",
        "export",
        "agreement",
        "schema",
    ] {
        assert!(
            subcommands().contains(&name.to_string()),
            "`{name}` is no longer a subcommand"
        );
        assert!(
            text.contains(&format!("-- {name}")),
            "CONTRIBUTING.md does not show `{name}`"
        );
    }
}

/// The commands of the README's shell blocks, comments dropped.
fn shell_commands(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in md.lines() {
        match line.trim() {
            "```sh" => in_sh = true,
            "```" => in_sh = false,
            l if in_sh => {
                let cmd = l.split(" #").next().unwrap_or(l).trim();
                if !cmd.is_empty() {
                    out.push(cmd.to_string());
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_readme_gives_exactly_the_two_setup_commands() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let setup = readme
        .split("\n## Build and Test\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the README has a Build and Test section");
    assert_eq!(
        shell_commands(setup),
        ["cargo run --release -- build", "cargo test"]
    );
    // How to get `corpus` on the PATH, said in words, not as a third command.
    assert!(setup.contains("`cargo install --path .`"), "{setup}");
    // The rest of the tool's documentation is one link away, not in the README.
    assert!(setup.contains("(docs/tooling.md)"), "{setup}");
    assert!(
        !readme.contains("```python"),
        "the Python snippet lives in docs/tooling.md"
    );
}
