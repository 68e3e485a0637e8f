//! A fast reader for the hand-written YAML of a corpus's own files (the
//! taxonomy, the survey, the claims ledger, the search protocol): nested
//! block mappings and sequences, one-line flow collections, folded and
//! literal block scalars and comments, with the scalars the flat reader
//! knows.
//!
//! libyaml builds an event per token and serde_yaml deserializes from the
//! events; for these files that is about a fifth of a whole build of the
//! shipped corpus. This reader builds the value serde_yaml would build, or
//! gives up (anchors, tags, escapes, multi-line plain or quoted scalars,
//! repeated keys, tabs, documents, anything unusual): then, and whenever
//! the value does not deserialize, the full parser reads the text, so every
//! error is still serde_yaml's, with its position. The tests compare the
//! two on every shipped file, on near misses and on damaged copies.

use super::flat;
use serde::de::DeserializeOwned;
use serde_yaml::{Mapping, Value};

/// The deepest nesting read here (blocks and flows alike); deeper text is
/// serde_yaml's, whose own limit turns it into an error, not a stack
/// overflow.
const MAX_DEPTH: usize = 64;

/// Deserializes `text` as serde_yaml does: through this reader when it
/// knows the text and the value fits `T`, else through serde_yaml.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, serde_yaml::Error> {
    if let Some(value) = parse(text) {
        if let Ok(t) = serde_yaml::from_value(value) {
            return Ok(t);
        }
    }
    serde_yaml::from_str(text)
}

/// The value of `text`, or `None` when it is outside what this reader knows.
pub fn parse(text: &str) -> Option<Value> {
    // Without a final line break, the last line of a block scalar keeps none.
    if !flat::all_plain(text) || !text.ends_with('\n') {
        return None;
    }
    let mut p = Reader {
        lines: text.lines().map(split_indent).collect(),
        at: 0,
        depth: 0,
    };
    let value = match p.peek() {
        None => return None,
        Some((0, _)) => p.node(-1)?,
        Some(_) => return None,
    };
    // Everything was read, and the top is a mapping (as every such file is).
    (p.peek().is_none() && value.is_mapping()).then_some(value)
}

/// A line's indent (spaces) and the rest of it.
fn split_indent(line: &str) -> (usize, &str) {
    let rest = line.trim_start_matches(' ');
    (line.len() - rest.len(), rest)
}

/// The lines of a text, the first one not yet read, and how deep the
/// collection being read is nested.
struct Reader<'a> {
    lines: Vec<(usize, &'a str)>,
    at: usize,
    depth: usize,
}

impl<'a> Reader<'a> {
    /// The next line that holds something (not blank, not a comment).
    fn peek(&mut self) -> Option<(usize, &'a str)> {
        while let Some(&(indent, rest)) = self.lines.get(self.at) {
            if rest.is_empty() || rest.starts_with('#') {
                self.at += 1;
            } else {
                return Some((indent, rest));
            }
        }
        None
    }

    /// One level deeper, or `None` past [`MAX_DEPTH`] (the caller gives up,
    /// so only a collection read whole steps back out).
    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// The block under a line indented `parent`: a mapping or a sequence
    /// indented deeper, or null when nothing is.
    fn node(&mut self, parent: isize) -> Option<Value> {
        match self.peek() {
            Some((indent, rest)) if indent as isize > parent => {
                if is_item(rest) {
                    self.sequence(indent)
                } else {
                    self.mapping(indent)
                }
            }
            _ => Some(Value::Null),
        }
    }

