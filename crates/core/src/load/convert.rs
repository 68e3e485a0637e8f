//! Parsed mappings converted field by field into entries and records, every problem reported.

use super::diag;
use crate::model::fields;
use crate::model::taxonomy::Taxonomy;
use crate::model::{Entry, EntrySource, Exclusion};
use crate::text::closest::closest;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use serde_yaml::Value;
use std::collections::BTreeMap;

/// Converts mapping values field by field, reporting each problem.
struct Converter<'a> {
    /// The mapping's fields in the order of the file. Each field is read
    /// once, so its value is taken out as it is read (leaving a null): its
    /// text moves into the item instead of being copied.
    fields: Vec<(Value, Value)>,
    /// The indices of the text-keyed fields, sorted by the length of their
    /// name, then the name: every field is looked up at least once, and a
    /// search of these few, deciding mostly on lengths, costs less than
    /// hashing the name into the mapping each time.
    by_name: Vec<usize>,
    /// The field table of what is converted (entry or record).
    table: &'static [fields::Field],
    file: &'a SourceFile,
    tax: &'a Taxonomy,
    out: Vec<Diagnostic>,
}

impl<'a> Converter<'a> {
    fn diag(&self, rule: Rule, field: &str, msg: impl Into<String>) -> Diagnostic {
        let mut d = diag(rule, Some(self.tax), &self.file.rel, msg).field(field);
        if let Some((l, c)) = self.file.spans().pos(field) {
            d = d.at(l, c);
        }
        d
    }

    fn new(
        map: serde_yaml::Mapping,
        table: &'static [fields::Field],
        file: &'a SourceFile,
        tax: &'a Taxonomy,
    ) -> Self {
        let fields: Vec<(Value, Value)> = map.into_iter().collect();
        let mut by_name: Vec<usize> = (0..fields.len())
            .filter(|&i| fields[i].0.is_string())
            .collect();
        by_name.sort_unstable_by_key(|&i| {
            let name = fields[i].0.as_str().unwrap_or_default();
            (name.len(), name)
        });
        Converter {
            fields,
            by_name,
            table,
            file,
            tax,
            out: Vec::new(),
        }
    }

    /// Where a field is among the fields (a mapping holds each key once).
    fn position(&self, field: &str) -> Option<usize> {
        self.by_name
            .binary_search_by_key(&(field.len(), field), |&i| {
                let name = self.fields[i].0.as_str().unwrap_or_default();
                (name.len(), name)
            })
            .ok()
            .map(|j| self.by_name[j])
    }

    /// The value of a field, as `map.get(field)` finds it.
    fn lookup(&self, field: &str) -> Option<&Value> {
        self.position(field).map(|i| &self.fields[i].1)
    }

    fn get(&self, field: &str) -> Option<&Value> {
        self.lookup(field).filter(|v| !v.is_null())
    }

    /// The value of a field read for the item, taken out; None when the
    /// field is missing or empty, as for [`Converter::get`].
    fn take(&mut self, field: &str) -> Option<Value> {
        let i = self.position(field)?;
        Some(std::mem::take(&mut self.fields[i].1)).filter(|v| !v.is_null())
    }

