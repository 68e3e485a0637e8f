//! Unit tests of the charts: valid SVG for any input, every label and count drawn, scales kept.

use super::heat::heat_colors;
use super::style::{APART_FILL, LABEL_MAX, WHITE_TEXT};
use super::*;
use plotters::style::RGBColor;

fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("invalid XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    for attr in ["width", "height", "viewBox"] {
        assert!(root.attribute(attr).is_some(), "missing {attr}");
    }
    doc
}

/// All text content of the document, one entry per `<text>` element, trimmed.
fn texts(svg: &str) -> Vec<String> {
    let doc = parse(svg);
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

fn bars(pairs: &[(&str, u64)]) -> Vec<Bar> {
    pairs
        .iter()
        .map(|(label, value)| Bar {
            label: label.to_string(),
            value: *value,
        })
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

const HOSTILE: &str = "<script>&\"x\"</script>'\u{0}\u{1b}\u{7f}\u{FFFF}\n]]><!--";

#[test]
fn bar_chart_typical_lists_labels_and_counts_in_order() {
    let svg = bar_chart("Venues", &bars(&[("ICSE", 12), ("FSE", 7), ("ASE", 0)]));
    let t = texts(&svg);
    assert_eq!(t, ["Venues", "ICSE", "12", "FSE", "7", "ASE", "0"]);
}

#[test]
fn bar_chart_empty_and_zero_inputs_are_valid() {
    assert!(texts(&bar_chart("", &[])).contains(&"No data".to_string()));
    parse(&bar_chart("Zeros", &bars(&[("a", 0), ("b", 0)])));
    let huge = bar_chart("Huge", &bars(&[("max", u64::MAX), ("one", 1)]));
    assert!(texts(&huge).contains(&u64::MAX.to_string()));
}

#[test]
fn hostile_and_long_labels_stay_inside_the_document() {
    let long = "x".repeat(10_000);
    let svg = bar_chart(
        HOSTILE,
        &bars(&[(HOSTILE, 3), (&long, 2), ("📚 ünïcödé", 1)]),
    );
    let t = texts(&svg);
    assert!(t.iter().any(|s| s.starts_with("<script>&\"x\"")));
    let cut = t
        .iter()
        .find(|s| s.starts_with("xxx"))
        .expect("long label drawn");
    assert_eq!(cut.chars().count(), LABEL_MAX);
    assert!(cut.ends_with('…'));

    let h = strings(&[HOSTILE, &long]);
    parse(&heat_map(
        HOSTILE,
        HOSTILE,
        HOSTILE,
        &h,
        &h,
        &[vec![1, 2], vec![3, 4]],
        None,
    ));
}

#[test]
fn heat_map_shows_every_count() {
    let rows = strings(&["2019", "2020", "2021"]);
    let cols = strings(&["tool", "study", "benchmark"]);
    let cells = vec![vec![0, 3, 12], vec![5, 0, 1], vec![7, 8, 9]];
    let svg = heat_map("Kinds by year", "year", "kind", &rows, &cols, &cells, None);
    let t = texts(&svg);
    for label in rows
        .iter()
        .chain(&cols)
        .map(String::as_str)
        .chain(["year", "kind"])
    {
        assert!(t.iter().any(|s| s == label), "missing {label}");
    }
    let mut counts: Vec<u64> = t
        .iter()
        .filter_map(|s| s.parse().ok())
        .filter(|n| *n < 100)
        .collect();
    counts.sort_unstable();
    let mut expected: Vec<u64> = cells.concat();
    expected.sort_unstable();
    assert_eq!(counts, expected);
}

#[test]
fn heat_map_zero_cells_are_lighter_than_non_zero() {
    let (zero, _) = heat_colors(0, 10);
    let (one, _) = heat_colors(1, 10);
    let (top, ink) = heat_colors(10, 10);
    let luma = |c: RGBColor| u32::from(c.0) + u32::from(c.1) + u32::from(c.2);
    assert!(luma(zero) > luma(one) && luma(one) > luma(top));
    assert_eq!(ink, WHITE_TEXT);
}

#[test]
fn heat_map_handles_empty_ragged_and_wide_input() {
    parse(&heat_map("", "", "", &[], &[], &[], None));
    parse(&heat_map("t", "r", "c", &strings(&["a"]), &[], &[], None));
    let ragged = heat_map(
        "t",
        "r",
        "c",
        &strings(&["a", "b"]),
        &strings(&["x", "y"]),
        &[vec![4]],
        None,
    );
    assert_eq!(texts(&ragged).iter().filter(|s| *s == "0").count(), 3);
    let cols: Vec<String> = (0..40)
        .map(|i| format!("a rather long column {i}"))
        .collect();
    let row = vec![vec![u64::MAX; 40]];
    parse(&heat_map(
        "wide",
        "r",
        "c",
        &strings(&["only"]),
        &cols,
        &row,
        None,
    ));
}

#[test]
fn output_is_deterministic() {
    let rows = strings(&["a", "b"]);
    let cells = vec![vec![1, 2], vec![3, 0]];
    let b = bars(&[("one", 1), ("two", 2)]);
    assert_eq!(bar_chart("t", &b), bar_chart("t", &b));
    assert_eq!(
        heat_map("t", "r", "c", &rows, &rows, &cells, None),
        heat_map("t", "r", "c", &rows, &rows, &cells, None)
    );
}

#[test]
fn font_sizes_are_whole_pixels() {
    let svg = bar_chart("t", &bars(&[("a", 1)]))
        + &heat_map(
            "t",
            "r",
            "c",
            &strings(&["a"]),
            &strings(&["b"]),
            &[vec![1]],
            None,
        );
    for size in svg.split("font-size=\"").skip(1) {
        let value = size.split('"').next().unwrap_or("");
        assert!(value.parse::<u32>().is_ok(), "font-size {value}");
    }
}

/// Widths of the filled bars (`<rect>`s in the bar colour), in drawing order.
fn bar_widths(svg: &str) -> Vec<i64> {
    let doc = parse(svg);
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#0969DA"))
        .map(|n| n.attribute("width").unwrap_or("0").parse().unwrap())
        .collect()
}

#[test]
fn a_bar_shown_apart_does_not_set_the_scale() {
    let alone = bar_chart("t", &bars(&[("a", 10), ("b", 5)]));
    let with_na = bar_chart_apart("t", &bars(&[("a", 10), ("b", 5)]), &bars(&[("NA", 40)]));
    assert_eq!(bar_widths(&alone), bar_widths(&with_na));
    assert!(texts(&with_na).contains(&"40 (not drawn to scale)".to_string()));
}

#[test]
fn cells_apart_are_grey_and_outside_the_colour_scale() {
    let rows = strings(&["shared", "NA"]);
    let cols = strings(&["agent", "NA"]);
    let cells = vec![vec![9, 0], vec![0, 32]];
    let svg = heat_map("t", "r", "c", &rows, &cols, &cells, Some("NA"));
    let (top, _) = heat_colors(9, 9);
    let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    let fills: Vec<String> = parse(&svg)
        .descendants()
        .filter_map(|n| n.attribute("fill").map(str::to_string))
        .collect();
    assert!(
        fills.contains(&hex(top)),
        "9 is the darkest cell: {fills:?}"
    );
    assert!(fills.contains(&hex(APART_FILL)), "{fills:?}");
    assert!(texts(&svg).contains(&"32".to_string()));
}

#[test]
fn described_charts_open_with_title_and_desc() {
    let svg = described(
        &bar_chart("Entries", &bars(&[("a", 1)])),
        "Entries",
        "a <1> & more",
    );
    let doc = parse(&svg);
    let kids: Vec<_> = doc
        .root_element()
        .children()
        .filter(|n| n.is_element())
        .collect();
    assert_eq!(kids[0].tag_name().name(), "title");
    assert_eq!(kids[0].text(), Some("Entries"));
    assert_eq!(kids[1].tag_name().name(), "desc");
    assert_eq!(kids[1].text(), Some("a <1> & more"));
}
