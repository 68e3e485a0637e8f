//! Decodes OTLP JSON (`resourceSpans` → `scopeSpans` → `spans`, one document
//! or JSON Lines of documents) into compact spans.
//!
//! Only what the mapping reads is kept: ids as integers, times, the span
//! name, the `gen_ai.*` attributes of [`super::mapping::keys`], links and
//! the error status. Every attribute value is still checked for a known
//! `AnyValue` shape while it streams past, so an unknown type is reported
//! with its position even when the mapping would ignore it. Unknown fields
//! are skipped, as OTLP/JSON receivers must.
//!
//! `span` reduces one span, `attributes` its attribute list and `any_value`
//! checks each value; `atom` shares the strings spans repeat, `window` reads
//! an input a line at a time (and finds documents again to place problems);
//! this module reads documents and JSON Lines of them.

mod any_value;
mod atom;
mod attributes;
mod span;
mod window;

pub(crate) use atom::Atom;
pub(crate) use window::{documents_at, sparse_lines};

use attributes::Attrs;
use serde::Deserialize;
use span::RawSpanCompact;

/// A problem found while decoding one span, before it is located in the file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SpanProblem {
    /// `traceId` or `spanId` missing, malformed or all zeros.
    BadId { field: &'static str, value: String },
    /// `parentSpanId` or a link id that is not hex of the right length.
    BadRef { field: &'static str, value: String },
    /// A start or end time missing or not an unsigned integer.
    BadTime { field: &'static str },
    /// An attribute whose value has an unknown or malformed `AnyValue` type.
    AttrType {
        index: usize,
        key: String,
        detail: String,
    },
}

/// A link to another span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    pub trace: u128,
    pub span: u64,
}

/// One span, reduced to what the mapping needs.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Span {
    pub trace: u128,
    pub id: u64,
    pub parent: Option<u64>,
    pub start: u64,
    pub end: u64,
    pub name: Atom,
    pub attrs: GenAi,
    pub links: Vec<Link>,
    /// `error.type`, else the status message of a span whose status is ERROR.
    pub error: Option<Box<str>>,
}

/// The attributes the mapping reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct GenAi {
    pub operation: Option<Atom>,
    pub agent_name: Option<Atom>,
    pub agent_id: Option<Atom>,
    pub workflow: Option<Atom>,
    pub tool: Option<Atom>,
    pub conversation: Option<Atom>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub service: Option<Atom>,
    /// `openinference.span.kind`, as 1 + its index in `mapping::OI_KINDS` (0: absent or unknown).
    pub oi_kind: u8,
    /// Logfire's span template (`logfire.msg_template`), as 1 + its index in `mapping::LOGFIRE` (0: none of them).
    pub logfire: u8,
    /// Attributes few spans carry, kept apart so the common span stays small.
    pub extra: Option<Box<Extra>>,
    /// Which conventions the attributes follow (`mapping::marks`).
    pub marks: u8,
}

/// The attributes of handoff, transfer, guardrail and OpenInference agent and tool spans.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Extra {
    /// `error.type`: only failed spans carry it.
    pub error_type: Option<Atom>,
    pub handoff_from: Option<Atom>,
    pub handoff_to: Option<Atom>,
    pub guardrail: Option<Atom>,
    pub triggered: Option<bool>,
    pub transfer_mode: Option<Atom>,
    pub transfer_target: Option<Atom>,
    pub transfer_type: Option<Atom>,
    /// `agent.name`, else `graph.node.id` (OpenInference).
    pub oi_agent: Option<Atom>,
    /// `graph.node.parent_id` (OpenInference).
    pub oi_parent: Option<Atom>,
    /// `tool.name` (OpenInference).
    pub oi_tool: Option<Atom>,
    /// The span's `gen_ai.tool.call.decision` events, in input order.
    pub decisions: Vec<Decision>,
}

/// A `gen_ai.tool.call.decision` span event: a decision about a tool call before it runs.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Decision {
    /// `timeUnixNano` (0 when missing or malformed).
    pub t: u64,
    /// `allow`, `deny` or `require_approval`.
    pub outcome: Box<str>,
    /// The call it gates: `gen_ai.tool.call.id`, else `gen_ai.tool.name`, else empty.
    pub call: Box<str>,
}

