//! `corpus export`: the corpus for other tools — the reference CSV layout
//! (which `import` reads back), one JSON document, or BibTeX.

use crate::exchange::import::{judged_list_cell, LIST_SEPARATOR};
use crate::model::fields::{self, Field, ValueKind, ENTRY, RECORD};
use crate::model::filter::{FieldValue, Fields};
use crate::model::{Entry, Exclusion};

fn csv_text(w: csv::Writer<Vec<u8>>) -> String {
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Waivers as one CSV cell: `rule: reason` lines.
pub fn waivers_cell(e: &Entry) -> String {
    e.waivers
        .iter()
        .map(|(r, why)| format!("{r}: {why}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One field of a record as a CSV cell: lists joined by the separator.
fn csv_cell(field: &Field, record: &dyn Fields) -> String {
    match (field.kind, record.field(field.name)) {
        (_, Some(FieldValue::One(v))) => v.into_owned(),
        (_, Some(FieldValue::Many(list))) => list.join(LIST_SEPARATOR),
        (_, None) => String::new(),
    }
}

/// The fields of a table in CSV column order: the reference layout, then the extra columns.
fn csv_fields(table: &'static [Field]) -> Vec<&'static Field> {
    fields::reference_columns(table)
        .into_iter()
        .chain(fields::extra_columns(table))
        .filter_map(|c| fields::by_column(table, c))
        .collect()
}

fn write_csv(table: &'static [Field], rows: &mut dyn Iterator<Item = Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(csv_fields(table).iter().map(|f| f.column_name()));
    for row in rows {
        let _ = w.write_record(
            row.iter()
                .map(|c| crate::text::csv_guard::guard(c).into_owned()),
        );
    }
    csv_text(w)
}

/// Entries in the papers.csv layout, plus the columns it lacks (judged tags
/// and their sources, added_in, waivers).
pub fn papers_csv(entries: &[&Entry]) -> String {
    let cols = csv_fields(&ENTRY);
    let mut rows = entries.iter().map(|e| {
        cols.iter()
            .map(|f| match (f.kind, f.name) {
                (ValueKind::Waivers, _) => waivers_cell(e),
                // Judged tags keep "not judged" (empty) apart from a judged
                // "none" (`[]`) or "no", so the round trip is exact.
                (_, fields::SUBDECISIONS) => judged_list_cell(e.subdecisions.as_deref()),
                (_, fields::ADDITIONAL_CREDIT_UNITS) => {
                    judged_list_cell(e.additional_credit_units.as_deref())
                }
                (_, fields::STRICT_CREDIT) => e.strict_credit.clone().unwrap_or_default(),
                _ => csv_cell(f, *e),
            })
            .collect()
    });
    write_csv(&ENTRY, &mut rows)
}

/// Exclusion records in the excluded.csv layout.
pub fn exclusions_csv(records: &[&Exclusion]) -> String {
    let cols = csv_fields(&RECORD);
    let mut rows = records
        .iter()
        .map(|x| cols.iter().map(|f| csv_cell(f, *x)).collect());
    write_csv(&RECORD, &mut rows)
}

/// Entries and records as one JSON document.
pub fn json(entries: &[&Entry], records: &[&Exclusion]) -> String {
    let doc = serde_json::json!({"entries": entries, "exclusions": records});
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// The BibTeX entry type a venue calls for.
pub fn bibtex_kind(e: &Entry) -> &'static str {
    let v = e.venue.to_lowercase();
    const MISC: [&str; 6] = [
        "blog",
        "documentation",
        "docs",
        "report",
        "post",
        "white paper",
    ];
    const CONFERENCE: [&str; 20] = [
        "neurips",
        "icml",
        "iclr",
        "acl",
        "emnlp",
        "naacl",
        "colm",
        "aaai",
        "aamas",
        "ijcai",
        "cvpr",
        "kdd",
        "workshop",
        "conference",
        "proceedings",
        "findings",
        "openreview",
        "aisec",
        "arr",
        "symposium",
    ];
    if MISC.iter().any(|m| v.contains(m)) {
        "misc"
    } else if v.starts_with("arxiv") {
        "article"
    } else if CONFERENCE
        .iter()
        .any(|c| v.split(|ch: char| !ch.is_alphanumeric()).any(|w| w == *c))
    {
        "inproceedings"
    } else {
        "article"
    }
}

/// Escapes LaTeX's special characters so that braces in the result always balance.
pub fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            // BibTeX counts every brace, escaped or not, so `\{` alone would
            // unbalance the field and break the whole file: use the text
            // commands, whose own braces balance.
            '{' => out.push_str("\\textbraceleft{}"),
            '}' => out.push_str("\\textbraceright{}"),
            '&' | '%' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Whether a title is written in sentence case (most content words after the
/// first in lower case), so that its capitalised words are names to keep.
fn sentence_case(words: &[&str]) -> bool {
    let (mut lower, mut capital) = (0, 0);
    for w in words.iter().skip(1) {
        let core: String = w.chars().filter(|c| c.is_alphabetic()).collect();
        let mut chars = core.chars();
        match chars.next() {
            Some(c) if c.is_uppercase() && chars.all(char::is_lowercase) => capital += 1,
            Some(_) if core.chars().count() > 3 && core.chars().all(char::is_lowercase) => {
                lower += 1
            }
            _ => {}
        }
    }
    lower > capital
}

/// Whether a word keeps its capitals whatever a BibTeX style does to the
/// title: acronyms and mixed case (a capital after the first letter), a single
/// capital letter, a name with digits, or a capitalised name in a
/// sentence-case title.
fn must_keep_case(core: &str, first_word: bool, sentence_case: bool) -> bool {
    let mut chars = core.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let caps_after_first = chars.clone().any(char::is_uppercase);
    let has_upper = core.chars().any(char::is_uppercase);
    caps_after_first
        || (core.chars().count() == 1 && first.is_uppercase())
        || (has_upper && core.chars().any(|c| c.is_ascii_digit()))
        || (sentence_case && !first_word && first.is_uppercase())
}

/// A title with LaTeX escaped and the words that must keep their capitals
/// braced (the word only, not the punctuation around it), so that styles
/// which re-case titles (`plain`, `alpha`, `ieeetr`) print them as written.
pub fn bibtex_title(title: &str) -> String {
    let words: Vec<&str> = title.split(' ').collect();
    let sentence = sentence_case(&words);
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let Some(start) = w.find(char::is_alphanumeric) else {
                return latex_escape(w);
            };
            let end = w
                .char_indices()
                .rev()
                .find(|(_, c)| c.is_alphanumeric())
                .map(|(j, c)| j + c.len_utf8())
                .unwrap_or(w.len());
            let (pre, core, post) = (&w[..start], &w[start..end], &w[end..]);
            if must_keep_case(core, i == 0, sentence) {
                format!(
                    "{}{{{}}}{}",
                    latex_escape(pre),
                    latex_escape(core),
                    latex_escape(post)
                )
            } else {
                latex_escape(w)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The author field: a person as "Family, Given and others", an organisation braced whole.
pub fn bibtex_author(first_author: &str) -> String {
    if first_author.contains(", ") {
        format!("{} and others", latex_escape(first_author))
    } else {
        format!("{{{}}}", latex_escape(first_author))
    }
}

/// A URL for a BibTeX `url` field: the characters BibTeX cannot hold
/// there (braces, backslash) percent-encoded, which names the same address,
/// rather than dropped, which would name another.
pub fn bibtex_url(u: &str) -> String {
    u.replace('{', "%7B")
        .replace('}', "%7D")
        .replace('\\', "%5C")
}

/// All entries as BibTeX, one per paper, cite key = entry key.
pub fn bibtex(entries: &[&Entry]) -> String {
    let mut out = String::new();
    for e in entries {
        let kind = bibtex_kind(e);
        let mut fields: Vec<(&str, String)> = vec![
            ("title", format!("{{{}}}", bibtex_title(&e.title))),
            ("author", format!("{{{}}}", bibtex_author(&e.first_author))),
        ];
        match kind {
            "article" => {
                let journal = match &e.arxiv_id {
                    Some(id) if e.venue.to_lowercase().starts_with("arxiv") => {
                        format!("arXiv preprint arXiv:{id}")
                    }
                    _ => latex_escape(&e.venue),
                };
                fields.push(("journal", format!("{{{journal}}}")));
            }
            "inproceedings" => {
                fields.push(("booktitle", format!("{{{}}}", latex_escape(&e.venue))))
            }
            _ => fields.push(("howpublished", format!("{{{}}}", latex_escape(&e.venue)))),
        }
        fields.push(("year", format!("{{{}}}", e.year)));
        if let Some(id) = &e.arxiv_id {
            fields.push(("eprint", format!("{{{id}}}")));
            fields.push(("archiveprefix", "{arXiv}".to_string()));
        }
        if let Some(u) = e.urls.first() {
            fields.push(("url", format!("{{{}}}", bibtex_url(u))));
        }
        out.push_str(&format!("@{kind}{{{},\n", e.key));
        for (name, value) in fields {
            out.push_str(&format!("  {name:<13} = {value},\n"));
        }
        out.push_str("}\n\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(venue: &str) -> Entry {
        Entry {
            key: "x".into(),
            title: "MARFT: 100% of LLM_agents & {friends}".into(),
            first_author: "Liao, Junwei".into(),
            venue: venue.into(),
            year: 2025,
            arxiv_id: Some("2504.16129".into()),
            urls: vec!["https://arxiv.org/abs/2504.16129".into()],
            ..Entry::default()
        }
    }

    #[test]
    fn venues_map_to_entry_types() {
        assert_eq!(bibtex_kind(&entry("arXiv")), "article");
        assert_eq!(
            bibtex_kind(&entry("arXiv (ICLR 2026 submitted)")),
            "article"
        );
        assert_eq!(bibtex_kind(&entry("NeurIPS 2025")), "inproceedings");
        assert_eq!(bibtex_kind(&entry("Findings of ACL 2024")), "inproceedings");
        assert_eq!(bibtex_kind(&entry("TMLR")), "article");
        assert_eq!(bibtex_kind(&entry("Engineering Blog")), "misc");
        assert_eq!(bibtex_kind(&entry("Tech Report")), "misc");
        assert_eq!(bibtex_kind(&entry("Documentation")), "misc");
    }

    #[test]
    fn titles_escape_latex_and_protect_acronyms() {
        assert_eq!(
            bibtex_title("MARFT: 100% of LLM_agents & {friends}"),
            "{MARFT}: 100\\% of {LLM\\_agents} \\& \\textbraceleft{}friends\\textbraceright{}"
        );
        // The braces go round the word, not the punctuation beside it.
        assert_eq!(
            bibtex_title("Creating Custom Sub-Agents (Claude Code Docs)"),
            "Creating Custom {Sub-Agents} (Claude Code Docs)"
        );
        assert_eq!(
            bibtex_title("Kimi K2.5: Visual Agentic Intelligence"),
            "Kimi {K2.5}: Visual Agentic Intelligence"
        );
        // In a sentence-case title, capitalised words are names.
        assert_eq!(
            bibtex_title("Building a C compiler with a team of parallel Claudes"),
            "Building a {C} compiler with a team of parallel {Claudes}"
        );
        assert_eq!(
            latex_escape("a~b^c\\d$#"),
            "a\\textasciitilde{}b\\textasciicircum{}c\\textbackslash{}d\\$\\#"
        );
    }

    #[test]
    fn arxiv_preprints_cite_the_preprint() {
        let b = bibtex(&[&entry("arXiv")]);
        assert!(b.starts_with("@article{x,\n"));
        assert!(b.contains("journal       = {arXiv preprint arXiv:2504.16129}"));
        assert!(b.contains("author        = {Liao, Junwei and others}"));
    }
}
