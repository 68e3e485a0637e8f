//! A fast reader for the flat YAML that data files nearly always are, and
//! the one entry point that falls back to the full parser for everything
//! else.
//!
//! libyaml decodes and scans a text character by character and builds an
//! event per token; on a corpus of a hundred thousand entries that is a
//! third of a full check. Entry and record files are a mapping of plain or
//! simply quoted scalars, lists of scalars and one level of scalar mappings
//! (waivers), one per line. This reader accepts exactly that shape and
//! yields the value serde_yaml would; on anything else (escapes, block or
//! flow collections, comments after a value, numbers other than plain
//! digits, tabs, carriage returns, characters YAML treats specially) it
//! gives up and the full parser reads the file, errors and all. The tests
//! compare the two on every shipped file and on near misses.

use serde_yaml::{Mapping, Value};

/// Parses `text` as YAML: through the fast reader when the text has the flat
/// shape, else through serde_yaml (whose errors the caller explains).
pub fn parse_value(text: &str) -> Result<Value, serde_yaml::Error> {
    match parse_flat(text) {
        Some(v) => Ok(v),
        None => serde_yaml::from_str(text),
    }
}

/// The value of a flat text, or `None` when the text is outside the shape
/// this reader knows (the full parser then decides).
pub fn parse_flat(text: &str) -> Option<Value> {
    if !all_plain(text) {
        return None;
    }
    let mut map = Mapping::new();
    // The top-level key whose value is a block below it, when one is open.
    let mut open: Option<(String, Block)> = None;
    for line in crate::text::lines::lines(text) {
        let trimmed = line.trim_start_matches(' ');
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if indent == 0 {
            close(&mut map, open.take())?;
            let (key, rest) = key_of(line)?;
            let rest = rest.trim_end_matches(' ');
            if rest.is_empty() {
                if map.contains_key(key) {
                    return None;
                }
                open = Some((key.to_string(), Block::Unknown));
                continue;
            }
            let value = match rest {
                "[]" => Value::Sequence(Vec::new()),
                "{}" => Value::Mapping(Mapping::new()),
                _ => scalar(rest)?,
            };
            // A repeated key is the full parser's to report: one hash, not two.
            if map.insert(Value::String(key.to_string()), value).is_some() {
                return None;
            }
            continue;
        }
        // Only the canonical two-space indent, under an open key.
        let (_, block) = open.as_mut()?;
        if indent != 2 {
            return None;
        }
        if let Some(item) = trimmed.strip_prefix("- ") {
            let v = scalar(item.trim_end_matches(' '))?;
            match block {
                Block::Unknown => *block = Block::List(vec![v]),
                Block::List(items) => items.push(v),
                Block::Map(_) => return None,
            }
        } else {
            let (k, rest) = key_of(trimmed)?;
            let rest = rest.trim_end_matches(' ');
            if rest.is_empty() {
                return None;
            }
            let v = scalar(rest)?;
            match block {
                Block::Unknown => {
                    let mut m = Mapping::new();
                    m.insert(Value::String(k.to_string()), v);
                    *block = Block::Map(m);
                }
                Block::Map(m) if !m.contains_key(k) => {
                    m.insert(Value::String(k.to_string()), v);
                }
                _ => return None,
            }
        }
    }
    close(&mut map, open)?;
    (!map.is_empty()).then_some(Value::Mapping(map))
}

/// Whether every character of `text` is one the flat reader reads as itself.
pub fn all_plain(text: &str) -> bool {
    // ASCII text (nearly all of a corpus) is checked byte by byte, undecoded,
    // in a pass that does not stop early (so it takes many bytes a step):
    // nearly every text passes, so the pass runs to the end anyway.
    if text.is_ascii() {
        return text
            .bytes()
            .fold(true, |ok, b| ok & matches!(b, b' '..=b'~' | b'\n'));
    }
    text.chars().all(plain_char)
}

/// `key: rest` or `key:` with a lower-case identifier key: the key and the
/// rest of the line, for other readers of one-line rows (`model::locators`).
pub fn key_value(line: &str) -> Option<(&str, &str)> {
    key_of(line)
}

