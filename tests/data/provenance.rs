//! Provenance: judged tags count "not judged" apart, claims about a judged
//! tag fail when coverage falls short, and the README says where its
//! figures come from (survey figures, spot-check, screening log, licences).

use crate::common::{repo, Tree};

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).expect("README.md")
}

/// The lines of a `## ` section of the README, up to the next `## `.
fn section(md: &str, heading: &str) -> String {
    let start = md
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("no section `{heading}`"));
    let rest = &md[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_string()
}

/// Rows of the first Markdown table in a text, as trimmed cells.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn a_claim_about_a_judged_tag_fails_when_coverage_falls_short() {
    let t = Tree::repo_copy();
    // Hera's strict credit is read "no" by the claim ledger; forgetting the
    // judgement leaves the strict-orchestrator count unchanged, so only the
    // coverage can notice.
    t.replace(
        "corpus/papers/hera.yaml",
        "strict_credit: \"no\"\nstrict_credit_source: artifact_ledger\n",
        "",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let broken = run.of("claim-broken");
    let fields: Vec<&str> = broken.iter().map(|d| d.field.as_deref().unwrap()).collect();
    assert!(
        fields.contains(&"claims.orchestrator-credit-strict-or-near"),
        "{fields:?}"
    );
    for d in &broken {
        assert!(d.message.contains("judged for only"), "{}", d.message);
    }
}

#[test]
fn an_unjudged_rl_entry_warns_and_breaks_the_stop_claim() {
    let t = Tree::repo_copy();
    t.delete_field("corpus/papers/coma2018.yaml", "subdecisions");
    t.delete_field("corpus/papers/coma2018.yaml", "subdecisions_source");
    let run = t.check(&[]);
    run.assert_code(1);
    let warned = run.of("subdecisions-not-judged");
    assert_eq!(warned.len(), 1, "{}", run.stdout);
    assert_eq!(warned[0].file, "corpus/papers/coma2018.yaml");
    let broken: Vec<String> = run
        .of("claim-broken")
        .into_iter()
        .filter_map(|d| d.field)
        .collect();
    assert_eq!(broken, ["claims.no-learned-stop"]);
}

#[test]
fn a_figure_membership_dropped_from_an_entry_is_an_error() {
    let t = Tree::repo_copy();
    // The survey's sub-decision figure names M-GRPO under aggregation.
    t.set("corpus/papers/m-grpo.yaml", "subdecisions", "[]");
    let run = t.check(&[]);
    let d = run.of("survey-figure-membership");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    assert_eq!(d[0].file, "corpus/papers/m-grpo.yaml");
    assert!(d[0].message.contains("o4_aggregate"), "{}", d[0].message);
}

#[test]
fn the_credit_table_counts_each_reading_and_not_judged_apart() {
    let md = readme();
    let credit = section(&md, "Credit Assignment");
    let header: Vec<&str> = credit.split_whitespace().collect();
    assert!(
        header
            .windows(7)
            .any(|w| w == ["Strict", "|", "Near-strict", "|", "No", "|", "Not"]),
        "{credit}"
    );
    let rows: Vec<Vec<String>> = table_rows(&credit)
        .into_iter()
        .filter(|r| r.len() == 8)
        .collect();
    assert!(!rows.is_empty());
    for r in &rows {
        let n = |i: usize| r[i].parse::<u64>().unwrap_or_else(|_| panic!("{r:?}"));
        assert_eq!(
            n(3) + n(4) + n(5) + n(6),
            n(1),
            "strict + near-strict + no + not judged = primary: {r:?}"
        );
    }
    let not_judged: u64 = rows.iter().map(|r| r[6].parse::<u64>().unwrap()).sum();
    assert!(
        credit.contains(&format!("the other {not_judged} are not judged")),
        "{credit}"
    );
}

#[test]
fn the_sub_decision_table_shows_the_survey_figure_memberships() {
    let md = readme();
    let subs = section(&md, "Orchestration Sub-Decisions");
    let survey = std::fs::read_to_string(repo().join("corpus/survey.yaml")).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&survey).unwrap();
    let figure = doc["figures"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|f| f["field"] == "subdecisions")
        .unwrap();
    let rows = table_rows(&subs);
    for level in figure["levels"].as_sequence().unwrap() {
        let value = level["value"].as_str().unwrap();
        let row = rows
            .iter()
            .find(|r| r[0].contains(&format!("`{value}`")))
            .unwrap_or_else(|| panic!("no row for {value}"));
        let named = level["entries"].as_sequence().map_or(0, Vec::len);
        if named == 0 {
            assert!(row[5].starts_with("none"), "{row:?}");
        } else {
            assert_eq!(row[5].split(", ").count(), named, "{row:?}");
        }
    }
    assert!(subs.contains("RL or\npartly-RL entries") || subs.contains("RL or partly-RL entries"));
}