/// What a span without any of the rarer attributes has.
static NO_EXTRA: Extra = Extra {
    error_type: None,
    handoff_from: None,
    handoff_to: None,
    guardrail: None,
    triggered: None,
    transfer_mode: None,
    transfer_target: None,
    transfer_type: None,
    oi_agent: None,
    oi_parent: None,
    oi_tool: None,
    decisions: Vec::new(),
};

impl GenAi {
    /// The rarer attributes (all absent when the span has none).
    pub fn x(&self) -> &Extra {
        self.extra.as_deref().unwrap_or(&NO_EXTRA)
    }

    /// The rarer attributes, to fill in.
    pub(super) fn x_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Default::default)
    }
}

#[derive(Deserialize)]
struct Resource {
    #[serde(default)]
    attributes: Attrs,
}

#[derive(Deserialize)]
struct ScopeSpans {
    #[serde(default)]
    spans: Vec<RawSpanCompact>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceSpans {
    #[serde(default)]
    resource: Option<Resource>,
    #[serde(default)]
    scope_spans: Vec<ScopeSpans>,
}

/// One OTLP document (`TracesData` / `ExportTraceServiceRequest`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Document {
    #[serde(default)]
    resource_spans: Option<Vec<ResourceSpans>>,
}

/// Where a span sits in the input: its document (an index into
/// [`Spans::docs`], which says where the document is) and its place there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub doc: u32,
    pub resource: u32,
    pub scope: u32,
    pub span: u32,
}

/// Where a document that holds spans starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Doc {
    /// Index of the input file.
    pub input: u32,
    /// Byte offset where the document starts.
    pub start: usize,
    /// 1-based line where the document starts.
    pub line: usize,
}

impl Pos {
    /// JSON pointer of the span within its document.
    pub fn pointer(&self) -> String {
        format!(
            "/resourceSpans/{}/scopeSpans/{}/spans/{}",
            self.resource, self.scope, self.span
        )
    }
}

/// A problem with a whole document: it is not JSON, or not OTLP.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DocProblem {
    pub message: String,
    pub line: usize,
    pub column: usize,
    pub help: &'static str,
}

/// What one input decodes into, besides its spans.
pub(crate) struct Decoded {
    /// Documents that could not be read.
    pub problems: Vec<DocProblem>,
    /// Documents read.
    pub documents: usize,
}

/// Spans with their positions, in input order, and the problems of single
/// spans (by index into the spans), kept apart: few spans have any.
#[derive(Default)]
pub(crate) struct Spans {
    pub spans: Vec<(Span, Pos)>,
    pub problems: Vec<(usize, SpanProblem)>,
    /// The documents that the spans' positions name.
    pub docs: Vec<Doc>,
}

/// Decodes one input: a single OTLP JSON document, or several (JSON Lines).
///
/// A document that fails to parse is reported; in JSON Lines, reading goes
/// on at the next line, so every broken line is reported, not only the first.
#[cfg(test)]
pub(crate) fn decode(input: u32, bytes: &[u8]) -> (Decoded, Spans) {
    let mut spans = Spans::default();
    match decode_stream(input, bytes, &mut spans) {
        Ok(d) => (d, spans),
        Err(e) => unreachable!("reading from memory cannot fail: {e}"),
    }
}

