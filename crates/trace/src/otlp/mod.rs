//! Imports OpenTelemetry traces (OTLP JSON of GenAI spans) into the survey's
//! orchestration trace format: one trace per OTLP trace id, each checked by
//! the same validator as `corpus trace validate` before it is handed back.
//!
//! `decode` reads OTLP JSON into compact spans, `mapping` holds the table of
//! what each span becomes, `build` turns one trace id's spans into a trace.
//! `problems` caps and locates every problem in its input (file, line,
//! column, JSON pointer, span id), `imported` is what an import produced and
//! `deliver` writes the requested outputs. This module ties them together.

mod build;
#[cfg(test)]
mod conformance;
pub mod conventions;
mod decode;
mod deliver;
mod imported;
mod mapping;
mod problems;

pub use build::Options;
pub use deliver::Destination;
pub use imported::{Imported, ImportedTrace};
pub use mapping::{explain, Convention};

use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use problems::{cap, locate, Pending, MAX_PER_RULE};
use std::collections::{BTreeMap, HashMap};

/// One input held in memory: its label for messages and its bytes.
pub struct Input {
    /// File name as given, or `<stdin>`.
    pub label: String,
    /// The OTLP JSON.
    pub bytes: Vec<u8>,
}

/// One input file, read a buffer at a time through the one reader and
/// never held whole (read again only to place the problems shown).
pub struct FileInput {
    /// File name as given.
    pub label: String,
    /// Where it is.
    pub path: std::path::PathBuf,
    /// Size limit in bytes.
    pub max: u64,
}

/// An input of [`import_sources`].
pub enum Source {
    /// Bytes in memory (standard input).
    Held(Input),
    /// A file, streamed.
    File(FileInput),
}

impl Source {
    /// The input's label for messages.
    pub fn label(&self) -> &str {
        match self {
            Source::Held(i) => &i.label,
            Source::File(f) => &f.label,
        }
    }
}

/// An input as the import reads it.
#[derive(Clone, Copy)]
pub(crate) enum Src<'a> {
    Bytes(&'a str, &'a [u8]),
    File(&'a FileInput),
}

impl<'a> Src<'a> {
    pub(crate) fn label(&self) -> &'a str {
        match self {
            Src::Bytes(label, _) => label,
            Src::File(f) => &f.label,
        }
    }

    /// The input from its start.
    pub(crate) fn open(&self) -> Result<Box<dyn std::io::BufRead + 'a>, Diagnostic> {
        match self {
            Src::Bytes(_, b) => Ok(Box::new(*b)),
            Src::File(f) => Ok(Box::new(crate::input::open_input(
                &f.path, &f.label, f.max,
            )?)),
        }
    }
}

/// A failure to read an input while it streams, as a diagnostic of its file.
pub(crate) fn read_failure(label: &str, e: &std::io::Error) -> Diagnostic {
    Diagnostic::new(
        Rule::TraceUnreadable,
        Severity::Error,
        label,
        format!("cannot read the file: {e}"),
    )
}

/// Imports every input; traces are returned sorted by trace id.
pub fn import(inputs: &[Input], opts: &Options) -> Imported {
    let srcs: Vec<Src> = inputs
        .iter()
        .map(|i| Src::Bytes(&i.label, &i.bytes))
        .collect();
    match import_from(&srcs, opts) {
        Ok(out) => out,
        Err(d) => unreachable!("reading from memory cannot fail: {}", d.message),
    }
}

/// Imports every input, files streamed; fails (with the file's diagnostic)
/// only when a file cannot be read.
pub fn import_sources(sources: &[Source], opts: &Options) -> Result<Imported, Diagnostic> {
    let srcs: Vec<Src> = sources
        .iter()
        .map(|s| match s {
            Source::Held(i) => Src::Bytes(&i.label, &i.bytes),
            Source::File(f) => Src::File(f),
        })
        .collect();
    import_from(&srcs, opts)
}

