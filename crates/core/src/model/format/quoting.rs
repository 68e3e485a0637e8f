//! How a scalar is written: plain where YAML 1.1 and 1.2 read it back the same, else quoted.

use serde_yaml::Value;

/// The words YAML 1.1 reads as a boolean (its type repository, with `y` and
/// `n`) or as null: the only forms below that start with a letter.
const YAML11_WORDS: [&str; 25] = [
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
];

/// Whether YAML 1.1 (PyYAML, yamllint) resolves this plain scalar to
/// something other than a string: a boolean, null, number, date, merge key.
pub fn ambiguous_in_yaml11(s: &str) -> bool {
    // Every other form starts with no letter at all; most text starts with
    // one, and is then ambiguous only as one of the words.
    if s.bytes().next().is_some_and(|b| b.is_ascii_alphabetic()) {
        return YAML11_WORDS.contains(&s);
    }
    yaml11_non_text().is_match(s)
}

/// Every plain scalar YAML 1.1 reads as something other than a string.
fn yaml11_non_text() -> &'static regex::Regex {
    use regex::Regex;
    use std::sync::OnceLock;
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let pattern = [
            format!("^(?:{}", YAML11_WORDS.join("|")),
            // null
            r"|~".into(),
            // integers: binary, octal, decimal, hex, sexagesimal
            r"|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+".into(),
            r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+".into(),
            // floats, incl. PyYAML's exponent forms, sexagesimal, inf and nan
            r"|[-+]?(?:[0-9][0-9_]*)?\.[0-9_.]*(?:[eE][-+]?[0-9]+)?".into(),
            r"|[-+]?[0-9][0-9_]*(?:[eE][-+]?[0-9]+)".into(),
            r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*".into(),
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)".into(),
            // timestamps: a date, alone or starting a date-time
            r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?".into(),
            // merge and value keys
            r"|<<|=".into(),
            r")$".into(),
        ];
        Regex::new(&pattern.concat()).expect("valid regex")
    })
}

/// Whether a string can be written plain (unquoted) and read back as the
/// same string by YAML 1.1 and 1.2 readers alike.
pub fn plain_ok(s: &str) -> bool {
    if s.is_empty() || s.trim() != s {
        return false;
    }
    let scan = Scan::of(s);
    if (!scan.printable_ascii && s.chars().any(|c| c.is_control())) || ambiguous_in_yaml11(s) {
        return false;
    }
    // `: `, ` #` or a final `:` end a plain scalar early in both forms
    // `plain_round_trips` parses: no need to parse to know.
    surely_plain_scanned(s, &scan) || (!scan.ends_early(s) && plain_round_trips(s))
}

/// What one pass over a string's bytes tells about writing it plain: the
/// checks a large corpus runs on every value, once each instead of a pass
/// (and a substring searcher) per check.
struct Scan {
    /// Every byte is printable ASCII (so no control character, and every
    /// character one a plain scalar holds as itself).
    printable_ascii: bool,
    /// It holds `: ` or ` #`.
    breaks: bool,
}

impl Scan {
    fn of(s: &str) -> Scan {
        let bytes = s.as_bytes();
        // Passes that do not stop early, so they run many bytes a step.
        let printable_ascii = bytes
            .iter()
            .fold(true, |all, &b| all & matches!(b, b' '..=b'~'));
        let pairs = bytes.iter().zip(bytes.iter().skip(1));
        let breaks = pairs.fold(false, |found, (&a, &b)| {
            found | ((a == b':') & (b == b' ')) | ((a == b' ') & (b == b'#'))
        });
        Scan {
            printable_ascii,
            breaks,
        }
    }

    /// Whether a plain scalar would end before the end of `s`.
    fn ends_early(&self, s: &str) -> bool {
        self.breaks || s.ends_with(':')
    }
}