    /// What a contributor should write in a field, from this file's table.
    fn help(&self, field: &str) -> &'static str {
        self.table
            .iter()
            .find(|f| f.name == field)
            .map_or_else(|| fields::describe(field), |f| f.help)
    }

    /// How to write a field that must hold one value.
    fn one_value_help(&self, field: &str) -> String {
        match self.tax.allowed(field) {
            Some(vals) => format!(
                "write one value on the line, `{field}: VALUE`, one of {}",
                vals.join(", ")
            ),
            None => format!(
                "write one value on the line, `{field}: VALUE`: {}",
                self.help(field)
            ),
        }
    }

    /// Whether a field must hold something, so a blank value is reported.
    fn required(&self, field: &str) -> bool {
        self.table.iter().any(|f| f.name == field && f.required)
    }

    /// Reports unknown fields, and required ones that are missing or empty.
    fn check_fields(&mut self) {
        let known = fields::names(self.table);
        let required = fields::required(self.table);
        // Known fields (nearly every key) are named without a copy.
        let unknown: Vec<String> = self
            .fields
            .iter()
            .map(|(k, _)| k)
            .filter(|k| !k.as_str().is_some_and(|s| known.contains(&s)))
            .map(|k| match k {
                Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            })
            .collect();
        for name in unknown {
            if !known.contains(&name.as_str()) {
                let help = closest(&name, known.iter().copied())
                    .map(|c| format!("did you mean `{c}`?"))
                    .unwrap_or_else(|| format!("allowed fields: {}", known.join(", ")));
                let mut d = self
                    .diag(Rule::UnknownField, &name, format!("unknown field `{name}`"))
                    .help(help);
                // The fix goes in the name, so the caret goes under it (a
                // top-level key starts the line), not under the value.
                if let Some(line) = d.line {
                    d = d.at(line, 1);
                }
                self.out.push(d);
            }
        }
        for f in &required {
            if self.get(f).is_none() {
                let present = self.lookup(f).is_some();
                let msg = if present {
                    format!("required field `{f}` is still empty")
                } else {
                    format!("required field `{f}` is missing")
                };
                let mut d = self.diag(Rule::MissingField, f, msg);
                let mut place = String::new();
                if d.line.is_none() {
                    // Point where the field belongs: after the nearest earlier field that is present.
                    let idx = known.iter().position(|k| k == f).unwrap_or(0);
                    let before = known[..idx]
                        .iter()
                        .rev()
                        .find_map(|k| self.file.spans().line(k));
                    d = d.at_line(Some(before.unwrap_or(1)));
                    if let Some(l) = before {
                        place = format!(" after line {l}");
                    }
                }
                let verb = if present { "fill in" } else { "add" };
                let help = match self.tax.allowed(f) {
                    Some(vals) => format!("{verb} `{f}`{place}: one of {}", vals.join(", ")),
                    None => format!("{verb} `{f}`{place}: {}", self.help(f)),
                };
                self.out.push(d.help(help));
            }
        }
    }

    fn text(&mut self, field: &str) -> Option<String> {
        let value = self.take(field)?;
        self.text_of(field, value)
    }

    fn text_of(&mut self, field: &str, value: Value) -> Option<String> {
        match value {
            Value::String(s) if s.trim().is_empty() && self.required(field) => {
                let d = self
                    .diag(Rule::EmptyField, field, format!("`{field}` is blank"))
                    .help(format!("fill in `{field}`: {}", self.help(field)));
                self.out.push(d);
                Some(String::new())
            }
            Value::String(s) => Some(exact(s)),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => {
                let d = self
                    .diag(
                        Rule::FieldType,
                        field,
                        format!("`{field}` must be a single value, not a list or mapping"),
                    )
                    .help(self.one_value_help(field));
                self.out.push(d);
                None
            }
        }
    }

    fn int(&mut self, field: &str) -> Option<i64> {
        match self.take(field)? {
            Value::Number(n) if n.as_i64().is_some() => n.as_i64(),
            other => {
                // Name what was found: "found a number" for `2026.5` reads as nonsense.
                let (found, help) = match other {
                    Value::Number(n) => (
                        format!("the number {n}"),
                        format!("write a whole number, e.g. `{field}: 2025`"),
                    ),
                    Value::String(t) => (
                        format!("the text `{t}`"),
                        format!("write it unquoted, e.g. `{field}: 2025`"),
                    ),
                    v => (
                        describe(&v).to_string(),
                        format!("write a whole number, e.g. `{field}: 2025`"),
                    ),
                };
                let d = self
                    .diag(
                        Rule::FieldType,
                        field,
                        format!("`{field}` must be a whole number, found {found}"),
                    )
                    .help(help);
                self.out.push(d);
                None
            }
        }
    }

    fn list(&mut self, field: &str) -> Option<Vec<String>> {
        match self.take(field)? {
            Value::Sequence(items) => {
                // Sized once: a parsed corpus holds a few lists an entry, and
                // a list grown by pushes keeps room for four or more.
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match item {
                        Value::String(s) => out.push(exact(s)),
                        other => {
                            let mut d = self.diag(
                                Rule::FieldType,
                                field,
                                format!(
                                    "item {} of `{field}` must be text, found {}",
                                    i + 1,
                                    describe(&other)
                                ),
                            );
                            if let Some((l, c)) = self.file.spans().pos(&format!("{field}[{i}]")) {
                                d = d.at(l, c);
                            }
                            d = d.help(format!(
                                "write each item of `{field}` as one line of text; quote an item that looks like a number, a date or yes/no"
                            ));
                            self.out.push(d);
                        }
                    }
                }
                Some(out)
            }
            Value::String(s) => {
                let d = self
                    .diag(Rule::FieldType, field, format!("`{field}` must be a list"))
                    .help(format!("write it as a list: `{field}: [{s}]`"));
                self.out.push(d);
                Some(vec![s.clone()])
            }
            other => {
                let d = self
                    .diag(
                        Rule::FieldType,
                        field,
                        format!("`{field}` must be a list, found {}", describe(&other)),
                    )
                    .help(format!(
                        "write it as a list, one item per line under `{field}:` or as `{field}: [a, b]`"
                    ));
                self.out.push(d);
                None
            }
        }
    }

    fn mapping(&mut self, field: &str) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        match self.take(field) {
            None => {}
            Some(Value::Mapping(m)) => {
                for (k, v) in m {
                    match (k, v) {
                        (Value::String(k), Value::String(v)) => {
                            out.insert(exact(k), exact(v));
                        }
                        _ => {
                            let d = self
                                .diag(
                                    Rule::FieldType,
                                    field,
                                    format!("`{field}` maps rule ids to reasons, both text"),
                                )
                                .help("write `rule-id: why this warning is acceptable`");
                            self.out.push(d);
                        }
                    }
                }
            }
            Some(other) => {
                let d = self.diag(
                    Rule::FieldType,
                    field,
                    format!(
                        "`{field}` must be a mapping of rule id to reason, found {}",
                        describe(&other)
                    ),
                );
                self.out.push(d.help(format!(
                    "write one `rule-id: reason` per line, indented under `{field}:`"
                )));
            }
        }
        out
    }

    /// An arXiv id, reporting (and recovering from) an unquoted number.
    fn arxiv(&mut self, field: &str) -> Option<String> {
        match self.take(field)? {
            Value::String(s) => Some(exact(s)),
            Value::Number(n) => {
                let raw = self
                    .file
                    .spans()
                    .raw_value(&self.file.text, field)
                    .map(str::to_string)
                    .unwrap_or_else(|| n.to_string());
                let shown = n.to_string();
                let lost = if shown != raw {
                    format!(" (YAML reads `{raw}` as the number {shown})")
                } else {
                    String::new()
                };
                let d = self
                    .diag(
                        Rule::ArxivUnquoted,
                        field,
                        format!("`{field}` is written as a number{lost}"),
                    )
                    .help(format!("quote it: `{field}: \"{raw}\"`"));
                self.out.push(d);
                Some(raw)
            }
            other => self.text_of(field, other),
        }
    }
}

