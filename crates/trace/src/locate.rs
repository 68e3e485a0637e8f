//! Maps JSON pointers to line and column in the original text.
//!
//! serde_json keeps no positions, so after checking we look the pointers up
//! in the text. A trace's problems sit mostly under the two big arrays, so the
//! root object and each of its members that a pointer enters are indexed once
//! (member or element start offsets); below that, each pointer is followed by
//! scanning only the one small value it lies in (an event, an edge). Cost:
//! one pass over each indexed container, plus the size of the depth-2 values
//! the pointers enter; the per-pointer work never rescans the whole file.

use std::collections::HashMap;

/// Start offsets of the members (object) or elements (array) of a container.
enum Index {
    /// Member name to value offset; a later duplicate key wins, as in serde_json.
    Object(HashMap<String, usize>),
    Array(Vec<usize>),
    Scalar,
}

/// Containers whose depth is below this are indexed rather than rescanned.
const INDEXED_DEPTH: usize = 2;

/// Line and column (1-based; the column counts characters) of each pointer's value.
///
/// A pointer that does not resolve in the text gets `None`. The text must be
/// JSON that has already parsed; anything else gives `None`, never a panic.
pub(crate) fn locate(text: &[u8], pointers: &[&str]) -> Vec<Option<(usize, usize)>> {
    locate_indexed(text, pointers, INDEXED_DEPTH)
}

/// Like [`locate`], indexing every container a pointer enters above `depth`
/// (so many pointers into one big array scan it once, not once each).
pub(crate) fn locate_indexed(
    text: &[u8],
    pointers: &[&str],
    depth: usize,
) -> Vec<Option<(usize, usize)>> {
    if pointers.is_empty() {
        return Vec::new();
    }
    let scanner = Scanner { text };
    let mut indexes: HashMap<usize, Index> = HashMap::new();
    let root = scanner.ws(0);
    let offsets: Vec<Option<usize>> = pointers
        .iter()
        .map(|p| {
            let mut pos = root;
            for (level, token) in split(p)?.iter().enumerate() {
                pos = if level < depth {
                    let index = indexes.entry(pos).or_insert_with(|| scanner.index(pos));
                    match index {
                        Index::Object(members) => *members.get(token.as_str())?,
                        Index::Array(items) => *items.get(array_index(token)?)?,
                        Index::Scalar => return None,
                    }
                } else {
                    scanner.child(pos, token)?
                };
            }
            Some(pos)
        })
        .collect();
    lines_and_columns(text, &offsets)
}

fn split(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

fn array_index(token: &str) -> Option<usize> {
    let canonical = token == "0" || (!token.starts_with('0') && !token.is_empty());
    if canonical && token.bytes().all(|b| b.is_ascii_digit()) {
        token.parse().ok()
    } else {
        None
    }
}

struct Scanner<'a> {
    text: &'a [u8],
}

impl Scanner<'_> {
    fn ws(&self, mut pos: usize) -> usize {
        while self
            .text
            .get(pos)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            pos += 1;
        }
        pos
    }

    fn expect(&self, pos: usize, byte: u8) -> Option<usize> {
        (self.text.get(pos) == Some(&byte)).then_some(pos + 1)
    }

    /// Indexes the container at `pos` (a scalar, or broken text, gives `Scalar`).
    fn index(&self, pos: usize) -> Index {
        match self.text.get(pos) {
            Some(b'{') => {
                let mut members = HashMap::new();
                let ok = self.members(pos, |key, at| {
                    members.insert(key, at);
                    false
                });
                if ok.is_some() {
                    Index::Object(members)
                } else {
                    Index::Scalar
                }
            }
            Some(b'[') => {
                let mut items = Vec::new();
                let ok = self.elements(pos, |_, at| {
                    items.push(at);
                    false
                });
                if ok.is_some() {
                    Index::Array(items)
                } else {
                    Index::Scalar
                }
            }
            _ => Index::Scalar,
        }
    }

    /// Start of the member or element `token` of the value at `pos`, by scanning.
    fn child(&self, pos: usize, token: &str) -> Option<usize> {
        let mut found = None;
        match self.text.get(pos)? {
            b'{' => {
                self.members(pos, |key, at| {
                    if key == token {
                        found = Some(at);
                    }
                    false
                })?;
            }
            b'[' => {
                let want = array_index(token)?;
                self.elements(pos, |i, at| {
                    if i == want {
                        found = Some(at);
                    }
                    i == want
                })?;
            }
            _ => return None,
        }
        found
    }

    /// Calls `visit(key, value start)` for each member of the object at `pos`
    /// until it returns true; returns the position after the object (or the stop).
    fn members(&self, pos: usize, mut visit: impl FnMut(String, usize) -> bool) -> Option<usize> {
        let mut pos = self.ws(self.expect(pos, b'{')?);
        if self.text.get(pos) == Some(&b'}') {
            return Some(pos + 1);
        }
        loop {
            let key_start = pos;
            pos = self.skip_string(pos)?;
            let raw = self.text.get(key_start + 1..pos - 1)?;
            let key = if raw.contains(&b'\\') {
                serde_json::from_slice::<String>(&self.text[key_start..pos]).ok()?
            } else {
                String::from_utf8(raw.to_vec()).ok()?
            };
            pos = self.ws(self.expect(self.ws(pos), b':')?);
            if visit(key, pos) {
                return Some(pos);
            }
            pos = self.ws(self.skip(pos)?);
            match self.text.get(pos)? {
                b',' => pos = self.ws(pos + 1),
                b'}' => return Some(pos + 1),
                _ => return None,
            }
        }
    }

    /// Like `members`, for the elements of the array at `pos`.
    fn elements(&self, pos: usize, mut visit: impl FnMut(usize, usize) -> bool) -> Option<usize> {
        let mut pos = self.ws(self.expect(pos, b'[')?);
        if self.text.get(pos) == Some(&b']') {
            return Some(pos + 1);
        }
        let mut i = 0;
        loop {
            if visit(i, pos) {
                return Some(pos);
            }
            pos = self.ws(self.skip(pos)?);
            match self.text.get(pos)? {
                b',' => pos = self.ws(pos + 1),
                b']' => return Some(pos + 1),
                _ => return None,
            }
            i += 1;
        }
    }

    /// Skips one value of any kind.
    fn skip(&self, pos: usize) -> Option<usize> {
        match self.text.get(pos)? {
            b'"' => self.skip_string(pos),
            b'{' | b'[' => self.skip_rest(pos + 1),
            _ => {
                let mut p = pos;
                while self.text.get(p).is_some_and(|b| {
                    !matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                }) {
                    p += 1;
                }
                (p > pos).then_some(p)
            }
        }
    }

    /// Skips to just after the container whose opening bracket precedes `pos`.
    fn skip_rest(&self, mut pos: usize) -> Option<usize> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.text.get(pos)? {
                b'"' => {
                    pos = self.skip_string(pos)?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth -= 1,
                _ => {}
            }
            pos += 1;
        }
        Some(pos)
    }

    /// Skips the string starting at `pos` (on its opening quote).
    fn skip_string(&self, pos: usize) -> Option<usize> {
        self.expect(pos, b'"')?;
        let mut p = pos + 1;
        loop {
            match self.text.get(p)? {
                b'"' => return Some(p + 1),
                b'\\' => p += 2,
                _ => p += 1,
            }
        }
    }
}

