//! `corpus export`: the corpus for other tools — the reference CSV layout
//! (which `import` reads back), one JSON document, or BibTeX.

use crate::exchange::import::{judged_list_cell, LIST_SEPARATOR};
use crate::model::fields::{self, Field, ValueKind, ENTRY, MORE_AUTHORS, RECORD};
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

/// The words of `title` that a protected word or phrase covers, by index:
/// a phrase covers its words where they appear in that order, as written.
fn protected_positions(words: &[&str], protected: &[String]) -> Vec<bool> {
    let core = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
    let cores: Vec<String> = words.iter().map(|w| core(w)).collect();
    let mut marked = vec![false; words.len()];
    for phrase in protected {
        let parts: Vec<&str> = phrase.split_whitespace().collect();
        if parts.is_empty() || parts.len() > cores.len() {
            continue;
        }
        for start in 0..=cores.len() - parts.len() {
            if parts.iter().zip(&cores[start..]).all(|(p, c)| p == c) {
                marked[start..start + parts.len()].fill(true);
            }
        }
    }
    marked
}

/// One word, escaped, with its letters braced when they must keep their
/// case (punctuation left outside the braces).
fn brace_word(w: &str, keep: bool) -> String {
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
    if keep {
        format!(
            "{}{{{}}}{}",
            latex_escape(pre),
            latex_escape(core),
            latex_escape(post)
        )
    } else {
        latex_escape(w)
    }
}

