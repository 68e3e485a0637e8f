//! A span's attribute list, reduced to the `gen_ai.*` keys the mapping reads and the problems found.

use super::any_value::Any;
use super::{GenAi, SpanProblem};
use crate::otlp::mapping::keys;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

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
pub(super) struct Attrs {
    pub(super) genai: GenAi,
    pub(super) problems: Vec<SpanProblem>,
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