#[test]
fn the_screening_section_is_a_log_with_later_additions_not_a_funnel() {
    let md = readme();
    let screening = section(&md, "Screening");
    assert!(
        !screening.to_lowercase().contains("remaining"),
        "{screening}"
    );
    assert!(
        screening.contains("not a sequential\nfunnel")
            || screening.contains("not a sequential funnel")
    );
    let added = std::fs::read_dir(repo().join("corpus/papers"))
        .unwrap()
        .filter(|e| {
            std::fs::read_to_string(e.as_ref().unwrap().path())
                .unwrap()
                .lines()
                .any(|l| l.starts_with("added_in:"))
        })
        .count();
    assert!(added > 0);
    assert!(
        screening.contains(&format!("{added} of the")),
        "{screening}"
    );
    // The PRISMA diagram replaces the log chart; the old funnel stays gone.
    assert!(md.contains("stats/chart_prisma_2020.svg"));
    assert!(!repo().join("stats/chart_screening_log.svg").exists());
    assert!(!repo().join("stats/chart_screening_flow.svg").exists());
}

#[test]
fn the_spot_check_is_described_as_what_it_is() {
    let md = readme();
    let credit = section(&md, "Credit Assignment");
    let spot = &credit[credit
        .find("### The Spot-Check")
        .expect("spot-check subsection")..];
    let spot = spot.replace('\n', " ");
    for said in [
        "chosen, not sampled",
        "not a blinded multi-annotator study",
        "not to be reported as Cohen's kappa",
        "`credit_granularity` 31 of 32",
        "HALO (`disagree_credit`)",
        "OpenAI Codex (`agree_with_note`)",
    ] {
        assert!(spot.contains(said), "{said}: {spot}");
    }
    let claims = section(&md, "Claims");
    assert!(!claims.to_lowercase().contains("kappa"));
}

#[test]
fn every_claim_row_sits_under_its_source() {
    let md = readme();
    let claims = section(&md, "Claims");
    let ledger = std::fs::read_to_string(repo().join("corpus/claims.yaml")).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&ledger).unwrap();
    let tax = std::fs::read_to_string(repo().join("corpus/taxonomy.yaml")).unwrap();
    let tax: serde_yaml::Value = serde_yaml::from_str(&tax).unwrap();
    for c in doc["claims"].as_sequence().unwrap() {
        let id = c["id"].as_str().unwrap();
        let source = c["source"].as_str().expect("every claim names a source");
        let label = tax["claim_sources"]
            .as_sequence()
            .unwrap()
            .iter()
            .find(|s| s["id"] == source)
            .and_then(|s| s["label"].as_str())
            .unwrap_or_else(|| panic!("source `{source}` of `{id}` is not in the taxonomy"));
        let heading = claims
            .find(&format!("### {label}\n"))
            .expect("group heading");
        let row = claims.find(&format!("| `{id}` ")).expect("claim row");
        let next = claims[heading + 4..]
            .find("\n### ")
            .map_or(claims.len(), |i| heading + 4 + i);
        assert!(heading < row && row < next, "`{id}` is not under `{label}`");
    }
}

#[test]
fn licence_files_badges_links_and_citation_are_there() {
    let md = readme();
    for f in ["LICENSE-CC0", "LICENSE-MIT"] {
        let text = std::fs::read_to_string(repo().join(f)).unwrap();
        assert!(text.len() > 500, "{f}");
        assert!(md.contains(&format!("({f})")), "README links {f}");
    }
    assert!(md.contains("https://awesome.re/badge.svg"));
    assert!(md.contains("https://arxiv.org/abs/2605.02801"));
    assert!(md.contains("https://github.com/xxzcc/awesome-llm-mas-rl"));
    assert!(md.contains("author  = {Zhang, Chenchen}"));
    for s in [
        "Benchmark Gap",
        "Artifact Files",
        "Update Policy",
        // awesome-lint reserves a `License` heading for the list's own
        // licence; this section also covers the code and the survey.
        "Terms of Reuse",
    ] {
        section(&md, s);
    }
    assert!(
        md.contains("not estimates of how\ncommon") || md.contains("not estimates of how common")
    );
}
