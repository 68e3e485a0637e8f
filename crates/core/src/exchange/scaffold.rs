//! `corpus new`: the scaffold of a new entry file, with every field present,
//! the allowed values in comments, and the schema modeline for editors.

use crate::model::fields::{self, ENTRY};
use crate::model::taxonomy::Taxonomy;
use crate::network::arxiv::Record;
use crate::text::ids::{arxiv_year, valid_key};

/// Builds the scaffold text, or says why the arguments cannot make one.
pub fn scaffold(
    tax: &Taxonomy,
    key: &str,
    arxiv: Option<&str>,
    category: Option<&str>,
    fetched: Option<&Record>,
) -> Result<String, String> {
    if !valid_key(key) {
        return Err(format!(
            "key `{key}` must be {} (e.g. magrpo or wideseek-r1-2026)",
            crate::text::ids::key_rule()
        ));
    }
    if let Some(id) = arxiv {
        if arxiv_year(id).is_none() {
            return Err(format!("`{id}` is not an arXiv id (e.g. 2508.04652)"));
        }
    }
    if let Some(c) = category {
        let allowed = tax.values(fields::CATEGORY).unwrap_or_default();
        if !allowed.iter().any(|a| a == c) {
            return Err(format!(
                "category `{c}` is not one of: {}",
                allowed.join(", ")
            ));
        }
    }
    let mut out = format!("{}\n", crate::model::fields::MODELINE);
    out.push_str("# Fill in every empty field; `corpus check` lists the ones still missing.\n");
    for f in &ENTRY {
        let (field, required) = (f.name, f.required);
        let hint = if f.is_tag() && f.required {
            let vals = tax.allowed(field).unwrap_or_default();
            format!("one of: {}", vals.join(" | "))
        } else if f.is_tag() {
            let vals = tax.allowed(field).unwrap_or_default();
            format!("{} Values: {}", f.help, vals.join(" | "))
        } else {
            f.help.to_string()
        };
        // A judged tag is decided by one criterion, stated in the taxonomy:
        // the contributor reads it where they write the tag.
        if let Some(rule) = tax.criteria.get(field) {
            out.push_str(&comment_lines(&format!("{field} criterion: {rule}")));
        }
        let value = match field {
            fields::KEY => key.to_string(),
            fields::TITLE => fetched.map(|r| yaml_text(&r.title)).unwrap_or_default(),
            fields::FIRST_AUTHOR => fetched
                .and_then(|r| r.authors.first())
                .map(|a| yaml_text(&crate::network::arxiv::family_first(a)))
                .unwrap_or_default(),
            // Every author arXiv lists, written as the first author is.
            fields::AUTHORS => fetched
                .map(|r| {
                    r.authors
                        .iter()
                        .map(|a| {
                            format!(
                                "\n  - {}",
                                yaml_text(&crate::network::arxiv::family_first(a))
                            )
                        })
                        .collect::<String>()
                })
                .unwrap_or_default(),
            fields::AFFILIATION => fetched
                .and_then(|r| r.affiliation.as_deref())
                .map(yaml_text)
                .unwrap_or_default(),
            // A record fetched from arXiv is an arXiv preprint until the contributor says otherwise.
            fields::VENUE if fetched.is_some() => "arXiv".to_string(),
            fields::ARXIV_ID => match arxiv {
                Some(id) => format!("\"{id}\""),
                None => {
                    out.push_str(&format!("# arxiv_id: \"\"   # {hint}\n"));
                    continue;
                }
            },
            fields::YEAR => fetched
                .and_then(Record::year)
                .or_else(|| arxiv.and_then(arxiv_year).map(|(y, _)| y))
                .map(|y| y.to_string())
                .unwrap_or_default(),
            fields::URLS => match arxiv {
                Some(id) => format!("\n  - https://arxiv.org/abs/{id}"),
                None => "[]".to_string(),
            },
            fields::CATEGORY => category.unwrap_or("").to_string(),
            // A new entry joins the open round, so it grows the living list
            // and leaves the survey's pool (and its claims) as published.
            fields::ADDED_IN => match tax.open_round() {
                Some(r) => r.id.clone(),
                None => {
                    out.push_str(&format!("# {field}:   # {hint}\n"));
                    continue;
                }
            },
            // Sub-decisions stay visible: every RL entry needs them judged.
            fields::SUBDECISIONS | fields::SUBDECISIONS_SOURCE => String::new(),
            fields::ADDITIONAL_CREDIT_UNITS
            | fields::ADDITIONAL_CREDIT_UNITS_SOURCE
            | fields::STRICT_CREDIT
            | fields::STRICT_CREDIT_SOURCE
            | fields::NOTES
            | fields::CITE_KEY
            | fields::CITE_YEAR
            | fields::BIB_TYPE
            | fields::WAIVERS
            | fields::TRACES
            | fields::ARXIV_VERIFIED_ON => {
                out.push_str(&format!("# {field}:   # {hint}\n"));
                continue;
            }
            _ => String::new(),
        };
        let optional = if required { "" } else { "optional; " };
        if value.starts_with('\n') {
            out.push_str(&format!("{field}:   # {optional}{hint}{value}\n"));
        } else if value.is_empty() {
            out.push_str(&format!("{field}:   # {optional}{hint}\n"));
        } else {
            out.push_str(&format!("{field}: {value}   # {optional}{hint}\n"));
        }
    }
    Ok(crate::model::format::formatted_or_same(
        out,
        crate::model::format::FileKind::Entry,
    ))
}

/// Text as `# ` comment lines of at most 78 characters.
fn comment_lines(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 78 && line.len() > 1 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A string as one YAML scalar, quoted only when YAML needs it.
fn yaml_text(s: &str) -> String {
    serde_yaml::to_string(s)
        .map(|t| t.trim_end().to_string())
        .unwrap_or_default()
}
