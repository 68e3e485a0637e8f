//! The trace JSON Schema, compiled once into validators, and its errors as findings.
//!
//! The schema text is `traces/trace.schema.json`, compiled into the binary so
//! validation never touches the network or the disk. Because traces are
//! streamed (see `parse`), the one schema is compiled three ways:
//!
//! * `event` and `edge`: `{"$ref": "#/$defs/event"}` (and `edge`) with the
//!   schema's `$defs`, applied to each array item as it is read;
//! * `root`: the schema with `items` of `events` and `edges` set to `true`,
//!   applied to the document with both arrays replaced by up to
//!   `PLACEHOLDER_ITEMS` nulls.
//!
//! Together these accept exactly what the whole schema accepts, as long as the
//! two array schemas constrain their items only through `items` and their
//! length only through `minItems` no larger than the placeholder count; the
//! tests below check that this is still so, and compare both ways of
//! validating on sample documents.

use super::finding::Finding;
use super::{EdgeKind, EventKind};
use corpus_diagnostics::rules::Rule;
use jsonschema::error::ValidationErrorKind;
use jsonschema::Validator;
use serde_json::{json, Value};
use std::sync::OnceLock;

mod root;
pub(crate) use root::root_surely_valid;

/// The schema text, as shipped in `traces/`.
pub(crate) const SCHEMA_TEXT: &str = include_str!("../../../traces/trace.schema.json");

/// Longest message kept from a schema error; values quoted in messages can be huge.
const MAX_MESSAGE_CHARS: usize = 240;

/// The three validators compiled from the one schema.
pub(crate) struct Validators {
    pub root: Validator,
    pub event: Validator,
    pub edge: Validator,
}

/// The validators, compiled on first use.
pub(crate) fn validators() -> Result<&'static Validators, String> {
    static CELL: OnceLock<Result<Validators, String>> = OnceLock::new();
    CELL.get_or_init(compile).as_ref().map_err(Clone::clone)
}

fn compile() -> Result<Validators, String> {
    let schema: Value = serde_json::from_str(SCHEMA_TEXT).map_err(|e| e.to_string())?;
    let build = |s: &Value| {
        jsonschema::draft202012::new(s).map_err(|e| format!("{e} at {}", e.schema_path()))
    };
    Ok(Validators {
        root: build(&root_schema(&schema))?,
        event: build(&item_schema(&schema, "event"))?,
        edge: build(&item_schema(&schema, "edge"))?,
    })
}

/// The schema with the item schemas of the two big arrays switched off.
fn root_schema(schema: &Value) -> Value {
    let mut root = schema.clone();
    for key in ["events", "edges"] {
        if let Some(array) = root
            .get_mut("properties")
            .and_then(|p| p.get_mut(key))
            .and_then(Value::as_object_mut)
        {
            array.insert("items".to_string(), Value::Bool(true));
        }
    }
    root
}

/// A schema for one item: a reference into the full schema's `$defs`.
fn item_schema(schema: &Value, def: &str) -> Value {
    json!({
        "$schema": schema.get("$schema").cloned().unwrap_or(Value::Null),
        "$defs": schema.get("$defs").cloned().unwrap_or(Value::Null),
        "$ref": format!("#/$defs/{def}"),
    })
}

/// Properties `$defs/event` puts keywords on; the first four are required.
const EVENT_KEYS: [&str; 10] = [
    "id",
    "agent",
    "t",
    "type",
    "trusted",
    "role",
    "from",
    "to",
    "tool",
    "content_ref",
];

/// Properties of `$defs/edge`, all required and no others allowed.
const EDGE_KEYS: [&str; 3] = ["src", "dst", "type"];

