//! The statistics say how many of the entries every figure counts rest on
//! papers `corpus watch` recorded as withdrawn (no later version) or
//! retracted, naming the status file as the source; without a status file
//! they say nothing, since the share is then unknown rather than zero.

use crate::common::Tree;

const STATUS: &str = "events:
  - key: harbor-ops
    event: retracted
    date: \"2026-05-01\"
    observed: \"2026-11-30\"
    source: openalex
    doi: 10.1234/retracted
  - key: relay-credit2025
    event: withdrawn
    date: \"2026-03-02\"
    observed: \"2026-11-30\"
    source: arxiv
    version: 2
latest: []
";

#[test]
fn stats_count_the_entries_resting_on_withdrawn_or_retracted_papers() {
    let t = Tree::valid_with_templates();
    let json = |t: &Tree| -> serde_json::Value {
        serde_json::from_str(&t.corpus(&["stats", "--format", "json"]).stdout).unwrap()
    };
    assert!(json(&t).get("resting_on_withdrawn_or_retracted").is_none());
    assert!(!t.corpus(&["stats"]).stdout.contains("withdrawn"));

    t.write("corpus/status.yaml", STATUS);
    let doc = json(&t);
    let share = &doc["resting_on_withdrawn_or_retracted"];
    assert_eq!(share["source"], "corpus/status.yaml");
    assert_eq!(share["entries"], 2);
    assert_eq!(share["withdrawn"], serde_json::json!(["relay-credit2025"]));
    assert_eq!(share["retracted"], serde_json::json!(["harbor-ops"]));
    let human = t.corpus(&["stats"]).stdout;
    assert!(
        human.contains("resting on withdrawn or retracted papers: 2 of 3 entries (withdrawn: relay-credit2025; retracted: harbor-ops), per corpus/status.yaml"),
        "{human}"
    );

    // A maintainer who keeps them (the rules made warnings in the taxonomy,
    // then waived with a reason) builds STATS.md with the rows.
    for rule in ["status-retracted", "status-withdrawn"] {
        t.replace(
            "corpus/taxonomy.yaml",
            "rules:\n",
            &format!("rules:\n  - id: {rule}\n    severity: warning\n    sentence: Kept only with a reason.\n"),
        );
    }
    for (file, rule) in [
        ("corpus/papers/harbor-ops.yaml", "status-retracted"),
        ("corpus/papers/relay-credit2025.yaml", "status-withdrawn"),
    ] {
        t.append(
            file,
            &format!("waivers:\n  {rule}: kept while the authors respond\n"),
        );
    }
    t.corpus(&["build"]).assert_code(0);
    let stats_md = t.read("stats/STATS.md");
    assert!(
        stats_md.contains("| retained, resting on a retracted paper (corpus/status.yaml) |   1 |"),
        "{stats_md}"
    );

    // A later version supersedes the withdrawal.
    t.write(
        "corpus/status.yaml",
        STATUS.replace("latest: []", "  - key: relay-credit2025\n    event: version\n    date: \"2026-03-10\"\n    observed: \"2026-11-30\"\n    source: arxiv\n    version: 3\nlatest: []"),
    );
    let doc = json(&t);
    assert_eq!(
        doc["resting_on_withdrawn_or_retracted"]["withdrawn"],
        serde_json::json!([])
    );
    assert_eq!(doc["resting_on_withdrawn_or_retracted"]["entries"], 1);
}