/// A one-line scalar that YAML reads as a string, as the flat reader takes
/// it; `None` for anything else (a number, a boolean, null, or a form the
/// flat reader leaves to the full parser).
pub fn text_scalar(s: &str) -> Option<String> {
    match scalar(s)? {
        Value::String(t) => Some(t),
        _ => None,
    }
}

/// What the lines under a bare `key:` have been so far.
enum Block {
    Unknown,
    List(Vec<Value>),
    Map(Mapping),
}

/// Puts a finished block into the mapping (a bare key with nothing under it is null).
fn close(map: &mut Mapping, open: Option<(String, Block)>) -> Option<()> {
    if let Some((key, block)) = open {
        let v = match block {
            Block::Unknown => Value::Null,
            Block::List(items) => Value::Sequence(items),
            Block::Map(m) => Value::Mapping(m),
        };
        map.insert(Value::String(key), v);
    }
    Some(())
}

/// A character YAML reads as itself in a plain line: printable, no tab, no
/// carriage return, no byte-order mark or Unicode line separator.
fn plain_char(c: char) -> bool {
    match c {
        '\n' | ' '..='~' => true,
        '\u{0}'..='\u{a0}' => c == '\u{a0}',
        '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}' => false,
        _ => true,
    }
}

/// `key: rest` or `key:` with a lower-case identifier key, which YAML reads
/// as a string.
fn key_of(line: &str) -> Option<(&str, &str)> {
    // The key's characters, then the colon: one pass that stops where the
    // key does (a search for the colon would run on through the value).
    let colon = line
        .bytes()
        .position(|b| !(b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'))?;
    if line.as_bytes()[colon] != b':' {
        return None;
    }
    let key = &line[..colon];
    let rest = &line[colon + 1..];
    let ok = key.len() <= 128
        && key.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && !matches!(key, "true" | "false" | "null");
    if !ok {
        return None;
    }
    if rest.is_empty() {
        return Some((key, rest));
    }
    rest.strip_prefix(' ')
        .map(|r| (key, r.trim_start_matches(' ')))
}

/// One scalar written on one line: double-quoted without escapes,
/// single-quoted without doubled quotes, or plain text that YAML reads as a
/// string, a plain number of digits, a boolean or null.
pub(crate) fn scalar(s: &str) -> Option<Value> {
    let b = s.as_bytes();
    match b.first()? {
        b'"' | b'\'' => {
            let (v, len) = quoted(s)?;
            (len == s.len()).then_some(v)
        }
        b'0'..=b'9' => {
            if !b.iter().all(u8::is_ascii_digit) {
                // Other text from a digit on (a date, a hash, a phrase) is
                // a string unless it is a number in another form.
                let number =
                    ["0x", "0o", "0b"].iter().any(|p| s.starts_with(p)) || s.parse::<f64>().is_ok();
                return if number { None } else { plain_text(s) };
            }
            if b.len() > 1 && b[0] == b'0' {
                // Leading zeros make a string in YAML 1.2.
                return Some(Value::String(s.to_string()));
            }
            s.parse::<u64>().ok().map(|n| Value::Number(n.into()))
        }
        b'-' | b'+' | b'.' | b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&'
        | b'*' | b'!' | b'|' | b'>' | b'%' | b'@' | b'`' | b'~' | b' ' => None,
        _ => plain_text(s),
    }
}

/// The quoted scalar at the start of `s` and its length in bytes: single
/// quotes (a doubled quote is one) or double quotes with the escapes `\\`,
/// `\"`, `\/`, `\n` and `\t`; `None` for any other escape or no closing quote.
pub(crate) fn quoted(s: &str) -> Option<(Value, usize)> {
    let q = s.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let mut out = String::new();
    let mut chars = s.char_indices().skip(1).peekable();
    while let Some((i, c)) = chars.next() {
        if c == q {
            if q == '\'' && chars.peek().is_some_and(|&(_, n)| n == '\'') {
                chars.next();
                out.push('\'');
                continue;
            }
            return Some((Value::String(out), i + 1));
        }
        if c == '\\' && q == '"' {
            let (_, e) = chars.next()?;
            out.push(match e {
                '\\' | '"' | '/' => e,
                'n' => '\n',
                't' => '\t',
                _ => return None,
            });
        } else {
            out.push(c);
        }
    }
    None
}

/// A plain scalar that is not a number: a string, a boolean or null; `None`
/// when `: ` or ` #` would end it early, or for brackets (left to the full parser).
fn plain_text(s: &str) -> Option<Value> {
    // Passes that do not stop early, as nearly every value passes them.
    let b = s.as_bytes();
    let pairs = b.iter().zip(b.get(1..).unwrap_or_default());
    let ends_early = pairs.fold(false, |found, (&p, &c)| {
        found | ((p == b':') & (c == b' ')) | ((p == b' ') & (c == b'#'))
    });
    let brackets = b.iter().fold(false, |found, c| {
        found | matches!(c, b'[' | b']' | b'{' | b'}')
    });
    if ends_early || brackets || s.ends_with(':') {
        return None;
    }
    Some(match s {
        "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => Value::String(s.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast reader either gives up or agrees with serde_yaml.
    fn agrees(text: &str) -> bool {
        crate::yaml::agrees_with_serde_yaml(parse_flat(text), text)
    }

    #[test]
    fn reads_the_flat_shape_as_serde_yaml_does() {
        let text = "# modeline\nkey: demo\ntitle: \"A: title\"\nyear: 2025\narxiv_id: \"2501.00001\"\n\
                    urls:\n  - https://arxiv.org/abs/2501.00001\n  # a comment\n  - 'https://x.org/a'\n\
                    subdecisions: []\nstrict_credit: true\nzip: 007\nempty:\nwaivers:\n  \
                    reward-without-rl: it trains nothing, see issue 3\nnotes: a note with ü and — dashes\n";
        let v = parse_flat(text).expect("flat");
        assert_eq!(Some(v), serde_yaml::from_str::<Value>(text).ok());
    }

    #[test]
    fn gives_up_on_what_it_does_not_know_and_never_disagrees() {
        let near_misses = [
            "a: b # comment\n",
            "a: 1.5\n",
            "a: -1\n",
            "a: 0x1f\n",
            "a: ~\n",
            "a: |\n  text\n",
            "a: [x, y]\n",
            "a: plain\n  continued\n",
            "a: x\na: y\n",
            "a:\n  - x\n  k: v\n",
            "a:\n    - x\n",
            "a:\n- x\n",
            "a: x\r\n",
            "a:\tx\n",
            "a: x: y\n",
            "a: x:\n",
            "---\na: x\n",
            "true: x\n",
            "A: x\n",
            "a: \"open\n  quote\"\n",
            "a: &anchor x\n",
            "a: !tag x\n",
            "a: \u{85}x\n",
            "a: x\u{2028}y\n",
            "a: 99999999999999999999\n",
            "a:\n  - \n",
            "# only a comment\n",
            "",
        ];
        for t in near_misses {
            assert!(parse_flat(t).is_none(), "accepted {t:?}");
            assert!(agrees(t), "{t:?}");
        }
        for t in [
            "a: yes\n",
            "a: No\n",
            "a: NULL\n",
            "a: False\n",
            "a: 0\n",
            "a: x#y\n",
            "a: \"x\\ty\"\n",
            "a: 'it''s'\n",
            "a: \"q \\\"x\\\" \\\\ y\"\n",
            "a: 2026-05-04\n",
            "a: 7a80a1da9b\n",
            "a: 116 records\n",
        ] {
            assert!(parse_flat(t).is_some(), "{t:?}");
            assert!(agrees(t), "{t:?}");
        }
    }

    #[test]
    fn every_shipped_data_file_reads_the_same_both_ways() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut flat = 0;
        for dir in ["corpus/papers", "exclusions"] {
            for e in std::fs::read_dir(root.join(dir)).unwrap() {
                let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
                assert!(agrees(&text), "{text}");
                flat += usize::from(parse_flat(&text).is_some());
            }
        }
        // Nearly every shipped file takes the fast way.
        assert!(flat > 100, "{flat}");
    }
}