fn import_from(inputs: &[Src], opts: &Options) -> Result<Imported, Diagnostic> {
    let mut out = Imported::default();
    // Every input's spans go into one list, never copied from one to another.
    let mut all = decode::Spans::default();
    let mut pending: Vec<Pending> = Vec::new();
    for (k, input) in inputs.iter().enumerate() {
        let decoded = decode::decode_stream(k as u32, input.open()?, &mut all)
            .map_err(|e| read_failure(input.label(), &e))?;
        for p in decoded.problems {
            pending.push(Pending {
                input: k as u32,
                pos: None,
                suffix: String::new(),
                diag: Diagnostic::new(Rule::OtlpJson, Severity::Error, input.label(), p.message)
                    .at(p.line, p.column)
                    .help(p.help),
            });
        }
        if decoded.documents == 0 && pending.iter().all(|p| p.input != k as u32) {
            pending.push(Pending {
                input: k as u32,
                pos: None,
                suffix: String::new(),
                diag: Diagnostic::new(
                    Rule::OtlpEmpty,
                    Severity::Error,
                    input.label(),
                    "the input holds no OTLP document",
                )
                .help("pass OTLP JSON: one document, or one document per line"),
            });
        }
    }
    let decode::Spans {
        mut spans,
        problems: span_problems,
        docs,
    } = all;
    let input_of = |pos: &decode::Pos| docs[pos.doc as usize].input;
    out.spans = spans.len();

    // Decoding problems of single spans.
    let mut bad_trace: HashMap<u128, bool> = HashMap::new();
    for (g, p) in &span_problems {
        let (span, pos) = &spans[*g];
        let label = inputs[input_of(pos) as usize].label();
        {
            let (rule, severity, suffix, message, help) = match p {
                decode::SpanProblem::BadId { field, value } => (
                    Rule::OtlpSpanId,
                    Severity::Error,
                    format!("/{field}"),
                    format!("{field} \"{value}\" is not a non-zero id of the right length"),
                    "trace ids are 16 bytes (32 hex digits, or 24 base64 characters), span ids 8 (16 hex digits, or 12 base64); the trace was not imported",
                ),
                decode::SpanProblem::BadRef { field, value } => (
                    Rule::OtlpSpanId,
                    Severity::Warning,
                    format!("/{field}"),
                    format!("{field} \"{value}\" is not an id of the right length; it is ignored"),
                    "trace ids are 16 bytes (32 hex digits, or 24 base64 characters), span ids 8 (16 hex digits, or 12 base64)",
                ),
                decode::SpanProblem::BadTime { field } => (
                    Rule::OtlpSpanTime,
                    Severity::Error,
                    format!("/{field}"),
                    format!("{field} is missing or not a positive integer of nanoseconds"),
                    "write times as decimal strings of nanoseconds since the epoch; the trace was not imported",
                ),
                decode::SpanProblem::AttrType { index, key, detail } => (
                    Rule::OtlpAttributeType,
                    Severity::Warning,
                    format!("/attributes/{index}/value"),
                    format!("attribute `{key}`: {detail}; the attribute is ignored"),
                    "an AnyValue holds one of stringValue, boolValue, intValue, doubleValue, arrayValue, kvlistValue, bytesValue",
                ),
            };
            if severity == Severity::Error {
                bad_trace.insert(span.trace, true);
            }
            // A span whose own id is unreadable is named by its place alone.
            let message = if span.id == 0 {
                format!("a span: {message}")
            } else {
                format!("span {:016x}: {message}", span.id)
            };
            pending.push(Pending {
                input: input_of(pos),
                pos: Some(*pos),
                suffix,
                diag: Diagnostic::new(rule, severity, label, message).help(help),
            });
        }
    }

    // Group by trace id (a trace may be spread over documents and files);
    // an A2A server span linking to a client span of another trace joins that trace.
    let joined = build::joined_traces(&spans, opts.convention);
    let mut groups: BTreeMap<u128, Vec<u32>> = BTreeMap::new();
    for (i, (span, _)) in spans.iter().enumerate() {
        if span.trace != 0 {
            let to = joined.get(&span.trace).copied().unwrap_or(span.trace);
            groups.entry(to).or_default().push(i as u32);
        }
    }
    // The joined trace is named by its client's trace id: its spans come first.
    for (trace, members) in groups.iter_mut() {
        if !joined.is_empty() {
            members.sort_by_key(|&g| spans[g as usize].0.trace != *trace);
        }
    }
    out.trace_ids = groups.len();
    let mut problems = Vec::new();
    // The spans go once the last trace id is walked, before its text is
    // written (one trace per input is the common case): only their
    // positions are kept, for the problems still to be placed.
    let mut positions: Vec<decode::Pos> = Vec::new();
    let last = groups.keys().next_back().copied();
    for (trace, members) in &groups {
        let ready = build::build(&spans, members, opts, &mut problems);
        // A joined trace is as bad as the worst of the traces joined (asked
        // before the spans of the last trace id go).
        let bad = |t: &u128| bad_trace.contains_key(t);
        let broken = bad(trace)
            || (!joined.is_empty() && members.iter().any(|&g| bad(&spans[g as usize].0.trace)));
        if Some(*trace) == last {
            positions = spans.iter().map(|(_, pos)| *pos).collect();
            spans = Vec::new();
        }
        let Some(built) = ready.map(|r| r.write(opts)) else {
            continue;
        };
        for (k, v) in &built.unmapped {
            *out.unmapped.entry(k.clone()).or_insert(0) += v;
        }
        out.cross_trace_links += built.cross_trace_links;
        out.errors += built.errors;
        if broken {
            continue;
        }
        // The same checks as `corpus trace validate`: an import never hands back a trace that fails them.
        let label = format!("{}.json", built.trace_id);
        match crate::validate_and_parse(&label, built.text.as_bytes()) {
            Ok(_) => out.traces.push(ImportedTrace {
                trace_id: built.trace_id,
                text: built.text,
                events: built.events,
                edges: built.edges,
            }),
            Err(diags) => {
                let pos = position(&spans, &positions, members[0]);
                for d in diags.into_iter().take(MAX_PER_RULE) {
                    pending.push(Pending {
                        input: input_of(&pos),
                        pos: None,
                        suffix: String::new(),
                        diag: Diagnostic::new(
                            Rule::OtlpInvalidResult,
                            Severity::Error,
                            inputs[input_of(&pos) as usize].label(),
                            format!(
                                "trace {} would break the trace rules ({}: {}); it was not written",
                                built.trace_id, d.rule, d.message
                            ),
                        )
                        .help("the spans (or the --orchestrator chosen) describe something the trace format forbids; fix the spans, or report an importer bug with the input"),
                    });
                }
            }
        }
    }
    for p in problems {
        let (input, pos) = match p.span {
            Some(g) => {
                let pos = position(&spans, &positions, g);
                (input_of(&pos), Some(pos))
            }
            None => (0, None),
        };
        let label = inputs.get(input as usize).map_or("", |i| i.label());
        pending.push(Pending {
            input,
            pos,
            suffix: String::new(),
            diag: Diagnostic::new(p.rule, p.severity, label, p.message).help(p.help),
        });
    }
    let (kept, elided) = cap(pending);
    out.diagnostics = locate(inputs, &docs, kept)?;
    out.elided = elided;
    corpus_diagnostics::diag::sort(&mut out.diagnostics);
    Ok(out)
}

