//! Reading figure memberships from small SVG figures laid out like the
//! artifact's: a column figure (sub-decisions), a row figure (credit units)
//! and a panel figure read as columns (topologies).

use super::*;
use crate::model::survey::{parse, Level};

/// Sub-decision columns: a header box per column, entries below it at the
/// column's x, an arrow label and a footer that line up with no column.
const COLUMNS: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 300">
  <text x="20" y="30">Two sub-decisions</text>
  <g text-anchor="middle">
    <text x="100" y="80">O1</text>
    <text x="100" y="100">spawn</text>
    <text x="250" y="80">O2</text>
    <text x="250" y="100">delegate</text>
  </g>
  <g font-size="12" text-anchor="middle">
    <text x="100" y="160">Alpha</text>
    <text x="100" y="177">Beta</text>
    <text x="250" y="160">Gamma</text>
    <text x="250" y="177">no published</text>
  </g>
  <text x="175" y="260">A footer that sits between the columns.</text>
</svg>"##;

/// Credit rows: a header per row, the entries to its right on the same y
/// (with an italic remark), and a note box whose lines match no row.
const ROWS: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 300">
  <text x="100" y="50">team</text>
  <text x="100" y="110">agent</text>
  <text x="300" y="40">Representative entries</text>
  <text x="300" y="50">shared outcome baseline</text>
  <text x="300" y="110">Alpha, Gamma <tspan font-style="italic">(sparse)</tspan></text>
  <text x="50" y="110">new</text>
  <text x="500" y="80">Why it matters</text>
</svg>"##;

/// Panels in two rows of the same columns: an entry line must go to the
/// nearest header above it, not to the panel above that one.
const PANELS: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400">
  <text x="100" y="50">O</text>
  <text x="100" y="150">(a) centralized</text>
  <text x="100" y="170">Alpha, Beta</text>
  <text x="100" y="250">O</text>
  <text x="100" y="350">(d) parallel swarm</text>
  <text x="100" y="370">Gamma/Delta</text>
</svg>"##;

const SURVEY: &str = r#"paper:
  title: T
  authors: [A]
  year: 2026
  arxiv_id: "1"
  artifact: https://example.org/a
  snapshot: "2026-05-08"
# The figures.
figures:
  - id: subdecisions
    title: Sub-decisions
    field: subdecisions
    file: assets/sub.svg
    layout: columns
    levels:
      - value: o1_spawn
        header: spawn
        entries: [beta]
      - value: o2_delegate
        header: delegate
        entries: [alpha]
  - id: credit
    title: Credit
    field: credit_unit
    file: assets/credit.svg
    layout: rows
    levels:
      - value: team
        header: team
        note: the shared outcome, a baseline
      - value: agent
        header: agent
  - id: forms
    title: Forms
    field: orchestration_form
    file: assets/forms.svg
    layout: columns
    levels:
      - value: centralized
        header: (a) centralized
      - value: swarm
        header: (d) parallel swarm
figure_labels:
  - {label: no published, keys: []}
  - {label: shared outcome baseline}
  - {label: O}
  - {label: Gamma/Delta, keys: [gamma, delta]}
names:
  - {key: beta, name: Beta}
# What follows the figures stays as it was.
measures_note: kept
"#;

fn entry(key: &str, title: &str) -> Entry {
    Entry {
        key: key.into(),
        title: title.into(),
        ..Entry::default()
    }
}

fn entries() -> Vec<Entry> {
    vec![
        entry("alpha", "Alpha: a first method"),
        entry("beta", "Learning to spawn"),
        entry("gamma", "Gamma: a third"),
        entry("delta", "Delta"),
    ]
}

fn survey() -> Survey {
    parse(SURVEY).expect("the fixture parses")
}

fn derived(fig: usize, svg: &str) -> Vec<(String, Vec<String>)> {
    let s = survey();
    let es = entries();
    let r = Resolver::new(&s, es.iter().collect());
    derive(&s.figures[fig], svg, &r).expect("every label resolves")
}

