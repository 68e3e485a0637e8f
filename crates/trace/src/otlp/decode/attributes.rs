//! A span's attribute list, reduced to the `gen_ai.*` keys the mapping reads and the problems found.

use super::any_value::Any;
use super::{Atom, GenAi, SpanProblem};
use crate::otlp::mapping::{keys, marks, Role};
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
    /// Logfire's plain attribute names, held until the list ends: they mean
    /// something only on a span whose template is one of `mapping::LOGFIRE`,
    /// and the template may come after them.
    logfire: Logfire,
}

/// The values of Logfire's OpenAI Agents spans (`name`, `from_agent`, `to_agent`, `triggered`).
#[derive(Default)]
struct Logfire {
    name: Option<Atom>,
    from: Option<Atom>,
    to: Option<Atom>,
    triggered: Option<bool>,
}

impl Attrs {
    /// Once the whole list is read: on a span of Logfire's OpenAI Agents
    /// integration, its plain attributes fill the slots the GenAI names would
    /// (a GenAI attribute the span also carries wins).
    fn finish(&mut self) {
        let lf = std::mem::take(&mut self.logfire);
        let g = &mut self.genai;
        let Some(op) = usize::from(g.logfire)
            .checked_sub(1)
            .and_then(|i| crate::otlp::mapping::LOGFIRE.get(i))
        else {
            return;
        };
        let fill = |slot: &mut Option<Atom>, v: Option<Atom>| {
            if slot.is_none() {
                *slot = v;
            }
        };
        match op.role {
            Role::Invoke => fill(&mut g.agent_name, lf.name),
            Role::Tool => fill(&mut g.tool, lf.name),
            Role::Handoff if lf.from.is_some() || lf.to.is_some() => {
                let x = g.x_mut();
                fill(&mut x.handoff_from, lf.from);
                fill(&mut x.handoff_to, lf.to);
            }
            Role::Guardrail if lf.name.is_some() || lf.triggered.is_some() => {
                let x = g.x_mut();
                fill(&mut x.guardrail, lf.name);
                x.triggered = x.triggered.or(lf.triggered);
            }
            _ => {}
        }
    }

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
        g.marks |= match kv.key.as_str() {
            keys::OPERATION => marks::GENAI,
            keys::OI_KIND => marks::OPENINFERENCE,
            keys::TRACELOOP_KIND => marks::TRACELOOP,
            keys::REQUEST_MODEL => marks::MODEL,
            keys::A2A_METHOD => marks::A2A,
            _ => 0,
        };
        // Older or alternative spellings fill a slot only when the preferred key has not.
        let fallback = crate::otlp::mapping::is_older_name(&kv.key);
        match (kv.key.as_str(), &value) {
            (keys::LOGFIRE_TEMPLATE, Any::Str(t)) => {
                g.logfire = crate::otlp::mapping::LOGFIRE
                    .iter()
                    .position(|o| o.name == &**t)
                    .map_or(0, |i| i as u8 + 1);
                return;
            }
            (keys::LOGFIRE_NAME, Any::Str(s)) => self.logfire.name = Some(s.clone()),
            (keys::LOGFIRE_FROM, Any::Str(s)) => self.logfire.from = Some(s.clone()),
            (keys::LOGFIRE_TO, Any::Str(s)) => self.logfire.to = Some(s.clone()),
            (keys::LOGFIRE_TRIGGERED, Any::Bool(b)) => self.logfire.triggered = Some(*b),
            _ => {}
        }
        if kv.key == keys::OI_KIND {
            if let Any::Str(kind) = &value {
                g.oi_kind = crate::otlp::mapping::OI_KINDS
                    .iter()
                    .position(|k| **k == **kind)
                    .map_or(0, |i| i as u8 + 1);
            }
            return;
        }
        let slot_str = match kv.key.as_str() {
            keys::OPERATION => Some(&mut g.operation),
            keys::AGENT_NAME => Some(&mut g.agent_name),
            keys::AGENT_ID => Some(&mut g.agent_id),
            keys::WORKFLOW_NAME => Some(&mut g.workflow),
            keys::TOOL_NAME => Some(&mut g.tool),
            keys::CONVERSATION => Some(&mut g.conversation),
            keys::ERROR_TYPE => Some(&mut g.x_mut().error_type),
            keys::SERVICE_NAME => Some(&mut g.service),
            keys::HANDOFF_FROM | keys::HANDOFF_FROM_NAME => Some(&mut g.x_mut().handoff_from),
            keys::HANDOFF_TO | keys::HANDOFF_TO_NAME => Some(&mut g.x_mut().handoff_to),
            keys::GUARDRAIL_NAME => Some(&mut g.x_mut().guardrail),
            keys::TRANSFER_MODE => Some(&mut g.x_mut().transfer_mode),
            keys::TRANSFER_TARGET => Some(&mut g.x_mut().transfer_target),
            keys::TRANSFER_TARGET_TYPE => Some(&mut g.x_mut().transfer_type),
            keys::OI_AGENT_NAME | keys::OI_NODE_ID => Some(&mut g.x_mut().oi_agent),
            keys::OI_NODE_PARENT => Some(&mut g.x_mut().oi_parent),
            keys::OI_TOOL_NAME => Some(&mut g.x_mut().oi_tool),
            _ => None,
        };
        if let Some(slot) = slot_str {
            match value {
                Any::Str(_) if fallback && slot.is_some() => {}
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
        if kv.key == keys::GUARDRAIL_TRIGGERED {
            match value {
                Any::Bool(b) => g.x_mut().triggered = Some(b),
                Any::Empty => {}
                other => self.problems.push(SpanProblem::AttrType {
                    index,
                    key: kv.key,
                    detail: format!("expected a boolValue, found {}", other.type_name()),
                }),
            }
            return;
        }
        let slot_int = match kv.key.as_str() {
            keys::INPUT_TOKENS | keys::PROMPT_TOKENS_OLD | keys::OI_PROMPT_TOKENS => {
                Some(&mut g.input_tokens)
            }
            keys::OUTPUT_TOKENS | keys::COMPLETION_TOKENS_OLD | keys::OI_COMPLETION_TOKENS => {
                Some(&mut g.output_tokens)
            }
            _ => None,
        };
        if let Some(slot) = slot_int {
            match value {
                Any::Int(_) if fallback && slot.is_some() => {}
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
                attrs.finish();
                Ok(attrs)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Attrs, E> {
                Ok(Attrs::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// A span event's attribute list, reduced to what a tool-call decision carries.
#[derive(Default)]
pub(super) struct EventAttrs {
    /// `gen_ai.tool.call.decision.outcome`.
    pub(super) outcome: Option<Box<str>>,
    /// `gen_ai.tool.call.id`.
    pub(super) call_id: Option<Box<str>>,
    /// `gen_ai.tool.name`.
    pub(super) tool: Option<Box<str>>,
}

impl<'de> Deserialize<'de> for EventAttrs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = EventAttrs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of {\"key\", \"value\"} attributes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<EventAttrs, A::Error> {
                let mut out = EventAttrs::default();
                while let Some(kv) = seq.next_element::<KeyValue>()? {
                    let slot = match kv.key.as_str() {
                        keys::DECISION_OUTCOME => &mut out.outcome,
                        keys::TOOL_CALL_ID => &mut out.call_id,
                        keys::TOOL_NAME => &mut out.tool,
                        _ => continue,
                    };
                    // Values of other types are not a decision's; the span's own attributes are checked.
                    if let Some(Any::Str(s)) = kv.value {
                        *slot = Some((*s).into());
                    }
                }
                Ok(out)
            }
            fn visit_unit<E: de::Error>(self) -> Result<EventAttrs, E> {
                Ok(EventAttrs::default())
            }
        }
        d.deserialize_any(V)
    }
}