/// A character libyaml reads inside a plain scalar as itself: printable,
/// not a tab, not a line break (`\u{85}`, `\u{2028}`, `\u{2029}` are
/// breaks to YAML) and not a byte-order mark.
fn plain_char(c: char) -> bool {
    matches!(c, ' '..='~' | '\u{A0}'..='\u{2027}' | '\u{202A}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        && c != '\u{FEFF}'
}

/// A sufficient test, without parsing, that `k: s` and `- s` read back as the
/// string `s` (which `plain_ok` has already found trimmed, free of control
/// characters and unambiguous in YAML 1.1): it starts with an ASCII letter,
/// so it is no indicator, number, null or tag; YAML 1.2's core schema and
/// Rust's float parser read no word that starts so as anything but text
/// beyond the YAML 1.1 words already excluded, and `inf`/`nan` in any case;
/// no `: `, ` #` or final `:` ends it early; every character is one a plain
/// scalar holds as itself. Checked against the parser by the tests below.
/// Parsing two small documents per value was most of what checking the
/// layout of a large corpus cost.
fn surely_plain(s: &str) -> bool {
    surely_plain_scanned(s, &Scan::of(s))
}

/// [`surely_plain`] with the string's bytes already scanned.
fn surely_plain_scanned(s: &str, scan: &Scan) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && !["inf", "infinity", "nan"]
            .iter()
            .any(|w| s.eq_ignore_ascii_case(w))
        && !scan.ends_early(s)
        && (scan.printable_ascii || s.chars().all(plain_char))
}

/// Whether `k: s` and `- s` parse back to the string `s` (the full test).
fn plain_round_trips(s: &str) -> bool {
    let same = |doc: String, get: &dyn Fn(&Value) -> Option<&Value>| {
        crate::yaml::flat::parse_value(&doc)
            .ok()
            .as_ref()
            .and_then(get)
            .and_then(Value::as_str)
            == Some(s)
    };
    same(format!("k: {s}\n"), &|v| v.get("k"))
        && same(format!("- {s}\n"), &|v| v.as_sequence()?.first())
}

/// A string as a double-quoted YAML scalar.
fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_double_quoted(&mut out, s);
    out
}

/// Appends a string as a double-quoted YAML scalar.
pub(super) fn push_double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A string written the canonical way: plain where that is unambiguous, else double-quoted.
pub fn scalar(s: &str) -> String {
    if plain_ok(s) {
        s.to_string()
    } else {
        double_quoted(s)
    }
}

/// Appends a string written the canonical way (see [`scalar`]).
pub(super) fn push_scalar(out: &mut String, s: &str) {
    if plain_ok(s) {
        out.push_str(s);
    } else {
        push_double_quoted(out, s);
    }
}

pub(super) fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Sequence(_) | Value::Mapping(_) | Value::Tagged(_))
}

/// Appends text in canonical quoting; other scalars as they were written.
pub(super) fn push_keep_or_quote(out: &mut String, v: &Value, raw: &str) {
    match v {
        Value::String(s) => push_scalar(out, s),
        _ => out.push_str(raw),
    }
}

/// Appends a scalar value: text canonically quoted, others in YAML's plain form.
pub(super) fn push_scalar_value(out: &mut String, v: &Value) {
    match v {
        Value::String(s) => push_scalar(out, s),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        _ => out.push_str("null"),
    }
}

