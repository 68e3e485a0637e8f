//! The CSV layout of annotations: a `key` column and one `ann_<field>` column per tag field.

use super::{error, is_comparable, unknown_field, Accept, Annotation, PREFIX, RULE_INPUT};
use corpus_diagnostics::diag::Diagnostic;
use std::collections::BTreeMap;

pub(super) fn parse_csv(
    file: &str,
    text: &str,
    fields: Accept,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Annotation> {
    let mut rdr = ::csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let headers = match rdr.headers() {
        Ok(h) => h.iter().map(|h| h.trim().to_string()).collect::<Vec<_>>(),
        Err(e) => {
            diags.push(error(
                RULE_INPUT,
                file,
                Some(1),
                format!("cannot read the header: {e}"),
            ));
            return Vec::new();
        }
    };
    let header_error = |msg: String| error(RULE_INPUT, file, Some(1), msg).field("header");
    let mut key_col = None;
    let mut ann_cols: Vec<(usize, &str)> = Vec::new();
    for (i, h) in headers.iter().enumerate() {
        if h == "key" {
            if key_col.is_some() {
                diags.push(header_error("the header names `key` twice".into()));
            }
            key_col = Some(i);
        } else if let Some(field) = h.strip_prefix(PREFIX) {
            if !fields.accepts(field) {
                diags.push(unknown_field(file, Some(1), h, field));
            } else if ann_cols.iter().any(|(_, f)| *f == field) {
                diags.push(
                    header_error(format!("the header names `{h}` twice"))
                        .help("keep one column per field: which one to compare is ambiguous"),
                );
            } else {
                ann_cols.push((i, field));
            }
        }
    }
    if key_col.is_none() {
        diags.push(
            header_error("the header has no `key` column".into())
                .help("name the column of entry keys `key`"),
        );
    }
    if ann_cols.is_empty() && !headers.iter().any(|h| h.starts_with(PREFIX)) {
        let bare: Vec<&str> = headers
            .iter()
            .map(String::as_str)
            .filter(|h| is_comparable(h))
            .collect();
        let help = match bare.first() {
            Some(b) => format!("annotator columns carry the prefix: rename `{b}` to `{PREFIX}{b}`"),
            None => format!(
                "add a column `{PREFIX}<field>` per annotated tag field, e.g. `{PREFIX}category`"
            ),
        };
        diags.push(header_error("the header has no `ann_<field>` column".into()).help(help));
    }
    let Some(key_col) = key_col else {
        return Vec::new();
    };
    if !diags.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                let line = e
                    .position()
                    .map(|p| corpus_diagnostics::diag::line_of_byte(text, p.byte()));
                diags.push(
                    error(RULE_INPUT, file, line, format!("malformed row: {e}")).help(
                        "every row needs as many cells as the header; quote cells holding commas",
                    ),
                );
                continue;
            }
        };
        let line = rec.position().map_or(0, |p| {
            corpus_diagnostics::diag::line_of_byte(text, p.byte())
        });
        let key = rec.get(key_col).unwrap_or("").trim();
        if key.is_empty() {
            diags.push(
                error(RULE_INPUT, file, Some(line), "row has no key")
                    .field("key")
                    .help("fill in the entry key, or remove the row"),
            );
            continue;
        }
        let tags = ann_cols
            .iter()
            .map(|(i, f)| (f.to_string(), rec.get(*i).unwrap_or("").trim().to_string()))
            .collect();
        out.push(Annotation {
            key: key.to_string(),
            line,
            tags,
            field_lines: BTreeMap::new(),
        });
    }
    out
}
