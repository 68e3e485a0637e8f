//! `corpus init`: any curated list can adopt the tool. A new list made in an
//! empty folder passes `check` and `build` as written, takes its first entry
//! through `new`, and says nothing of a survey it does not have; a folder
//! that holds anything is refused.

use crate::common::{run_in, snapshot_tree, Tree};

const ENTRY: &str = "corpus/papers/first-paper.yaml";

/// Fills the scaffold `corpus new` wrote, as its comments ask.
fn fill_scaffold(t: &Tree) {
    for (field, value) in [
        ("title", "A First Paper on Keeping Lists"),
        ("first_author", "Doe, Jane"),
        ("authors", "\n  - Doe, Jane"),
        ("affiliation", "Example University"),
        ("year", "2025"),
        ("venue", "arXiv"),
        ("urls", "[https://example.org/first-paper]"),
        ("category", "example"),
        ("is_rl", "\"no\""),
        ("reward_type", "NA"),
        ("credit_granularity", "NA"),
        ("orchestration_form", "NA"),
        ("scenario", "NA"),
        ("is_core", "core"),
        ("verified", "\"yes\""),
        (
            "one_liner",
            "The first entry of a new list, written to try the tool.",
        ),
    ] {
        t.set(ENTRY, field, value);
    }
    // Optional judged tags: left out, as the scaffold says, when not judged.
    t.delete_field(ENTRY, "subdecisions");
    t.delete_field(ENTRY, "subdecisions_source");
}

#[test]
fn a_new_list_passes_check_build_and_site_with_its_first_entry_and_names_no_survey() {
    let parent = Tree::empty();
    run_in(parent.root(), None, &["init", "my-list"]).assert_code(0);
    let t = Tree::empty();
    crate::common::copy_tree(&parent.path("my-list"), t.root());
    assert!(t.path("corpus/taxonomy.yaml").is_file());
    assert!(!t.path("corpus/survey.yaml").exists(), "no survey file");
    assert!(!t.path("corpus/claims.yaml").exists(), "no claims ledger");
    // Built once by init, so nothing is stale.
    t.check_strict().assert_code(0);

    t.corpus(&["new", "first-paper"]).assert_code(0);
    fill_scaffold(&t);
    t.corpus(&["fmt"]).assert_code(0);
    t.corpus(&["build"]).assert_code(0);
    t.check_strict().assert_code(0);
    t.corpus(&["site"]).assert_code(0);

    let readme = t.read("README.md");
    assert!(
        readme.contains("- [A First Paper on Keeping Lists](https://example.org/first-paper) - Jane Doe (2025), arXiv."),
        "{readme}"
    );
    assert!(
        readme.contains("# A Curated List"),
        "the title from the taxonomy: {readme}"
    );
    assert!(
        !readme.to_lowercase().contains("survey"),
        "a list without a survey mentions none:\n{readme}"
    );
    // Sections with nothing to show are left out: no exclusion log yet.
    assert!(!readme.contains("## Screening"), "{readme}");
    let page = t.read("site/index.html");
    assert!(page.contains("A First Paper on Keeping Lists"));
    assert!(
        !page.to_lowercase().contains("survey"),
        "the page names no survey either"
    );
}

#[test]
fn the_list_title_and_description_come_from_the_taxonomy() {
    let parent = Tree::empty();
    run_in(parent.root(), None, &["init", "l"]).assert_code(0);
    let root = parent.path("l");
    let tax = std::fs::read_to_string(root.join("corpus/taxonomy.yaml")).unwrap();
    let tax = tax
        .replace("title: A Curated List", "title: Awesome *Tide* Pools")
        .replace("repository: \"\"", "repository: someone/tide-pools");
    std::fs::write(root.join("corpus/taxonomy.yaml"), tax).unwrap();
    run_in(&root, Some(&root), &["build"]).assert_code(0);
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.starts_with("# Awesome \\*Tide\\* Pools\n"),
        "escaped: {readme}"
    );
    assert!(
        readme.contains("(https://someone.github.io/tide-pools/)"),
        "{readme}"
    );
}

#[test]
fn init_refuses_a_folder_that_holds_anything_and_writes_nothing() {
    let t = Tree::empty();
    t.write("notes.txt", "mine\n");
    let before = snapshot_tree(t.root());
    let run = run_in(t.root(), None, &["init", "."]);
    run.assert_code(2);
    assert!(run.stderr.contains("not empty"), "{}", run.stderr);
    assert!(run.stderr.contains("notes.txt"), "{}", run.stderr);
    assert_eq!(snapshot_tree(t.root()), before, "nothing was written");
}

#[test]
fn init_never_replaces_a_file_without_force_and_does_with_it() {
    let t = Tree::empty();
    run_in(t.root(), None, &["init", "l"]).assert_code(0);
    t.write("l/corpus/taxonomy.yaml", "# my own vocabulary\n");
    let before = snapshot_tree(t.root());
    run_in(t.root(), None, &["init", "l"]).assert_code(2);
    assert_eq!(snapshot_tree(t.root()), before);
    run_in(t.root(), None, &["init", "--force", "l"]).assert_code(0);
    assert!(t.read("l/corpus/taxonomy.yaml").contains("list:"));
}

#[test]
fn init_refuses_a_file_in_place_of_the_folder() {
    let t = Tree::empty();
    t.write("taken", "a file\n");
    let run = run_in(t.root(), None, &["init", "taken"]);
    run.assert_code(2);
    assert!(run.stderr.contains("not a folder"), "{}", run.stderr);
    assert_eq!(t.read("taken"), "a file\n");
}

#[test]
fn a_survey_file_with_only_its_paper_is_enough_and_empty_sections_are_left_out() {
    let t = Tree::valid_with_templates();
    t.write(
        "corpus/survey.yaml",
        "paper:\n  title: A Fixture Survey\n  authors: [\"Doe, Jane\"]\n  year: 2026\n  arxiv_id: \"2601.00001\"\n  artifact: https://example.org/artifact\n  snapshot: \"2026-01-02\"\n",
    );
    t.corpus(&["render"]).assert_code(0);
    let readme = t.read("README.md");
    assert!(readme.contains("## Citation"), "{readme}");
    assert!(
        readme.contains("@article{doe2026a,"),
        "a key from the paper: {readme}"
    );
    assert!(
        !readme.contains("## Benchmark Gap"),
        "no table, no section: {readme}"
    );
    assert!(
        !readme.contains("## Claims"),
        "no ledger, no section: {readme}"
    );
}
