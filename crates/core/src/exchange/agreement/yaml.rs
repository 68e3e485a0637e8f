//! The YAML layout of annotations: a list of mappings, with lines found by our own scan.

use super::{
    comparable_fields, error, is_set_field, unknown_field, Accept, Annotation, EMPTY_SET, PREFIX,
    RULE_INPUT,
};
use crate::text::closest::closest;
use crate::yaml::source::{second_key_line, ItemSpans};
use corpus_diagnostics::diag::Diagnostic;
use serde_yaml::Value;
use std::collections::BTreeMap;

/// A YAML scalar as text; None for lists and mappings.
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Null => Some(String::new()),
        Value::Tagged(t) => scalar(&t.value),
        Value::Sequence(_) | Value::Mapping(_) => None,
    }
}

/// A set field's YAML value as a CSV-style cell: tags joined by `;`, `[]` for
/// the empty list, blank for null; None for a mapping or a nested list.
fn set_cell(v: &Value) -> Option<String> {
    match v {
        Value::Sequence(items) if items.is_empty() => Some(EMPTY_SET.to_string()),
        Value::Sequence(items) => items
            .iter()
            .map(|i| scalar(i).filter(|s| !s.is_empty()))
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(";")),
        Value::Tagged(t) => set_cell(&t.value),
        other => scalar(other),
    }
}

pub(super) fn parse_yaml(
    file: &str,
    text: &str,
    fields: Accept,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Annotation> {
    let items = ItemSpans::scan(text);
    let value: Value = match serde_yaml::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            diags.push(yaml_error(file, text, &e));
            return Vec::new();
        }
    };
    let seq = match value {
        Value::Sequence(s) => s,
        _ => {
            diags.push(
                error(
                    RULE_INPUT,
                    file,
                    Some(1),
                    "expected a list of mappings, one per annotated entry",
                )
                .help("write each entry as `- key: <key>` followed by `  <field>: <value>` lines"),
            );
            return Vec::new();
        }
    };
    // Lines come from a scan of the text; when the scan and the parser do not
    // see the same number of items, no line is better than a wrong one.
    let item_lines = if items.items.len() == seq.len() {
        items.items
    } else {
        vec![(0, BTreeMap::new()); seq.len()]
    };
    let mut out = Vec::new();
    for (item, (line, keys)) in seq.iter().zip(item_lines) {
        let at = (line > 0).then_some(line);
        let key_line = |k: &str| keys.get(k).copied().or(at);
        let Value::Mapping(map) = item else {
            diags.push(error(
                RULE_INPUT,
                file,
                at,
                "each list item must be a mapping with `key` and tag fields",
            ));
            continue;
        };
        let mut key = None;
        let mut key_reported = false;
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut field_lines = BTreeMap::new();
        for (k, v) in map {
            let Some(name) = scalar(k) else {
                diags.push(error(RULE_INPUT, file, at, "field names must be text"));
                continue;
            };
            let field_line = key_line(&name);
            if name == "key" {
                match scalar(v).filter(|s| !s.is_empty()) {
                    Some(s) => key = Some(s),
                    None => {
                        key_reported = true;
                        diags.push(
                            error(RULE_INPUT, file, field_line, "`key` must be an entry key")
                                .field("key"),
                        );
                    }
                }
                continue;
            }
            let field = name.strip_prefix(PREFIX).unwrap_or(&name);
            if !fields.accepts(field) {
                // Bare keys other than tag fields are ignored like extra CSV
                // columns, unless they look like a misspelt tag field.
                let looks_like_tag = is_set_field(field)
                    || name.starts_with(PREFIX)
                    || (!name.starts_with("orig_")
                        && closest(field, comparable_fields()).is_some());
                if looks_like_tag {
                    diags.push(unknown_field(file, field_line, &name, field));
                }
                continue;
            }
            if tags.iter().any(|(f, _)| f == field) {
                diags.push(
                    error(
                        RULE_INPUT,
                        file,
                        field_line,
                        format!("`{field}` is given twice in one item"),
                    )
                    .field(field)
                    .help(format!("keep either `{field}` or `{PREFIX}{field}`")),
                );
                continue;
            }
            let cell = if is_set_field(field) {
                set_cell(v)
            } else {
                scalar(v)
            };
            match cell {
                Some(s) => {
                    if let Some(l) = field_line {
                        field_lines.insert(field.to_string(), l);
                    }
                    tags.push((field.to_string(), s));
                }
                None => diags.push(
                    error(
                        RULE_INPUT,
                        file,
                        field_line,
                        if is_set_field(field) {
                            format!("`{name}` must be a list of tags")
                        } else {
                            format!("`{name}` must be a single value")
                        },
                    )
                    .field(field),
                ),
            }
        }
        match key {
            Some(key) => out.push(Annotation {
                key,
                line,
                tags,
                field_lines,
            }),
            None if !key_reported => diags.push(
                error(RULE_INPUT, file, at, "item has no `key`")
                    .field("key")
                    .help("add `key: <entry key>` to the item"),
            ),
            None => {}
        }
    }
    out
}

/// A parser error as a diagnostic, with duplicate fields located by our own scan.
fn yaml_error(file: &str, text: &str, e: &serde_yaml::Error) -> Diagnostic {
    let msg = e.to_string();
    let loc = e.location().map(|l| l.line());
    if let Some(key) = msg
        .split("duplicate entry with key \"")
        .nth(1)
        .and_then(|r| r.split('"').next())
    {
        // The parser points at the start of the mapping; the repeat is below it.
        let line = loc
            .and_then(|from| second_key_line(text, from, key))
            .or(loc);
        return error(
            RULE_INPUT,
            file,
            line,
            format!("`{key}` is given twice in one item"),
        )
        .field(key)
        .help("keep one of them: a repeated field would silently lose an annotation");
    }
    let x = crate::yaml::error::explain(e, text);
    x.place(error(RULE_INPUT, file, None, x.message.clone()))
}
