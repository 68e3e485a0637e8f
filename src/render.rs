//! Rendering Markdown from the data: the README awesome list and STATS.md,
//! through Tera templates kept in `templates/`.
//!
//! Tera escapes only HTML/XML templates, so every piece of data text is
//! escaped here for Markdown before it reaches a template, and only http(s)
//! URLs ever become links.

use crate::markdown::{anchor, code_span, escape_markdown, link_target};
use crate::model::Entry;
use crate::stats::{self, Stats};
use crate::taxonomy::Taxonomy;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// "Family, Given" as "Given Family"; organisations unchanged.
pub fn display_author(a: &str) -> String {
    match a.split_once(", ") {
        Some((family, given)) if !given.contains(',') => format!("{given} {family}"),
        _ => a.to_string(),
    }
}

/// The label of a link: Paper, Blog, Docs or Project.
pub fn link_label(url: &str) -> &'static str {
    let u = crate::ids::normalize_url(url);
    let host = u.split('/').next().unwrap_or("");
    const PAPER_HOSTS: [&str; 6] = [
        "arxiv.org",
        "openreview.net",
        "aclanthology.org",
        "doi.org",
        "pubsonline.informs.org",
        "proceedings.neurips.cc",
    ];
    if PAPER_HOSTS.contains(&host) || u.ends_with(".pdf") {
        "Paper"
    } else if host.starts_with("docs.") || u.contains("/docs/") {
        "Docs"
    } else if u.contains("/blog")
        || u.contains("/news/")
        || u.contains("/engineering/")
        || u.contains("/index/")
    {
        "Blog"
    } else {
        "Project"
    }
}

/// A link ready for a template.
#[derive(Debug, Clone, Serialize)]
pub struct Link {
    /// Paper / Blog / Docs / Project.
    pub label: String,
    /// Escaped link target.
    pub url: String,
}

/// An entry as the README shows it; all text already escaped.
#[derive(Debug, Clone, Serialize)]
pub struct EntryView {
    /// 1-based number within its category.
    pub n: usize,
    /// Entry key (safe: lowercase, digits, '-').
    pub key: String,
    /// Escaped title.
    pub title: String,
    /// Year.
    pub year: i64,
    /// Tag badges, escaped.
    pub badges: Vec<String>,
    /// Escaped "Given Family".
    pub author: String,
    /// Escaped venue.
    pub venue: String,
    /// Labelled links (http(s) only).
    pub links: Vec<Link>,
    /// Escaped one-liner.
    pub one_liner: String,
}

fn badges(tax: &Taxonomy, e: &Entry) -> Vec<String> {
    let na = tax.na.as_str();
    let mut b = Vec::new();
    match e.is_rl.as_str() {
        "yes" => b.push("RL".to_string()),
        "partial" => b.push("partial RL".to_string()),
        _ => {}
    }
    for (name, v) in [
        ("reward", &e.reward_type),
        ("credit", &e.credit_granularity),
        ("orchestration", &e.orchestration_form),
    ] {
        if v != na && !v.is_empty() {
            b.push(format!("{name}: {v}"));
        }
    }
    if e.scenario != na && e.scenario != "general" && !e.scenario.is_empty() {
        b.push(format!("scenario: {}", e.scenario));
    }
    b.push(e.is_core.clone());
    if e.verified != "yes" {
        b.push(format!("verified: {}", e.verified));
    }
    b.into_iter().map(|s| code_span(&s)).collect()
}

/// The README view of one entry.
pub fn entry_view(tax: &Taxonomy, e: &Entry, n: usize) -> EntryView {
    EntryView {
        n,
        key: e.key.clone(),
        title: escape_markdown(&e.title),
        year: e.year,
        badges: badges(tax, e),
        author: escape_markdown(&display_author(&e.first_author)),
        venue: escape_markdown(&e.venue),
        links: e
            .urls
            .iter()
            .filter_map(|u| {
                link_target(u).map(|url| Link {
                    label: link_label(u).to_string(),
                    url,
                })
            })
            .collect(),
        one_liner: escape_markdown(&e.one_liner),
    }
}

