//! Text made safe to sit inside an HTML page: JSON inside a `<script>`
//! element, and a standalone SVG file inline.

use serde::Serialize;

/// JSON text safe inside a `<script>` element: no `<`, `>` or `&` can end it.
pub fn script_json<T: Serialize>(value: &T) -> String {
    // Escaped as it is written: a page's data can be most of the page, and
    // a copy of it for each escape would be as large again.
    let mut out = ScriptSafe(Vec::new());
    if serde_json::to_writer(&mut out, value).is_err() {
        return "null".to_string();
    }
    String::from_utf8(out.0).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// JSON bytes with `<`, `>`, `&` and the two line separators JavaScript
/// once refused in strings written as `\u` escapes.
struct ScriptSafe(Vec<u8>);

impl std::io::Write for ScriptSafe {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            match b {
                b'<' => self.0.extend_from_slice(b"\\u003c"),
                b'>' => self.0.extend_from_slice(b"\\u003e"),
                b'&' => self.0.extend_from_slice(b"\\u0026"),
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; the lead
                // bytes may have come in an earlier write.
                0xA8 | 0xA9 if self.0.ends_with(&[0xE2, 0x80]) => {
                    self.0.truncate(self.0.len() - 2);
                    let escape: &[u8] = if b == 0xA8 { b"\\u2028" } else { b"\\u2029" };
                    self.0.extend_from_slice(escape);
                }
                b => self.0.push(b),
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
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

    #[test]
    fn svg_prolog_is_dropped() {
        assert_eq!(
            inline_svg("<?xml version=\"1.0\"?>\n<svg/>"),
            "<svg/>".to_string()
        );
        assert_eq!(inline_svg("<svg/>"), "<svg/>");
    }
}
