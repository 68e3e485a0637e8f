//! The JSON Schema of entry files, generated from the taxonomy so that
//! editors with the YAML language server validate and complete entries; the
//! enums come from the data and are never typed twice.

use crate::diag::Severity;
use crate::model::ENTRY_FIELDS;
use crate::taxonomy::{Taxonomy, TAG_FIELDS};
use serde_json::{json, Map, Value};

/// Where the generated schema is committed, relative to the root.
pub const ENTRY_SCHEMA_PATH: &str = "corpus/entry.schema.json";

/// The modeline every entry file starts with (relative to corpus/papers/).
pub const MODELINE: &str = "# yaml-language-server: $schema=../entry.schema.json";

/// What a contributor should write in a field (used as the schema description).
pub fn describe(field: &str) -> &'static str {
    match field {
        "key" => "Equals the file name without .yaml; lowercase letters, digits and '-'.",
        "title" => "The title as published.",
        "first_author" => "\"Family, Given\", or an organisation.",
        "affiliation" => "The first author's affiliation.",
        "year" => "Publication year.",
        "arxiv_id" => {
            "arXiv id as a quoted string, e.g. \"2508.04652\"; leave out when there is none."
        }
        "venue" => "Where it appeared, e.g. arXiv, NeurIPS 2025, Tech Blog.",
        "urls" => "Links, most canonical first (http or https).",
        "additional_credit_units" => {
            "Credit units beyond credit_granularity a source places the entry at; leave out when not judged."
        }
        "subdecisions" => {
            "Orchestration sub-decisions the entry trains or designs; [] = judged: none; leave out when not judged."
        }
        "strict_credit" => {
            "true / false: whether the credit is strict (an explicit estimator); leave out when not judged."
        }
        "additional_credit_units_source" | "subdecisions_source" => {
            "Who judged the tag above (judgement_sources in corpus/taxonomy.yaml); required with it."
        }
        "strict_credit_source" => {
            "Who judged strict_credit (judgement_sources in corpus/taxonomy.yaml); required with it."
        }
        "added_in" => "The later screening round that added the entry; leave out for the main screening.",
        "one_liner" => "One sentence, in your own words.",
        "notes" => "Optional remarks, in your own words.",
        "waivers" => "Acknowledged warnings: rule id -> reason.",
        "record_id" => "E followed by digits; equals the file name without .yaml.",
        "identifier" => {
            "arXiv:…, OpenReview:…, ACL:…, github:owner/repo, or an upper-case document id."
        }
        "url" => "Where the record can be read (http or https).",
        "date_screened" => "When it was screened, YYYY-MM-DD.",
        "reason" => "Why it was excluded, in your own words.",
        _ => "A value from corpus/taxonomy.yaml.",
    }
}

/// Generates the entry schema from the taxonomy.
pub fn entry_schema(tax: &Taxonomy) -> Value {
    let cutoff_year = crate::check::parse_date(&tax.screening.cutoff)
        .map(|d| d.0)
        .unwrap_or(2100);
    let mut props = Map::new();
    for (field, _) in ENTRY_FIELDS {
        let mut p = match field {
            "key" => json!({"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}),
            "year" => json!({"type": "integer", "minimum": 1900, "maximum": cutoff_year}),
            "arxiv_id" => {
                json!({"type": "string", "pattern": "^(\\d{4}\\.\\d{4,5}|[a-z][a-z\\-]*(\\.[A-Z]{2})?/\\d{7})(v\\d+)?$"})
            }
            "urls" => {
                json!({"type": "array", "minItems": 1, "items": {"type": "string", "pattern": "^https?://[^\\s/]"}})
            }
            "subdecisions" => {
                json!({"type": "array", "uniqueItems": true, "items": {"enum": tax.values(field).unwrap_or_default()}})
            }
            "additional_credit_units" => {
                json!({"type": "array", "uniqueItems": true, "items": {"enum": tax.values(field).unwrap_or_default()}})
            }
            "additional_credit_units_source" | "subdecisions_source" => {
                json!({"type": "array", "minItems": 1, "uniqueItems": true, "items": {"enum": tax.values(field).unwrap_or_default()}})
            }
            "strict_credit_source" | "added_in" => {
                json!({"enum": tax.values(field).unwrap_or_default()})
            }
            "strict_credit" => json!({"type": "boolean"}),
            "notes" => json!({"type": "string"}),
            "waivers" => {
                let warnings: Vec<&str> = tax
                    .rules
                    .iter()
                    .filter(|r| Severity::from(r.severity) == Severity::Warning)
                    .map(|r| r.id.as_str())
                    .collect();
                json!({"type": "object", "propertyNames": {"enum": warnings}, "additionalProperties": {"type": "string", "minLength": 1}})
            }
            f if TAG_FIELDS.contains(&f) => json!({"enum": tax.allowed(f).unwrap_or_default()}),
            _ => json!({"type": "string", "minLength": 1}),
        };
        if let Value::Object(m) = &mut p {
            m.insert("description".into(), describe(field).into());
        }
        props.insert(field.to_string(), p);
    }
    let required: Vec<&str> = ENTRY_FIELDS
        .iter()
        .filter(|(_, r)| *r)
        .map(|(f, _)| *f)
        .collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": "Generated by `corpus build` from corpus/taxonomy.yaml; do not edit by hand.",
        "title": "corpus entry (corpus/papers/<key>.yaml)",
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": props,
    })
}

/// The schema as committed: pretty JSON with a final newline.
pub fn entry_schema_text(tax: &Taxonomy) -> String {
    let mut s = serde_json::to_string_pretty(&entry_schema(tax)).unwrap_or_default();
    s.push('\n');
    s
}
