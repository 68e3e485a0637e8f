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
    map: &'a serde_yaml::Mapping,
    /// The mapping's text-keyed fields sorted by the length of their name,
    /// then the name: every field is looked up at least once, and a search
    /// of these few, deciding mostly on lengths, costs less than hashing the
    /// name into the mapping each time.
    by_name: Vec<(&'a str, &'a Value)>,
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
        map: &'a serde_yaml::Mapping,
        table: &'static [fields::Field],
        file: &'a SourceFile,
        tax: &'a Taxonomy,
    ) -> Self {
        let mut by_name: Vec<_> = map
            .iter()
            .filter_map(|(k, v)| Some((k.as_str()?, v)))
            .collect();
        by_name.sort_unstable_by_key(|(k, _)| (k.len(), *k));
        Converter {
            map,
            by_name,
            table,
            file,
            tax,
            out: Vec::new(),
        }
    }

    /// The value of a field, as `map.get(field)` finds it (a mapping holds
    /// each key once).
    fn lookup(&self, field: &str) -> Option<&'a Value> {
        self.by_name
            .binary_search_by_key(&(field.len(), field), |(k, _)| (k.len(), *k))
            .ok()
            .map(|i| self.by_name[i].1)
    }

    fn get(&self, field: &str) -> Option<&'a Value> {
        self.lookup(field).filter(|v| !v.is_null())
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
        for k in self.map.keys() {
            // Known fields (nearly every key) are named without a copy.
            if k.as_str().is_some_and(|s| known.contains(&s)) {
                continue;
            }
            let name = match k {
                Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            };
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
        match self.get(field)? {
            Value::String(s) if s.trim().is_empty() && self.required(field) => {
                let d = self
                    .diag(Rule::EmptyField, field, format!("`{field}` is blank"))
                    .help(format!("fill in `{field}`: {}", self.help(field)));
                self.out.push(d);
                Some(String::new())
            }
            Value::String(s) => Some(s.clone()),
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
        match self.get(field)? {
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
                        describe(v).to_string(),
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
        match self.get(field)? {
            Value::Sequence(items) => {
                // Sized once: a parsed corpus holds a few lists an entry, and
                // a list grown by pushes keeps room for four or more.
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::String(s) => out.push(s.clone()),
                        other => {
                            let mut d = self.diag(
                                Rule::FieldType,
                                field,
                                format!(
                                    "item {} of `{field}` must be text, found {}",
                                    i + 1,
                                    describe(other)
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
                        format!("`{field}` must be a list, found {}", describe(other)),
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
        match self.get(field) {
            None => {}
            Some(Value::Mapping(m)) => {
                for (k, v) in m {
                    match (k, v) {
                        (Value::String(k), Value::String(v)) => {
                            out.insert(k.clone(), v.clone());
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
                        describe(other)
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
        match self.get(field)? {
            Value::String(s) => Some(s.clone()),
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
            _ => self.text(field),
        }
    }
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
    map: &serde_yaml::Mapping,
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
    map: &serde_yaml::Mapping,
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
