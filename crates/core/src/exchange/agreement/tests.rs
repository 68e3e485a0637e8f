//! Unit tests of the agreement figures, worked by hand on the fixtures the CLI tests load.

use super::*;
use crate::model::taxonomy::Taxonomy;
use crate::model::Entry;
use serde_yaml::Value;

const KAPPA_CSV: &str = include_str!("../../../../../tests/fixtures/agreement/kappa.csv");
const KAPPA_YAML: &str = include_str!("../../../../../tests/fixtures/agreement/kappa.yaml");
const ERRORS_CSV: &str = include_str!("../../../../../tests/fixtures/agreement/errors.csv");
const ERRORS_YAML: &str = include_str!("../../../../../tests/fixtures/agreement/errors.yaml");
const BAD_HEADER_CSV: &str = include_str!("../../../../../tests/fixtures/agreement/bad-header.csv");
const MALFORMED_CSV: &str = include_str!("../../../../../tests/fixtures/agreement/malformed.csv");

fn taxonomy() -> Taxonomy {
    Taxonomy::from_yaml(include_str!("../../../../../corpus/taxonomy.yaml"))
        .expect("taxonomy parses")
}

/// The fixture corpus's tags, read from the entry files the end-to-end
/// tests load, so that both kinds of test see the same data.
fn entries() -> Vec<Entry> {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/agreement/corpus/papers");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixture papers")
        .map(|e| e.expect("dir entry").path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let v: Value = serde_yaml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            let s = |f: &str| v[f].as_str().unwrap_or_default().to_string();
            Entry {
                key: s("key"),
                category: s("category"),
                is_rl: s("is_rl"),
                reward_type: s("reward_type"),
                credit_granularity: s("credit_granularity"),
                orchestration_form: s("orchestration_form"),
                scenario: s("scenario"),
                is_core: s("is_core"),
                verified: s("verified"),
                ..Entry::default()
            }
        })
        .collect()
}

fn run(label: &str, text: &str) -> Result<Agreement, Vec<Diagnostic>> {
    let owned = entries();
    let refs: Vec<&Entry> = owned.iter().collect();
    let anns = parse(label, text)?;
    compare(label, &anns, &refs, &taxonomy())
}

fn errors(label: &str, text: &str) -> Vec<Diagnostic> {
    run(label, text).expect_err("input has problems")
}

fn field<'a>(r: &'a Agreement, name: &str) -> &'a FieldAgreement {
    r.fields
        .iter()
        .find(|f| f.field == name)
        .expect("field reported")
}

fn close(got: Option<f64>, want: f64) {
    let g = got.expect("a figure");
    assert!((g - want).abs() < 1e-12, "got {g}, want {want}");
}

fn summary(d: &[Diagnostic]) -> Vec<(String, Option<usize>, Option<String>)> {
    d.iter()
        .map(|d| (d.rule.clone(), d.line, d.field.clone()))
        .collect()
}

fn triple(rule: Rule, line: usize, field: &str) -> (String, Option<usize>, Option<String>) {
    (rule.id().to_string(), Some(line), Some(field.to_string()))
}

#[test]
fn two_categories_match_the_hand_computed_kappa() {
    // is_rl on the 10 fixture rows (rows: corpus, columns: annotator):
    //              yes  partial | corpus total
    //   yes         4      1    |  5
    //   partial     2      3    |  5
    //   ann total   6      4    | 10
    // p_o = (4 + 3) / 10 = 7/10
    // p_e = (5/10)(6/10) + (5/10)(4/10) = 30/100 + 20/100 = 1/2
    // kappa = (7/10 - 1/2) / (1 - 1/2) = (1/5) / (1/2) = 2/5
    let r = run("kappa.csv", KAPPA_CSV).unwrap();
    let f = field(&r, "is_rl");
    assert_eq!((f.n, f.agree), (10, 7));
    close(f.observed, 7.0 / 10.0);
    close(f.expected, 1.0 / 2.0);
    close(f.kappa, 2.0 / 5.0);
    assert_eq!(f.note, None);
    let keys: Vec<(&str, &str, &str)> = f
        .disagreements
        .iter()
        .map(|d| (d.key.as_str(), d.corpus.as_str(), d.annotator.as_str()))
        .collect();
    assert_eq!(
        keys,
        [
            ("echo", "yes", "partial"),
            ("foxtrot", "partial", "yes"),
            ("golf", "partial", "yes")
        ]
    );
}

