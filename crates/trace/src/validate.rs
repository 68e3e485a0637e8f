//! The validation entry points: a trace's bytes (or file) to diagnostics and, when it is sound, the parsed trace.

use crate::finding::locate_findings;
use crate::input::read_input;
use crate::model::Trace;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use std::path::Path;

/// Diagnostics for input that is not a JSON document we can read at all.
fn refuse_early(file: &str, bytes: &[u8]) -> Option<Diagnostic> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Some(
            Diagnostic::new(Rule::TraceEmpty, Severity::Error, file, "the file is empty")
                .help("a trace is a JSON object; see traces/examples/"),
        );
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return Some(
            Diagnostic::new(
                Rule::TraceJson,
                Severity::Error,
                file,
                "the file starts with a UTF-8 byte-order mark, which JSON does not allow",
            )
            .at(1, 1)
            .help("save the file as UTF-8 without a BOM"),
        );
    }
    None
}

fn json_diagnostic(file: &str, e: &crate::parse::JsonError) -> Diagnostic {
    let d = Diagnostic::new(Rule::TraceJson, Severity::Error, file, e.message.clone());
    let d = if e.line > 0 {
        d.at(e.line, e.column.max(1))
    } else {
        d
    };
    d.maybe_help(e.help.clone())
}

/// Parses one trace: JSON and schema checks; graph rules are not applied.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Trace, Vec<Diagnostic>> {
    if let Some(d) = refuse_early(file, bytes) {
        return Err(vec![d]);
    }
    match crate::parse::load(bytes) {
        Err(e) => Err(vec![json_diagnostic(file, &e)]),
        Ok(loaded) if loaded.findings.is_empty() => Ok(loaded.trace),
        Ok(loaded) => {
            let mut diags = locate_findings(file, bytes, loaded.findings);
            corpus_diagnostics::diag::sort(&mut diags);
            Err(diags)
        }
    }
}

/// Validate one trace's bytes; `file` is the label used in diagnostics.
pub fn validate_bytes(file: &str, bytes: &[u8]) -> Vec<Diagnostic> {
    validate_and_parse(file, bytes).err().unwrap_or_default()
}

/// Validates a trace and, when it has no problem at all, returns it parsed,
/// so a caller that needs both reads and parses the bytes once.
pub fn validate_and_parse(file: &str, bytes: &[u8]) -> Result<Trace, Vec<Diagnostic>> {
    match check_and_parse(file, bytes) {
        (Some(trace), diags) if diags.is_empty() => Ok(trace),
        (_, diags) => Err(diags),
    }
}

/// Validates a trace in one pass: every problem found, and the parsed trace
/// when none of them fails (warnings alone leave it sound to replay).
pub fn check_and_parse(file: &str, bytes: &[u8]) -> (Option<Trace>, Vec<Diagnostic>) {
    if let Some(d) = refuse_early(file, bytes) {
        return (None, vec![d]);
    }
    let loaded = match crate::parse::load(bytes) {
        Ok(loaded) => loaded,
        Err(e) => return (None, vec![json_diagnostic(file, &e)]),
    };
    let mut findings = loaded.findings;
    // Graph rules on a partial event list would report edges to the events
    // that failed the schema as dangling; skip them until items are valid.
    if loaded.items_valid {
        findings.extend(crate::graph::check(&loaded.trace));
    }
    if findings.is_empty() {
        return (Some(loaded.trace), Vec::new());
    }
    let mut diags = locate_findings(file, bytes, findings);
    corpus_diagnostics::diag::sort(&mut diags);
    let sound = !diags.iter().any(|d| d.fails(false));
    (sound.then_some(loaded.trace), diags)
}

