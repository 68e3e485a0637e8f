//! Where each judged value comes from (`corpus/locators.yaml`): for a value
//! taken from the survey's artifact, the file and the place in it; for this
//! project's or a contributor's reading, a one-sentence reason naming what
//! in the paper supports it; for each round, the artifact's commit that
//! added its members. A value sourced to a survey figure is located by the
//! figure itself (its file and commit in `corpus/survey.yaml`).
//! `check::locators` holds the entries to it.

use crate::layout::Layout;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use serde::{Deserialize, Serialize};

/// The judgement sources that are readings of the paper rather than places
/// in the artifact: they give a reason, not a file.
pub const READINGS: &[&str] = &["project_reading", "contributor"];

/// The locator of one judged field of one entry, for one of its sources.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Judgement {
    /// The entry's key.
    pub key: String,
    /// The judged field (`subdecisions`, `strict_credit`, `additional_credit_units`).
    pub field: String,
    /// The source the entry names for it (one of its `*_source` values).
    pub source: String,
    /// The artifact's file the value comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The place in that file: a table and row, a CSV row, a ledger row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// For a reading: one sentence naming what in the paper supports the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Where a round's members come from in the artifact's history.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoundSource {
    /// The round (an id of the taxonomy's `rounds`).
    pub round: String,
    /// The artifact's commit that added the round's members (40 hex digits).
    pub commit: String,
    /// The artifact's file that lists them.
    pub file: String,
    /// What in that commit shows them, in the project's words.
    pub place: String,
    /// Text of the notes column that marks this round's members among the
    /// rows of that commit, when another round shares the commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The whole locators file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Locators {
    /// One locator per entry, judged field and source.
    #[serde(default)]
    pub judgements: Vec<Judgement>,
    /// One per round that has members.
    #[serde(default)]
    pub rounds: Vec<RoundSource>,
}

impl Locators {
    /// The locator of `key`'s `field` for `source`.
    pub fn find(&self, key: &str, field: &str, source: &str) -> Option<&Judgement> {
        self.judgements
            .iter()
            .find(|j| j.key == key && j.field == field && j.source == source)
    }

    /// The locators by entry, field and source, for many look-ups: what
    /// [`Locators::find`] answers, without a pass over every row each time
    /// (on a large corpus, one pass per judged value was quadratic).
    pub fn index(&self) -> Index<'_> {
        let mut rows = std::collections::HashMap::with_capacity(self.judgements.len());
        for j in &self.judgements {
            // The first row wins, as with `find`.
            rows.entry((j.key.as_str(), j.field.as_str(), j.source.as_str()))
                .or_insert(j);
        }
        Index { rows }
    }
}

/// The judgements of a locators file by (key, field, source); see [`Locators::index`].
pub struct Index<'a> {
    rows: std::collections::HashMap<(&'a str, &'a str, &'a str), &'a Judgement>,
}

impl<'a> Index<'a> {
    /// The locator of `key`'s `field` for `source`.
    pub fn find(&self, key: &str, field: &str, source: &str) -> Option<&'a Judgement> {
        self.rows.get(&(key, field, source)).copied()
    }
}

/// Parses the locators file's text: its one-line rows through a plain
/// reader, anything that reader does not recognise through serde_yaml, whose
/// errors (and their places) are the ones reported.
pub fn parse(text: &str) -> Result<Locators, Vec<Diagnostic>> {
    if let Some(locators) = rows::read(text) {
        return Ok(locators);
    }
    serde_yaml::from_str(text).map_err(|e| {
        let x = crate::yaml::error::explain(&e, text);
        vec![x.place(Diagnostic::new(
            Rule::YamlSyntax,
            Severity::Error,
            Layout::LOCATORS,
            format!("the locators file cannot be read: {}", x.message),
        ))]
    })
}

/// A plain reader for the shape the locators file is written in: the two
/// sections at column 0, each row a `  - name: value` line followed by
/// `    name: value` lines, every value a one-line string as
/// `yaml::flat` reads it. The file grows with the corpus (a row per judged
/// value), and serde_yaml's event-by-event parse of it was a visible part
/// of a large corpus's build. Anything else, a missing or unknown field
/// included, gives `None`, and the full parser reads the file.
mod rows {
    use super::{Judgement, Locators, RoundSource};
    use crate::yaml::flat::{all_plain, key_value, text_scalar};