    /// The next line of the block indented `indent`: `Some(None)` once the
    /// block has ended (a line indented less, or no line), `None` for a
    /// line indented deeper (the full parser's).
    fn line_at(&mut self, indent: usize) -> Option<Option<&'a str>> {
        match self.peek() {
            Some((at, rest)) if at == indent => Some(Some(rest)),
            Some((at, _)) if at > indent => None,
            _ => Some(None),
        }
    }

    fn mapping(&mut self, indent: usize) -> Option<Value> {
        self.enter()?;
        let mut map = Mapping::new();
        while let Some(rest) = self.line_at(indent)? {
            if is_item(rest) {
                return None;
            }
            let (key, rest) = flat::key_value(rest)?;
            self.at += 1;
            let value = self.value(rest, indent)?;
            // A repeated key is the full parser's to report.
            if map.insert(Value::String(key.to_string()), value).is_some() {
                return None;
            }
        }
        self.depth -= 1;
        Some(Value::Mapping(map))
    }

    fn sequence(&mut self, indent: usize) -> Option<Value> {
        self.enter()?;
        let mut items = Vec::new();
        while let Some(rest) = self.line_at(indent)? {
            if !is_item(rest) {
                return None;
            }
            let item = &rest[1..];
            let content = item.trim_start_matches(' ');
            let inner = indent + 1 + (item.len() - content.len());
            if content.starts_with('-') || content.starts_with('?') {
                return None;
            }
            if !content.starts_with(['"', '\'', '[', '{']) && flat::key_value(content).is_some() {
                // `- key: value`: a mapping whose keys line up with this one.
                self.lines[self.at] = (inner, content);
                items.push(self.mapping(inner)?);
            } else {
                self.at += 1;
                items.push(self.value(content, indent)?);
            }
        }
        self.depth -= 1;
        Some(Value::Sequence(items))
    }

    /// The value written after a key or a dash on a line indented `indent`
    /// (the line itself already read): `rest`, or the block below it.
    fn value(&mut self, rest: &'a str, indent: usize) -> Option<Value> {
        if rest.is_empty() || rest.starts_with('#') {
            // A sequence at the key's own indent is valid YAML, but rare: the full parser's.
            if let Some((at, next)) = self.peek() {
                if at == indent && is_item(next) {
                    return None;
                }
            }
            return self.node(indent as isize);
        }
        let value = match rest.as_bytes()[0] {
            b'|' | b'>' => return self.block_scalar(rest, indent),
            b'[' | b'{' => {
                let mut f = Flow {
                    s: rest,
                    at: 0,
                    depth: self.depth,
                };
                let v = f.value()?;
                end_of_line(&rest[f.at..])?;
                v
            }
            b'"' | b'\'' => {
                let (v, len) = flat::quoted(rest)?;
                end_of_line(&rest[len..])?;
                v
            }
            _ => {
                let end = rest.find(" #").unwrap_or(rest.len());
                flat::scalar(rest[..end].trim_end_matches(' '))?
            }
        };
        // A line indented deeper would continue the scalar: the full parser's.
        match self.peek() {
            Some((at, _)) if at > indent => None,
            _ => Some(value),
        }
    }

    /// `>`, `>-`, `|` or `|-` and the lines indented under it, all at one
    /// indent (a more-indented line, which folding keeps apart, gives up).
    fn block_scalar(&mut self, header: &str, indent: usize) -> Option<Value> {
        let (style, chomp) = header.split_at(1);
        let strip = match chomp.trim_end_matches(' ') {
            "" => false,
            "-" => true,
            _ => return None,
        };
        let mut lines: Vec<&str> = Vec::new();
        let mut content: Option<usize> = None;
        while let Some(&(at, rest)) = self.lines.get(self.at) {
            if rest.is_empty() {
                // Blank lines before the text, or with spaces beyond its
                // indent, are the full parser's.
                if content.is_none_or(|c| at > c) {
                    return None;
                }
                lines.push("");
            } else if at <= indent {
                break;
            } else if *content.get_or_insert(at) != at {
                return None;
            } else {
                lines.push(rest);
            }
            self.at += 1;
        }
        content?;
        while lines.last() == Some(&"") {
            lines.pop();
        }
        let mut text = String::new();
        let mut blanks = 0;
        for (i, line) in lines.iter().enumerate() {
            if line.is_empty() {
                blanks += 1;
                continue;
            }
            if i > 0 {
                // Folding makes one line of two adjacent ones, and keeps
                // the line breaks of blank lines between; a literal keeps all.
                match (style, blanks) {
                    (">", 0) => text.push(' '),
                    (">", n) => text.extend(std::iter::repeat_n('\n', n)),
                    (_, n) => text.extend(std::iter::repeat_n('\n', n + 1)),
                }
            }
            blanks = 0;
            text.push_str(line);
        }
        if !strip {
            text.push('\n');
        }
        Some(Value::String(text))
    }
}

/// Whether a line is a sequence item (`- x` or a bare `-`).
fn is_item(rest: &str) -> bool {
    rest == "-" || rest.starts_with("- ")
}

/// What may follow a value on its line: nothing, or a comment after a space.
fn end_of_line(rest: &str) -> Option<()> {
    let r = rest.trim_start_matches(' ');
    (r.is_empty() || (r.starts_with('#') && r.len() < rest.len())).then_some(())
}