/// Where span `g` is: from the spans while they are kept, else from the positions kept of them.
fn position(
    spans: &[(decode::Span, decode::Pos)],
    positions: &[decode::Pos],
    g: u32,
) -> decode::Pos {
    spans
        .get(g as usize)
        .map_or_else(|| positions[g as usize], |(_, pos)| *pos)
}

/// The text of each file input with the lines the diagnostics point at (and
/// every other line empty), for snippets in the human report; held inputs
/// are their own text. An input that is not UTF-8 has none, as before.
pub fn snippet_sources(
    sources: &[Source],
    diagnostics: &[Diagnostic],
) -> Result<BTreeMap<String, String>, Diagnostic> {
    let mut texts = BTreeMap::new();
    for s in sources {
        let lines: std::collections::BTreeSet<usize> = diagnostics
            .iter()
            .filter(|d| d.file == s.label())
            .filter_map(|d| d.line)
            .collect();
        if lines.is_empty() {
            continue;
        }
        let text = match s {
            Source::Held(i) => std::str::from_utf8(&i.bytes).ok().map(str::to_string),
            Source::File(f) => {
                let r = crate::input::open_input(&f.path, &f.label, f.max)?;
                decode::sparse_lines(r, &lines).map_err(|e| read_failure(&f.label, &e))?
            }
        };
        if let Some(text) = text {
            texts.insert(s.label().to_string(), text);
        }
    }
    Ok(texts)
}