#[test]
fn three_categories_match_the_hand_computed_kappa() {
    // reward_type (rows: corpus, columns: annotator):
    //              shared hybrid NA | corpus total
    //   shared       3      1    0  |  4
    //   hybrid       0      2    1  |  3
    //   NA           0      0    3  |  3
    //   ann total    3      3    4  | 10
    // p_o = (3 + 2 + 3) / 10 = 8/10
    // p_e = (4·3 + 3·3 + 3·4) / 10² = 33/100
    // kappa = (80/100 - 33/100) / (1 - 33/100) = 47/67 ≈ 0.701
    let r = run("kappa.csv", KAPPA_CSV).unwrap();
    let f = field(&r, "reward_type");
    assert_eq!((f.n, f.agree), (10, 8));
    close(f.observed, 8.0 / 10.0);
    close(f.expected, 33.0 / 100.0);
    close(f.kappa, 47.0 / 67.0);
    let d: Vec<&str> = f.disagreements.iter().map(|d| d.key.as_str()).collect();
    assert_eq!(d, ["delta", "golf"]);
}

#[test]
fn perfect_agreement_over_several_categories_is_kappa_one() {
    // category: rl_method 6, benchmark 2, survey 2 on both sides, all agreeing.
    // p_o = 1; p_e = (6² + 2² + 2²) / 10² = 44/100 = 11/25;
    // kappa = (1 - 11/25) / (1 - 11/25) = 1, exactly.
    let r = run("kappa.csv", KAPPA_CSV).unwrap();
    let f = field(&r, "category");
    assert_eq!((f.n, f.agree), (10, 10));
    close(f.expected, 11.0 / 25.0);
    assert_eq!(f.kappa, Some(1.0));
    assert!(f.disagreements.is_empty());
}

#[test]
fn one_shared_category_leaves_kappa_undefined() {
    // verified: "yes" on all 10 rows for both: p_o = 1, p_e = (10·10)/10² = 1,
    // so kappa = 0/0.
    let r = run("kappa.csv", KAPPA_CSV).unwrap();
    let f = field(&r, "verified");
    assert_eq!((f.n, f.agree), (10, 10));
    assert_eq!(f.observed, Some(1.0));
    assert_eq!(f.expected, Some(1.0));
    assert_eq!(f.kappa, None);
    assert_eq!(f.note.as_deref(), Some(NOTE_SINGLE_CATEGORY));
}

#[test]
fn a_field_with_only_blank_cells_has_no_figures() {
    let r = run("kappa.csv", KAPPA_CSV).unwrap();
    let f = field(&r, "credit_granularity");
    assert_eq!((f.n, f.agree), (0, 0));
    assert_eq!((f.observed, f.expected, f.kappa), (None, None, None));
    assert_eq!(f.note.as_deref(), Some(NOTE_NO_ROWS));
}

#[test]
fn overall_pools_every_compared_cell_in_taxonomy_order() {
    // Compared cells: category 10, is_rl 10, reward_type 10, credit 0,
    // verified 10 = 40; agreeing: 10 + 7 + 8 + 0 + 10 = 35; 35/40 = 7/8.
    let r = run("kappa.csv", KAPPA_CSV).unwrap();
    assert_eq!(r.rows, 10);
    close(r.overall_observed, 7.0 / 8.0);
    let names: Vec<&str> = r.fields.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(
        names,
        [
            "category",
            "is_rl",
            "reward_type",
            "credit_granularity",
            "verified"
        ]
    );
}

#[test]
fn csv_and_yaml_give_the_same_report() {
    let csv = run("kappa.csv", KAPPA_CSV).unwrap();
    let yaml = run("kappa.yaml", KAPPA_YAML).unwrap();
    assert_eq!(csv, yaml);
}