/// Whether `raw`, written after `k: ` or `- `, surely reads as the string
/// `want`: plain and safe (see [`surely_plain`]), or double-quoted with no
/// escape and no quote inside.
pub(super) fn reads_as_itself(raw: &str, want: &str) -> bool {
    let plain = raw == want
        && !want.is_empty()
        && want.trim() == want
        && !want.chars().any(char::is_control)
        && !ambiguous_in_yaml11(want)
        && surely_plain(want);
    let quoted = raw.len() == want.len() + 2
        && raw.starts_with('"')
        && raw.ends_with('"')
        && &raw[1..raw.len() - 1] == want
        && !want.contains(['"', '\\'])
        && want.chars().all(|c| c == ' ' || plain_char(c));
    plain || quoted
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_scan_of_a_string_reads_each_pair_and_byte_as_a_walk_over_it_does() {
        let walk = |s: &str| {
            let (mut printable, mut breaks, mut prev) = (true, false, 0u8);
            for &b in s.as_bytes() {
                printable &= matches!(b, b' '..=b'~');
                breaks |= (prev == b':' && b == b' ') || (prev == b' ' && b == b'#');
                prev = b;
            }
            (printable, breaks)
        };
        let alphabet = [":", " ", "#", "a", "\t", "é", "~", "\u{7f}"];
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            last = last
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(last.iter().cloned());
        }
        for t in &texts {
            let scan = Scan::of(t);
            assert_eq!((scan.printable_ascii, scan.breaks), walk(t), "{t:?}");
        }
    }

    #[test]
    fn text_starting_with_a_letter_is_ambiguous_exactly_when_the_full_pattern_says() {
        let mut texts: Vec<String> = YAML11_WORDS.iter().map(|w| w.to_string()).collect();
        for w in YAML11_WORDS {
            texts.extend([
                format!("{w}s"),
                format!("{w} x"),
                format!("{w}:"),
                w.to_lowercase(),
            ]);
            texts.push(w.chars().rev().collect());
        }
        texts.extend(
            [
                "yES",
                "nULL",
                "Inf",
                "inf",
                "nan",
                "e5",
                "x0",
                "b101",
                "o",
                "tru",
                "Yang, Yuqing",
            ]
            .map(String::from),
        );
        for t in &texts {
            assert_eq!(
                ambiguous_in_yaml11(t),
                yaml11_non_text().is_match(t),
                "{t:?}"
            );
        }
        assert!(
            ambiguous_in_yaml11("Off")
                && ambiguous_in_yaml11("null")
                && !ambiguous_in_yaml11("Offs")
        );
        assert!(
            ambiguous_in_yaml11("2019")
                && ambiguous_in_yaml11(".inf")
                && !ambiguous_in_yaml11("2019a")
        );
    }

    /// The shortcuts agree with the parser: what they accept reads back as itself.
    fn shortcut_agrees(s: &str) {
        if surely_plain(s) && !s.is_empty() && s.trim() == s && !ambiguous_in_yaml11(s) {
            assert!(plain_round_trips(s), "{s:?} is not plain after all");
        }
        let want = Value::String(s.to_string());
        for raw in [s.to_string(), format!("\"{s}\"")] {
            if reads_as_itself(&raw, s) {
                let k: Value = serde_yaml::from_str(&format!("k: {raw}\n")).expect("parses");
                assert_eq!(k.get("k"), Some(&want), "k: {raw}");
                let l: Value = serde_yaml::from_str(&format!("- {raw}\n")).expect("parses");
                assert_eq!(
                    l.as_sequence().and_then(|v| v.first()),
                    Some(&want),
                    "- {raw}"
                );
            }
        }
    }

    #[test]
    fn shortcuts_agree_with_the_parser_on_tricky_values() {
        for s in [
            "inf",
            "Inf",
            "NaN",
            "nan",
            "Infinity",
            "infinity",
            "a: b",
            "a:b",
            "a:",
            "a #b",
            "a#b",
            "a\u{feff}b",
            "a\u{2028}b",
            "a\u{85}b",
            "a\tb",
            "a \u{a0}",
            "null",
            "Null",
            "true",
            "yes",
            "No",
            "on",
            "y",
            "a'b",
            "a\"b",
            "a\\b",
            "a,b",
            "a[b]",
            "a{b}",
            "a - b",
            "a ? b",
            "a|b",
            "a>b",
            "a%b",
            "a@b",
            "a`b",
            "a&b",
            "a*b",
            "a!b",
            "e1",
            "E5",
            "x0",
            "0x1",
            "o1_spawn",
            "Luo, Xufang",
            "Yes: a title",
            "a  b",
            "é",
            "",
        ] {
            shortcut_agrees(s);
        }
    }

    proptest! {
        #[test]
        fn shortcuts_agree_with_the_parser(s in "[a-zA-Z0-9 :#,'\"\\\\\\[\\]{}!&*|>%@`.~+-]{0,12}|[\\PC]{0,6}") {
            shortcut_agrees(&s);
        }
    }

    #[test]
    fn yaml11_specials_are_recognised() {
        for s in [
            "yes",
            "No",
            "on",
            "OFF",
            "y",
            "~",
            "null",
            "12",
            "0o7",
            "1_000",
            "3.5",
            ".inf",
            "2026-04-26",
            "1:20",
        ] {
            assert!(ambiguous_in_yaml11(s) || !plain_ok(s), "{s}");
        }
        for s in ["yes", "no", "2026-04-26", "012", "1e3", "Null"] {
            assert!(ambiguous_in_yaml11(s), "{s}");
        }
        for s in [
            "NA",
            "core",
            "arXiv",
            "Liu, Shuo",
            "R1",
            "o1_spawn",
            "2026 report",
        ] {
            assert!(!ambiguous_in_yaml11(s), "{s}");
            assert!(plain_ok(s), "{s}");
        }
    }

    #[test]
    fn strings_that_need_quotes_get_them() {
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("x #y"), "\"x #y\"");
        assert_eq!(scalar("'q'"), "\"'q'\"");
        assert_eq!(scalar("back\\slash \"q\""), "back\\slash \"q\"");
        assert_eq!(scalar("*star"), "\"*star\"");
        assert_eq!(scalar("[x]"), "\"[x]\"");
        assert_eq!(scalar(""), "\"\"");
    }
}