/// A title with LaTeX escaped and the words that must keep their capitals
/// braced (the word only, not the punctuation around it), so that styles
/// which re-case titles (`plain`, `alpha`, `ieeetr`) print them as written:
/// the words the rules find and the taxonomy's protected words and phrases.
pub fn bibtex_title(title: &str, protected: &[String]) -> String {
    let words: Vec<&str> = title.split(' ').collect();
    let sentence = sentence_case(&words);
    let listed = protected_positions(&words, protected);
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if listed[i] {
                return brace_word(w, true);
            }
            // A hyphenated word is a name to keep when one of its parts is
            // ("MAS-Zero", "Q-value"), and not merely for a capital after
            // its hyphen ("Multi-Agent").
            let keep = w.split('-').enumerate().any(|(j, part)| {
                let core = part.trim_matches(|c: char| !c.is_alphanumeric());
                must_keep_case(core, i == 0 && j == 0, sentence)
            });
            brace_word(w, keep)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One name for BibTeX: a person ("Family, Given") escaped, an organisation
/// braced whole so that styles print it as one name.
fn bibtex_name(name: &str) -> String {
    if name == MORE_AUTHORS || name.contains(", ") {
        latex_escape(name)
    } else {
        format!("{{{}}}", latex_escape(name))
    }
}

/// The author field: every author of `authors` joined by `and`; without the
/// list, the first author followed by `others`, for the authors unknown.
pub fn bibtex_author(e: &Entry) -> String {
    if e.authors.is_empty() {
        let first = bibtex_name(&e.first_author);
        return if e.first_author.contains(", ") {
            format!("{first} and {MORE_AUTHORS}")
        } else {
            first
        };
    }
    e.authors
        .iter()
        .map(|a| bibtex_name(a))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// A venue with the year the citation prints removed, so that styles which
/// print the year beside it do not show it twice ("NeurIPS 2025, 2025").
pub fn venue_without_year(venue: &str, year: i64) -> String {
    let year = year.to_string();
    let mut out: Vec<String> = Vec::new();
    for w in venue.split(' ') {
        let rest = w.replacen(&year, "", 1);
        let closing = rest
            .chars()
            .all(|c| matches!(c, ')' | ']' | ',' | ';' | '.'));
        match out.last_mut() {
            _ if w == year => {}
            // "(ICLR 2026)": the bracket closes on the word before.
            Some(prev) if rest.len() < w.len() && closing => prev.push_str(&rest),
            _ => out.push(w.to_string()),
        }
    }
    out.join(" ")
}

/// A URL for a BibTeX `url` field: the characters BibTeX cannot hold
/// there (braces, backslash) percent-encoded, which names the same address,
/// rather than dropped, which would name another.
pub fn bibtex_url(u: &str) -> String {
    u.replace('{', "%7B")
        .replace('}', "%7D")
        .replace('\\', "%5C")
}

/// All entries as BibTeX, one per paper: the cite key is the survey's
/// (`cite_key`, else the entry key), the type `bib_type` or the one the
/// venue implies, the year `cite_year` or `year`; a `@misc` shows its link
/// in `howpublished` (wrapped in `\url`, which needs the `url` or
/// `hyperref` package), where `plain` and `ieeetr` print it.
pub fn bibtex(entries: &[&Entry], protected: &[String]) -> String {
    let mut out = String::new();
    for e in entries {
        let implied = bibtex_kind(e);
        let kind = e.bib_type.as_deref().unwrap_or(implied);
        let year = e.cite_year.unwrap_or(e.year);
        let venue = latex_escape(&venue_without_year(&e.venue, year));
        let mut fields: Vec<(&str, String)> = vec![
            (
                "title",
                format!("{{{}}}", bibtex_title(&e.title, protected)),
            ),
            ("author", format!("{{{}}}", bibtex_author(e))),
        ];
        let arxiv_venue = e.venue.to_lowercase().starts_with("arxiv");
        match (kind, &e.arxiv_id) {
            // A preprint, or a paper the survey cites as its preprint
            // (an article whose venue implies another type): the venue,
            // when it is not arXiv, goes to the note.
            ("article", Some(id)) if arxiv_venue || implied != "article" => {
                fields.push(("journal", format!("{{arXiv preprint arXiv:{id}}}")));
                if !arxiv_venue {
                    fields.push(("note", format!("{{{venue}}}")));
                }
            }
            ("article", _) => fields.push(("journal", format!("{{{venue}}}"))),
            ("inproceedings", _) => fields.push(("booktitle", format!("{{{venue}}}"))),
            _ => {
                if let Some(u) = e.urls.first() {
                    fields.push(("howpublished", format!("{{\\url{{{}}}}}", bibtex_url(u))));
                }
                fields.push(("note", format!("{{{venue}}}")));
            }
        }
        fields.push(("year", format!("{{{year}}}")));
        if let Some(id) = &e.arxiv_id {
            fields.push(("eprint", format!("{{{id}}}")));
            fields.push(("archiveprefix", "{arXiv}".to_string()));
        }
        if let Some(u) = e.urls.first() {
            fields.push(("url", format!("{{{}}}", bibtex_url(u))));
        }
        out.push_str(&format!("@{kind}{{{},\n", e.citation_key()));
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

    fn none() -> Vec<String> {
        Vec::new()
    }

    #[test]
    fn titles_escape_latex_and_protect_acronyms() {
        assert_eq!(
            bibtex_title("MARFT: 100% of LLM_agents & {friends}", &none()),
            "{MARFT}: 100\\% of {LLM\\_agents} \\& \\textbraceleft{}friends\\textbraceright{}"
        );
        assert_eq!(
            bibtex_title("Kimi K2.5: Visual Agentic Intelligence", &none()),
            "Kimi {K2.5}: Visual Agentic Intelligence"
        );
        // In a sentence-case title, capitalised words are names.
        assert_eq!(
            bibtex_title(
                "Building a C compiler with a team of parallel Claudes",
                &none()
            ),
            "Building a {C} compiler with a team of parallel {Claudes}"
        );
        assert_eq!(
            latex_escape("a~b^c\\d$#"),
            "a\\textasciitilde{}b\\textasciicircum{}c\\textbackslash{}d\\$\\#"
        );
    }

    #[test]
    fn a_hyphenated_word_is_kept_whole_when_a_part_is_a_name() {
        assert_eq!(
            bibtex_title("MAS-Zero: Multi-Agent Q-Mix via Tool-Use", &none()),
            "{MAS-Zero}: Multi-Agent {Q-Mix} via Tool-Use"
        );
    }

    #[test]
    fn protected_words_and_phrases_keep_their_capitals() {
        let listed = vec!["Claude Code".to_string(), "Markov".to_string()];
        // The braces go round the word, not the punctuation beside it.
        assert_eq!(
            bibtex_title("Creating Custom Sub-Agents (Claude Code Docs)", &listed),
            "Creating Custom Sub-Agents ({Claude} {Code} Docs)"
        );
        assert_eq!(
            bibtex_title("Control of Markov Decision Processes", &listed),
            "Control of {Markov} Decision Processes"
        );
        // A phrase counts only where its words stand together.
        assert_eq!(
            bibtex_title("Claude Writes Code", &listed),
            "Claude Writes Code"
        );
    }

    #[test]
    fn a_venue_loses_the_year_the_citation_prints() {
        assert_eq!(venue_without_year("NeurIPS 2025", 2025), "NeurIPS");
        assert_eq!(venue_without_year("Nature 2025", 2025), "Nature");
        assert_eq!(
            venue_without_year("OpenReview (ICLR 2026)", 2026),
            "OpenReview (ICLR)"
        );
        assert_eq!(venue_without_year("NeurIPS 2024", 2025), "NeurIPS 2024");
        assert_eq!(venue_without_year("ACL2025", 2025), "ACL2025");
    }

    #[test]
    fn arxiv_preprints_cite_the_preprint() {
        let b = bibtex(&[&entry("arXiv")], &none());
        assert!(b.starts_with("@article{x,\n"));
        assert!(b.contains("journal       = {arXiv preprint arXiv:2504.16129}"));
        // Without an author list, the first author stands for the others.
        assert!(b.contains("author        = {Liao, Junwei and others}"));
    }

    #[test]
    fn the_author_list_cite_key_type_and_year_come_from_the_entry() {
        let mut e = entry("COLM 2025");
        e.authors = vec!["Liao, Junwei".into(), "Kimi Team".into(), "others".into()];
        e.cite_key = Some("marft2025".into());
        e.cite_year = Some(2026);
        e.bib_type = Some("article".into());
        let b = bibtex(&[&e], &none());
        assert!(b.starts_with("@article{marft2025,\n"), "{b}");
        assert!(b.contains("author        = {Liao, Junwei and {Kimi Team} and others}"));
        assert!(b.contains("year          = {2026}"));
        // Cited as its preprint, with the venue in the note.
        assert!(b.contains("journal       = {arXiv preprint arXiv:2504.16129}"));
        assert!(b.contains("note          = {COLM 2025}"));
        // A sole author is printed alone.
        e.authors = vec!["Liao, Junwei".into()];
        assert!(bibtex(&[&e], &none()).contains("author        = {Liao, Junwei},"));
    }

    #[test]
    fn a_misc_entry_shows_its_link_where_plain_styles_print_it() {
        let b = bibtex(&[&entry("Engineering Blog 2025")], &none());
        assert!(b.starts_with("@misc{x,\n"));
        assert!(b.contains("howpublished  = {\\url{https://arxiv.org/abs/2504.16129}}"));
        assert!(b.contains("note          = {Engineering Blog}"));
    }
}
