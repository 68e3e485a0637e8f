//! Decodes OTLP JSON (`resourceSpans` → `scopeSpans` → `spans`, one document
//! or JSON Lines of documents) into compact spans.
//!
//! Only what the mapping reads is kept: ids as integers, times, the span
//! name, the `gen_ai.*` attributes of [`super::mapping::keys`], links and
//! the error status. Every attribute value is still checked for a known
//! `AnyValue` shape while it streams past, so an unknown type is reported
//! with its position even when the mapping would ignore it. Unknown fields
//! are skipped, as OTLP/JSON receivers must.

use super::mapping::keys;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

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
    pub name: Box<str>,
    pub attrs: GenAi,
    pub links: Vec<Link>,
    /// `error.type`, else the status message of a span whose status is ERROR.
    pub error: Option<Box<str>>,
    pub problems: Vec<SpanProblem>,
}

/// The attributes the mapping reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct GenAi {
    pub operation: Option<Box<str>>,
    pub agent_name: Option<Box<str>>,
    pub agent_id: Option<Box<str>>,
    pub workflow: Option<Box<str>>,
    pub tool: Option<Box<str>>,
    pub conversation: Option<Box<str>>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub error_type: Option<Box<str>>,
    pub service: Option<Box<str>>,
}

/// A decoded `AnyValue`; nested values are checked but not kept.
#[derive(Debug, Clone, PartialEq)]
enum Any {
    Str(Box<str>),
    Int(i64),
    Double,
    Bool,
    Bytes,
    Array,
    Kvlist,
    Empty,
    /// A shape OTLP does not define: what was wrong.
    Bad(String),
}

impl Any {
    fn type_name(&self) -> &'static str {
        match self {
            Any::Str(_) => "stringValue",
            Any::Int(_) => "intValue",
            Any::Double => "doubleValue",
            Any::Bool => "boolValue",
            Any::Bytes => "bytesValue",
            Any::Array => "arrayValue",
            Any::Kvlist => "kvlistValue",
            Any::Empty => "an empty value",
            Any::Bad(_) => "an unknown type",
        }
    }
}

impl<'de> Deserialize<'de> for Any {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyVisitor)
    }
}

struct AnyVisitor;

impl<'de> Visitor<'de> for AnyVisitor {
    type Value = Any;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an OTLP AnyValue object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Any, A::Error> {
        let mut out = Any::Empty;
        let mut seen = 0usize;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            seen += 1;
            let value = match &*key {
                "stringValue" => match map.next_value::<Scalar>()? {
                    Scalar::Str(s) => Any::Str(s.into()),
                    other => Any::Bad(format!("stringValue holds {}", other.describe())),
                },
                "intValue" => match map.next_value::<Scalar>()? {
                    Scalar::Int(i) => Any::Int(i),
                    Scalar::Str(s) => match s.parse::<i64>() {
                        Ok(i) => Any::Int(i),
                        Err(_) => Any::Bad(format!("intValue \"{s}\" is not a 64-bit integer")),
                    },
                    other => Any::Bad(format!("intValue holds {}", other.describe())),
                },
                "doubleValue" => match map.next_value::<Scalar>()? {
                    Scalar::Int(_) | Scalar::Float => Any::Double,
                    Scalar::Str(s) if matches!(&*s, "NaN" | "Infinity" | "-Infinity") => {
                        Any::Double
                    }
                    other => Any::Bad(format!("doubleValue holds {}", other.describe())),
                },
                "boolValue" => match map.next_value::<Scalar>()? {
                    Scalar::Bool => Any::Bool,
                    other => Any::Bad(format!("boolValue holds {}", other.describe())),
                },
                "bytesValue" => match map.next_value::<Scalar>()? {
                    Scalar::Str(_) => Any::Bytes,
                    other => Any::Bad(format!("bytesValue holds {}", other.describe())),
                },
                "arrayValue" => match map.next_value::<ArrayValue>()? {
                    ArrayValue(None) => Any::Array,
                    ArrayValue(Some(bad)) => Any::Bad(format!("inside arrayValue: {bad}")),
                },
                "kvlistValue" => match map.next_value::<KvlistValue>()? {
                    KvlistValue(None) => Any::Kvlist,
                    KvlistValue(Some(bad)) => Any::Bad(format!("inside kvlistValue: {bad}")),
                },
                other => {
                    map.next_value::<IgnoredAny>()?;
                    Any::Bad(format!("unknown AnyValue type `{other}`"))
                }
            };
            // Keep the first problem; a second member is itself a problem.
            out = match (out, value) {
                (Any::Bad(b), _) => Any::Bad(b),
                (_, Any::Bad(b)) => Any::Bad(b),
                (_, v) if seen > 1 => {
                    Any::Bad(format!("more than one type set (also {})", v.type_name()))
                }
                (_, v) => v,
            };
        }
        Ok(out)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Any, E> {
        Ok(Any::Empty)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare boolean instead of an AnyValue object".into(),
        ))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare number instead of an AnyValue object".into(),
        ))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare number instead of an AnyValue object".into(),
        ))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare number instead of an AnyValue object".into(),
        ))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare string instead of an AnyValue object".into(),
        ))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Any, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Any::Bad(
            "a bare array instead of an AnyValue object".into(),
        ))
    }
}

