//! Every judged value of the shipped data says where it comes from
//! (`corpus/locators.yaml`, rule `judgement-locator`): a test over the
//! shipped data, and the ways a locator can be missing, wrong or stale.

use crate::common::{repo, Tree};

const LOCATORS: &str = "corpus/locators.yaml";

/// The judged fields of an entry file with the sources it names, read with
/// serde_yaml, not the library.
fn judged(doc: &serde_yaml::Value) -> Vec<(&'static str, Vec<String>)> {
    let list = |v: &serde_yaml::Value| -> Vec<String> {
        match v {
            serde_yaml::Value::Sequence(s) => s
                .iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            serde_yaml::Value::String(s) => vec![s.clone()],
            _ => Vec::new(),
        }
    };
    [
        ("subdecisions", "subdecisions_source"),
        ("strict_credit", "strict_credit_source"),
        ("additional_credit_units", "additional_credit_units_source"),
    ]
    .into_iter()
    .filter(|(f, _)| doc.get(f).is_some())
    .map(|(f, s)| (f, list(&doc[s])))
    .collect()
}

#[test]
fn every_judged_value_of_the_shipped_data_has_a_locator_or_a_reason() {
    let locs: serde_yaml::Value = serde_yaml::from_str(
        &std::fs::read_to_string(repo().join(LOCATORS)).expect("the shipped data keeps locators"),
    )
    .expect("locators parse");
    let survey: serde_yaml::Value = serde_yaml::from_str(
        &std::fs::read_to_string(repo().join("corpus/survey.yaml")).expect("survey"),
    )
    .expect("survey parses");
    let rows = locs["judgements"].as_sequence().expect("judgements");
    let mut judged_values = 0;
    for entry in std::fs::read_dir(repo().join("corpus/papers")).expect("papers") {
        let path = entry.expect("entry").path();
        let doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(&path).expect("read")).expect("parse");
        let key = doc["key"].as_str().expect("key");
        for (field, sources) in judged(&doc) {
            judged_values += 1;
            assert!(!sources.is_empty(), "{key}: {field} names no source");
            for source in sources {
                if source == "survey_figure" {
                    // Located by a figure that records its file and commit
                    // and names the entry.
                    let figure_field = if field == "subdecisions" {
                        "subdecisions"
                    } else {
                        "credit_unit"
                    };
                    let fig = survey["figures"]
                        .as_sequence()
                        .expect("figures")
                        .iter()
                        .find(|f| f["field"].as_str() == Some(figure_field))
                        .expect("the figure");
                    assert!(fig["file"].as_str().is_some() && fig["commit"].as_str().is_some());
                    let named = fig["levels"]
                        .as_sequence()
                        .expect("levels")
                        .iter()
                        .flat_map(|l| l["entries"].as_sequence().cloned().unwrap_or_default())
                        .any(|k| k.as_str() == Some(key));
                    assert!(named, "{key}: the {figure_field} figure does not name it");
                    continue;
                }
                let row = rows
                    .iter()
                    .find(|r| {
                        r["key"].as_str() == Some(key)
                            && r["field"].as_str() == Some(field)
                            && r["source"].as_str() == Some(source.as_str())
                    })
                    .unwrap_or_else(|| panic!("{key}: {field} from {source} has no locator"));
                let reason = row["reason"].as_str().unwrap_or_default();
                let place = row["file"].as_str().is_some() && row["place"].as_str().is_some();
                if source == "project_reading" || source == "contributor" {
                    assert!(
                        reason.ends_with('.'),
                        "{key}: {field}: a reading needs a reason"
                    );
                } else {
                    assert!(place, "{key}: {field}: {source} needs a file and a place");
                }
            }
        }
    }
    assert!(
        judged_values > 80,
        "only {judged_values} judged values found"
    );
    // And `check` agrees.
    assert!(Tree::data_copy()
        .check(&[])
        .of("judgement-locator")
        .is_empty());
}

#[test]
fn a_missing_row_fires_on_the_entry_and_a_stale_row_on_the_locators() {
    let t = Tree::data_copy();
    let text = t.read(LOCATORS);
    let start = text
        .find("  - key: hera\n    field: subdecisions\n")
        .expect("hera's row");
    let len = text[start + 4..].find("  - ").expect("next row") + 4;
    let row = text[start..start + len].to_string();
    t.write(LOCATORS, text.replacen(&row, "", 1));
    let run = t.check(&[]);
    let d = run.of("judgement-locator");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    assert_eq!(d[0].file, "corpus/papers/hera.yaml");
    assert_eq!(d[0].field.as_deref(), Some("subdecisions"));

    // Back, but for a source the entry does not name.
    t.write(
        LOCATORS,
        text.replacen(&row, &row.replace("project_reading", "contributor"), 1),
    );
    let run = t.check(&[]);
    let msgs: Vec<String> = run
        .of("judgement-locator")
        .into_iter()
        .map(|d| format!("{}: {}", d.file, d.message))
        .collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs.iter().any(
        |m| m.starts_with("corpus/locators.yaml:") && m.contains("does not name as its source")
    ));
}

#[test]
fn a_reason_of_two_sentences_and_a_short_commit_fire() {
    let t = Tree::data_copy();
    t.replace(
        LOCATORS,
        "which is a delegation decision.",
        "which is delegation. It is not trained.",
    );
    t.replace(
        LOCATORS,
        "commit: ae877ac7026a5b6c41d014c49e3bb0c320a9f49f",
        "commit: ae877ac",
    );
    let run = t.check(&[]);
    let msgs: Vec<String> = run
        .of("judgement-locator")
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs
        .iter()
        .any(|m| m.contains("holds more than one sentence")));
    assert!(msgs.iter().any(|m| m.contains("not a full commit id")));
}

#[test]
fn a_figure_without_its_file_and_commit_locates_nothing() {
    let t = Tree::data_copy();
    t.replace(
        "corpus/survey.yaml",
        "    file: assets/orchestration_subdecisions.svg\n",
        "",
    );
    let run = t.check(&[]);
    let d = run.of("judgement-locator");
    assert!(!d.is_empty(), "{}", run.stdout);
    assert!(d
        .iter()
        .all(|d| d.message.contains("records no figure file and commit")));
}

#[test]
fn representatives_without_a_place_or_a_reason_fire() {
    let t = Tree::data_copy();
    t.replace(
        "corpus/survey.yaml",
        ", reason: \"This project's choice among the entries that carry reward family R2, preferring entries the survey's figures name.\"",
        "",
    );
    let run = t.check(&[]);
    let d = run.of("judgement-locator");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    assert_eq!(d[0].file, "corpus/survey.yaml");
    assert!(
        d[0].message.contains("reward_family `R2`"),
        "{}",
        d[0].message
    );
    assert!(d[0].line.is_some());
}
