//! Checks on how data files are written rather than what they say: files
//! `corpus fmt` would change, plain scalars that YAML 1.1 readers misread, and
//! LaTeX escapes where the data should hold the UTF-8 text itself.

use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::format::ambiguous_in_yaml11;
use crate::model::taxonomy::Taxonomy;
use crate::parallel::in_parallel;
use crate::text::lines::{find_byte, lines};
use crate::yaml::source::{Layout, SourceFile};
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use regex::Regex;
use serde_yaml::Value;
use std::sync::OnceLock;

/// Prose fields of entries and records, where a LaTeX escape is a mistake.
const TEXT_FIELDS: [&str; 7] = [
    fields::TITLE,
    fields::FIRST_AUTHOR,
    fields::AFFILIATION,
    fields::VENUE,
    fields::ONE_LINER,
    fields::NOTES,
    fields::REASON,
];

/// LaTeX accent commands and, for each, pairs of base letter and accented letter.
const ACCENTS: [(char, &str); 13] = [
    (
        '\'',
        "AÁaáCĆcćEÉeéGǴgǵIÍiíKḰkḱLĹlĺNŃnńOÓoóRŔrŕSŚsśUÚuúWẂwẃYÝyýZŹzź",
    ),
    ('`', "AÀaàEÈeèIÌiìNǸnǹOÒoòUÙuùWẀwẁYỲyỳ"),
    ('^', "AÂaâCĈcĉEÊeêGĜgĝHĤhĥIÎiîJĴjĵOÔoôSŜsŝUÛuûWŴwŵYŶyŷZẐzẑ"),
    ('"', "AÄaäEËeëHḦhḧIÏiïOÖoötẗUÜuüWẄwẅYŸyÿ"),
    ('~', "AÃaãEẼeẽIĨiĩNÑnñOÕoõUŨuũYỸyỹ"),
    ('=', "AĀaāEĒeēGḠgḡIĪiīOŌoōUŪuūYȲyȳ"),
    (
        '.',
        "AȦaȧCĊcċDḊdḋEĖeėGĠgġHḢhḣIİNṄnṅOȮoȯRṘrṙSṠsṡTṪtṫWẆwẇYẎyẏZŻzż",
    ),
    ('u', "AĂaăEĔeĕGĞgğIĬiĭOŎoŏUŬuŭ"),
    (
        'v',
        "AǍaǎCČcčDĎdďEĚeěGǦgǧHȞhȟIǏiǐjǰKǨkǩLĽlľNŇnňOǑoǒRŘrřSŠsšTŤtťUǓuǔZŽzž",
    ),
    ('H', "OŐoőUŰuű"),
    ('c', "CÇcçDḐdḑEȨeȩGĢgģHḨhḩKĶkķLĻlļNŅnņRŖrŗSŞsşTŢtţ"),
    ('k', "AĄaąEĘeęIĮiįOǪoǫUŲuų"),
    ('r', "AÅaåUŮuůwẘyẙ"),
];

/// LaTeX letter commands and the letters they stand for.
const LETTERS: [(&str, &str); 13] = [
    ("ss", "ß"),
    ("ae", "æ"),
    ("AE", "Æ"),
    ("oe", "œ"),
    ("OE", "Œ"),
    ("aa", "å"),
    ("AA", "Å"),
    ("o", "ø"),
    ("O", "Ø"),
    ("l", "ł"),
    ("L", "Ł"),
    ("i", "ı"),
    ("j", "ȷ"),
];

fn latex_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r#"\{?\\(?P<acc>['`^"~=.])(?:\{\\?(?P<b1>[A-Za-z])\}|\\?(?P<b2>[A-Za-z]))\}?"#,
            r"|\{?\\(?P<cmd>[uvHckr])(?:\s+(?P<b3>[A-Za-z])|\{\\?(?P<b4>[A-Za-z])\})\}?",
            r"|\{?\\(?P<let>ss|AE|ae|OE|oe|AA|aa|O|o|L|l|i|j)(?:\{\}|\s|\b)\}?",
            r"|\\(?:textit|textbf|emph|textsc|url|href|mathrm|cite)\{",
        ))
        .expect("valid regex")
    })
}

/// Whether text holds a LaTeX escape or command.
pub fn has_latex(s: &str) -> bool {
    latex_re().is_match(s)
}

