//! The README and CONTRIBUTING keep up with the CLI: every subcommand that
//! `corpus --help` lists is documented where a user would look.

use clap::CommandFactory;

fn subcommands() -> Vec<String> {
    corpus::cli::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

#[test]
fn the_readme_lists_every_subcommand() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for name in subcommands() {
        assert!(
            readme.contains(&format!("`corpus {name}")),
            "README.md does not mention `corpus {name}`; add it to templates/README.md.tera"
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

#[test]
fn the_readme_gives_the_two_setup_commands() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains("cargo run --release -- build"));
    assert!(readme.contains("cargo test"));
}
