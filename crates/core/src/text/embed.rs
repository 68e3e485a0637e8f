//! Text made safe to sit inside an HTML page: JSON inside a `<script>`
//! element, and a standalone SVG file inline.

use serde::Serialize;
use std::io::Write;

/// JSON text safe inside a `<script>` element: no `<`, `>` or `&` can end it.
pub fn script_json<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    if write_script_json(&mut out, value).is_err() {
        return "null".to_string();
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`script_json`] written to `out` as it is serialized: a page's data can
/// be most of the page, and neither it nor an escaped copy is held whole.
pub fn write_script_json<T: Serialize>(out: &mut dyn Write, value: &T) -> std::io::Result<()> {
    let mut safe = ScriptSafe { out, held: 0 };
    // The serializer writes a token at a time; gathered first, the escaping
    // and every writer below it see a few large writes instead.
    let mut gathered = std::io::BufWriter::with_capacity(1 << 16, &mut safe);
    serde_json::to_writer(&mut gathered, value)?;
    gathered.flush()?;
    drop(gathered);
    safe.finish()
}

/// Writes JSON bytes on with `<`, `>`, `&` and the two line separators
/// JavaScript once refused in strings written as `\u` escapes.
struct ScriptSafe<'w> {
    out: &'w mut dyn Write,
    /// How many bytes of `E2 80` (the lead of U+2028 and U+2029) are held
    /// back, undecided until the next byte comes, perhaps in a later write.
    held: usize,
}

/// The lead bytes of U+2028 and U+2029.
const SEPARATOR_LEAD: [u8; 2] = [0xE2, 0x80];

impl ScriptSafe<'_> {
    /// Writes the bytes still held back.
    fn finish(mut self) -> std::io::Result<()> {
        let held = std::mem::take(&mut self.held);
        self.out.write_all(&SEPARATOR_LEAD[..held])
    }
}

impl Write for ScriptSafe<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Bytes that need nothing are written on in runs, from `from`.
        let mut from = 0;
        for (i, &b) in buf.iter().enumerate() {
            if self.held > 0 {
                if self.held == 1 && b == 0x80 {
                    self.held = 2;
                    from = i + 1;
                    continue;
                }
                let held = std::mem::take(&mut self.held);
                if held == 2 && (b == 0xA8 || b == 0xA9) {
                    let escape: &[u8] = if b == 0xA8 { b"\\u2028" } else { b"\\u2029" };
                    self.out.write_all(escape)?;
                    from = i + 1;
                    continue;
                }
                self.out.write_all(&SEPARATOR_LEAD[..held])?;
                from = i;
            }
            let escape: &[u8] = match b {
                b'<' => b"\\u003c",
                b'>' => b"\\u003e",
                b'&' => b"\\u0026",
                0xE2 => b"",
                _ => continue,
            };
            self.out.write_all(&buf[from..i])?;
            self.out.write_all(escape)?;
            if b == 0xE2 {
                self.held = 1;
            }
            from = i + 1;
        }
        if self.held == 0 {
            self.out.write_all(&buf[from..])?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// A standalone SVG made ready to sit inside HTML: without an XML prolog.
pub fn inline_svg(svg: &str) -> String {
    let s = svg.trim_start();
    match s.strip_prefix("<?xml") {
        Some(rest) => rest
            .split_once("?>")
            .map(|(_, r)| r.trim_start())
            .unwrap_or("")
            .to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_its_element() {
        let s = script_json(&serde_json::json!({"t": "</script><!-- & \u{2028}"}));
        assert!(!s.contains('<') && !s.contains('>') && !s.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["t"], "</script><!-- & \u{2028}");
    }

    proptest::proptest! {
        #[test]
        fn script_json_escapes_as_a_replace_of_each_character_would(
            t in "[a-z<>&\u{2028}\u{2029}\u{e9}\u{2027}\u{202a}\u{1f600}\"\\\\]{0,40}"
        ) {
            let value = serde_json::json!({"t": t, "list": [t.clone(), "&"]});
            let replaced = serde_json::to_string(&value)
                .unwrap()
                .replace('<', "\\u003c")
                .replace('>', "\\u003e")
                .replace('&', "\\u0026")
                .replace('\u{2028}', "\\u2028")
                .replace('\u{2029}', "\\u2029");
            proptest::prop_assert_eq!(script_json(&value), replaced);
        }
    }

    proptest::proptest! {
        #[test]
        fn script_safe_gives_the_same_bytes_however_the_json_is_cut_into_writes(
            t in "[a-z<&\u{2028}\u{2029}\u{e9}\u{2027}\u{e2}]{0,30}",
            cuts in proptest::collection::vec(0usize..200, 0..8)
        ) {
            let json = serde_json::to_vec(&t).unwrap();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (json.len() + 1)).collect();
            cuts.sort_unstable();
            let mut out = Vec::new();
            let mut safe = ScriptSafe { out: &mut out, held: 0 };
            let mut from = 0;
            for c in cuts.into_iter().chain([json.len()]) {
                safe.write_all(&json[from..c]).unwrap();
                from = c;
            }
            safe.finish().unwrap();
            proptest::prop_assert_eq!(String::from_utf8(out).unwrap(), script_json(&t));
        }
    }

    #[test]
    fn svg_prolog_is_dropped() {
        assert_eq!(
            inline_svg("<?xml version=\"1.0\"?>\n<svg/>"),
            "<svg/>".to_string()
        );
        assert_eq!(inline_svg("<svg/>"), "<svg/>");
    }
}