/// A category of the README with its entries.
#[derive(Debug, Clone, Serialize)]
pub struct CategoryView {
    /// Category id.
    pub id: String,
    /// Escaped label.
    pub label: String,
    /// Escaped heading text, label and count.
    pub heading: String,
    /// GitHub anchor of the heading.
    pub anchor: String,
    /// Number of entries.
    pub count: usize,
    /// The entries in display order.
    pub entries: Vec<EntryView>,
}

/// Entries ordered for display: newest first, then by key.
fn display_order<'a>(entries: &[&'a Entry]) -> Vec<&'a Entry> {
    let mut v = entries.to_vec();
    v.sort_by(|a, b| b.year.cmp(&a.year).then_with(|| a.key.cmp(&b.key)));
    v
}

/// Up to `n` representative entries: core RL ones first, then newest.
fn representatives(entries: &[&Entry], n: usize) -> Vec<String> {
    let mut v = entries.to_vec();
    let rank = |e: &Entry| (e.is_rl != "yes", e.is_core != "core");
    v.sort_by(|a, b| {
        rank(a)
            .cmp(&rank(b))
            .then(b.year.cmp(&a.year))
            .then_with(|| a.key.cmp(&b.key))
    });
    v.iter()
        .take(n)
        .map(|e| escape_markdown(&e.title))
        .collect()
}

/// Everything the README and STATS templates can use.
pub fn context(tax: &Taxonomy, entries: &[&Entry], st: &Stats) -> tera::Context {
    let mut ctx = tera::Context::new();
    ctx.insert("retained", &st.retained);
    ctx.insert("excluded", &st.excluded);
    ctx.insert("audited", &st.audited);
    ctx.insert("cutoff", &tax.screening.cutoff);

    let mut by_cat: HashMap<&str, Vec<&Entry>> = HashMap::new();
    for e in entries {
        by_cat.entry(e.category.as_str()).or_default().push(e);
    }
    // Typed views, serialised once into the context: on a large corpus a
    // detour through serde_json values doubles the cost of the whole build.
    let categories: Vec<CategoryView> = tax
        .category
        .iter()
        .map(|c| {
            let list = display_order(by_cat.get(c.id.as_str()).map(Vec::as_slice).unwrap_or(&[]));
            let heading = format!("{} ({})", c.label, list.len());
            CategoryView {
                id: c.id.clone(),
                label: escape_markdown(&c.label),
                heading: escape_markdown(&heading),
                anchor: anchor(&heading),
                count: list.len(),
                entries: list
                    .iter()
                    .enumerate()
                    .map(|(i, e)| entry_view(tax, e, i + 1))
                    .collect(),
            }
        })
        .collect();
    ctx.insert("categories", &categories);

    let form_count = st.count("orchestration_form");
    let topologies: Vec<_> = tax
        .orchestration_forms
        .iter()
        .map(|f| {
            let of: Vec<&Entry> = entries
                .iter()
                .copied()
                .filter(|e| e.orchestration_form == f.id)
                .collect();
            serde_json::json!({
                "id": code_span(&f.id),
                "label": escape_markdown(&f.label),
                "feature": escape_markdown(f.feature.as_deref().unwrap_or("")),
                "count": form_count.map(|t| t.get(&f.id)).unwrap_or(0),
                "examples": representatives(&of, 3),
            })
        })
        .collect();
    ctx.insert("topologies", &topologies);

    let fam_count = st.count("reward_family");
    let families: Vec<_> = tax
        .reward_families
        .iter()
        .map(|f| {
            let of: Vec<&Entry> = entries
                .iter()
                .copied()
                .filter(|e| f.reward_types.contains(&e.reward_type))
                .collect();
            serde_json::json!({
                "id": f.id,
                "label": escape_markdown(&f.label),
                "reward_types": f.reward_types.iter().map(|t| code_span(t)).collect::<Vec<_>>(),
                "typical_credit": escape_markdown(&f.typical_credit),
                "count": fam_count.map(|t| t.get(&f.id)).unwrap_or(0),
                "examples": representatives(&of, 3),
            })
        })
        .collect();
    ctx.insert("families", &families);

    let fields: Vec<_> = crate::fields::entry_tags()
        .map(|f| {
            let vals = tax.allowed(f).unwrap_or_default();
            serde_json::json!({
                "field": code_span(f),
                "values": vals.iter().map(|v| code_span(v)).collect::<Vec<_>>(),
            })
        })
        .collect();
    ctx.insert("fields", &fields);

    let credit = st.count("credit_granularity");
    let strict = st.count("strict_credit");
    let units: Vec<_> = tax
        .credit_units
        .iter()
        .map(|u| {
            serde_json::json!({
                "id": escape_markdown(&u.id),
                "broad": credit.map(|t| t.get(&u.id)).unwrap_or(0),
                "strict": strict.map(|t| t.get(&u.id)).unwrap_or(0),
            })
        })
        .collect();
    ctx.insert("credit_units", &units);
    let sub_count = st.count("subdecisions");
    let subs: Vec<_> = tax
        .subdecisions
        .iter()
        .map(|s| {
            let rl = entries
                .iter()
                .filter(|e| e.is_rl == "yes" && e.subdecisions.contains(&s.id))
                .count();
            serde_json::json!({
                "id": code_span(&s.id),
                "label": escape_markdown(&s.label),
                "question": escape_markdown(s.question.as_deref().unwrap_or("")),
                "count": sub_count.map(|t| t.get(&s.id)).unwrap_or(0),
                "rl": rl,
            })
        })
        .collect();
    ctx.insert("subdecisions", &subs);

    let stage_count = st.exclusion("stage");
    let mut remaining = st.audited;
    let stages: Vec<_> = tax
        .screening
        .stages
        .iter()
        .map(|s| {
            let n = stage_count.map(|t| t.get(&s.id)).unwrap_or(0);
            remaining = remaining.saturating_sub(n);
            serde_json::json!({"id": s.id, "label": escape_markdown(&s.label), "count": n, "remaining": remaining})
        })
        .collect();
    ctx.insert("stages", &stages);
    let sorted_rows = |name: &str| -> Vec<serde_json::Value> {
        st.exclusion(name)
            .map(|t| t.sorted())
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(v, n)| serde_json::json!({"value": escape_markdown(&v), "count": n}))
            .collect()
    };
    ctx.insert("sources", &sorted_rows("source"));
    ctx.insert("query_families", &sorted_rows("query_family"));
    ctx.insert("stats_markdown", &stats::markdown_tables(st));
    let crosstabs: BTreeMap<String, String> = st
        .crosstabs
        .iter()
        .map(|x| (x.name.clone(), stats::crosstab_markdown(x)))
        .collect();
    ctx.insert("crosstabs", &crosstabs);
    ctx
}