#[cfg(test)]
mod tests {
    //! Every import rule fires on a small input built here and stays quiet on a clean one.

    use super::*;
    use serde_json::{json, Value};

    const TRACE: &str = "00000000000000000000000000000abc";

    /// A span of TRACE: id and parent as small numbers, times in seconds.
    fn span(id: u64, parent: Option<u64>, op: &str, who: &str, start: u64, end: u64) -> Value {
        let mut attrs = vec![json!({"key": "gen_ai.operation.name", "value": {"stringValue": op}})];
        let key = if op == "execute_tool" {
            "gen_ai.tool.name"
        } else {
            "gen_ai.agent.name"
        };
        if !who.is_empty() {
            attrs.push(json!({"key": key, "value": {"stringValue": who}}));
        }
        let mut s = json!({
            "traceId": TRACE,
            "spanId": format!("{id:016x}"),
            "name": op,
            "startTimeUnixNano": (1_000_000_000_000 + start * 1_000_000_000).to_string(),
            "endTimeUnixNano": (1_000_000_000_000 + end * 1_000_000_000).to_string(),
            "attributes": attrs,
        });
        if let Some(p) = parent {
            s["parentSpanId"] = json!(format!("{p:016x}"));
        }
        s
    }

    fn doc(spans: Vec<Value>) -> Input {
        let v = json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
        Input {
            label: "in.json".into(),
            bytes: serde_json::to_vec_pretty(&v).unwrap(),
        }
    }

    /// A clean trace: an orchestrator delegating one tool-using worker.
    fn clean() -> Vec<Value> {
        vec![
            span(1, None, "invoke_agent", "lead", 0, 10),
            span(2, Some(1), "invoke_agent", "worker", 1, 8),
            span(3, Some(2), "execute_tool", "search", 2, 4),
        ]
    }

    fn rules(spans: Vec<Value>) -> Vec<String> {
        import(&[doc(spans)], &Options::default())
            .diagnostics
            .into_iter()
            .map(|d| d.rule)
            .collect()
    }

    fn fires(rule: &str, edit: impl FnOnce(&mut Vec<Value>)) {
        assert!(!rules(clean()).contains(&rule.to_string()));
        let mut spans = clean();
        edit(&mut spans);
        let got = rules(spans);
        assert!(got.contains(&rule.to_string()), "{rule} not in {got:?}");
    }

    #[test]
    fn the_clean_trace_imports_without_diagnostics() {
        let out = import(&[doc(clean())], &Options::default());
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        assert_eq!(out.traces.len(), 1);
        assert_eq!(out.traces[0].events, 4);
    }

    #[test]
    fn span_rules_fire() {
        fires("otlp-span-id", |s| s[1]["spanId"] = json!("12"));
        fires("otlp-span-time", |s| {
            s[2].as_object_mut().unwrap().remove("endTimeUnixNano");
        });
        fires("otlp-attribute-type", |s| {
            s[0]["attributes"][0]["value"] = json!({"stringValue": 7})
        });
        fires("otlp-duplicate-span", |s| {
            s[2]["spanId"] = s[1]["spanId"].clone()
        });
        fires("otlp-missing-parent", |s| {
            s[1]["parentSpanId"] = json!("00000000000000ff")
        });
        fires("otlp-parent-cycle", |s| {
            s[0]["parentSpanId"] = json!(format!("{:016x}", 3))
        });
        fires("otlp-clock", |s| {
            s[2]["startTimeUnixNano"] = json!("999000000000")
        });
        fires("otlp-no-agent", |s| {
            s[1]["attributes"].as_array_mut().unwrap().truncate(1);
        });
        fires("otlp-no-tool", |s| {
            s[2]["attributes"].as_array_mut().unwrap().truncate(1);
            s[2]["name"] = json!("execute_tool");
        });
        fires("otlp-link-dropped", |s| {
            s[2]["links"] = json!([{"traceId": TRACE, "spanId": "00000000000000ee"}])
        });
        fires("otlp-no-events", |s| {
            for span in s.iter_mut() {
                span["attributes"][0]["value"] = json!({"stringValue": "embeddings"});
            }
        });
    }