/// Text with LaTeX accent and letter escapes replaced by the UTF-8 letters
/// (escapes it cannot translate are left as they are).
pub fn latex_to_utf8(s: &str) -> String {
    latex_re()
        .replace_all(s, |c: &regex::Captures| {
            let whole = c[0].to_string();
            if let Some(l) = c.name("let") {
                return LETTERS
                    .iter()
                    .find(|(k, _)| *k == l.as_str())
                    .map(|(_, v)| v.to_string())
                    .unwrap_or(whole);
            }
            let acc = c
                .name("acc")
                .or_else(|| c.name("cmd"))
                .and_then(|m| m.as_str().chars().next());
            let base = ["b1", "b2", "b3", "b4"]
                .iter()
                .find_map(|n| c.name(n))
                .and_then(|m| m.as_str().chars().next());
            let (Some(acc), Some(base)) = (acc, base) else {
                return whole;
            };
            ACCENTS
                .iter()
                .find(|(a, _)| *a == acc)
                .and_then(|(_, pairs)| {
                    let v: Vec<char> = pairs.chars().collect();
                    v.chunks(2).find(|p| p[0] == base).map(|p| p[1].to_string())
                })
                .unwrap_or(whole)
        })
        .into_owned()
}

fn diag(tax: &Taxonomy, rule: Rule, file: &SourceFile, msg: String) -> Diagnostic {
    Diagnostic::new(rule, tax.severity_of(rule), file.rel.clone(), msg)
}

/// The plain value of a `key: value` or `- value` line and its 1-based column,
/// when the value is written unquoted on that line.
fn plain_value(line: &str) -> Option<(&str, usize)> {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    let (prefix_len, rest) = if let Some(r) = body.strip_prefix("- ") {
        (2, r)
    } else {
        let colon = find_pair(body, *b": ")?;
        (colon + 2, &body[colon + 2..])
    };
    let lead = rest.len() - rest.trim_start().len();
    let rest = rest.trim_start();
    if rest.is_empty() || rest.starts_with(['"', '\'', '#', '|', '>', '[', '{', '&', '*', '!']) {
        return None;
    }
    let value = find_pair(rest, *b" #")
        .map_or(rest, |i| &rest[..i])
        .trim_end();
    Some((value, indent + prefix_len + lead + 1))
}

/// Where two bytes first occur together in `s`: a search for the first of
/// them (which lines rarely hold more than once), without setting up a
/// substring searcher for each of the corpus's lines.
fn find_pair(s: &str, pair: [u8; 2]) -> Option<usize> {
    let bytes = s.as_bytes();
    memchr::memchr_iter(pair[0], bytes).find(|&i| bytes.get(i + 1) == Some(&pair[1]))
}

fn check_file(
    tax: &Taxonomy,
    file: &SourceFile,
    kind: crate::model::format::FileKind,
    out: &mut Vec<Diagnostic>,
) {
    // The loader found the layout while it had the file parsed; a file
    // loaded otherwise is parsed here. Only a text with a backslash can hold
    // a LaTeX escape, so only such a text is parsed for its values.
    let parsed = if file.layout.is_none() || file.text.contains('\\') {
        match crate::yaml::flat::parse_value(&file.text) {
            Ok(v @ Value::Mapping(_)) => Some(v),
            _ => return, // yaml-syntax reports it
        }
    } else {
        None
    };
    let layout = match (file.layout, &parsed) {
        (Some(l), _) => l,
        // A byte-order mark is kept aside by `format`, which parses the rest.
        (None, Some(_)) if file.text.starts_with('\u{feff}') => {
            crate::model::format::layout_of_text(&file.text, kind)
        }
        (None, Some(v)) => crate::model::format::layout_of(&file.text, v, kind),
        (None, None) => return,
    };
    let mut ambiguous = false;
    let mut field = "";
    for (i, line) in lines(&file.text).enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t', '-']) {
            if let Some(colon) = find_byte(line, b':') {
                field = line[..colon].trim().trim_matches(['"', '\'']);
            }
        }
        let Some((value, col)) = plain_value(line) else {
            continue;
        };
        // YAML 1.2 (this tool) reads it as text; YAML 1.1 would read something
        // else. The cheap test first: most values are plain words for both.
        let is_text = || {
            crate::yaml::flat::parse_value(&format!("k: {value}\n"))
                .ok()
                .as_ref()
                .and_then(|v| v.get("k"))
                .is_some_and(Value::is_string)
        };
        if ambiguous_in_yaml11(value) && is_text() {
            ambiguous = true;
            let fixed = line.replacen(value, &crate::model::format::scalar(value), 1);
            out.push(
                diag(
                    tax,
                    Rule::YamlAmbiguousScalar,
                    file,
                    format!("`{value}` is text here, but YAML 1.1 readers (PyYAML, yamllint) read it as a boolean, number, date or null"),
                )
                .at(i + 1, col)
                .field(field)
                .help(format!("quote it: `{}` (or run `corpus fmt`)", fixed.trim())),
            );
        }
    }
    // Layout is the last thing to fix: not reported beside the quoting
    // problems above (whose fix is the same command), nor beside errors in
    // the file (`quiet_beside_errors`, once every other check has run).
    if !ambiguous {
        if let Layout::ChangedAt(line) = layout {
            out.push(
                diag(
                    tax,
                    Rule::NotFormatted,
                    file,
                    "the file is not in the canonical layout `corpus fmt` writes".into(),
                )
                .at_line(Some(line))
                .help(format!("run `corpus fmt {}`", file.rel)),
            );
        }
    }
    let Some(Value::Mapping(map)) = &parsed else {
        return;
    };
    for field in TEXT_FIELDS {
        let Some(text) = map.get(field).and_then(Value::as_str) else {
            continue;
        };
        if !has_latex(text) {
            continue;
        }
        let fixed = latex_to_utf8(text);
        let mut d = diag(
            tax,
            Rule::LatexEscape,
            file,
            format!("`{field}` holds a LaTeX escape; the data is UTF-8 text and exports escape it themselves"),
        )
        .field(field);
        // Positions are scanned only for a file with something to report.
        if let Some((l, c)) = file.spans().pos(field) {
            d = d.at(l, c);
        }
        d = if fixed != text {
            d.help(format!("write `{fixed}`"))
        } else {
            d.help("write the characters themselves, in UTF-8")
        };
        out.push(d);
    }
}