/// One property's value as the typed checks see it: strings may still be borrowed from the file.
#[derive(Clone, Copy)]
pub(crate) enum Seen<'a> {
    Str(&'a str),
    Other(&'a Value),
}

impl<'a> Seen<'a> {
    fn of(value: &'a Value) -> Self {
        match value {
            Value::String(s) => Seen::Str(s),
            other => Seen::Other(other),
        }
    }

    fn non_empty(self) -> bool {
        matches!(self, Seen::Str(s) if !s.is_empty())
    }
}

/// Whether an item with these properties passes `$defs/event`, decided
/// without the engine for the common case: running the generic validator on
/// every one of a million events cost more than parsing them. `true` only
/// when every keyword of the definition is met (tests below pin each one and
/// compare with the engine); `false` means "ask the engine", which also words
/// the findings. A repeated property is left to the engine too.
pub(crate) fn event_fields_surely_valid<'a>(
    fields: impl IntoIterator<Item = (&'a str, Seen<'a>)>,
) -> bool {
    let mut seen = 0u32;
    for (key, value) in fields {
        // additionalProperties: true
        let Some(i) = EVENT_KEYS.iter().position(|k| *k == key) else {
            continue;
        };
        let ok = match i {
            0 | 1 => value.non_empty(),
            2 => matches!(value, Seen::Other(v) if surely_non_negative(v)),
            3 => matches!(value, Seen::Str(s) if EventKind::from_name(s).is_some()),
            4 => matches!(value, Seen::Other(Value::Bool(_))),
            _ => matches!(value, Seen::Str(_)),
        };
        if !ok || seen & (1 << i) != 0 {
            return false;
        }
        seen |= 1 << i;
    }
    seen & 0b1111 == 0b1111
}

/// Whether an item with these properties passes `$defs/edge` (see [`event_fields_surely_valid`]).
pub(crate) fn edge_fields_surely_valid<'a>(
    fields: impl IntoIterator<Item = (&'a str, Seen<'a>)>,
) -> bool {
    let mut seen = 0u32;
    for (key, value) in fields {
        // additionalProperties: false
        let Some(i) = EDGE_KEYS.iter().position(|k| *k == key) else {
            return false;
        };
        let ok = match i {
            0 | 1 => value.non_empty(),
            _ => matches!(value, Seen::Str(s) if EdgeKind::from_name(s).is_some()),
        };
        if !ok || seen & (1 << i) != 0 {
            return false;
        }
        seen |= 1 << i;
    }
    seen == 0b111
}

/// [`event_fields_surely_valid`] for a parsed value.
pub(crate) fn event_surely_valid(item: &Value) -> bool {
    match item {
        Value::Object(map) => {
            event_fields_surely_valid(map.iter().map(|(k, v)| (k.as_str(), Seen::of(v))))
        }
        _ => false,
    }
}

/// [`edge_fields_surely_valid`] for a parsed value.
pub(crate) fn edge_surely_valid(item: &Value) -> bool {
    match item {
        Value::Object(map) => {
            edge_fields_surely_valid(map.iter().map(|(k, v)| (k.as_str(), Seen::of(v))))
        }
        _ => false,
    }
}

/// A number that is `minimum: 0` beyond doubt; a float zero (maybe `-0.0`) goes to the engine.
fn surely_non_negative(value: &Value) -> bool {
    value.as_u64().is_some() || value.as_f64().is_some_and(|x| x > 0.0)
}

