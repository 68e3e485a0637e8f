//! An entry as the README shows it: what it shows chosen (badges, author,
//! link labels), each piece escaped for Markdown, and a category's views made
//! only as the template context takes them in.

use crate::model::survey::Survey;
use crate::model::taxonomy::Taxonomy;
use crate::model::Entry;
use crate::parallel::into_parallel;
use crate::text::markdown::{code_span, escape_markdown, link_target};
use serde::Serialize;
use std::cell::RefCell;

/// "Family, Given" as "Given Family"; organisations unchanged.
pub fn display_author(a: &str) -> String {
    match a.split_once(", ") {
        Some((family, given)) if !given.contains(',') => format!("{given} {family}"),
        _ => a.to_string(),
    }
}

/// The label of a link: Paper, Blog, Docs or Project.
pub fn link_label(url: &str) -> &'static str {
    let u = crate::text::ids::normalize_url(url);
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
    /// The escaped label of its round when it joined after the survey
    /// (empty for an entry of the survey's pool).
    pub since: String,
}

/// At most three compact tags: the survey's three axes (reward type, credit
/// unit, orchestration form), each left out where it does not apply. Every
/// other tag is in the entry's file and on the site (plain text here).
fn badges(tax: &Taxonomy, e: &Entry) -> Vec<String> {
    let na = tax.na.as_str();
    [
        ("reward", &e.reward_type),
        ("credit", &e.credit_granularity),
        ("topology", &e.orchestration_form),
    ]
    .into_iter()
    .filter(|(_, v)| v.as_str() != na && !v.is_empty())
    .map(|(name, v)| format!("{name}: {v}"))
    .collect()
}

/// The README view of one entry: what it shows is chosen (badges, author,
/// link labels), the round's label looked up, then each piece escaped.
pub fn entry_view(
    tax: &Taxonomy,
    e: &Entry,
    n: usize,
    survey_rounds: Option<&[String]>,
) -> EntryView {
    let author = display_author(&e.first_author);
    let badges = badges(tax, e);
    let labels: Vec<&str> = e.urls.iter().map(|u| link_label(u)).collect();
    let later = !tax.in_rounds(e.added_in.as_deref(), survey_rounds);
    let since = tax.round_of(e.added_in.as_deref()).filter(|_| later);
    let since = since.map(|r| tax.round_label(r));
    EntryView {
        since: since.map(escape_markdown).unwrap_or_default(),
        n,
        key: e.key.clone(),
        title: escape_markdown(&e.title),
        year: e.year,
        badges: badges.iter().map(|b| code_span(b)).collect(),
        author: escape_markdown(&author),
        venue: escape_markdown(&e.venue),
        links: e
            .urls
            .iter()
            .zip(labels)
            .filter_map(|(u, label)| {
                link_target(u).map(|url| Link {
                    label: label.to_string(),
                    url,
                })
            })
            .collect(),
        one_liner: escape_markdown(&e.one_liner),
    }
}

/// A category's entries in display order, each made into its [`EntryView`]
/// only while the view is serialized into the template context: the views
/// of every entry held at once would be as large as the context itself.
#[derive(Debug, Clone)]
pub struct EntryViews<'a> {
    /// The taxonomy whose words the views use.
    pub(crate) tax: &'a Taxonomy,
    /// The entries, in display order.
    pub(crate) entries: Listed<'a>,
    /// The rounds of the survey's pool, when the list is split into pools.
    pub(crate) survey_rounds: Option<&'a [String]>,
}

/// A category's entries: borrowed from a corpus its caller keeps, or handed
/// over, when each entry is let go as soon as its view is made (so the
/// entries and the context made of their views are not both held whole).
#[derive(Debug, Clone)]
pub(crate) enum Listed<'a> {
    /// Borrowed, in display order.
    Lent(Vec<&'a Entry>),
    /// Taken out when the views are serialized, which happens once. Boxed:
    /// the list is sorted and split, and an entry moved each time would be
    /// hundreds of bytes copied where a box is one pointer.
    #[expect(
        clippy::vec_box,
        reason = "an entry is moved by its box while the list is sorted and split"
    )]
    Handed(RefCell<Option<Vec<Box<Entry>>>>),
}

impl Listed<'_> {
    /// Entries handed over, in display order.
    #[expect(clippy::vec_box, reason = "see `Listed::Handed`")]
    pub(crate) fn handed(entries: Vec<Box<Entry>>) -> Self {
        Listed::Handed(RefCell::new(Some(entries)))
    }

    /// How many entries.
    pub(crate) fn len(&self) -> usize {
        match self {
            Listed::Lent(v) => v.len(),
            Listed::Handed(v) => v.borrow().as_ref().map_or(0, Vec::len),
        }
    }
}