/// A text taken from a parsed value, holding no spare room: the parsed
/// corpus keeps it for the whole run.
fn exact(mut s: String) -> String {
    s.shrink_to_fit();
    s
}

/// A YAML file's values, each problem reported as it is read.
impl EntrySource for Converter<'_> {
    fn value(&mut self, field: &str) -> String {
        self.text(field).unwrap_or_default()
    }

    fn optional_value(&mut self, field: &str) -> Option<String> {
        self.text(field)
    }

    fn year(&mut self, field: &str) -> i64 {
        self.int(field).unwrap_or(0)
    }

    fn optional_year(&mut self, field: &str) -> Option<i64> {
        self.int(field)
    }

    fn arxiv_id(&mut self, field: &str) -> Option<String> {
        self.arxiv(field)
    }

    fn values(&mut self, field: &str) -> Vec<String> {
        self.list(field).unwrap_or_default()
    }

    fn judged_values(&mut self, field: &str) -> Option<Vec<String>> {
        self.list(field)
    }

    fn waivers(&mut self, field: &str) -> BTreeMap<String, String> {
        self.mapping(field)
    }
}

fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

pub(super) fn convert_entry(
    map: serde_yaml::Mapping,
    file: &SourceFile,
    tax: &Taxonomy,
    out: &mut Vec<Diagnostic>,
) -> Entry {
    let mut c = Converter::new(map, &fields::ENTRY, file, tax);
    c.check_fields();
    let entry = Entry::read_from(&mut c);
    out.extend(c.out);
    entry
}

pub(super) fn convert_exclusion(
    map: serde_yaml::Mapping,
    file: &SourceFile,
    tax: &Taxonomy,
    out: &mut Vec<Diagnostic>,
) -> Exclusion {
    let mut c = Converter::new(map, &fields::RECORD, file, tax);
    c.check_fields();
    let record = Exclusion::read_from(|f| c.text(f).unwrap_or_default());
    out.extend(c.out);
    record
}