/// All schema errors of `instance`, with pointers prefixed by `prefix`.
pub(crate) fn findings(validator: &Validator, instance: &Value, prefix: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    for error in validator.iter_errors(instance) {
        let path = format!("{prefix}{}", error.instance_path().as_str());
        if let ValidationErrorKind::AdditionalProperties { unexpected } = error.kind() {
            // One finding per stray property, pointing at it rather than its parent.
            for name in unexpected {
                out.push(
                    Finding::error(
                        Rule::TraceSchema,
                        format!("{path}/{}", escape_token(name)),
                        format!("property \"{name}\" is not allowed here"),
                    )
                    .help("remove it, or check its spelling against traces/trace.schema.json"),
                );
            }
            continue;
        }
        let message = if error.instance().is_object() || error.instance().is_array() {
            error.masked_with("the value").to_string()
        } else {
            error.to_string()
        };
        let help = match error.kind() {
            ValidationErrorKind::Required { .. } => "add the missing property".to_string(),
            ValidationErrorKind::Enum { options } => match options.as_array() {
                Some(values) => format!(
                    "use one of: {}",
                    values
                        .iter()
                        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => "use one of the allowed values".to_string(),
            },
            ValidationErrorKind::Minimum { .. } => "times and costs cannot be negative".to_string(),
            _ => "see traces/trace.schema.json".to_string(),
        };
        out.push(Finding::error(Rule::TraceSchema, path, truncate(message)).help(help));
    }
    out
}

fn truncate(mut s: String) -> String {
    if let Some((i, _)) = s.char_indices().nth(MAX_MESSAGE_CHARS) {
        s.truncate(i);
        s.push('…');
    }
    s
}

/// The `topology` values the trace schema allows, in its order (a test pins
/// them to the schema text, so reading them needs no parse of it).
pub(crate) const TOPOLOGIES: [&str; 8] = [
    "centralized",
    "planner_executor_critic",
    "debate",
    "swarm",
    "hierarchical",
    "harness",
    "mixed",
    "unknown",
];

/// The `topology` values the trace schema allows, in its order.
pub fn topologies() -> Vec<String> {
    TOPOLOGIES.map(str::to_string).to_vec()
}

/// Escapes one JSON pointer token (RFC 6901).
fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::PLACEHOLDER_ITEMS;
    use crate::testutil::base;

    fn whole() -> Validator {
        let schema: Value = serde_json::from_str(SCHEMA_TEXT).unwrap();
        jsonschema::draft202012::new(&schema).unwrap()
    }

    #[test]
    fn schema_compiles_and_is_draft_2020_12() {
        let schema: Value = serde_json::from_str(SCHEMA_TEXT).unwrap();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert!(validators().is_ok());
    }

    #[test]
    fn split_validation_is_exact_for_this_schema() {
        let schema: Value = serde_json::from_str(SCHEMA_TEXT).unwrap();
        for key in ["events", "edges"] {
            let array = schema["properties"][key].as_object().unwrap();
            for k in array.keys() {
                assert!(
                    ["type", "items", "minItems", "description"].contains(&k.as_str()),
                    "{key} uses {k}; teach parse/schema how to split it"
                );
            }
            let min = array.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            assert!(min as usize <= PLACEHOLDER_ITEMS);
        }
    }

    /// Documents around the edges of the schema, checked both ways.
    pub(super) fn samples() -> Vec<Value> {
        let mut out = vec![base(), json!({}), json!([]), json!(3)];
        let edits: Vec<(&str, Value)> = vec![
            ("/events", json!([])),
            ("/events", json!("x")),
            ("/edges", json!({})),
            ("/events/0/t", json!(-0.5)),
            ("/events/0/t", json!("0")),
            ("/events/0/type", json!("launch")),
            ("/events/0/id", json!("")),
            ("/events/0/agent", json!(7)),
            ("/events/0/extra", json!({"any": "thing"})),
            ("/events/0/trusted", json!("no")),
            ("/edges/0/type", json!("spawn_edge")),
            ("/edges/0/src", json!("")),
            ("/edges/0/weight", json!(1)),
            ("/costs/tokens", json!(-1)),
            ("/costs/dollars", json!(-3.5)),
            ("/costs/note", json!("x")),
            ("/rewards/team", json!("high")),
            ("/metrics", json!({"x": true})),
            ("/metrics", json!({"x": 0.5})),
            ("/topology", json!("ring")),
            ("/topology", json!("harness")),
            ("/system", json!(1)),
            ("/extra", json!(1)),
            ("/trace_id", json!("")),
        ];
        for (pointer, value) in edits {
            let mut v = base();
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            match v.pointer_mut(parent).unwrap() {
                Value::Object(m) => {
                    m.insert(key.to_string(), value);
                }
                Value::Array(a) => a[key.parse::<usize>().unwrap()] = value,
                _ => unreachable!(),
            }
            out.push(v);
        }
        for key in ["trace_id", "events", "edges", "rewards", "costs"] {
            let mut v = base();
            v.as_object_mut().unwrap().remove(key);
            out.push(v);
        }
        let mut v = base();
        v["costs"].as_object_mut().unwrap().remove("wall_clock_s");
        out.push(v);
        out
    }

    #[test]
    fn split_validation_agrees_with_whole_schema() {
        let whole = whole();
        for doc in samples() {
            let text = serde_json::to_string(&doc).unwrap();
            let loaded = crate::parse::load(text.as_bytes()).unwrap();
            let mut split: Vec<String> =
                loaded.findings.iter().map(|f| f.pointer.clone()).collect();
            let mut full: Vec<String> = Vec::new();
            for e in whole.iter_errors(&doc) {
                match e.kind() {
                    ValidationErrorKind::AdditionalProperties { unexpected } => {
                        for name in unexpected {
                            full.push(format!(
                                "{}/{}",
                                e.instance_path().as_str(),
                                escape_token(name)
                            ));
                        }
                    }
                    _ => full.push(e.instance_path().as_str().to_string()),
                }
            }
            split.sort();
            full.sort();
            assert_eq!(split, full, "{text}");
            assert_eq!(whole.is_valid(&doc), loaded.findings.is_empty(), "{text}");
        }
    }

    #[test]
    fn shipped_schema_is_valid_against_its_meta_schema() {
        let schema: Value = serde_json::from_str(SCHEMA_TEXT).unwrap();
        assert!(jsonschema::meta::validate(&schema).is_ok());
    }

    /// Every keyword of `$defs/event` and `$defs/edge` is one the typed checks know.
    #[test]
    fn typed_item_checks_know_every_keyword() {
        let schema: Value = serde_json::from_str(SCHEMA_TEXT).unwrap();
        let event = &schema["$defs"]["event"];
        assert_eq!(event["required"], json!(["id", "t", "type", "agent"]));
        assert_eq!(event["additionalProperties"], json!(true));
        let props = event["properties"].as_object().unwrap();
        for (name, p) in props {
            let mut keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
            keys.retain(|k| *k != "description");
            keys.sort_unstable();
            let want: Vec<&str> = match name.as_str() {
                "id" | "agent" => vec!["minLength", "type"],
                "t" => vec!["minimum", "type"],
                "type" => vec!["enum", "type"],
                "trusted" => vec!["type"],
                n if EVENT_KEYS[5..].contains(&n) => vec!["type"],
                n => panic!("event property {n} is unknown to event_surely_valid"),
            };
            assert_eq!(keys, want, "{name}");
        }
        assert_eq!(props["t"]["minimum"], json!(0));
        assert_eq!(props["trusted"]["type"], json!("boolean"));
        assert_eq!(props.len(), EVENT_KEYS.len());
        for n in EVENT_KEYS[5..].iter().chain(&["id", "agent", "type"]) {
            assert_eq!(props[*n]["type"], json!("string"), "{n}");
        }
        for n in ["id", "agent"] {
            assert_eq!(props[n]["minLength"], json!(1));
        }
        let kinds: Vec<Value> = EventKind::ALL.iter().map(|k| json!(k.as_str())).collect();
        assert_eq!(props["type"]["enum"], Value::Array(kinds));

        let edge = &schema["$defs"]["edge"];
        assert_eq!(edge["required"], json!(["src", "dst", "type"]));
        assert_eq!(edge["additionalProperties"], json!(false));
        let props = edge["properties"].as_object().unwrap();
        assert_eq!(props.len(), EDGE_KEYS.len());
        for n in ["src", "dst"] {
            assert_eq!(props[n]["type"], json!("string"));
            assert_eq!(props[n]["minLength"], json!(1));
            assert_eq!(props[n].as_object().unwrap().len(), 3, "{n}");
        }
        let kinds: Vec<Value> = EdgeKind::ALL.iter().map(|k| json!(k.as_str())).collect();
        assert_eq!(props["type"]["enum"], Value::Array(kinds));
        assert_eq!(props["type"].as_object().unwrap().len(), 3);
    }

    /// The typed checks pass an item only when the engine does, one case per rule.
    #[test]
    fn typed_item_checks_never_pass_what_the_engine_rejects() {
        let v = validators().unwrap();
        let ok_event = json!({"id": "e", "t": 0, "type": "message", "agent": "a"});
        let mut events = vec![
            (ok_event.clone(), true),
            (
                json!({"id": "e", "t": 2.5, "type": "spawn", "agent": "a", "role": "r", "from": "f",
                    "to": "t", "tool": "x", "content_ref": "c", "trusted": false, "extra": [1]}),
                true,
            ),
            (
                json!({"id": "é", "t": 1e300, "type": "safety_event", "agent": "ü"}),
                true,
            ),
            (json!([1]), false),
            (json!("event"), false),
            (json!(null), false),
        ];
        let breaks: Vec<(&str, Option<Value>)> = vec![
            ("id", None),
            ("id", Some(json!(""))),
            ("id", Some(json!(1))),
            ("t", None),
            ("t", Some(json!(-1))),
            ("t", Some(json!(-0.5))),
            ("t", Some(json!("0"))),
            ("t", Some(json!(null))),
            ("type", None),
            ("type", Some(json!("teleport"))),
            ("type", Some(json!("Message"))),
            ("type", Some(json!(3))),
            ("agent", None),
            ("agent", Some(json!(""))),
            ("agent", Some(json!(["a"]))),
            ("role", Some(json!(1))),
            ("from", Some(json!(null))),
            ("to", Some(json!(true))),
            ("tool", Some(json!({}))),
            ("content_ref", Some(json!(2.5))),
            ("trusted", Some(json!("yes"))),
            ("trusted", Some(json!(1))),
        ];
        for (key, value) in breaks {
            let mut e = ok_event.clone();
            match value {
                Some(x) => e[key] = x,
                None => {
                    e.as_object_mut().unwrap().remove(key);
                }
            }
            events.push((e, false));
        }
        for (e, valid) in events {
            assert_eq!(v.event.is_valid(&e), valid, "engine on {e}");
            assert_eq!(event_surely_valid(&e), valid, "typed check on {e}");
        }
        // A float zero is left to the engine, which accepts it.
        let zero = json!({"id": "e", "t": 0.0, "type": "message", "agent": "a"});
        assert!(!event_surely_valid(&zero) && v.event.is_valid(&zero));

        let ok_edge = json!({"src": "a", "dst": "b", "type": "causal"});
        let mut edges = vec![
            (ok_edge.clone(), true),
            (json!({"src": "a", "dst": "a", "type": "temporal"}), true),
            (json!([1]), false),
            (
                json!({"src": "a", "dst": "b", "type": "causal", "w": 1}),
                false,
            ),
        ];
        let breaks: Vec<(&str, Option<Value>)> = vec![
            ("src", None),
            ("src", Some(json!(""))),
            ("src", Some(json!(1))),
            ("dst", None),
            ("dst", Some(json!(""))),
            ("dst", Some(json!(null))),
            ("type", None),
            ("type", Some(json!("spawn_edge"))),
            ("type", Some(json!(["causal"]))),
        ];
        for (key, value) in breaks {
            let mut e = ok_edge.clone();
            match value {
                Some(x) => e[key] = x,
                None => {
                    e.as_object_mut().unwrap().remove(key);
                }
            }
            edges.push((e, false));
        }
        for (e, valid) in edges {
            assert_eq!(v.edge.is_valid(&e), valid, "engine on {e}");
            assert_eq!(edge_surely_valid(&e), valid, "typed check on {e}");
        }
    }

    #[test]
    fn big_values_are_not_quoted_in_messages() {
        let f = findings(
            &validators().unwrap().root,
            &json!({"topology": "x".repeat(10_000)}),
            "",
        );
        assert!(f
            .iter()
            .all(|f| f.message.chars().count() <= MAX_MESSAGE_CHARS + 1));
        let f = findings(&validators().unwrap().edge, &json!([1, 2, 3]), "/edges/0");
        assert_eq!(f[0].pointer, "/edges/0");
        assert!(!f[0].message.contains("[1"), "{}", f[0].message);
    }

    #[test]
    fn stray_properties_get_their_own_pointer() {
        let f = findings(
            &validators().unwrap().edge,
            &json!({"src": "a", "dst": "b", "type": "causal", "a/b": 1}),
            "/edges/4",
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].pointer, "/edges/4/a~1b");
    }
}