/// A one-line flow collection (`[a, b]`, `{k: v}`), read from `at`, inside
/// collections nested `depth` deep.
struct Flow<'a> {
    s: &'a str,
    at: usize,
    depth: usize,
}

impl Flow<'_> {
    fn skip_spaces(&mut self) {
        while self.s.as_bytes().get(self.at) == Some(&b' ') {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.skip_spaces();
        match self.s.as_bytes().get(self.at)? {
            b'[' => self.collection(b']', |f| f.value()).map(Value::Sequence),
            b'{' => {
                let pairs = self.collection(b'}', |f| {
                    f.skip_spaces();
                    let rest = &f.s[f.at..];
                    let colon = rest.find(": ")?;
                    let (key, _) = flat::key_value(&rest[..colon + 1])?;
                    f.at += colon + 2;
                    Some((key.to_string(), f.value()?))
                })?;
                let mut map = Mapping::new();
                for (k, v) in pairs {
                    if map.insert(Value::String(k), v).is_some() {
                        return None;
                    }
                }
                Some(Value::Mapping(map))
            }
            b'"' | b'\'' => {
                let (v, len) = flat::quoted(&self.s[self.at..])?;
                self.at += len;
                Some(v)
            }
            _ => {
                let rest = &self.s[self.at..];
                let end = rest.find([',', ']', '}']).unwrap_or(rest.len());
                let v = flat::scalar(rest[..end].trim_end_matches(' '))?;
                self.at += end;
                Some(v)
            }
        }
    }

    /// `open item, item close`; an empty item or a trailing comma gives up.
    fn collection<T>(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.at += 1;
        let mut items = Vec::new();
        self.skip_spaces();
        if self.s.as_bytes().get(self.at) == Some(&close) {
            self.at += 1;
            self.depth -= 1;
            return Some(items);
        }
        loop {
            items.push(item(self)?);
            self.skip_spaces();
            match self.s.as_bytes().get(self.at)? {
                b',' => self.at += 1,
                &b if b == close => {
                    self.at += 1;
                    self.depth -= 1;
                    return Some(items);
                }
                _ => return None,
            }
            self.skip_spaces();
            if matches!(self.s.as_bytes().get(self.at), Some(b']' | b'}')) {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reader either gives up or agrees with serde_yaml.
    fn agrees(text: &str) -> bool {
        crate::yaml::agrees_with_serde_yaml(parse(text), text)
    }

    /// The shipped files of the corpus folder that are not entries.
    fn shipped() -> Vec<(String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "yaml") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path.display().to_string(), text));
            }
        }
        out.sort();
        out
    }

    #[test]
    fn reads_every_shipped_file_as_serde_yaml_does() {
        let files = shipped();
        assert!(files.len() >= 6, "{files:?}");
        for (name, text) in &files {
            let v = parse(text).unwrap_or_else(|| panic!("gave up on {name}"));
            assert_eq!(Some(v), serde_yaml::from_str::<Value>(text).ok(), "{name}");
        }
    }

    #[test]
    fn reads_nested_blocks_flows_and_block_scalars() {
        let text = "# head\nlist:\n  title: A list  # trailing\n  description: >-\n    one\n    two\n\n    three\n\
                    lit: |\n  a\n  b\n\nitems:\n  - id: x\n    label: \"X: y\"\n    tags: [a, 'b c', \"d\"]\n  \
                    -   id: y\n      more: {k: [1, 2], j: {}}\n  - plain\n  -\n    - deep\nempty:\nn: 12\n";
        let v = parse(text).expect("read");
        assert_eq!(Some(v), serde_yaml::from_str::<Value>(text).ok());
    }

    #[test]
    fn gives_up_on_what_it_does_not_know_and_never_disagrees() {
        let near_misses = [
            "a: b\n  c\n",
            "a: \"x\\ry\"\n",
            "a: 'it''s\n",
            "a: \"open\n  quote\"\n",
            "a: &x b\nc: *x\n",
            "a: !tag x\n",
            "a: |+\n  x\n\n",
            "a: |2\n   x\n",
            "a: >\n\n  x\n",
            "a: >\n  x\n   more\n",
            "a:\n- x\n",
            "a: [x, , y]\n",
            "a: [x, y,]\n",
            "a: [x, y\n",
            "a: {k: v, k: w}\n",
            "a: {\"k\": v}\n",
            "a: [x]y\n",
            "a: \"x\"y\n",
            "a: x\na: y\n",
            "a:\n  b: 1\n   c: 2\n",
            "a:\n  - x\n  b: y\n",
            "- x\n",
            "  a: x\n",
            "---\na: x\n",
            "a: x\n...\n",
            "a: 1.5\n",
            "a: [1.5]\n",
            "a:\n  - - x\n",
            "a:\n  - ? x\n",
            "a: x\tb\n",
            "<<: {a: b}\n",
            "",
            "# only\n",
        ];
        for t in near_misses {
            assert!(parse(t).is_none(), "accepted {t:?}");
            assert!(agrees(t), "{t:?}");
        }
    }

    #[test]
    fn deep_nesting_is_left_to_serde_yaml_without_overflowing() {
        let mut blocks = String::new();
        for level in 0..500 {
            blocks.push_str(&format!("{}k{level}:\n", " ".repeat(level)));
        }
        let flows = format!("a: {}\n", "[".repeat(1_000));
        let fine = format!(
            "a: {}x{}\n",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        );
        assert!(parse(&blocks).is_none());
        assert!(parse(&flows).is_none());
        assert!(parse(&fine).is_some() && agrees(&fine));
        // serde_yaml refuses it with its recursion limit.
        assert!(from_str::<Value>(&flows).is_err());
    }

    #[test]
    fn a_value_that_does_not_fit_is_read_by_serde_yaml() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct S {
            a: String,
        }
        // The reader makes a number of it; serde_yaml gives a string field its text.
        assert_eq!(from_str::<S>("a: 12\n").unwrap().a, "12");
        // And an error is serde_yaml's own, with its position.
        let e = from_str::<S>("b: x\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            serde_yaml::from_str::<S>("b: x\n").unwrap_err().to_string()
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// A shipped file with a few bytes cut out, doubled or replaced reads
        /// the same both ways, or not at all here.
        #[test]
        fn damaged_shipped_files_never_disagree(
            file in 0usize..64,
            edits in proptest::collection::vec((0usize..1 << 20, 0usize..4, 0usize..12), 1..4),
        ) {
            let files = shipped();
            let (_, text) = &files[file % files.len()];
            let mut text = text.clone().into_bytes();
            for (at, len, what) in edits {
                let at = at % text.len();
                let end = (at + len).min(text.len());
                let new: &[u8] = match what {
                    0 => b"",
                    1 => b" ",
                    2 => b"\n",
                    3 => b"- ",
                    4 => b": ",
                    5 => b"#",
                    6 => b"[",
                    7 => b"}",
                    8 => b"  ",
                    9 => b"\"",
                    10 => b">",
                    _ => b"x",
                };
                text.splice(at..end, new.iter().copied());
            }
            if let Ok(text) = String::from_utf8(text) {
                prop_assert!(agrees(&text), "{text}");
            }
        }

        /// Texts assembled line by line from the pieces of such files
        /// (indents, keys, dashes, scalars of every kind, flows, block
        /// headers, comments, blank lines) never disagree.
        #[test]
        fn assembled_texts_never_disagree(
            lines in proptest::collection::vec((0usize..3, 0usize..8, 0usize..26), 1..12),
        ) {
            const LINES: [&str; 8] = ["k: V", "- V", "- k: V", "k:", "-", "# c", "", "V"];
            const VALUES: [&str; 26] = [
                "x", "y z", "1", "007", "0x1", "1e3", "2026-05-04", "[x, y]", "[]", "{k: v}",
                "{k: [1, 2]}", "'q'", "'it''s'", "\"d\\n\"", ">-", "|", ">", "|-", "~", "null",
                "true", "x #c", "\"a: b\"", "[x, y] #c", "", "a:b",
            ];
            // Each line one level in from the last, at its level, or out.
            let mut text = String::new();
            let mut level = 0usize;
            for (i, (step, line, value)) in lines.iter().enumerate() {
                level = (level + step).saturating_sub(1).min(4) * usize::from(i > 0);
                let key = ["a", "b", "c"][i % 3];
                let line = LINES[*line].replace('k', key).replace('V', VALUES[*value]);
                text.push_str(&format!("{}{line}\n", " ".repeat(level * 2)));
            }
            prop_assert!(agrees(&text), "{text}");
        }
    }
}
