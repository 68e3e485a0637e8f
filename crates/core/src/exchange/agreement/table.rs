//! The text table of an agreement: per-field figures, notes, then each disagreement.

use super::Agreement;

fn fmt3(x: Option<f64>) -> String {
    x.map_or_else(|| "undefined".to_string(), |v| format!("{v:.3}"))
}

/// Renders a comfy-table text table (fits 80 columns): per-field figures, notes, then each disagreement.
pub fn table(r: &Agreement) -> String {
    use comfy_table::{
        presets::UTF8_FULL_CONDENSED, CellAlignment, ColumnConstraint, ContentArrangement, Table,
    };
    let new_table = || {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(80);
        t
    };
    let mut t = new_table();
    t.set_header(vec!["field", "n", "agree", "observed", "expected", "kappa"]);
    for f in &r.fields {
        t.add_row(vec![
            f.field.clone(),
            f.n.to_string(),
            f.agree.to_string(),
            fmt3(f.observed),
            fmt3(f.expected),
            fmt3(f.kappa),
        ]);
    }
    for i in 1..6 {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
            c.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    let (agree, n) = r
        .fields
        .iter()
        .fold((0, 0), |(a, n), f| (a + f.agree, n + f.n));
    let mut out = format!("{t}\n");
    out.push_str(&format!(
        "overall: {agree} of {n} compared cells agree ({}) over {} row(s)\n",
        fmt3(r.overall_observed),
        r.rows
    ));
    out.push_str("kappa = (observed - expected) / (1 - expected)\n");
    out.push_str(&notes_block(
        r.fields
            .iter()
            .map(|f| (f.field.as_str(), f.note.as_deref())),
    ));
    let total: usize = r.fields.iter().map(|f| f.disagreements.len()).sum();
    if total == 0 {
        out.push_str("\nno disagreements\n");
        return out;
    }
    let mut d = new_table();
    d.set_header(vec!["field", "key", "corpus", "annotator"]);
    for f in &r.fields {
        for x in &f.disagreements {
            d.add_row(vec![
                f.field.clone(),
                x.key.clone(),
                x.corpus.clone(),
                x.annotator.clone(),
            ]);
        }
    }
    out.push_str(&format!("\ndisagreements ({total}):\n{d}\n"));
    out
}

/// The "notes:" block under an agreement table: one line per field that has
/// a note, nothing when none has.
pub(super) fn notes_block<'a>(fields: impl Iterator<Item = (&'a str, Option<&'a str>)>) -> String {
    let lines: String = fields
        .filter_map(|(field, note)| note.map(|n| format!("  {field}: {n}\n")))
        .collect();
    if lines.is_empty() {
        lines
    } else {
        format!("\nnotes:\n{lines}")
    }
}