fn level(v: &str, keys: &[&str]) -> (String, Vec<String>) {
    (v.to_string(), keys.iter().map(|k| k.to_string()).collect())
}

#[test]
fn an_entry_sharing_the_spawn_columns_x_lands_in_spawn() {
    assert_eq!(
        derived(0, COLUMNS),
        vec![
            level("o1_spawn", &["alpha", "beta"]),
            level("o2_delegate", &["gamma"])
        ]
    );
}

#[test]
fn a_row_takes_the_texts_on_its_line_to_the_right_without_remarks() {
    assert_eq!(
        derived(1, ROWS),
        vec![level("team", &[]), level("agent", &["alpha", "gamma"])]
    );
}

#[test]
fn a_panel_takes_the_nearest_header_above_and_a_label_may_name_two_entries() {
    assert_eq!(
        derived(2, PANELS),
        vec![
            level("centralized", &["alpha", "beta"]),
            level("swarm", &["gamma", "delta"])
        ]
    );
}

#[test]
fn an_unknown_label_is_an_error_that_says_what_to_add() {
    let s = survey();
    let es = entries();
    let r = Resolver::new(&s, es.iter().collect());
    let svg = COLUMNS.replace(">Gamma<", ">Epsilon<");
    let errs = derive(&s.figures[0], &svg, &r).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert!(errs[0].contains("`Epsilon`") && errs[0].contains("figure_labels"));
}

#[test]
fn a_missing_or_repeated_header_is_an_error() {
    let s = survey();
    let missing = place(
        &s.figures[0],
        &texts(&COLUMNS.replace(">spawn<", ">spawns<")).unwrap(),
    );
    assert!(missing.unwrap_err().contains("no text `spawn`"));
    let twice = COLUMNS.replace(">O2<", ">spawn<");
    let err = place(&s.figures[0], &texts(&twice).unwrap()).unwrap_err();
    assert!(err.contains("2 texts `spawn`"));
}

#[test]
fn not_svg_is_an_error_not_a_panic() {
    assert!(texts("<svg><text x='1' y='2'>a</svg>").is_err());
    assert!(texts("").is_err());
}

#[test]
fn differences_name_the_moved_entry_and_the_commit() {
    let s = survey();
    let got = derived(0, COLUMNS);
    let diffs = differences(&s.figures[0], &got, "abc");
    assert_eq!(diffs.len(), 3, "{diffs:?}");
    assert!(diffs[0].contains("recorded commit (none)"));
    assert!(diffs[1].contains("kept [beta], the file shows [alpha, beta]"));
    let fixed = updated(&s.figures[0], &got, "abc");
    assert!(differences(&fixed, &got, "abc").is_empty());
}

#[test]
fn rewriting_replaces_the_figures_and_keeps_the_rest() {
    let mut s = survey();
    let got = derived(0, COLUMNS);
    s.figures[0] = updated(&s.figures[0], &got, "abc");
    let text = rewrite(SURVEY, &s.figures).unwrap();
    let again = parse(&text).unwrap();
    assert_eq!(again, s);
    assert!(text.contains("# The figures.\nfigures:\n"));
    assert!(text.contains("\n# What follows the figures stays as it was.\nmeasures_note: kept\n"));
    assert!(text.contains("        entries: [alpha, beta]\n"));
    assert_eq!(rewrite(&text, &s.figures).unwrap(), text);
}

#[test]
fn a_header_that_yaml_would_misread_is_quoted() {
    let fig = Figure {
        levels: vec![Level {
            value: "x".into(),
            entries: vec![],
            note: None,
            header: Some("(a) centralized: yes".into()),
        }],
        ..survey().figures[0].clone()
    };
    let text = section(std::slice::from_ref(&fig));
    let back: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    assert_eq!(
        back["figures"][0]["levels"][0]["header"].as_str(),
        Some("(a) centralized: yes")
    );
}