/// Decodes one input read from `r` a line at a time (see [`decode`]); only
/// the document being read is held, never the whole input. Fails only when
/// reading fails.
pub(crate) fn decode_stream<R: std::io::BufRead>(
    input: u32,
    r: R,
    all: &mut Spans,
) -> std::io::Result<Decoded> {
    let mut out = Decoded {
        problems: Vec::new(),
        documents: 0,
    };
    let mut w = window::Window::new(r);
    let mut at = 0usize;
    let mut line = 1usize;
    let mut multi = false;
    loop {
        // Skip whitespace, counting lines.
        while let Some(b) = w.byte(at)? {
            if !b.is_ascii_whitespace() {
                break;
            }
            if b == b'\n' {
                line += 1;
            }
            at += 1;
        }
        w.release(at);
        if w.from(at).is_empty() {
            break;
        }
        // A document cut short by the window is read again with more of the input.
        let parsed = loop {
            let mut stream =
                serde_json::Deserializer::from_slice(w.from(at)).into_iter::<Document>();
            match stream.next() {
                Some(Err(e)) if e.is_eof() && !w.at_end() => w.grow()?,
                next => break next.map(|r| r.map(|doc| (doc, stream.byte_offset()))),
            }
        };
        let bytes = w.from(at);
        match parsed {
            Some(Ok((doc, len))) => {
                let doc_start = at;
                let doc_line = line;
                out.documents += 1;
                let Some(resources) = doc.resource_spans else {
                    out.problems.push(DocProblem {
                        message: "the document has no `resourceSpans`: it is not OTLP trace data"
                            .into(),
                        line,
                        column: 1,
                        help: "export traces as OTLP JSON (the collector's file exporter or OTLP/HTTP JSON)",
                    });
                    line += count_newlines(&bytes[..len]);
                    at += len;
                    multi = true;
                    continue;
                };
                let doc = all.docs.len() as u32;
                all.docs.push(Doc {
                    input,
                    start: doc_start,
                    line: doc_line,
                });
                for (ri, rs) in resources.into_iter().enumerate() {
                    let service = rs.resource.and_then(|r| r.attributes.genai.service);
                    for (si, ss) in rs.scope_spans.into_iter().enumerate() {
                        for (ki, RawSpanCompact(mut span, problems)) in
                            ss.spans.into_iter().enumerate()
                        {
                            let at = all.spans.len();
                            all.problems.extend(problems.into_iter().map(|p| (at, p)));
                            span.attrs.service.clone_from(&service);
                            let pos = Pos {
                                doc,
                                resource: ri as u32,
                                scope: si as u32,
                                span: ki as u32,
                            };
                            all.spans.push((span, pos));
                        }
                    }
                }
                line += count_newlines(&bytes[..len]);
                at += len;
                multi = true;
            }
            Some(Err(e)) => {
                let rest = bytes;
                // serde_json puts an error on a line break at column 0 of the next line.
                let eline = if e.column() == 0 {
                    e.line().saturating_sub(1)
                } else {
                    e.line()
                }
                .max(1);
                let line_start = nth_line_start(rest, eline);
                let next_line = rest[line_start..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map(|i| line_start + i + 1);
                let column = if e.column() == 0 {
                    let end = next_line.map_or(rest.len(), |n| n - 1);
                    String::from_utf8_lossy(&rest[line_start..end])
                        .chars()
                        .count()
                        + 1
                } else {
                    e.column()
                };
                out.problems.push(DocProblem {
                    message: json_message(&e),
                    line: line + eline - 1,
                    column,
                    help: if e.is_data() {
                        "OTLP JSON nests spans as resourceSpans[].scopeSpans[].spans[]; see `corpus trace import --explain`"
                    } else {
                        "each document must be one JSON object; JSON Lines put one per line"
                    },
                });
                // Only line-delimited input can be resumed: go on at the next line.
                match next_line {
                    Some(n) if multi || eline == 1 => {
                        line += eline;
                        at += n;
                        multi = true;
                    }
                    _ => break,
                }
            }
            None => break,
        }
    }
    atom::forget();
    Ok(out)
}

/// Byte offset where 1-based line `n` of `b` starts.
fn nth_line_start(b: &[u8], n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    b.iter()
        .enumerate()
        .filter(|(_, &c)| c == b'\n')
        .nth(n - 2)
        .map_or(b.len(), |(i, _)| i + 1)
}

fn count_newlines(b: &[u8]) -> usize {
    b.iter().filter(|&&c| c == b'\n').count()
}

fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    // serde_json appends " at line L column C"; the diagnostic carries those.
    let text = match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    if text.contains("recursion limit") {
        "the document is nested too deeply to be OTLP".to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One input decoded: document problems, spans, and each span's problems.
    struct One {
        problems: Vec<DocProblem>,
        spans: Vec<(Span, Pos)>,
        of_span: Vec<Vec<SpanProblem>>,
        docs: Vec<Doc>,
    }

    fn one(json: &str) -> One {
        let (d, all) = decode(0, json.as_bytes());
        let mut of_span = vec![Vec::new(); all.spans.len()];
        for (k, p) in all.problems {
            of_span[k].push(p);
        }
        One {
            problems: d.problems,
            spans: all.spans,
            of_span,
            docs: all.docs,
        }
    }

    const SPAN: &str = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"1112131415161718","name":"chat m","startTimeUnixNano":"1000","endTimeUnixNano":2000,"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12"}},{"key":"other","value":{"kvlistValue":{"values":[{"key":"a","value":{"arrayValue":{"values":[{"doubleValue":1.5}]}}}]}}}],"status":{"code":2,"message":"boom"}}]}]}]}"#;

    #[test]
    fn a_span_stays_small() {
        // Spans are kept by the million while a trace is built: the rarer
        // attributes live behind one pointer, allocated only when present.
        assert!(
            std::mem::size_of::<Span>() <= 208,
            "{}",
            std::mem::size_of::<Span>()
        );
        assert!(one(SPAN).spans[0].0.attrs.extra.is_none());
        assert_eq!(std::mem::size_of::<(Span, Pos)>(), 224);
    }

    #[test]
    fn a_span_decodes_into_its_compact_form() {
        let d = one(SPAN);
        assert!(d.problems.is_empty(), "{:?}", d.problems);
        assert_eq!(d.spans.len(), 1);
        let (s, pos) = &d.spans[0];
        assert_eq!(s.trace, 0x0102030405060708090a0b0c0d0e0f10);
        assert_eq!(s.id, 0x1112131415161718);
        assert_eq!(s.parent, None);
        assert_eq!((s.start, s.end), (1000, 2000));
        assert_eq!(s.attrs.operation.as_deref(), Some("chat"));
        assert_eq!(s.attrs.input_tokens, Some(12));
        assert_eq!(s.attrs.service.as_deref(), Some("svc"));
        assert_eq!(s.error.as_deref(), Some("boom"));
        assert!(d.of_span[0].is_empty(), "{:?}", d.of_span[0]);
        assert_eq!(pos.pointer(), "/resourceSpans/0/scopeSpans/0/spans/0");
    }

    #[test]
    fn unknown_attribute_types_are_problems_with_their_index() {
        let text = SPAN.replace(r#"{"doubleValue":1.5}"#, r#"{"floatValue":1.5}"#);
        let d = one(&text);
        assert_eq!(d.of_span[0].len(), 1);
        match &d.of_span[0][0] {
            SpanProblem::AttrType { index, key, detail } => {
                assert_eq!((*index, key.as_str()), (2, "other"));
                assert!(detail.contains("floatValue"), "{detail}");
            }
            p => panic!("{p:?}"),
        }
        let text = SPAN.replace(r#"{"intValue":"12"}"#, r#"{"stringValue":"12"}"#);
        let d = one(&text);
        assert_eq!(d.spans[0].0.attrs.input_tokens, None);
        assert!(matches!(
            &d.of_span[0][0],
            SpanProblem::AttrType { index: 1, .. }
        ));
        let text = SPAN.replace(r#"{"intValue":"12"}"#, r#"{"intValue":"twelve"}"#);
        assert_eq!(one(&text).of_span[0].len(), 1);
    }

    #[test]
    fn bad_ids_and_times_are_problems() {
        let text = SPAN
            .replace("1112131415161718", "xyz")
            .replace(r#""startTimeUnixNano":"1000","#, "");
        let d = one(&text);
        let s = &d.of_span[0];
        assert!(s.contains(&SpanProblem::BadId {
            field: "spanId",
            value: "xyz".into()
        }));
        assert!(s.contains(&SpanProblem::BadTime {
            field: "startTimeUnixNano"
        }));
    }

    #[test]
    fn json_lines_are_read_and_broken_lines_reported() {
        let text = format!("{SPAN}\n{{oops\n{SPAN}\n");
        let d = one(&text);
        assert_eq!(d.spans.len(), 2);
        assert_eq!(d.problems.len(), 1);
        assert_eq!(d.problems[0].line, 2);
        assert_eq!(d.docs[d.spans[1].1.doc as usize].line, 3);
    }

    #[test]
    fn documents_without_resource_spans_are_reported() {
        let d = one(r#"{"trace_id": "x"}"#);
        assert_eq!(d.problems.len(), 1);
        assert!(d.problems[0].message.contains("resourceSpans"));
        let d = one("[1,2]");
        assert_eq!(d.problems.len(), 1);
    }

    #[test]
    fn deep_nesting_is_a_problem_not_a_crash() {
        let deep = format!(
            "{}{{\"intValue\":1}}{}",
            "{\"arrayValue\":{\"values\":[".repeat(10_000),
            "]}}".repeat(10_000)
        );
        let text = SPAN.replace(r#"{"doubleValue":1.5}"#, &deep);
        let d = one(&text);
        assert_eq!(d.problems.len(), 1);
        assert!(d.problems[0].message.contains("nested"), "{:?}", d.problems);
        // Ignored members may nest deeply: they are skipped, not parsed.
        let ignored = format!(
            "{{\"resourceSpans\":[],\"x\":{}{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(one(&ignored).problems.is_empty());
    }
}