/// Turns byte offsets into (line, column) in one forward pass over the text.
fn lines_and_columns(text: &[u8], offsets: &[Option<usize>]) -> Vec<Option<(usize, usize)>> {
    let mut order: Vec<(usize, usize)> = offsets
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.map(|o| (o, i)))
        .collect();
    order.sort_unstable();
    let mut out = vec![None; offsets.len()];
    let (mut pos, mut line, mut column) = (0usize, 1usize, 1usize);
    for (offset, i) in order {
        let end = offset.min(text.len());
        for &b in &text[pos.min(end)..end] {
            if b == b'\n' {
                line += 1;
                column = 1;
            } else if b & 0xC0 != 0x80 {
                // Count characters, not UTF-8 continuation bytes.
                column += 1;
            }
        }
        pos = pos.max(end);
        out[i] = Some((line, column));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\n  \"a\": [10, {\"b\": \"x\"}, [1, 2]],\n  \"c~/d\": {\"e\": null},\n  \"ü\": \"é\", \"f\": 3\n}";

    fn at(pointer: &str) -> Option<(usize, usize)> {
        locate(TEXT.as_bytes(), &[pointer])[0]
    }

    #[test]
    fn finds_values_by_pointer() {
        assert_eq!(at(""), Some((1, 1)));
        assert_eq!(at("/a"), Some((2, 8)));
        assert_eq!(at("/a/0"), Some((2, 9)));
        assert_eq!(at("/a/1/b"), Some((2, 19)));
        assert_eq!(at("/a/2/1"), Some((2, 29)));
        assert_eq!(at("/c~0~1d/e"), Some((3, 17)));
        assert_eq!(at("/f"), Some((4, 18)));
    }

    #[test]
    fn missing_pointers_are_none() {
        assert_eq!(at("/a/9"), None);
        assert_eq!(at("/zz"), None);
        assert_eq!(at("no-slash"), None);
        assert_eq!(at("/a/01"), None);
    }

    #[test]
    fn many_pointers_at_once() {
        let got = locate(TEXT.as_bytes(), &["/f", "/a/0", "/a/0", "/zz", ""]);
        assert_eq!(
            got,
            vec![
                Some((4, 18)),
                Some((2, 9)),
                Some((2, 9)),
                None,
                Some((1, 1))
            ]
        );
    }

    #[test]
    fn escaped_keys_and_strings() {
        let text = r#"{"a\"b": "x]}\"", "k\u0041": [ "]", 5 ]}"#;
        assert_eq!(locate(text.as_bytes(), &["/kA/1"])[0], Some((1, 37)));
        assert_eq!(locate(text.as_bytes(), &["/a\"b"])[0], Some((1, 10)));
    }

    #[test]
    fn deep_pointers_are_scanned_below_the_index() {
        let text = r#"{"events": [{"id": "a", "x": {"y": [0, {"z": 1}]}}, {"id": "b"}], "n": 1}"#;
        let got = locate(
            text.as_bytes(),
            &["/events/0/x/y/1/z", "/events/1/id", "/n", "/events/2"],
        );
        assert_eq!(got, vec![Some((1, 46)), Some((1, 60)), Some((1, 72)), None]);
    }

    #[test]
    fn duplicate_keys_resolve_to_the_last() {
        let text = r#"{"a": 1, "a": {"b": 2, "b": 3}}"#;
        assert_eq!(locate(text.as_bytes(), &["/a/b"])[0], Some((1, 29)));
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "{",
            "[",
            "{\"a\"",
            "{\"a\":",
            "\"",
            "{\"a\": [1,",
            "}}}",
            "{\"a\":1,}",
        ] {
            let _ = locate(text.as_bytes(), &["/a/0", "", "/a"]);
        }
    }
}
