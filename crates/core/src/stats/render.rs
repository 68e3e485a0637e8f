//! The renderers of the statistics: one [`Stats`] value as terminal tables,
//! GitHub Markdown, JSON and CSV. Counting happens in `stats`; nothing here
//! counts.

use crate::stats::{CrossTab, Stats, Tally};

/// The JSON document with the top-level keys retained, excluded, audited, counts, crosstabs, exclusions.
pub fn json(st: &Stats) -> serde_json::Value {
    let tally_map = |ts: &[Tally]| {
        ts.iter()
            .map(|t| {
                let m: serde_json::Map<String, serde_json::Value> = t
                    .rows
                    .iter()
                    .map(|(v, n)| (v.clone(), (*n).into()))
                    .collect();
                (t.name.clone(), serde_json::Value::Object(m))
            })
            .collect::<serde_json::Map<_, _>>()
    };
    let crosstabs: serde_json::Map<String, serde_json::Value> = st
        .crosstabs
        .iter()
        .map(|x| {
            let rows: serde_json::Map<String, serde_json::Value> = x
                .rows
                .iter()
                .zip(&x.cells)
                .map(|(r, cells)| {
                    let cols: serde_json::Map<String, serde_json::Value> = x
                        .cols
                        .iter()
                        .zip(cells)
                        .map(|(c, n)| (c.clone(), (*n).into()))
                        .collect();
                    (r.clone(), serde_json::Value::Object(cols))
                })
                .collect();
            (x.name.clone(), serde_json::Value::Object(rows))
        })
        .collect();
    let mut doc = serde_json::json!({
        "retained": st.retained,
        "excluded": st.excluded,
        "audited": st.audited,
        "counts": tally_map(&st.counts),
        "crosstabs": crosstabs,
        "exclusions": tally_map(&st.exclusions),
    });
    if let Some(p) = st.survey {
        doc["survey_pool"] = serde_json::json!({
            "retained": p.retained,
            "excluded": p.excluded,
            "audited": p.retained + p.excluded,
        });
    }
    if let Some(s) = &st.status {
        doc["resting_on_withdrawn_or_retracted"] = serde_json::json!({
            "source": crate::stats::StatusShare::SOURCE,
            "entries": s.either(),
            "withdrawn": s.withdrawn,
            "retracted": s.retracted,
        });
    }
    doc
}

/// Pretty JSON text with a final newline.
pub fn json_text(st: &Stats) -> String {
    let mut s = serde_json::to_string_pretty(&json(st)).unwrap_or_default();
    s.push('\n');
    s
}

/// All tables as `(file stem, CSV text)`: one per count, cross-tab and exclusion count.
pub fn csv_tables(st: &Stats) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for t in &st.counts {
        out.push((format!("count_{}", t.name), tally_csv(t)));
    }
    for t in &st.exclusions {
        out.push((format!("exclusions_{}", t.name), tally_csv(t)));
    }
    for x in &st.crosstabs {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut head = vec![format!("{}\\{}", x.row_field, x.col_field)];
        head.extend(x.cols.iter().cloned());
        record(&mut w, &head);
        for (r, cells) in x.rows.iter().zip(&x.cells) {
            let mut rec = vec![r.clone()];
            rec.extend(cells.iter().map(u64::to_string));
            record(&mut w, &rec);
        }
        out.push((format!("crosstab_{}", x.name), csv_text(w)));
    }
    out
}

/// One long-form CSV of every figure: table,row,column,n.
pub fn csv_long(st: &Stats) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    record(&mut w, ["table", "row", "column", "n"]);
    for (k, v) in [
        ("retained", st.retained),
        ("excluded", st.excluded),
        ("audited", st.audited),
    ] {
        record(&mut w, ["total", k, "", &v.to_string()]);
    }
    if let Some(p) = st.survey {
        for (k, v) in [("retained", p.retained), ("excluded", p.excluded)] {
            record(&mut w, ["survey_pool", k, "", &v.to_string()]);
        }
    }
    for (prefix, ts) in [("count", &st.counts), ("exclusions", &st.exclusions)] {
        for t in ts {
            for (v, n) in t.sorted() {
                record(
                    &mut w,
                    [&format!("{prefix}_{}", t.name), &v, "", &n.to_string()],
                );
            }
        }
    }
    for x in &st.crosstabs {
        for (r, cells) in x.rows.iter().zip(&x.cells) {
            for (c, n) in x.cols.iter().zip(cells) {
                record(
                    &mut w,
                    [&format!("crosstab_{}", x.name), r, c, &n.to_string()],
                );
            }
        }
    }
    csv_text(w)
}

fn tally_csv(t: &Tally) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    record(&mut w, [t.name.as_str(), "n"]);
    for (v, n) in t.sorted() {
        record(&mut w, [v.as_str(), &n.to_string()]);
    }
    csv_text(w)
}

/// Writes one CSV row, every cell spreadsheet-safe: a value that starts like
/// a formula (from data that has not passed `check`) is written as text.
fn record<S: AsRef<str>>(w: &mut csv::Writer<Vec<u8>>, cells: impl IntoIterator<Item = S>) {
    let _ = w.write_record(
        cells
            .into_iter()
            .map(|c| crate::text::csv_guard::guard(c.as_ref()).into_owned()),
    );
}