    /// The two sections, in the order of `Locators`'s fields.
    const SECTIONS: [&str; 2] = ["judgements", "rounds"];
    /// The fields of a row of each section.
    const FIELDS: [&[&str]; 2] = [
        &["key", "field", "source", "file", "place", "reason"],
        &["round", "commit", "file", "place", "note"],
    ];

    /// The values of one row, by the position of their field in `FIELDS`.
    type Row = [Option<String>; 6];

    /// The locators of `text`, or `None` when it is not in the plain shape.
    pub(super) fn read(text: &str) -> Option<Locators> {
        if !all_plain(text) {
            return None;
        }
        let mut out = Locators::default();
        let mut seen = [false; 2];
        let mut section: Option<usize> = None;
        let mut row: Option<Row> = None;
        for line in text.lines() {
            let t = line.trim_start_matches(' ');
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            match line.len() - t.len() {
                0 => {
                    finish(&mut out, section, row.take())?;
                    let (key, rest) = key_value(line)?;
                    let s = SECTIONS.iter().position(|n| *n == key)?;
                    if !rest.trim_end_matches(' ').is_empty()
                        || std::mem::replace(&mut seen[s], true)
                    {
                        return None;
                    }
                    section = Some(s);
                }
                2 => {
                    finish(&mut out, section, row.take())?;
                    let mut fresh = Row::default();
                    let item = t.strip_prefix("- ")?;
                    match item.trim_end_matches(' ').strip_prefix('{') {
                        // A row on one line, `  - {name: value, name: value}`,
                        // is complete: no line below may add to it.
                        Some(flow) => {
                            for pair in flow.strip_suffix('}')?.split(',') {
                                set(&mut fresh, section?, pair.trim_matches(' '), true)?;
                            }
                            finish(&mut out, section, Some(fresh))?;
                        }
                        None => {
                            set(&mut fresh, section?, item, false)?;
                            row = Some(fresh);
                        }
                    }
                }
                4 => set(row.as_mut()?, section?, t, false)?,
                _ => return None,
            }
        }
        finish(&mut out, section, row)?;
        // A section without rows is null to YAML: the full parser decides.
        let filled = [!out.judgements.is_empty(), !out.rounds.is_empty()];
        (seen.contains(&true) && seen == filled).then_some(out)
    }

    /// Puts `name: value` into a row; `None` for an unknown or repeated
    /// field. Inside a flow mapping (`flow`), a value holding a character
    /// that may end a plain scalar there (or a comma a quoted one split) is
    /// left to the full parser.
    fn set(row: &mut Row, section: usize, pair: &str, flow: bool) -> Option<()> {
        let (name, rest) = key_value(pair)?;
        let rest = rest.trim_end_matches(' ');
        if flow && rest.contains([':', '?', '#', '[', ']', '{', '}']) {
            return None;
        }
        let value = value(rest)?;
        let i = FIELDS[section].iter().position(|f| *f == name)?;
        row[i].replace(value).is_none().then_some(())
    }

    /// The string a one-line value holds: quoted as `yaml::flat` reads it,
    /// or plain. serde_yaml gives a string field any scalar's text as it
    /// stands (a commit id that starts with a digit included), so a plain
    /// value is its own text when nothing in it ends or changes the scalar;
    /// a null word (which an optional field reads as none) is left to it.
    fn value(rest: &str) -> Option<String> {
        match rest.as_bytes().first()? {
            b'"' | b'\'' => text_scalar(rest),
            b'-' | b'+' | b'.' | b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&'
            | b'*' | b'!' | b'|' | b'>' | b'%' | b'@' | b'`' | b'~' | b' ' => None,
            _ => {
                let ends_early = rest.contains(": ") || rest.contains(" #") || rest.ends_with(':');
                let null = matches!(rest, "null" | "Null" | "NULL");
                (!ends_early && !null).then(|| rest.to_string())
            }
        }
    }

    /// Adds a finished row to its section; `None` when a required field is missing.
    fn finish(out: &mut Locators, section: Option<usize>, row: Option<Row>) -> Option<()> {
        let (Some(s), Some(row)) = (section, row) else {
            return Some(());
        };
        let [a, b, c, d, e, f] = row;
        if s == 0 {
            out.judgements.push(Judgement {
                key: a?,
                field: b?,
                source: c?,
                file: d,
                place: e,
                reason: f,
            });
        } else {
            out.rounds.push(RoundSource {
                round: a?,
                commit: b?,
                file: c?,
                place: d?,
                note: e,
            });
        }
        Some(())
    }
}