/// A JSON scalar, for checking the member of an `AnyValue`.
enum Scalar {
    Str(String),
    Int(i64),
    Float,
    Bool,
    Other(&'static str),
}

impl Scalar {
    fn describe(&self) -> String {
        match self {
            Scalar::Str(s) => format!("the string \"{s}\""),
            Scalar::Int(i) => format!("the number {i}"),
            Scalar::Float => "a number".into(),
            Scalar::Bool => "a boolean".into(),
            Scalar::Other(what) => (*what).into(),
        }
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON scalar")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Scalar, E> {
                Ok(Scalar::Str(s.to_string()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Scalar, E> {
                Ok(Scalar::Str(s))
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<Scalar, E> {
                Ok(Scalar::Int(i))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Scalar, E> {
                Ok(i64::try_from(u).map_or(Scalar::Float, Scalar::Int))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Scalar, E> {
                Ok(Scalar::Float)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Scalar, E> {
                Ok(Scalar::Bool)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Scalar, E> {
                Ok(Scalar::Other("null"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other("an array"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other("an object"))
            }
        }
        d.deserialize_any(V)
    }
}

/// `{"values": [AnyValue…]}`: the first problem inside, if any.
struct ArrayValue(Option<String>);

impl<'de> Deserialize<'de> for ArrayValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            #[serde(default)]
            values: Vec<Any>,
        }
        let raw = Raw::deserialize(d)?;
        Ok(ArrayValue(raw.values.into_iter().find_map(|v| match v {
            Any::Bad(b) => Some(b),
            _ => None,
        })))
    }
}

/// `{"values": [{"key", "value"}…]}`: the first problem inside, if any.
struct KvlistValue(Option<String>);

impl<'de> Deserialize<'de> for KvlistValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Kv {
            #[serde(default)]
            value: Option<Any>,
        }
        #[derive(Deserialize)]
        struct Raw {
            #[serde(default)]
            values: Vec<Kv>,
        }
        let raw = Raw::deserialize(d)?;
        Ok(KvlistValue(raw.values.into_iter().find_map(
            |kv| match kv.value {
                Some(Any::Bad(b)) => Some(b),
                _ => None,
            },
        )))
    }
}

/// One `KeyValue` of an attribute list.
#[derive(Deserialize)]
struct KeyValue {
    #[serde(default)]
    key: String,
    #[serde(default)]
    value: Option<Any>,
}

/// An attribute list, reduced to the keys the mapping reads plus problems.
#[derive(Default)]
struct Attrs {
    genai: GenAi,
    problems: Vec<SpanProblem>,
}

impl Attrs {
    fn absorb(&mut self, index: usize, kv: KeyValue) {
        let value = kv.value.unwrap_or(Any::Empty);
        if let Any::Bad(detail) = &value {
            self.problems.push(SpanProblem::AttrType {
                index,
                key: kv.key,
                detail: detail.clone(),
            });
            return;
        }
        let g = &mut self.genai;
        let slot_str = match kv.key.as_str() {
            keys::OPERATION => Some(&mut g.operation),
            keys::AGENT_NAME => Some(&mut g.agent_name),
            keys::AGENT_ID => Some(&mut g.agent_id),
            keys::WORKFLOW_NAME => Some(&mut g.workflow),
            keys::TOOL_NAME => Some(&mut g.tool),
            keys::CONVERSATION => Some(&mut g.conversation),
            keys::ERROR_TYPE => Some(&mut g.error_type),
            keys::SERVICE_NAME => Some(&mut g.service),
            _ => None,
        };
        if let Some(slot) = slot_str {
            match value {
                Any::Str(s) => *slot = Some(s),
                Any::Empty => {}
                other => self.problems.push(SpanProblem::AttrType {
                    index,
                    key: kv.key,
                    detail: format!("expected a stringValue, found {}", other.type_name()),
                }),
            }
            return;
        }
        let slot_int = match kv.key.as_str() {
            keys::INPUT_TOKENS => Some(&mut g.input_tokens),
            keys::OUTPUT_TOKENS => Some(&mut g.output_tokens),
            _ => None,
        };
        if let Some(slot) = slot_int {
            match value {
                Any::Int(i) if i >= 0 => *slot = Some(i as u64),
                Any::Int(i) => self.problems.push(SpanProblem::AttrType {
                    index,
                    key: kv.key,
                    detail: format!("a token count cannot be negative ({i})"),
                }),
                Any::Empty => {}
                other => self.problems.push(SpanProblem::AttrType {
                    index,
                    key: kv.key,
                    detail: format!("expected an intValue, found {}", other.type_name()),
                }),
            }
        }
    }
}

impl<'de> Deserialize<'de> for Attrs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Attrs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of {\"key\", \"value\"} attributes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Attrs, A::Error> {
                let mut attrs = Attrs::default();
                let mut i = 0;
                while let Some(kv) = seq.next_element::<KeyValue>()? {
                    attrs.absorb(i, kv);
                    i += 1;
                }
                Ok(attrs)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Attrs, E> {
                Ok(Attrs::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// An unsigned 64-bit integer written as a decimal string (OTLP/JSON) or a number.
struct U64(Option<u64>);

impl<'de> Deserialize<'de> for U64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(U64(match Scalar::deserialize(d)? {
            Scalar::Str(s) => s.parse().ok(),
            Scalar::Int(i) => u64::try_from(i).ok(),
            _ => None,
        }))
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct RawStatus {
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    code: Option<serde_json::Value>,
}

impl RawStatus {
    /// Status code ERROR is 2, or its enum name in the protobuf JSON mapping.
    fn is_error(&self) -> bool {
        match &self.code {
            Some(serde_json::Value::Number(n)) => n.as_u64() == Some(2),
            Some(serde_json::Value::String(s)) => s == "STATUS_CODE_ERROR",
            _ => false,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawLink {
    #[serde(default)]
    trace_id: String,
    #[serde(default)]
    span_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawSpan {
    #[serde(default)]
    trace_id: String,
    #[serde(default)]
    span_id: String,
    #[serde(default)]
    parent_span_id: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    start_time_unix_nano: Option<U64>,
    #[serde(default)]
    end_time_unix_nano: Option<U64>,
    #[serde(default)]
    attributes: Attrs,
    #[serde(default)]
    links: Option<Vec<RawLink>>,
    #[serde(default)]
    status: Option<RawStatus>,
}

/// Parses `n` bytes of hex (2n digits, either case) into an integer.
fn hex(s: &str, bytes: usize) -> Option<u128> {
    if s.len() != bytes * 2 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u128::from_str_radix(s, 16).ok()
}

impl From<RawSpan> for Span {
    fn from(raw: RawSpan) -> Span {
        let mut problems = Vec::new();
        let trace = match hex(&raw.trace_id, 16) {
            Some(t) if t != 0 => t,
            _ => {
                problems.push(SpanProblem::BadId {
                    field: "traceId",
                    value: raw.trace_id.clone(),
                });
                0
            }
        };
        let id = match hex(&raw.span_id, 8) {
            Some(s) if s != 0 => s as u64,
            _ => {
                problems.push(SpanProblem::BadId {
                    field: "spanId",
                    value: raw.span_id.clone(),
                });
                0
            }
        };
        let parent = match raw.parent_span_id.as_deref() {
            None | Some("") => None,
            Some(p) => match hex(p, 8) {
                Some(0) => None,
                Some(v) => Some(v as u64),
                None => {
                    problems.push(SpanProblem::BadRef {
                        field: "parentSpanId",
                        value: p.to_string(),
                    });
                    None
                }
            },
        };
        let mut time = |v: Option<U64>, field: &'static str| match v {
            Some(U64(Some(t))) if t > 0 => t,
            _ => {
                problems.push(SpanProblem::BadTime { field });
                0
            }
        };
        let start = time(raw.start_time_unix_nano, "startTimeUnixNano");
        let end = time(raw.end_time_unix_nano, "endTimeUnixNano");
        let mut links = Vec::new();
        for l in raw.links.unwrap_or_default() {
            match (hex(&l.trace_id, 16), hex(&l.span_id, 8)) {
                (Some(t), Some(s)) => links.push(Link {
                    trace: t,
                    span: s as u64,
                }),
                _ => problems.push(SpanProblem::BadRef {
                    field: "links",
                    value: format!("{}/{}", l.trace_id, l.span_id),
                }),
            }
        }
        let mut attrs = raw.attributes;
        problems.append(&mut attrs.problems);
        let status = raw.status.unwrap_or_default();
        let error = attrs.genai.error_type.clone().or_else(|| {
            status.is_error().then(|| {
                status
                    .message
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| "error".to_string())
                    .into()
            })
        });
        Span {
            trace,
            id,
            parent,
            start,
            end,
            name: raw.name.into(),
            attrs: attrs.genai,
            links,
            error,
            problems,
        }
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

/// A span converted to its compact form as soon as it is read.
#[derive(Deserialize)]
#[serde(from = "RawSpan")]
struct RawSpanCompact(Span);

impl From<RawSpan> for RawSpanCompact {
    fn from(raw: RawSpan) -> Self {
        RawSpanCompact(raw.into())
    }
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

/// Where a span sits in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    /// Index of the input file.
    pub input: u32,
    /// Byte offset where the span's document starts.
    pub doc_start: usize,
    /// 1-based line where the span's document starts.
    pub doc_line: usize,
    pub resource: u32,
    pub scope: u32,
    pub span: u32,
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

/// What one input decodes into.
pub(crate) struct Decoded {
    /// Spans with their positions, in input order.
    pub spans: Vec<(Span, Pos)>,
    /// Documents that could not be read.
    pub problems: Vec<DocProblem>,
    /// Documents read.
    pub documents: usize,
}

/// Decodes one input: a single OTLP JSON document, or several (JSON Lines).
///
/// A document that fails to parse is reported; in JSON Lines, reading goes
/// on at the next line, so every broken line is reported, not only the first.
pub(crate) fn decode(input: u32, bytes: &[u8]) -> Decoded {
    let mut out = Decoded {
        spans: Vec::new(),
        problems: Vec::new(),
        documents: 0,
    };
    let mut at = 0usize;
    let mut line = 1usize;
    let mut multi = false;
    loop {
        // Skip whitespace, counting lines.
        while let Some(&b) = bytes.get(at) {
            if !b.is_ascii_whitespace() {
                break;
            }
            if b == b'\n' {
                line += 1;
            }
            at += 1;
        }
        if at >= bytes.len() {
            break;
        }
        let mut stream = serde_json::Deserializer::from_slice(&bytes[at..]).into_iter::<Document>();
        match stream.next() {
            Some(Ok(doc)) => {
                let len = stream.byte_offset();
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
                    line += count_newlines(&bytes[at..at + len]);
                    at += len;
                    multi = true;
                    continue;
                };
                for (ri, rs) in resources.into_iter().enumerate() {
                    let service = rs.resource.and_then(|r| r.attributes.genai.service);
                    for (si, ss) in rs.scope_spans.into_iter().enumerate() {
                        for (ki, RawSpanCompact(mut span)) in ss.spans.into_iter().enumerate() {
                            span.attrs.service.clone_from(&service);
                            let pos = Pos {
                                input,
                                doc_start,
                                doc_line,
                                resource: ri as u32,
                                scope: si as u32,
                                span: ki as u32,
                            };
                            out.spans.push((span, pos));
                        }
                    }
                }
                line += count_newlines(&bytes[at..at + len]);
                at += len;
                multi = true;
            }
            Some(Err(e)) => {
                let rest = &bytes[at..];
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
    out
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

    fn one(json: &str) -> Decoded {
        decode(0, json.as_bytes())
    }

    const SPAN: &str = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"1112131415161718","name":"chat m","startTimeUnixNano":"1000","endTimeUnixNano":2000,"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12"}},{"key":"other","value":{"kvlistValue":{"values":[{"key":"a","value":{"arrayValue":{"values":[{"doubleValue":1.5}]}}}]}}}],"status":{"code":2,"message":"boom"}}]}]}]}"#;

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
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(pos.pointer(), "/resourceSpans/0/scopeSpans/0/spans/0");
    }

    #[test]
    fn unknown_attribute_types_are_problems_with_their_index() {
        let text = SPAN.replace(r#"{"doubleValue":1.5}"#, r#"{"floatValue":1.5}"#);
        let d = one(&text);
        let s = &d.spans[0].0;
        assert_eq!(s.problems.len(), 1);
        match &s.problems[0] {
            SpanProblem::AttrType { index, key, detail } => {
                assert_eq!((*index, key.as_str()), (2, "other"));
                assert!(detail.contains("floatValue"), "{detail}");
            }
            p => panic!("{p:?}"),
        }
        let text = SPAN.replace(r#"{"intValue":"12"}"#, r#"{"stringValue":"12"}"#);
        let s = &one(&text).spans[0].0;
        assert_eq!(s.attrs.input_tokens, None);
        assert!(matches!(
            &s.problems[0],
            SpanProblem::AttrType { index: 1, .. }
        ));
        let text = SPAN.replace(r#"{"intValue":"12"}"#, r#"{"intValue":"twelve"}"#);
        assert_eq!(one(&text).spans[0].0.problems.len(), 1);
    }

    #[test]
    fn bad_ids_and_times_are_problems() {
        let text = SPAN
            .replace("1112131415161718", "xyz")
            .replace(r#""startTimeUnixNano":"1000","#, "");
        let s = &one(&text).spans[0].0;
        assert!(s.problems.contains(&SpanProblem::BadId {
            field: "spanId",
            value: "xyz".into()
        }));
        assert!(s.problems.contains(&SpanProblem::BadTime {
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
        assert_eq!(d.spans[1].1.doc_line, 3);
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
