//! One OTLP span as serde reads it, and its reduction to a compact [`Span`].

use super::any_value::Scalar;
use super::attributes::{Attrs, EventAttrs};
use super::{Decision, Link, Span, SpanProblem};
use crate::otlp::mapping::{keys, marks};
use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;

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

/// One span event, kept only when it is a tool-call decision (`mapping::keys::DECISION`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawEvent {
    #[serde(default)]
    name: String,
    #[serde(default)]
    time_unix_nano: Option<U64>,
    #[serde(default)]
    attributes: EventAttrs,
}

/// A span's event list, reduced to its tool-call decisions as it streams past.
#[derive(Default)]
struct Decisions(Vec<Decision>);

impl<'de> Deserialize<'de> for Decisions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Decisions;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of span events")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Decisions, A::Error> {
                let mut out = Vec::new();
                while let Some(e) = seq.next_element::<RawEvent>()? {
                    if e.name != keys::DECISION {
                        continue;
                    }
                    let a = e.attributes;
                    let Some(outcome) = a.outcome else { continue };
                    out.push(Decision {
                        t: e.time_unix_nano.and_then(|t| t.0).unwrap_or(0),
                        outcome,
                        call: a.call_id.or(a.tool).unwrap_or_default(),
                    });
                }
                Ok(Decisions(out))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Decisions, E> {
                Ok(Decisions::default())
            }
        }
        d.deserialize_any(V)
    }
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
    #[serde(default)]
    kind: Option<serde_json::Value>,
    #[serde(default)]
    events: Decisions,
}

/// The `mapping::marks` bit of a span kind: CLIENT (3) or SERVER (2), as integers or enum names.
fn kind_mark(kind: Option<&serde_json::Value>) -> u8 {
    match kind {
        Some(serde_json::Value::Number(n)) if n.as_u64() == Some(3) => marks::CLIENT,
        Some(serde_json::Value::Number(n)) if n.as_u64() == Some(2) => marks::SERVER,
        Some(serde_json::Value::String(s)) if s == "SPAN_KIND_CLIENT" => marks::CLIENT,
        Some(serde_json::Value::String(s)) if s == "SPAN_KIND_SERVER" => marks::SERVER,
        _ => 0,
    }
}

/// Parses an id of `bytes` bytes: hex (2n digits, either case), as OTLP/JSON
/// writes it, or base64 (standard or URL-safe alphabet, padding optional), as
/// protobuf's own JSON printer writes `bytes` fields. The two lengths never
/// coincide, so an id cannot be read both ways.
fn hex(s: &str, bytes: usize) -> Option<u128> {
    if s.len() == bytes * 2 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return u128::from_str_radix(s, 16).ok();
    }
    base64(s, bytes)
}

/// Decodes base64 of exactly `bytes` bytes into a big-endian integer.
fn base64(s: &str, bytes: usize) -> Option<u128> {
    let digits = s.trim_end_matches('=');
    if digits.len() != (bytes * 8).div_ceil(6) || s.len() > bytes.div_ceil(3) * 4 {
        return None;
    }
    let mut acc: u128 = 0;
    let mut bits = 0u32;
    let mut out: u128 = 0;
    let mut taken = 0usize;
    for c in digits.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u128::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out = (out << 8) | ((acc >> bits) & 0xff);
            acc &= (1u128 << bits) - 1;
            taken += 1;
        }
    }
    // Leftover bits must be zero, as a canonical encoder leaves them.
    (taken == bytes && acc == 0).then_some(out)
}

impl From<RawSpan> for RawSpanCompact {
    fn from(raw: RawSpan) -> RawSpanCompact {
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
        attrs.genai.marks |= kind_mark(raw.kind.as_ref());
        if !raw.events.0.is_empty() {
            attrs.genai.x_mut().decisions = raw.events.0;
        }
        let status = raw.status.unwrap_or_default();
        let error = attrs
            .genai
            .x()
            .error_type
            .as_deref()
            .map(Box::from)
            .or_else(|| {
                status.is_error().then(|| {
                    status
                        .message
                        .filter(|m| !m.is_empty())
                        .unwrap_or_else(|| "error".to_string())
                        .into()
                })
            });
        let span = Span {
            trace,
            id,
            parent,
            start,
            end,
            name: super::atom::atom(&raw.name),
            attrs: attrs.genai,
            links,
            error,
        };
        RawSpanCompact(span, problems)
    }
}

/// A span converted to its compact form as soon as it is read, with its problems.
#[derive(Deserialize)]
#[serde(from = "RawSpan")]
pub(super) struct RawSpanCompact(pub(super) Span, pub(super) Vec<SpanProblem>);

#[cfg(test)]
mod tests {
    use super::hex;

    #[test]
    fn ids_read_as_hex_or_base64() {
        assert_eq!(hex("0102030405060708", 8), Some(0x0102030405060708));
        // The same id as protobuf's JSON printer writes it.
        assert_eq!(hex("AQIDBAUGBwg=", 8), Some(0x0102030405060708));
        assert_eq!(hex("AQIDBAUGBwg", 8), Some(0x0102030405060708));
        assert_eq!(
            hex("AQIDBAUGBwgJCgsMDQ4PEA==", 16),
            Some(0x0102030405060708090a0b0c0d0e0f10)
        );
        assert_eq!(
            hex("_-_-_-_-_-_-_-_-_-_-_w==", 16).map(|v| v & 0xff),
            Some(0xff)
        );
        for bad in [
            "AQIDBAUGBw==",
            "AQIDBAUGBwh=",
            "AQIDBAUG*wg=",
            "xyz",
            "",
            "AQIDBAUGBwg===",
        ] {
            assert_eq!(hex(bad, 8), None, "{bad}");
        }
    }
}