/// Builds a Tera instance over the given templates, with the project's filters.
pub fn tera(templates: &[(String, String)]) -> Result<tera::Tera, tera::Error> {
    let mut t = tera::Tera::default();
    t.autoescape_on(vec![]);
    t.register_filter("md", md_filter);
    t.register_filter("anchor", anchor_filter);
    t.add_raw_templates(templates.iter().map(|(n, s)| (n.as_str(), s.as_str())))?;
    Ok(t)
}

fn md_filter(v: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = match v {
        tera::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    Ok(tera::Value::String(escape_markdown(&s)))
}

fn anchor_filter(v: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = v.as_str().unwrap_or_default();
    Ok(tera::Value::String(anchor(s)))
}

/// A Tera error with its chain of causes, on one line.
pub fn tera_error(e: &tera::Error) -> String {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_and_link_labels() {
        assert_eq!(display_author("Liu, Shuo"), "Shuo Liu");
        assert_eq!(display_author("Kimi Team"), "Kimi Team");
        assert_eq!(link_label("https://arxiv.org/abs/1"), "Paper");
        assert_eq!(link_label("https://docs.anthropic.com/en/docs/x"), "Docs");
        assert_eq!(link_label("https://www.kimi.com/blog/k"), "Blog");
        assert_eq!(link_label("https://mas-design.github.io/"), "Project");
    }

    #[test]
    fn md_filter_is_registered() {
        let t = tera(&[("t".into(), "{{ x | md }}".into())]).unwrap();
        let mut c = tera::Context::new();
        c.insert("x", "*a*");
        assert_eq!(t.render("t", &c).unwrap(), "\\*a\\*");
    }
}