fn csv_text(w: csv::Writer<Vec<u8>>) -> String {
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Renders every table with comfy-table, fitting an 80-column terminal.
pub fn table(s: &Stats) -> String {
    use comfy_table::{
        presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, ContentArrangement, Table,
    };
    let mut out = format!(
        "retained {}  excluded {}  audited {}\n",
        s.retained, s.excluded, s.audited
    );
    if let Some(line) = pool_line(s) {
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(line) = status_line(s) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
    let new_table = || {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(80);
        t
    };
    for (prefix, ts) in [("", &s.counts), ("exclusions: ", &s.exclusions)] {
        for tally in ts {
            let mut t = new_table();
            t.set_header(vec![format!("{prefix}{}", tally.name), "n".into()]);
            for (v, n) in tally.sorted() {
                t.add_row(vec![
                    Cell::new(v),
                    Cell::new(n).set_alignment(CellAlignment::Right),
                ]);
            }
            out.push_str(&t.to_string());
            out.push_str("\n\n");
        }
    }
    for x in &s.crosstabs {
        // Nine or more count columns fit 80 columns only without inner
        // borders and with the row labels kept whole.
        let mut t = Table::new();
        t.load_preset(comfy_table::presets::NOTHING)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(80);
        let mut head = vec![Cell::new(&x.row_field)];
        head.extend(
            x.cols
                .iter()
                .map(|c| Cell::new(c).set_alignment(CellAlignment::Right)),
        );
        t.set_header(head);
        for (r, cells) in x.rows.iter().zip(&x.cells) {
            let mut row = vec![Cell::new(r)];
            row.extend(
                cells
                    .iter()
                    .map(|n| Cell::new(n).set_alignment(CellAlignment::Right)),
            );
            t.add_row(row);
        }
        for col in t.column_iter_mut() {
            col.set_padding((1, 0));
        }
        if let Some(first) = t.column_mut(0) {
            first.set_padding((0, 0));
            first.set_constraint(comfy_table::ColumnConstraint::ContentWidth);
        }
        out.push_str(&format!("{} by {}\n", x.row_field, x.col_field));
        out.push_str(&t.to_string());
        out.push_str("\n\n");
    }
    out
}

/// "84 in the survey · 1 added since" for entries (and records, when
/// those grew too), or None when the living list is the survey's pool.
pub fn pool_line(s: &Stats) -> Option<String> {
    let p = s.survey?;
    let mut line = format!(
        "entries: {} in the survey · {} added since",
        p.retained,
        s.added_since()
    );
    if s.logged_since() > 0 {
        line.push_str(&format!(
            "; records: {} in the survey · {} logged since",
            p.excluded,
            s.logged_since()
        ));
    }
    Some(line)
}

/// How many of the entries every figure counts rest on withdrawn or
/// retracted papers, and where that comes from; None without a status file.
pub fn status_line(s: &Stats) -> Option<String> {
    let share = s.status.as_ref()?;
    let names = |keys: &[String]| {
        if keys.is_empty() {
            "none".to_string()
        } else {
            keys.join(", ")
        }
    };
    Some(format!(
        "resting on withdrawn or retracted papers: {} of {} entries (withdrawn: {}; retracted: {}), per {} as `corpus watch` recorded it",
        share.either(),
        s.retained,
        names(&share.withdrawn),
        names(&share.retracted),
        crate::stats::StatusShare::SOURCE
    ))
}

/// Escapes text for a Markdown table cell.
fn md_cell(s: &str) -> String {
    crate::text::markdown::escape_markdown(s)
}

/// Renders every table as GitHub Markdown.
pub fn markdown(s: &Stats) -> String {
    let mut crosstabs = String::new();
    for x in &s.crosstabs {
        crosstabs.push_str(&crosstab_markdown(x));
        crosstabs.push('\n');
    }
    let mut out = format!(
        "| total | n |\n|---|---:|\n| retained | {} |\n| excluded | {} |\n| audited | {} |\n",
        s.retained, s.excluded, s.audited
    );
    if let Some(p) = s.survey {
        out.push_str(&format!(
            "| retained in the survey's pool | {} |\n| retained, added since the survey | {} |\n",
            p.retained,
            s.added_since()
        ));
        if s.logged_since() > 0 {
            out.push_str(&format!(
                "| excluded in the survey's pool | {} |\n| excluded, logged since the survey | {} |\n",
                p.excluded,
                s.logged_since()
            ));
        }
    }
    if let Some(share) = &s.status {
        let src = crate::stats::StatusShare::SOURCE;
        out.push_str(&format!(
            "| retained, resting on a withdrawn paper ({src}) | {} |\n| retained, resting on a retracted paper ({src}) | {} |\n",
            share.withdrawn.len(),
            share.retracted.len()
        ));
    }
    out.push('\n');
    for (prefix, ts) in [("", &s.counts), ("exclusions: ", &s.exclusions)] {
        for t in ts {
            out.push_str(&format!(
                "| {prefix}{} | n |\n|---|---:|\n",
                md_cell(&t.name)
            ));
            for (v, n) in t.sorted() {
                out.push_str(&format!("| {} | {n} |\n", md_cell(&v)));
            }
            out.push('\n');
        }
    }
    out.push_str(&crosstabs);
    out
}

/// One cross-tab as a Markdown table.
pub fn crosstab_markdown(x: &CrossTab) -> String {
    let mut out = format!(
        "| {} \\\\ {} |",
        md_cell(&x.row_field),
        md_cell(&x.col_field)
    );
    for c in &x.cols {
        out.push_str(&format!(" {} |", md_cell(c)));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(x.cols.len()));
    out.push('\n');
    for (r, cells) in x.rows.iter().zip(&x.cells) {
        out.push_str(&format!("| {} |", md_cell(r)));
        for n in cells {
            out.push_str(&format!(" {n} |"));
        }
        out.push('\n');
    }
    out
}