/// Why a reason is not one sentence, if it is not: empty, not ending in a
/// full stop, or holding a second sentence.
pub fn reason_problem(reason: &str) -> Option<&'static str> {
    let r = reason.trim();
    if r.is_empty() {
        return Some("is empty");
    }
    if !r.ends_with('.') {
        return Some("does not end with a full stop");
    }
    let inner = &r[..r.len() - 1];
    let second = inner
        .match_indices(". ")
        .any(|(i, _)| inner[i + 2..].starts_with(|c: char| c.is_uppercase()));
    second.then_some("holds more than one sentence")
}

/// Whether `commit` is a full commit id (40 hex digits).
pub fn is_commit(commit: &str) -> bool {
    commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain reader either gives up or agrees with serde_yaml.
    fn agrees(text: &str) -> bool {
        match rows::read(text) {
            None => true,
            Some(l) => serde_yaml::from_str::<Locators>(text).ok() == Some(l),
        }
    }

    #[test]
    fn the_shipped_locators_file_takes_the_plain_reader_and_reads_the_same() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/locators.yaml");
        let text = std::fs::read_to_string(path).unwrap();
        let plain = rows::read(&text).expect("the shipped file is in the plain shape");
        assert!(plain.judgements.len() > 10 && !plain.rounds.is_empty());
        assert!(agrees(&text));
    }

    #[test]
    fn the_plain_reader_gives_up_on_what_it_does_not_know_and_never_disagrees() {
        let row = "judgements:\n  - key: a\n    field: strict_credit\n    source: spotcheck\n";
        let flow = "judgements:\n  - {key: b, field: subdecisions, source: contributor, reason: It's read.}\n";
        let both = format!("{row}{}", &flow[12..]);
        // Plain values are their text, whatever they look like.
        let odd = row.replace("source: spotcheck", "source: 1b2e [x] 12 true");
        // An escape the flat reader decodes, as YAML does.
        let escaped = row.replace("source: spotcheck", "source: \"a\\tb\"");
        for t in [row, flow, both.as_str(), odd.as_str(), escaped.as_str()] {
            assert!(rows::read(t).is_some(), "{t:?}");
            assert!(agrees(t), "{t:?}");
        }
        let near_misses = [
            "judgements:\n  - key: a\n    field: f\n".to_string(),
            format!("{row}    extra: x\n"),
            format!("{row}    key: b\n"),
            format!("{row}judgements:\n  - key: b\n    field: f\n    source: s\n"),
            format!("{row}rounds:\n"),
            format!("{row}other: x\n"),
            row.replace("source: spotcheck", "source: null"),
            format!("{row}    file: ~\n"),
            format!("{row}    file: Null\n"),
            row.replace("source: spotcheck", "source: a: b"),
            row.replace("source: spotcheck", "source: *alias"),
            row.replace("source: spotcheck", "source: \"a\\rb\""),
            row.replace("source: spotcheck", "source: a # note"),
            row.replace("    field", "     field"),
            row.replace("    field", "\tfield"),
            row.replace("  - key", "- key"),
            row.replace('\n', "\r\n"),
            "---\n".to_string() + row,
            "judgements: []\n".to_string(),
            flow.replace("reason: It's read.", "reason: \"It's, read.\""),
            flow.replace("reason: It's read.", "reason: a:b"),
            flow.replace("reason: It's read.", "reason: why?"),
            flow.replace("reason: It's read.}", "reason: It's read.} # c"),
            flow.replace("reason: It's read.}", "reason: It's read.,}"),
            flow.replace("reason: It's read.}", "reason: It's read."),
            flow.replace('{', "{ {"),
            format!("{flow}    place: below the row\n"),
            "# nothing\n".to_string(),
            String::new(),
        ];
        for t in &near_misses {
            assert!(rows::read(t).is_none(), "accepted {t:?}");
            assert!(agrees(t), "{t:?}");
        }
    }

    #[test]
    fn a_reason_is_one_sentence() {
        assert_eq!(reason_problem("The abstract says so."), None);
        assert_eq!(reason_problem("Uses e.g. a critic."), None);
        assert_eq!(reason_problem(""), Some("is empty"));
        assert_eq!(
            reason_problem("No stop"),
            Some("does not end with a full stop")
        );
        assert_eq!(
            reason_problem("One. Two."),
            Some("holds more than one sentence")
        );
    }

    #[test]
    fn a_commit_is_forty_hex_digits() {
        assert!(is_commit(&"a".repeat(40)));
        assert!(!is_commit("ae877ac"));
        assert!(!is_commit(&"g".repeat(40)));
    }
}