#[test]
fn kappa_edge_cases_on_raw_pairs() {
    // Two items, systematic swap: p_o = 0, p_e = (1·1 + 1·1)/2² = 1/2,
    // kappa = (0 - 1/2)/(1 - 1/2) = -1.
    let k = Kappa::of([("a", "b"), ("b", "a")]);
    assert_eq!((k.n, k.agree), (2, 0));
    assert_eq!(
        (k.observed, k.expected, k.kappa),
        (Some(0.0), Some(0.5), Some(-1.0))
    );
    // No item: no figure at all.
    let k = Kappa::of(std::iter::empty());
    assert_eq!(
        (k.n, k.observed, k.expected, k.kappa),
        (0, None, None, None)
    );
    // Each rater constant but on different categories: p_o = 0,
    // p_e = 3·0 + 0·3 = 0, kappa = 0.
    let k = Kappa::of([("a", "b"); 3]);
    assert_eq!((k.expected, k.kappa), (Some(0.0), Some(0.0)));
}

#[test]
fn no_annotation_rows_are_refused_not_an_empty_table() {
    for (label, text) in [("empty.csv", "key,ann_is_rl\n"), ("empty.yaml", "[]\n")] {
        let d = run(label, text).unwrap_err();
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("no annotations"), "{}", d[0].message);
    }
}

#[test]
fn csv_unknown_keys_values_and_repeated_keys_are_all_reported() {
    let d = errors("errors.csv", ERRORS_CSV);
    // The two-line note of the first record moves the next records down one line.
    assert_eq!(
        summary(&d),
        [
            triple(RULE_UNKNOWN_KEY, 4, "key"),
            triple(RULE_UNKNOWN_VALUE, 5, "category"),
            triple(RULE_UNKNOWN_VALUE, 6, "reward_type"),
            triple(RULE_DUPLICATE_KEY, 7, "key"),
        ]
    );
    assert!(d.iter().all(|d| d.file == "errors.csv"));
    assert_eq!(d[0].help.as_deref(), Some("did you mean `alpha`?"));
    assert_eq!(d[1].help.as_deref(), Some("did you mean `rl_method`?"));
    assert_eq!(d[2].help.as_deref(), Some("did you mean `NA`?"));
    assert!(d[3].message.contains("first on line 2"), "{}", d[3].message);
}

#[test]
fn yaml_problems_point_at_the_item_or_the_field_line() {
    let d = errors("errors.yaml", ERRORS_YAML);
    assert_eq!(
        summary(&d),
        [
            triple(RULE_UNKNOWN_KEY, 5, "key"),
            triple(RULE_UNKNOWN_VALUE, 8, "category"),
            triple(RULE_UNKNOWN_VALUE, 12, "reward_type"),
            triple(RULE_DUPLICATE_KEY, 13, "key"),
        ]
    );
}

#[test]
fn yaml_field_lines_follow_the_item_indentation() {
    let wide = "-   key: alpha\n    is_rl: maybe\n-   key: bravo\n    category: x\n";
    let d = errors("w.yaml", wide);
    assert_eq!(
        d.iter().map(|d| d.line).collect::<Vec<_>>(),
        [Some(2), Some(4)]
    );
    let nested = "  - key: alpha\n    is_rl: maybe\n";
    assert_eq!(errors("n.yaml", nested)[0].line, Some(2));
    let flow = "- {key: alpha, is_rl: maybe}\n- {key: bravo, is_rl: no}\n";
    assert_eq!(errors("f.yaml", flow)[0].line, Some(1));
}

#[test]
fn a_value_outside_the_taxonomy_lists_the_allowed_ones_when_nothing_is_close() {
    let d = errors("x.csv", "key,ann_is_rl\nalpha,maybe\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].rule, RULE_UNKNOWN_VALUE);
    assert_eq!(d[0].help.as_deref(), Some("allowed: yes, partial, no"));
}

#[test]
fn bad_csv_headers_are_all_reported_before_any_row() {
    let d = parse("bad-header.csv", BAD_HEADER_CSV).unwrap_err();
    let rules: Vec<(&str, Option<&str>)> = d
        .iter()
        .map(|d| (d.rule.as_str(), d.field.as_deref()))
        .collect();
    assert_eq!(
        rules,
        [
            (RULE_INPUT.id(), Some("header")),
            (RULE_INPUT.id(), Some("header")),
            (RULE_UNKNOWN_FIELD.id(), Some("ann_catgory")),
            (RULE_UNKNOWN_FIELD.id(), Some("ann_subdecisions")),
        ]
    );
    assert!(d.iter().all(|d| d.line == Some(1)));
    let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    assert!(msgs.contains(&"the header has no `key` column"));
    assert!(msgs.contains(&"the header names `ann_is_rl` twice"));
    let typo = d
        .iter()
        .find(|d| d.field.as_deref() == Some("ann_catgory"))
        .unwrap();
    assert_eq!(typo.help.as_deref(), Some("did you mean `ann_category`?"));
}

#[test]
fn a_csv_without_annotator_columns_suggests_the_prefix() {
    let d = parse("bare.csv", "key,category\nalpha,rl_method\n").unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].message, "the header has no `ann_<field>` column");
    assert_eq!(
        d[0].help.as_deref(),
        Some("annotator columns carry the prefix: rename `category` to `ann_category`")
    );
}