/// Every diagnostic of these rules over a loaded corpus, each file judged on
/// its own: they need none of the other checks, so they run beside them.
pub fn check(corpus: &Corpus) -> Vec<Diagnostic> {
    let files = corpus
        .entries
        .iter()
        .map(|e| (e.file, crate::model::format::FileKind::Entry))
        .chain(
            corpus
                .exclusions
                .iter()
                .map(|x| (x.file, crate::model::format::FileKind::Record)),
        );
    let files: Vec<(usize, crate::model::format::FileKind)> = files.collect();
    // Files are independent: on every core when there are enough, in order.
    let per_file = in_parallel(&files, |&(idx, kind)| {
        let mut out = Vec::new();
        check_file(&corpus.taxonomy, corpus.file(idx), kind, &mut out);
        out
    });
    per_file.into_iter().flatten().collect()
}

/// `style` without the layout findings of files that `found` (the other
/// checks' diagnostics) gives an error: layout is not nagged about in a file
/// that still has errors.
pub fn quiet_beside_errors(style: Vec<Diagnostic>, found: &[Diagnostic]) -> Vec<Diagnostic> {
    let erroneous: std::collections::BTreeSet<&str> = found
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.file.as_str())
        .collect();
    style
        .into_iter()
        .filter(|d| d.rule != Rule::NotFormatted.id() || !erroneous.contains(d.file.as_str()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_found_where_it_first_occurs_whole() {
        let slow = |s: &str, p: [u8; 2]| s.as_bytes().windows(2).position(|w| w == p);
        for s in [
            "", ":", ": ", "a:b: c", "x::  #", "é: #é", " #", "##  #", "k:v", "a: b: c",
        ] {
            for p in [*b": ", *b" #"] {
                assert_eq!(find_pair(s, p), slow(s, p), "{s:?} {p:?}");
            }
        }
    }

    #[test]
    fn latex_accents_and_letters_become_utf8() {
        assert_eq!(latex_to_utf8(r"Mialon, Gr\'{e}goire"), "Mialon, Grégoire");
        assert_eq!(
            latex_to_utf8(r#"M{\"u}ller and \v{C}ech"#),
            "Müller and Čech"
        );
        assert_eq!(
            latex_to_utf8(r"Stra\ss e and \o{}stergaard"),
            "Straße and østergaard"
        );
        assert_eq!(latex_to_utf8(r"\c c and \~n"), "ç and ñ");
    }

    #[test]
    fn latex_is_detected_and_plain_text_is_not() {
        for s in [r"Gr\'{e}goire", r"\textit{x}", r#"\"o"#, r"{\ss}"] {
            assert!(has_latex(s), "{s}");
        }
        for s in ["Grégoire", "a \\ b", "C:\\path", "R1-R8", "50% off"] {
            assert!(!has_latex(s), "{s}");
        }
    }

    #[test]
    fn plain_values_are_found_with_their_column() {
        assert_eq!(plain_value("is_rl: yes"), Some(("yes", 8)));
        assert_eq!(plain_value("  - no   # c"), Some(("no", 5)));
        assert_eq!(plain_value("is_rl: \"yes\""), None);
        assert_eq!(plain_value("urls:"), None);
    }
}
