//! Where a message points: a misspelt field name is marked under the name
//! (where the fix goes), and a repeated field names the line of its first
//! definition. Snapshots of the human report on small fixture trees.

use crate::common::{valid, Tree};

#[test]
fn a_misspelt_field_is_marked_under_its_name() {
    let t = Tree::valid();
    t.replace(valid::INDUSTRY, "reward_type: NA", "reward_tpe: NA");
    let run = t.corpus(&["check"]);
    run.assert_code(1);
    let block: String = run
        .stdout
        .split("\n\n")
        .find(|b| b.contains("unknown-field"))
        .expect("an unknown-field report")
        .to_string();
    insta::assert_snapshot!("misspelt_field", block);
}

#[test]
fn a_repeated_field_names_its_first_definition() {
    let t = Tree::valid();
    let first = t.line_of(valid::INDUSTRY, "year:");
    t.append(valid::INDUSTRY, "year: 2025\n");
    let run = t.corpus(&["check"]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(&format!(
            "appears more than once (first defined on line {first})"
        )),
        "{}",
        run.stdout
    );
    insta::assert_snapshot!("repeated_field", run.stdout);
}