#[test]
fn malformed_csv_rows_and_rows_without_key_are_reported_by_line() {
    let d = parse("malformed.csv", MALFORMED_CSV).unwrap_err();
    let lines: Vec<(Option<usize>, &str)> = d.iter().map(|d| (d.line, d.rule.as_str())).collect();
    assert_eq!(
        lines,
        [(Some(3), RULE_INPUT.id()), (Some(4), RULE_INPUT.id())]
    );
    assert!(
        d[0].message.starts_with("malformed row"),
        "{}",
        d[0].message
    );
    assert_eq!(d[1].message, "row has no key");
}

#[test]
fn yaml_layout_problems_are_reported() {
    let not_list = parse("a.yaml", "key: alpha\ncategory: survey\n").unwrap_err();
    assert_eq!(not_list[0].rule, RULE_INPUT);
    assert!(not_list[0].message.contains("list of mappings"));

    let text = "- key: alpha\n  category: survey\n  category: benchmark\n";
    let dup = parse("a.yaml", text).unwrap_err();
    assert_eq!(summary(&dup), [triple(RULE_INPUT, 3, "category")]);

    let text = "- key: alpha\n  category: survey\n  ann_category: benchmark\n";
    let both = parse("a.yaml", text).unwrap_err();
    assert_eq!(summary(&both), [triple(RULE_INPUT, 3, "category")]);

    let text = "- key: alpha\n  is_rl: [yes, no]\n- just text\n- category: survey\n";
    let d = parse("a.yaml", text).unwrap_err();
    let got: Vec<(Option<usize>, &str)> = d.iter().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(
        got,
        [
            (Some(2), "`is_rl` must be a single value"),
            (
                Some(3),
                "each list item must be a mapping with `key` and tag fields"
            ),
            (Some(4), "item has no `key`"),
        ]
    );

    let bad = parse("a.yaml", "- key: alpha\n  category: [unclosed\n").unwrap_err();
    assert!(
        bad[0].message.contains("is not closed") && !bad[0].message.contains("did not find"),
        "{}",
        bad[0].message
    );
    assert!(bad[0].line.is_some() && bad[0].help.is_some());
}

#[test]
fn yaml_keys_that_look_like_misspelt_tag_fields_are_errors_others_are_ignored() {
    let text = "- key: alpha\n  catgory: survey\n  ann_bogus: x\n  subdecisions: [o1_spawn]\n  orig_category: anything\n  annotator_note: fine\n";
    let d = parse("a.yaml", text).unwrap_err();
    let got: Vec<(&str, Option<usize>, Option<&str>)> = d
        .iter()
        .map(|d| (d.rule.as_str(), d.line, d.help.as_deref()))
        .collect();
    assert_eq!(
        got[0],
        (
            RULE_UNKNOWN_FIELD.id(),
            Some(2),
            Some("did you mean `category`?")
        )
    );
    assert_eq!(got[1].1, Some(3));
    assert_eq!(got[2].1, Some(4));
    assert_eq!(d.len(), 3);
}

#[test]
fn format_is_chosen_by_extension_then_by_content() {
    assert_eq!(detect("a.CSV", "- x"), InputFormat::Csv);
    assert_eq!(detect("a.yml", "key,ann_is_rl"), InputFormat::Yaml);
    assert_eq!(detect("-", "\n- key: a\n"), InputFormat::Yaml);
    assert_eq!(detect("-", "# comment\n- key: a\n"), InputFormat::Yaml);
    assert_eq!(detect("notes.txt", "key,ann_is_rl\n"), InputFormat::Csv);
    let sniffed = run("stdin", &KAPPA_YAML.replace("# ", "#")).unwrap();
    assert_eq!(sniffed, run("kappa.csv", KAPPA_CSV).unwrap());
}

