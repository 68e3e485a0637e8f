//! The rows of the site's page: an entry or an exclusion record as the
//! page's template shows it, and the two lists of them, each row made only
//! when the template takes it in.

use crate::model::taxonomy::{self, Taxonomy};
use crate::model::{Entry, Exclusion};
use crate::publish::entry_views;
use crate::publish::page_data::Lazy;
use crate::publish::row_loops;
use crate::text::ids::is_http_url;
use serde::Serialize;
use std::ops::Range;

/// A link of an entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    /// Paper / Blog / Docs / Project.
    pub label: String,
    /// The http(s) address.
    pub url: String,
}

/// An entry as a row of the page (plain text: the template escapes it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntryRow {
    /// Entry key.
    pub key: String,
    /// Title.
    pub title: String,
    /// The first http(s) link, which the title links to.
    pub url: Option<String>,
    /// "Given Family".
    pub author: String,
    /// Affiliation.
    pub affiliation: String,
    /// Venue.
    pub venue: String,
    /// Year.
    pub year: i64,
    /// All http(s) links.
    pub links: Vec<Link>,
    /// One-liner.
    pub one_liner: String,
    /// Notes, when any.
    pub notes: Option<String>,
    /// Category label.
    pub category: String,
    /// Reward type and its family.
    pub reward: String,
    /// Credit unit.
    pub credit: String,
    /// Orchestration form.
    pub form: String,
    /// Further tags: RL status, scenario, core, verification, sub-decisions.
    pub tags: Vec<String>,
}

/// An exclusion record as a row of the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordRow {
    /// Record id (E001…).
    pub key: String,
    /// Title as screened.
    pub title: String,
    /// The record's address when it is http(s).
    pub url: Option<String>,
    /// arXiv:…, OpenReview:…, …
    pub identifier: String,
    /// Where it was found.
    pub source: String,
    /// Which query family found it.
    pub query_family: String,
    /// When it was screened.
    pub date: String,
    /// Stage label.
    pub stage: String,
    /// Why it was excluded.
    pub reason: String,
}

fn http(url: &str) -> Option<String> {
    is_http_url(url).then(|| url.to_string())
}

pub(crate) fn entry_row(tax: &Taxonomy, e: &Entry) -> EntryRow {
    let na = tax.na.as_str();
    let links: Vec<Link> = e
        .urls
        .iter()
        .filter_map(|u| {
            http(u).map(|url| Link {
                label: entry_views::link_label(u).to_string(),
                url,
            })
        })
        .collect();
    let mut tags = vec![match e.is_rl.as_str() {
        "yes" => "RL-trained".to_string(),
        "partial" => "partly RL".to_string(),
        "no" => "not RL".to_string(),
        other => format!("is_rl: {other}"),
    }];
    if e.scenario != na {
        tags.push(format!("scenario: {}", e.scenario));
    }
    tags.push(e.is_core.clone());
    tags.push(format!("verified: {}", e.verified));
    tags.extend(
        e.subdecisions
            .iter()
            .flatten()
            .map(|s| taxonomy::label_of(&tax.subdecisions, s).to_string()),
    );
    let reward = match tax.family_of(&e.reward_type) {
        Some(f) => format!("{} ({})", e.reward_type, f.id),
        None => e.reward_type.clone(),
    };
    EntryRow {
        key: e.key.clone(),
        title: e.title.clone(),
        url: links.first().map(|l| l.url.clone()),
        author: entry_views::display_author(&e.first_author),
        // "unknown" is how the data says there is nothing to show.
        affiliation: if e.affiliation.eq_ignore_ascii_case("unknown") {
            String::new()
        } else {
            e.affiliation.clone()
        },
        venue: e.venue.clone(),
        year: e.year,
        links,
        one_liner: e.one_liner.clone(),
        notes: e.notes.clone().filter(|n| !n.trim().is_empty()),
        category: tax.category_label(&e.category).to_string(),
        reward,
        credit: e.credit_granularity.clone(),
        form: e.orchestration_form.clone(),
        tags,
    }
}

pub(crate) fn record_row(tax: &Taxonomy, x: &Exclusion) -> RecordRow {
    RecordRow {
        key: x.record_id.clone(),
        title: x.title.clone(),
        url: http(&x.url),
        identifier: x.identifier.clone(),
        source: x.source.clone(),
        query_family: x.query_family.clone(),
        date: x.date_screened.clone(),
        stage: taxonomy::label_of(&tax.screening.stages, &x.stage).to_string(),
        reason: x.reason.clone(),
    }
}

/// The page's two lists of rows, each row made only as it is rendered.
pub(crate) struct Rows<'c> {
    /// The taxonomy the rows' labels come from.
    pub(crate) tax: &'c Taxonomy,
    /// Entries in the page's default order.
    pub(crate) entries: Vec<&'c Entry>,
    /// Exclusion records in the log's order.
    pub(crate) records: Vec<&'c Exclusion>,
}

/// The context's names of the two lists.
pub(crate) const LISTS: [&str; 2] = ["entries", "records"];

impl Rows<'_> {
    /// Both lists into `ctx`, whole: for a template rendered in one go.
    pub(crate) fn insert_all(&self, ctx: &mut tera::Context) {
        for list in LISTS {
            self.insert(ctx, list, list, 0..self.len(list));
        }
    }

    /// How many rows the named list has.
    pub(crate) fn len(&self, list: &str) -> usize {
        if list == LISTS[0] {
            self.entries.len()
        } else {
            self.records.len()
        }
    }

    /// The rows `range` of the named list into `ctx` as the loop piece's rows.
    pub(crate) fn insert_chunk(&self, ctx: &mut tera::Context, list: &str, range: Range<usize>) {
        self.insert(ctx, row_loops::ROWS, list, range);
    }

    /// The rows `range` of `list` into `ctx` under `name`, each row made as
    /// Tera takes it in, never a list of them all.
    fn insert(&self, ctx: &mut tera::Context, name: &'static str, list: &str, range: Range<usize>) {
        let tax = self.tax;
        if list == LISTS[0] {
            let rows = &self.entries[range];
            ctx.insert(name, &Lazy::new(rows.len(), |i| entry_row(tax, rows[i])));
        } else {
            let rows = &self.records[range];
            ctx.insert(name, &Lazy::new(rows.len(), |i| record_row(tax, rows[i])));
        }
    }
}
