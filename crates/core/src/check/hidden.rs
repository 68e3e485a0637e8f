//! Invisible characters in any text value of an entry or record.

use super::sink::Sink;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::rules::Rule;

/// `control-character`: every text value of an item, lists and waivers included.
pub(super) fn check_hidden<T: serde::Serialize>(sink: &mut Sink, file: &SourceFile, item: &T) {
    fn walk(v: &serde_json::Value, path: &str, out: &mut Vec<(String, char)>) {
        match v {
            serde_json::Value::String(s) => {
                if let Some(c) = s.chars().find(|c| crate::text::visible::is_hidden(*c)) {
                    out.push((path.to_string(), c));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    walk(x, &format!("{path}[{i}]"), out);
                }
            }
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, out);
                }
            }
            _ => {}
        }
    }
    // Every text value comes from the file's text: a hidden character in a
    // value is in the text too, or was written as an escape (a backslash).
    // Most files have neither, and need no walk over their values.
    // Bytes first: the hidden ASCII characters are the controls but newline
    // and tab, and only a text with other characters needs decoding.
    let text = &*file.text;
    let ascii_hidden = |b: u8| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f;
    let wide_hidden = || {
        !text.is_ascii()
            && text
                .chars()
                .any(|c| !c.is_ascii() && crate::text::visible::is_hidden(c))
    };
    if !text.contains('\\') && !text.bytes().any(ascii_hidden) && !wide_hidden() {
        return;
    }
    let Ok(value) = serde_json::to_value(item) else {
        return;
    };
    let mut found = Vec::new();
    walk(&value, "", &mut found);
    for (field, c) in found {
        let d = sink
            .at(
                Rule::ControlCharacter,
                file,
                &field,
                format!(
                    "`{field}` holds the invisible character U+{:04X}, which can rewrite a terminal or reorder the text around it",
                    c as u32
                ),
            )
            .help("remove it; write the text with printable characters only");
        sink.push(d);
    }
}