    /// Usage attributes (OTLP integers are signed 64-bit: i64::MAX at most).
    fn usage(s: &mut Value, input: u64, output: u64) {
        for (key, n) in [("input_tokens", input), ("output_tokens", output)] {
            let attr =
                json!({"key": format!("gen_ai.usage.{key}"), "value": {"intValue": n.to_string()}});
            s["attributes"].as_array_mut().unwrap().push(attr);
        }
    }

    /// The clean trace with a model call beside the tool, and usage on both.
    fn with_usage(tool: (u64, u64), call: (u64, u64)) -> Vec<Value> {
        let mut spans = clean();
        spans.push(span(4, Some(1), "chat", "", 1, 2));
        usage(&mut spans[2], tool.0, tool.1);
        usage(&mut spans[3], call.0, call.1);
        spans
    }

    #[test]
    fn token_sums_past_what_a_trace_counts_exactly_are_refused_not_rounded() {
        let (half, max) = (crate::MAX_TOKENS / 2, i64::MAX as u64);
        // One past the limit, and past 64 bits (i64::MAX twice, and 2 more).
        fires("otlp-token-overflow", |s| {
            *s = with_usage((half, half), (0, 1))
        });
        fires("otlp-token-overflow", |s| {
            *s = with_usage((max, max), (0, 2))
        });
        let out = import(&[doc(with_usage((max, max), (0, 2)))], &Options::default());
        assert!(out.traces.is_empty());
        // The largest count a trace holds is written exactly, and validates.
        let out = import(
            &[doc(with_usage((half, half - 5), (0, 5)))],
            &Options::default(),
        );
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        assert!(out.traces[0]
            .text
            .contains(&format!("\"tokens\":{}", crate::MAX_TOKENS)));
    }

    #[test]
    fn document_rules_fire() {
        let bad = |text: &str| -> Vec<String> {
            let input = Input {
                label: "x".into(),
                bytes: text.as_bytes().to_vec(),
            };
            import(&[input], &Options::default())
                .diagnostics
                .into_iter()
                .map(|d| d.rule)
                .collect()
        };
        assert_eq!(bad(""), ["otlp-empty"]);
        assert_eq!(bad("{\"resourceSpans\": ["), ["otlp-json"]);
        assert_eq!(bad("{\"events\": []}"), ["otlp-json"]);
    }

    #[test]
    fn an_agent_acting_before_its_creation_is_an_error() {
        // The chosen orchestrator acts before the span that creates it.
        let spans = vec![
            span(1, None, "invoke_agent", "lead", 0, 10),
            span(2, Some(1), "create_agent", "boss", 1, 2),
        ];
        let opts = Options {
            orchestrator: Some("boss".into()),
            ..Options::default()
        };
        let out = import(&[doc(spans)], &opts);
        assert!(out.traces.is_empty());
        let d = &out.diagnostics[0];
        assert_eq!(d.rule, "otlp-act-before-create");
        assert!(d.message.contains("\"boss\""), "{}", d.message);
    }

    #[test]
    fn diagnostics_are_capped_per_rule() {
        let mut spans = clean();
        for k in 0..(MAX_PER_RULE as u64 + 5) {
            let mut s = span(100 + k, Some(1), "chat", "", 1, 2);
            s["attributes"][0]["value"] = json!({"floatValue": 1});
            spans.push(s);
        }
        let out = import(&[doc(spans)], &Options::default());
        let n = out
            .diagnostics
            .iter()
            .filter(|d| d.rule == "otlp-attribute-type")
            .count();
        assert_eq!(n, MAX_PER_RULE);
        // The count of the rest is a note for the summary, not a problem of its own.
        assert!(!out.diagnostics.iter().any(|d| d.message.contains("more")));
        assert_eq!(out.elided.len(), 1);
        assert!(
            out.elided[0].contains("5 more `otlp-attribute-type`"),
            "{:?}",
            out.elided
        );
        assert!(out.summary().ends_with(&out.elided[0]), "{}", out.summary());
        // Each shown one is located at its own span, by line.
        let located = out
            .diagnostics
            .iter()
            .filter(|d| d.rule == "otlp-attribute-type" && d.line.is_some() && d.field.is_some())
            .count();
        assert_eq!(located, MAX_PER_RULE);
    }
}