/// The views are made on every core, each straight into a template value
/// (Tera takes a value in without copying it), and the list serializes as one
/// such value: under Tera that is the list itself, under any other
/// serializer the same content with each view's fields in no set order.
impl Serialize for EntryViews<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (tax, rounds) = (self.tax, self.survey_rounds);
        let view = |i: usize, e: &Entry| {
            tera::Value::try_from_serializable(&entry_view(tax, e, i + 1, rounds))
                .map_err(|e| e.to_string())
        };
        let made = match &self.entries {
            Listed::Lent(v) => into_parallel(v.clone(), view),
            Listed::Handed(v) => {
                let Some(v) = v.borrow_mut().take() else {
                    return Err(serde::ser::Error::custom(
                        "the views of entries handed over are made once",
                    ));
                };
                into_parallel(v, |i, e| view(i, &e))
            }
        };
        let made: Result<Vec<tera::Value>, String> = made.into_iter().collect();
        tera::Value::from(made.map_err(serde::ser::Error::custom)?).serialize(s)
    }
}

/// The display order: newest first, then by key.
pub(crate) fn display_cmp(a: &Entry, b: &Entry) -> std::cmp::Ordering {
    b.year.cmp(&a.year).then_with(|| a.key.cmp(&b.key))
}

/// The short name the README uses for an entry: the survey file's name for
/// it, else the title up to its first colon, else the whole title.
pub fn entry_name(survey: Option<&Survey>, e: &Entry) -> String {
    if let Some(n) = survey.and_then(|s| s.names.iter().find(|n| n.key == e.key)) {
        return n.name.clone();
    }
    match e.title.split_once(": ") {
        Some((head, _)) if !head.is_empty() => head.to_string(),
        _ => e.title.clone(),
    }
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
    fn entries_handed_over_show_as_lent_ones_and_are_made_once() {
        let text = include_str!("../../../../corpus/taxonomy.yaml");
        let tax = Taxonomy::from_yaml(text).unwrap();
        let entry = |key: &str, year: i64| Entry {
            key: key.to_string(),
            title: format!("A *title* of {key}"),
            year,
            first_author: "Liu, Shuo".to_string(),
            urls: vec!["https://arxiv.org/abs/2401.00001".to_string()],
            ..Entry::default()
        };
        let mut owned = [entry("b", 2024), entry("a", 2025), entry("c", 2024)];
        owned.sort_by(display_cmp);
        let views = |entries| EntryViews {
            tax: &tax,
            entries,
            survey_rounds: None,
        };
        let lent = views(Listed::Lent(owned.iter().collect()));
        let handed = views(Listed::handed(
            owned.iter().cloned().map(Box::new).collect(),
        ));
        assert_eq!(handed.entries.len(), 3);
        let value =
            |v: &EntryViews| tera::Value::try_from_serializable(v).map_err(|e| e.to_string());
        let first = value(&handed).unwrap();
        assert_eq!(first, value(&lent).unwrap());
        let keys: Vec<String> = (0..3)
            .map(|i| {
                first
                    .get_from_path(&format!("{i}.key"))
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(keys, ["a", "b", "c"], "newest first, then by key");
        // The entries went with their views: a second serialization has none to show.
        assert_eq!(handed.entries.len(), 0);
        assert!(value(&handed).unwrap_err().contains("made once"));
    }

    #[test]
    fn a_long_list_made_on_every_core_keeps_its_order_and_numbers() {
        let text = include_str!("../../../../corpus/taxonomy.yaml");
        let tax = Taxonomy::from_yaml(text).unwrap();
        // Past the length below which the views are made on one thread.
        let owned: Vec<Entry> = (0..300)
            .map(|i| Entry {
                key: format!("k{i:03}"),
                title: format!("Title {i}"),
                year: 2024,
                ..Entry::default()
            })
            .collect();
        let views = |entries| EntryViews {
            tax: &tax,
            entries,
            survey_rounds: None,
        };
        let lent = tera::Value::try_from_serializable(&views(Listed::Lent(owned.iter().collect())));
        let handed = tera::Value::try_from_serializable(&views(Listed::handed(
            owned.iter().cloned().map(Box::new).collect(),
        )));
        let (lent, handed) = (lent.unwrap(), handed.unwrap());
        assert_eq!(lent, handed);
        for i in [0, 1, 149, 150, 151, 299] {
            let at = |f: &str| lent.get_from_path(&format!("{i}.{f}")).unwrap().to_string();
            assert_eq!(at("key"), format!("k{i:03}"));
            assert_eq!(at("n"), (i + 1).to_string());
        }
        assert!(lent.get_from_path("300.key").is_none());
    }
}
