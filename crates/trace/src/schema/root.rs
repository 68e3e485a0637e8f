//! The root schema's fast path: whether a document's top level passes it
//! beyond doubt, so that a well-formed trace never needs the engine.

use super::{surely_non_negative, TOPOLOGIES};
use serde_json::Value;

/// Whether a document's skeleton (its arrays replaced by placeholders) passes
/// the root schema beyond doubt, so a well-formed trace never needs the engine
/// (see [`event_fields_surely_valid`]); `false` means "ask the engine".
pub(crate) fn root_surely_valid(skeleton: &Value) -> bool {
    let Value::Object(map) = skeleton else {
        return false;
    };
    let mut seen = 0u32;
    for (key, value) in map {
        // additionalProperties: false
        let (bit, ok) = match key.as_str() {
            "trace_id" => (0, value.as_str().is_some_and(|s| !s.is_empty())),
            "task_id" => (1, value.as_str().is_some_and(|s| !s.is_empty())),
            "events" => (2, value.as_array().is_some_and(|a| !a.is_empty())),
            "edges" => (3, value.is_array()),
            "rewards" => (4, all_numbers(value)),
            "costs" => (5, costs_surely_valid(value)),
            "system" => (6, value.is_string()),
            "topology" => (7, value.as_str().is_some_and(|s| TOPOLOGIES.contains(&s))),
            "metrics" => (8, all_numbers(value)),
            _ => return false,
        };
        if !ok {
            return false;
        }
        seen |= 1 << bit;
    }
    seen & 0b11_1111 == 0b11_1111
}

/// An object whose every value is a number.
fn all_numbers(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| m.values().all(Value::is_number))
}

/// Whether `costs` passes its schema beyond doubt: the two required channels, every channel a number, the named ones not negative.
fn costs_surely_valid(value: &Value) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    map.contains_key("tokens")
        && map.contains_key("wall_clock_s")
        && map.iter().all(|(k, v)| match k.as_str() {
            "tokens" | "wall_clock_s" | "tool_calls" | "messages" => surely_non_negative(v),
            _ => v.is_number(),
        })
}

#[cfg(test)]
mod tests {
    use super::super::tests::samples;
    use super::super::{validators, SCHEMA_TEXT};
    use super::*;
    use crate::parse::PLACEHOLDER_ITEMS;
    use crate::testutil::base;
    use serde_json::json;

    /// The document with its arrays replaced as the streaming parser replaces them.
    fn skeleton_of(doc: &Value) -> Value {
        let mut sk = doc.clone();
        if let Value::Object(m) = &mut sk {
            for key in ["events", "edges"] {
                if let Some(Value::Array(a)) = m.get(key) {
                    let n = a.len().min(PLACEHOLDER_ITEMS);
                    m.insert(key.to_string(), Value::Array(vec![Value::Null; n]));
                }
            }
        }
        sk
    }

    #[test]
    fn root_fast_path_passes_only_what_the_engine_passes() {
        let root = &validators().unwrap().root;
        let mut docs = samples();
        for (key, value) in [
            ("costs", json!({"tokens": 0.0, "wall_clock_s": -0.0})),
            (
                "costs",
                json!({"tokens": 1, "wall_clock_s": 2.5, "gpu_s": -1}),
            ),
            (
                "costs",
                json!({"tokens": 1, "wall_clock_s": 2, "messages": -1}),
            ),
            ("costs", json!({"tokens": 1})),
            ("rewards", json!([])),
            ("rewards", json!({"team": null})),
            ("metrics", json!("x")),
            ("system", json!("")),
            ("topology", json!("debate")),
            ("task_id", json!("")),
            ("events", json!([])),
        ] {
            let mut v = base();
            v[key] = value;
            docs.push(v);
        }
        assert!(root_surely_valid(&skeleton_of(&base())));
        for doc in docs {
            let sk = skeleton_of(&doc);
            if root_surely_valid(&sk) {
                assert!(root.is_valid(&sk), "{sk}");
            }
        }
    }

    /// Every keyword of the root schema is one the root fast path knows.
    #[test]
    fn root_fast_path_knows_every_root_keyword() {
        let schema: Value = serde_json::from_str(SCHEMA_TEXT).unwrap();
        assert_eq!(
            schema["required"],
            json!(["trace_id", "task_id", "events", "edges", "rewards", "costs"])
        );
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(schema["properties"]["topology"]["enum"], json!(TOPOLOGIES));
        let props = schema["properties"].as_object().unwrap();
        for (name, p) in props {
            let mut keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
            keys.retain(|k| *k != "description");
            keys.sort_unstable();
            let want: Vec<&str> = match name.as_str() {
                "trace_id" | "task_id" => vec!["minLength", "type"],
                "system" => vec!["type"],
                "topology" => vec!["enum", "type"],
                "events" => vec!["items", "minItems", "type"],
                "edges" => vec!["items", "type"],
                "rewards" | "metrics" => vec!["additionalProperties", "type"],
                "costs" => vec!["additionalProperties", "properties", "required", "type"],
                other => panic!("root property {other} is unknown to root_surely_valid"),
            };
            assert_eq!(keys, want, "{name}");
        }
        let costs = &schema["properties"]["costs"];
        assert_eq!(costs["required"], json!(["tokens", "wall_clock_s"]));
        assert_eq!(costs["additionalProperties"], json!({"type": "number"}));
        for (name, p) in costs["properties"].as_object().unwrap() {
            assert!(["tokens", "wall_clock_s", "tool_calls", "messages"].contains(&name.as_str()));
            assert_eq!(p["type"], "number");
            assert_eq!(p["minimum"], 0);
        }
        for key in ["rewards", "metrics"] {
            assert_eq!(
                schema["properties"][key]["additionalProperties"],
                json!({"type": "number"})
            );
        }
        assert_eq!(schema["properties"]["events"]["minItems"], 1);
    }
}