#[cfg(test)]
mod robustness {
    //! Random damage to OTLP input must give diagnostics, never a panic, and
    //! whatever is imported must validate.

    use super::*;
    use crate::testutil::Rng;
    use serde_json::{json, Value};

    const SEEDS: [&str; 2] = [
        include_str!("../../../../traces/otlp/research-team.json"),
        include_str!("../../../../tests/fixtures/otlp/debate.jsonl"),
    ];

    fn exercise(bytes: Vec<u8>) {
        let out = import(
            &[Input {
                label: "fuzz".into(),
                bytes,
            }],
            &Options::default(),
        );
        for t in &out.traces {
            assert!(
                crate::validate_bytes("t.json", t.text.as_bytes()).is_empty(),
                "an imported trace does not validate:\n{}",
                t.text
            );
        }
        for d in out
            .diagnostics
            .iter()
            .filter(|d| d.rule == "otlp-invalid-result")
        {
            eprintln!("INVALID {}", d.message);
        }
        let _ = out.summary();
    }

    #[test]
    fn byte_damage_never_panics() {
        let mut rng = Rng(0x0123_4567_89AB_CDEF);
        const BYTES: &[u8] = b"{}[]\",:-0123456789abcdef \n\\";
        for _ in 0..400 {
            let mut t = SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(t.len());
                match rng.below(3) {
                    0 => {
                        let end = (at + rng.below(30)).min(t.len());
                        t.drain(at..end);
                    }
                    1 => t.insert(at, BYTES[rng.below(BYTES.len())]),
                    _ => t[at] = BYTES[rng.below(BYTES.len())],
                }
            }
            exercise(t);
        }
    }

    #[test]
    fn structural_damage_never_panics() {
        let mut rng = Rng(0xFEDC_BA98_7654_3210);
        let seed: Value = serde_json::from_str(SEEDS[0]).unwrap();
        let spans = seed["resourceSpans"][0]["scopeSpans"][0]["spans"]
            .as_array()
            .unwrap()
            .clone();
        let ids: Vec<Value> = spans.iter().map(|s| s["spanId"].clone()).collect();
        let times: Vec<Value> = spans
            .iter()
            .flat_map(|s| [s["startTimeUnixNano"].clone(), s["endTimeUnixNano"].clone()])
            .collect();
        let ops = [
            "invoke_agent",
            "create_agent",
            "execute_tool",
            "chat",
            "plan",
            "other",
        ];
        for _ in 0..400 {
            let mut spans = spans.clone();
            for _ in 0..1 + rng.below(6) {
                let i = rng.below(spans.len());
                let s = &mut spans[i];
                match rng.below(7) {
                    0 => s["parentSpanId"] = ids[rng.below(ids.len())].clone(),
                    1 => s["spanId"] = ids[rng.below(ids.len())].clone(),
                    2 => s["startTimeUnixNano"] = times[rng.below(times.len())].clone(),
                    3 => s["endTimeUnixNano"] = times[rng.below(times.len())].clone(),
                    4 => {
                        let link =
                            json!({"traceId": s["traceId"], "spanId": ids[rng.below(ids.len())]});
                        s["links"] = json!([link]);
                    }
                    5 => {
                        s["attributes"][0]["value"] =
                            json!({"stringValue": ops[rng.below(ops.len())]})
                    }
                    _ => {
                        if let Some(a) = s["attributes"].as_array_mut() {
                            a.truncate(1);
                        }
                    }
                }
            }
            let doc = json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
            exercise(serde_json::to_vec(&doc).unwrap());
        }
    }
}