/// Read (refusing files over max_bytes before reading) and validate one file; `-` is standard input.
pub fn validate_file(path: &Path, label: &str, max_bytes: u64) -> Vec<Diagnostic> {
    match read_input(path, label, max_bytes) {
        Ok(bytes) => validate_bytes(label, &bytes),
        Err(d) => vec![d],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::DEFAULT_MAX_BYTES;
    use crate::testutil::*;

    #[test]
    fn base_trace_is_clean() {
        assert_eq!(problems(&base()), Vec::<(String, String)>::new());
    }

    #[test]
    fn empty_and_whitespace_files_are_refused() {
        for bytes in [&b""[..], b"  \n\t "] {
            let d = validate_bytes("x.json", bytes);
            assert_eq!(d.len(), 1);
            assert_eq!(d[0].rule, "trace-empty");
        }
    }

    #[test]
    fn malformed_json_has_line_and_column() {
        let d = validate_bytes("x.json", b"{\n  \"trace_id\": \"a\",\n  oops\n}");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, "trace-json");
        assert_eq!(d[0].line, Some(3));
        assert!(d[0].column.is_some());
    }

    #[test]
    fn trailing_garbage_is_refused() {
        let mut text = serde_json::to_string(&base()).unwrap();
        text.push_str(" {}");
        let d = validate_bytes("x.json", text.as_bytes());
        assert_eq!(d[0].rule, "trace-json");
    }

    #[test]
    fn deep_nesting_is_a_clean_diagnostic() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let d = validate_bytes("x.json", deep.as_bytes());
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, "trace-json");
        assert!(d[0].message.contains("nested"), "{}", d[0].message);
        let mut v = base();
        let inner = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        let text = serde_json::to_string(&v).unwrap();
        let text = text.replacen("\"tool\":\"search\"", &format!("\"x\":{inner}"), 1);
        let d = validate_bytes("x.json", text.as_bytes());
        assert_eq!(d[0].rule, "trace-json");
        v["events"][0]["deep"] = serde_json::json!([[[[1]]]]);
        assert!(problems(&v).is_empty());
    }

    #[test]
    fn bom_is_refused() {
        let d = validate_bytes("x.json", b"\xEF\xBB\xBF{}");
        assert_eq!(d[0].rule, "trace-json");
    }

    #[test]
    fn non_object_documents_fail_the_schema() {
        for text in ["[]", "5", "\"x\"", "null", "[1,2]", "true"] {
            let d = validate_bytes("x.json", text.as_bytes());
            assert!(!d.is_empty(), "{text}");
            assert!(d.iter().all(|d| d.rule == "trace-schema"), "{text}: {d:?}");
        }
    }

    #[test]
    fn invalid_utf8_is_refused() {
        let d = validate_bytes("x.json", b"{\"trace_id\": \"\xff\"}");
        assert_eq!(d[0].rule, "trace-json");
    }

    #[test]
    fn file_over_the_limit_is_not_read() {
        let dir = std::env::temp_dir().join(format!("trace-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.json");
        std::fs::write(&path, serde_json::to_string(&base()).unwrap()).unwrap();
        let d = validate_file(&path, "big.json", 10);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, "trace-too-large");
        assert!(validate_file(&path, "big.json", DEFAULT_MAX_BYTES).is_empty());
        let huge = dir.join("huge.json");
        std::fs::File::create(&huge)
            .unwrap()
            .set_len(2 << 30)
            .unwrap();
        let d = validate_file(&huge, "huge.json", DEFAULT_MAX_BYTES);
        assert_eq!(d[0].rule, "trace-too-large");
        assert!(
            d[0].message.contains("2147483648 bytes"),
            "{}",
            d[0].message
        );
        let d = validate_file(&dir.join("missing.json"), "missing.json", DEFAULT_MAX_BYTES);
        assert_eq!(d[0].rule, "trace-unreadable");
        let d = validate_file(&dir, "dir", DEFAULT_MAX_BYTES);
        assert_eq!(d[0].rule, "trace-unreadable");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn special_files_are_refused_unread() {
        let d = validate_file(Path::new("/dev/zero"), "zero", 1024);
        assert_eq!(d[0].rule, "trace-unreadable");
        assert!(d[0].message.contains("a device"), "{}", d[0].message);
    }

    #[test]
    fn parse_rejects_schema_errors_but_keeps_graph_errors() {
        let mut v = base();
        v["events"][1]["type"] = "launch".into();
        let text = serde_json::to_string(&v).unwrap();
        let err = parse("x.json", text.as_bytes()).unwrap_err();
        assert_eq!(err[0].rule, "trace-schema");
        assert_eq!(err[0].field.as_deref(), Some("/events/1/type"));

        let mut v = base();
        v["edges"][0]["dst"] = "nowhere".into();
        let text = serde_json::to_string(&v).unwrap();
        let trace = parse("x.json", text.as_bytes()).unwrap();
        assert_eq!(trace.edges[0].dst.get(), None);
    }

    #[test]
    fn schema_errors_point_at_line_and_column() {
        let text = "{\n  \"trace_id\": \"t\",\n  \"task_id\": \"k\",\n  \"events\": [\n    {\"id\": \"a\", \"t\": -1, \"type\": \"spawn\", \"agent\": \"x\", \"to\": \"y\"}\n  ],\n  \"edges\": [],\n  \"rewards\": {},\n  \"costs\": {\"tokens\": 1, \"wall_clock_s\": 1}\n}\n";
        let d = validate_bytes("x.json", text.as_bytes());
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].field.as_deref(), Some("/events/0/t"));
        assert_eq!((d[0].line, d[0].column), (Some(5), Some(22)));
    }

    #[test]
    fn all_problems_are_reported() {
        let mut v = base();
        v["edges"][0]["dst"] = "nowhere".into();
        v["edges"][1]["src"] = "c".into();
        v["costs"]["messages"] = 5.into();
        let rules: Vec<String> = problems(&v).into_iter().map(|(r, _)| r).collect();
        assert!(rules.contains(&"trace-dangling-edge".to_string()));
        assert!(rules.contains(&"trace-self-loop".to_string()));
        assert!(rules.contains(&"trace-cost-mismatch".to_string()));
    }

    #[test]
    fn token_counts_past_2_pow_53_are_refused_and_the_largest_accepted() {
        let text = |tokens: &str| {
            let base = serde_json::to_string(&base()).unwrap();
            base.replace(
                "\"tokens\":100",
                &format!("\"tokens\":{tokens},\"input_tokens\":1"),
            )
        };
        let rules = |t: &str| -> Vec<(String, Option<String>)> {
            validate_bytes("t.json", text(t).as_bytes())
                .into_iter()
                .map(|d| (d.rule, d.field))
                .collect()
        };
        let fired = [(
            "trace-token-overflow".to_string(),
            Some("/costs/tokens".to_string()),
        )];
        for beyond in [
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "1e30",
        ] {
            assert_eq!(rules(beyond), fired, "{beyond}");
        }
        assert_eq!(rules("9007199254740992"), []);
        assert_eq!(rules("100"), []);
    }
}
