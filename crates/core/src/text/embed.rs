//! Text made safe to sit inside an HTML page: JSON inside a `<script>`
//! element, and a standalone SVG file inline.

use serde::Serialize;

/// JSON text safe inside a `<script>` element: no `<`, `>` or `&` can end it.
pub fn script_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".to_string())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
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

    #[test]
    fn svg_prolog_is_dropped() {
        assert_eq!(
            inline_svg("<?xml version=\"1.0\"?>\n<svg/>"),
            "<svg/>".to_string()
        );
        assert_eq!(inline_svg("<svg/>"), "<svg/>");
    }
}