#[test]
fn empty_input_and_a_byte_order_mark() {
    let d = parse("a.csv", " \n").unwrap_err();
    assert_eq!(d[0].message, "`a.csv` is empty");
    let with_bom = format!("\u{feff}{KAPPA_CSV}");
    assert_eq!(
        run("kappa.csv", &with_bom).unwrap(),
        run("kappa.csv", KAPPA_CSV).unwrap()
    );
}

#[test]
fn table_shows_figures_notes_and_disagreements_within_80_columns() {
    let t = table(&run("kappa.csv", KAPPA_CSV).unwrap());
    for line in t.lines() {
        assert!(line.chars().count() <= 80, "too wide: {line}");
    }
    let row = |name: &str| {
        t.lines()
            .find(|l| l.contains(&format!(" {name} ")))
            .unwrap_or_else(|| panic!("no row for {name} in\n{t}"))
            .split(['│', '┆'])
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        row("is_rl"),
        ["is_rl", "10", "7", "0.700", "0.500", "0.400"]
    );
    assert_eq!(row("reward_type")[3..], ["0.800", "0.330", "0.701"]);
    assert_eq!(
        row("credit_granularity")[1..],
        ["0", "0", "undefined", "undefined", "undefined"]
    );
    assert_eq!(row("verified")[5], "undefined");
    assert!(t.contains("overall: 35 of 40 compared cells agree (0.875) over 10 row(s)"));
    assert!(t.contains(&format!("verified: {NOTE_SINGLE_CATEGORY}")));
    assert!(t.contains("disagreements (5):"));
    assert_eq!(row("golf").len(), 4);
    let golf: Vec<Vec<&str>> = t
        .lines()
        .filter(|l| l.contains(" golf "))
        .map(|l| {
            l.split(['│', '┆'])
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(
        golf,
        [
            vec!["is_rl", "golf", "partial", "yes"],
            vec!["reward_type", "golf", "hybrid", "NA"]
        ]
    );
}

#[test]
fn table_says_when_there_is_no_disagreement() {
    let t = table(&run("a.csv", "key,ann_category\nalpha,rl_method\n").unwrap());
    assert!(t.contains("no disagreements"), "{t}");
}

#[test]
fn json_keeps_missing_figures_as_null() {
    let r = run("kappa.csv", KAPPA_CSV).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&serde_json::to_string_pretty(&r).unwrap()).unwrap();
    let credit = &v["fields"][3];
    assert_eq!(credit["field"], "credit_granularity");
    assert!(credit["observed"].is_null() && credit["kappa"].is_null());
    assert_eq!(credit["note"], NOTE_NO_ROWS);
    assert_eq!(v["fields"][1]["kappa"], 0.4);
    assert_eq!(v["fields"][1]["disagreements"][0]["key"], "echo");
    assert_eq!(v["rows"], 10);
    assert_eq!(v["overall_observed"], 0.875);
}

#[test]
fn no_prefix_of_any_fixture_makes_parse_or_compare_panic() {
    let owned = entries();
    let refs: Vec<&Entry> = owned.iter().collect();
    let tax = taxonomy();
    for (label, text) in [
        ("k.csv", KAPPA_CSV),
        ("k.yaml", KAPPA_YAML),
        ("e.csv", ERRORS_CSV),
        ("e.yaml", ERRORS_YAML),
        ("b.csv", BAD_HEADER_CSV),
        ("m.csv", MALFORMED_CSV),
    ] {
        for (i, _) in text.char_indices() {
            for l in [label, "sniffed"] {
                if let Ok(a) = parse(l, &text[..i]) {
                    let _ = compare(l, &a, &refs, &tax).map(|r| table(&r));
                }
            }
        }
    }
}

#[test]
fn hand_built_annotations_with_a_non_comparable_field_are_refused() {
    let owned = entries();
    let refs: Vec<&Entry> = owned.iter().collect();
    let a = Annotation {
        key: "alpha".into(),
        line: 3,
        tags: vec![("subdecisions".into(), "o1_spawn".into())],
        field_lines: BTreeMap::new(),
    };
    let d = compare("x", &[a], &refs, &taxonomy()).unwrap_err();
    assert_eq!(summary(&d), [triple(RULE_UNKNOWN_FIELD, 3, "subdecisions")]);
}
