//! `corpus site`: one self-contained, filterable HTML page of the corpus —
//! entries with facets and search, the exclusion log, and the charts of
//! `stats/` — rendered from `templates/site.html.tera`.
//!
//! The page makes no request of its own: CSS, script, data and charts are
//! inline, and a Content-Security-Policy forbids anything else. Rows are
//! rendered here (so the page reads without script and the output is
//! deterministic); the script filters, counts, sorts and keeps the view in
//! the address fragment, reading a compact JSON description of the same rows.

use crate::exchange::export;
use crate::layout::Layout;
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::filter::Fields;
use crate::model::taxonomy::{Taxonomy, Value};
use crate::model::{Entry, Exclusion};
use crate::publish::generate;
use crate::publish::page_data::{
    self, filter_values, streams_data, Item, Lazy, Mark, PageData, PageError, ViewData,
};
use crate::publish::site_rows::{Rows, LISTS};
use crate::publish::{chart_files, engine, row_loops};
use crate::stats::Stats;
use crate::text::embed::{inline_svg, script_json};
use serde::Serialize;

/// Largest existing page read back to see whether this command wrote it.
pub const MAX_PAGE_BYTES: u64 = generate::MAX_GENERATED_BYTES;
/// Marks a page as written by this command, so re-running it may replace the page
/// while a file the user wrote is never overwritten without `--force`.
pub const GENERATOR: &str = r#"<meta name="generator" content="corpus site">"#;

/// One value of a facet: its id (as in the data and the address), label and count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FacetValue {
    /// The value as written in the data.
    pub id: String,
    /// What the reader sees.
    pub label: String,
    /// Entries (or records) holding it, before any filter.
    pub count: usize,
}

/// A filterable field with its values in taxonomy order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Facet {
    /// The data field's name: the key in the address fragment.
    pub field: String,
    /// Heading shown above the values.
    pub label: String,
    /// The values, zeros included.
    pub values: Vec<FacetValue>,
}

/// Reads the values a row holds in one field.
type ValuesOf<'a, T> = Box<dyn Fn(&T) -> Vec<String> + Sync + 'a>;

/// A field of a view: how its values are read from a row.
struct FieldSpec<'a, T> {
    field: &'static str,
    label: &'static str,
    /// Allowed values, in display order, with labels.
    values: Vec<(String, String)>,
    of: ValuesOf<'a, T>,
}

fn labelled(v: &[Value]) -> Vec<(String, String)> {
    v.iter().map(|x| (x.id.clone(), x.label.clone())).collect()
}

fn plain(v: &[String]) -> Vec<(String, String)> {
    v.iter().map(|x| (x.clone(), x.clone())).collect()
}

fn with_na(tax: &Taxonomy, mut v: Vec<(String, String)>) -> Vec<(String, String)> {
    v.push((tax.na.clone(), "not applicable".to_string()));
    v
}

fn one(s: &str) -> Vec<String> {
    vec![s.to_string()]
}

/// The reward family of an entry, or NA.
fn family(tax: &Taxonomy, e: &Entry) -> String {
    tax.family_of(&e.reward_type)
        .map(|f| f.id.clone())
        .unwrap_or_else(|| tax.na.clone())
}

fn entry_fields<'a>(tax: &'a Taxonomy, entries: &[&Entry]) -> Vec<FieldSpec<'a, Entry>> {
    let mut years: Vec<i64> = entries.iter().map(|e| e.year).collect();
    years.sort_unstable_by(|a, b| b.cmp(a));
    years.dedup();
    let families = tax
        .reward_families
        .iter()
        .map(|f| (f.id.clone(), format!("{} {}", f.id, f.label)))
        .collect();
    vec![
        FieldSpec {
            field: fields::CATEGORY,
            label: "Category",
            values: labelled(&tax.category),
            of: Box::new(|e: &Entry| one(&e.category)),
        },
        FieldSpec {
            field: fields::IS_RL,
            label: "RL-trained",
            values: labelled(&tax.is_rl),
            of: Box::new(|e: &Entry| one(&e.is_rl)),
        },
        FieldSpec {
            field: "reward_family",
            label: "Reward family",
            values: with_na(tax, families),
            of: Box::new(move |e: &Entry| vec![family(tax, e)]),
        },
        FieldSpec {
            field: fields::REWARD_TYPE,
            label: "Reward type",
            values: with_na(tax, plain(&tax.reward_types())),
            of: Box::new(|e: &Entry| one(&e.reward_type)),
        },
        FieldSpec {
            field: fields::CREDIT_GRANULARITY,
            label: "Credit unit",
            values: with_na(tax, labelled(&tax.credit_units)),
            of: Box::new(|e: &Entry| one(&e.credit_granularity)),
        },
        FieldSpec {
            field: fields::ORCHESTRATION_FORM,
            label: "Orchestration form",
            values: with_na(tax, labelled(&tax.orchestration_forms)),
            of: Box::new(|e: &Entry| one(&e.orchestration_form)),
        },
        FieldSpec {
            field: fields::SUBDECISIONS,
            label: "Orchestration sub-decisions",
            values: labelled(&tax.subdecisions),
            of: Box::new(|e: &Entry| e.subdecisions.clone().unwrap_or_default()),
        },
        FieldSpec {
            field: fields::SCENARIO,
            label: "Scenario",
            values: with_na(tax, labelled(&tax.scenario)),
            of: Box::new(|e: &Entry| one(&e.scenario)),
        },
        FieldSpec {
            field: fields::IS_CORE,
            label: "Core or supporting",
            values: labelled(&tax.is_core),
            of: Box::new(|e: &Entry| one(&e.is_core)),
        },
        FieldSpec {
            field: fields::VERIFIED,
            label: "Verified",
            values: labelled(&tax.verified),
            of: Box::new(|e: &Entry| one(&e.verified)),
        },
        FieldSpec {
            field: fields::YEAR,
            label: "Year",
            values: years
                .iter()
                .map(|y| (y.to_string(), y.to_string()))
                .collect(),
            of: Box::new(|e: &Entry| vec![e.year.to_string()]),
        },
    ]
}

fn record_fields(tax: &Taxonomy) -> Vec<FieldSpec<'_, Exclusion>> {
    vec![
        FieldSpec {
            field: fields::STAGE,
            label: "Screening stage",
            values: labelled(&tax.screening.stages),
            of: Box::new(|x: &Exclusion| one(&x.stage)),
        },
        FieldSpec {
            field: fields::SOURCE,
            label: "Source",
            values: plain(&tax.screening.sources),
            of: Box::new(|x: &Exclusion| one(&x.source)),
        },
        FieldSpec {
            field: fields::QUERY_FAMILY,
            label: "Query family",
            values: plain(&tax.screening.query_families),
            of: Box::new(|x: &Exclusion| one(&x.query_family)),
        },
    ]
}

/// Facets and per-row value indices for a view. Values the taxonomy does not
/// know (a corpus with errors) are appended rather than dropped, so every
/// row stays reachable.
fn facets<T: Sync>(specs: &[FieldSpec<'_, T>], rows: &[&T]) -> (Vec<Facet>, Vec<Vec<Vec<usize>>>) {
    // Each field is read from every row on its own, so the fields are
    // spread over the cores (on a large list each is a pass over all rows).
    let columns = crate::parallel::each_in_parallel(specs, |spec| facet(spec, rows));
    let mut facets = Vec::with_capacity(columns.len());
    let mut per_row: Vec<Vec<Vec<usize>>> = (0..rows.len())
        .map(|_| Vec::with_capacity(columns.len()))
        .collect();
    for (facet, column) in columns {
        facets.push(facet);
        for (row, idx) in per_row.iter_mut().zip(column) {
            row.push(idx);
        }
    }
    (facets, per_row)
}

/// One field's facet, and the indices of the values each row holds in it.
fn facet<T>(spec: &FieldSpec<'_, T>, rows: &[&T]) -> (Facet, Vec<Vec<usize>>) {
    let mut values: Vec<FacetValue> = spec
        .values
        .iter()
        .map(|(id, label)| FacetValue {
            id: id.clone(),
            label: label.clone(),
            count: 0,
        })
        .collect();
    let mut column = Vec::with_capacity(rows.len());
    for row in rows {
        let mut idx = Vec::new();
        for v in (spec.of)(row) {
            let i = match values.iter().position(|x| x.id == v) {
                Some(i) => i,
                None => {
                    values.push(FacetValue {
                        id: v.clone(),
                        label: v.clone(),
                        count: 0,
                    });
                    values.len() - 1
                }
            };
            if !idx.contains(&i) {
                values[i].count += 1;
                idx.push(i);
            }
        }
        column.push(idx);
    }
    let facet = Facet {
        field: spec.field.to_string(),
        label: spec.label.to_string(),
        values,
    };
    (facet, column)
}

/// Entries in the page's default order: category (taxonomy order), newest first, then key.
fn default_order<'a>(tax: &Taxonomy, entries: &[&'a Entry]) -> Vec<&'a Entry> {
    let rank = |c: &str| {
        tax.category
            .iter()
            .position(|x| x.id == c)
            .unwrap_or(usize::MAX)
    };
    let mut v = entries.to_vec();
    v.sort_by(|a, b| {
        rank(&a.category)
            .cmp(&rank(&b.category))
            .then(b.year.cmp(&a.year))
            .then_with(|| a.key.cmp(&b.key))
    });
    v
}

/// A chart for the page: its caption and inline SVG.
#[derive(Debug, Clone, Serialize)]
struct Chart {
    name: String,
    caption: String,
    svg: String,
}

/// What a chart of `stats/` shows, for its caption and its accessible name.
fn chart_caption(name: &str) -> String {
    match name {
        "chart_reward_family.svg" => "Entries per reward family (R1–R8)",
        "chart_credit_granularity.svg" => "Entries per credit unit, finest to coarsest",
        "chart_orchestration_form.svg" => "Entries per orchestration form",
        "chart_subdecisions.svg" => "Entries per orchestration sub-decision",
        "chart_reward_x_credit.svg" => "Entries per reward type and credit unit",
        crate::publish::chart_files::PRISMA_CHART => {
            "PRISMA 2020 flow diagram: the previous review, then each new round"
        }
        other => other,
    }
    .to_string()
}

/// A view's facet fields and their value ids, in the order of `Item::v`.
fn facet_ids(facets: &[Facet]) -> Vec<(String, Vec<String>)> {
    facets
        .iter()
        .map(|f| {
            (
                f.field.clone(),
                f.values.iter().map(|v| v.id.clone()).collect(),
            )
        })
        .collect()
}

/// The script's description of each of `rows`, made as it is written: its
/// key and sort keys (`key_and_sort`), the indices of its facet values
/// (`values`, one list per row) and its value of each field of `names`.
fn items<'a, T: Fields + Sync + 'a>(
    rows: Vec<&'a T>,
    values: Vec<Vec<Vec<usize>>>,
    names: Vec<&'static str>,
    key_and_sort: impl Fn(&T, &[Vec<usize>]) -> (String, Vec<i64>) + Sync + 'a,
) -> Lazy<'a, Item> {
    Lazy::spread(rows.len(), move |i| {
        let (row, v) = (rows[i], &values[i]);
        let (k, o) = key_and_sort(row, v);
        Item {
            k,
            v: v.clone(),
            f: filter_values(row, &names),
            o,
        }
    })
}

/// The page's template context (all but its rows), the script's data, and
/// the rows.
fn context<'c>(corpus: &'c Corpus, st: &Stats) -> (tera::Context, PageData<'c>, Rows<'c>) {
    let tax = &corpus.taxonomy;
    let entries = default_order(tax, &corpus.entry_list());
    let records = corpus.exclusion_list();

    let specs = entry_fields(tax, &entries);
    let (entry_facets, entry_values) = facets(&specs, &entries);
    // The first value's index in the named facet sorts a row by that field.
    let sort_key = |facets: &[Facet], facet: &str| {
        let at = facets.iter().position(|f| f.field == facet);
        move |row: &[Vec<usize>]| -> i64 {
            at.and_then(|f| row.get(f))
                .and_then(|v| v.first().copied())
                .map_or(i64::MAX, |i| i as i64)
        }
    };
    let entry_keys = [
        fields::CATEGORY,
        // Reward types are listed in family order, so this sorts by family first.
        fields::REWARD_TYPE,
        fields::CREDIT_GRANULARITY,
        fields::ORCHESTRATION_FORM,
    ]
    .map(|f| sort_key(&entry_facets, f));
    let entry_names: Vec<&'static str> = fields::entry_filter_fields().collect();
    let papers = ViewData {
        bib: Lazy::spread(entries.len(), {
            let rows = entries.clone();
            move |i| export::bibtex(&[rows[i]], &tax.protected_words)
        }),
        facets: facet_ids(&entry_facets),
        fields: entry_names.clone(),
        items: items(entries.clone(), entry_values, entry_names, move |e, v| {
            let mut o = vec![e.year];
            o.extend(entry_keys.iter().map(|key| key(v)));
            (e.key.clone(), o)
        }),
    };

    let rspecs = record_fields(tax);
    let (record_facets, record_values) = facets(&rspecs, &records);
    let record_keys = [fields::STAGE, fields::SOURCE].map(|f| sort_key(&record_facets, f));
    let record_names: Vec<&'static str> = fields::record_filter_fields().collect();
    let log = ViewData {
        bib: Lazy::new(0, |_| String::new()),
        facets: facet_ids(&record_facets),
        fields: record_names.clone(),
        items: items(records.clone(), record_values, record_names, move |x, v| {
            let o = record_keys.iter().map(|key| key(v)).collect();
            (x.record_id.clone(), o)
        }),
    };
    let data = PageData {
        aliases: crate::model::filter::FIELD_ALIASES,
        exclusions: log,
        papers,
    };
    let mut ctx = tera::Context::new();

    let charts: Vec<Chart> = chart_files::charts(corpus, st, &crate::publish::prisma::flow(corpus))
        .into_iter()
        .map(|c| Chart {
            caption: chart_caption(&c.file),
            name: c.file,
            svg: inline_svg(&c.svg),
        })
        .collect();

    ctx.insert("generator", GENERATOR);
    ctx.insert("retained", &st.retained);
    ctx.insert("excluded", &st.excluded);
    ctx.insert("audited", &st.audited);
    ctx.insert("survey_pool", &crate::publish::provenance::PoolView::of(st));
    ctx.insert("cutoff", &tax.screening.cutoff);
    // The list's own words and, when there is one, the survey it follows;
    // the page's template escapes them as HTML.
    if let Some(l) = &tax.list {
        ctx.insert(
            "list",
            &serde_json::json!({"title": l.title.trim(), "description": l.description.split_whitespace().collect::<Vec<_>>().join(" ")}),
        );
    }
    if let Some((s, _)) = &corpus.survey {
        let family = s
            .paper
            .authors
            .first()
            .map(|a| a.split(',').next().unwrap_or(a).to_string())
            .unwrap_or_default();
        ctx.insert(
            "paper",
            &serde_json::json!({"title": s.paper.title, "family": family, "year": s.paper.year}),
        );
    }
    ctx.insert(
        "repository_url",
        &crate::publish::repository::repository_url(&tax.repository),
    );
    // The feeds `corpus site` writes beside the page, and the release a
    // reader can cite (the newest of corpus/releases.yaml).
    ctx.insert(
        "feeds",
        &serde_json::json!({"json": crate::publish::feeds::JSON_FEED, "atom": crate::publish::feeds::ATOM_FEED}),
    );
    if let Some(r) = corpus.releases.as_ref().and_then(|r| r.latest()) {
        ctx.insert(
            "release",
            &serde_json::json!({"version": r.version, "date": r.date}),
        );
    }
    ctx.insert("entry_facets", &entry_facets);
    ctx.insert("record_facets", &record_facets);
    ctx.insert("charts", &charts);
    let rows = Rows {
        tax,
        entries,
        records,
    };
    (ctx, data, rows)
}

/// Rows rendered from one context when a list is rendered a chunk at a time.
const CHUNK: usize = 1024;

/// Chunks rendered at once, their texts held until written in order.
const CHUNKS_AT_ONCE: usize = 8;

/// The site's page, ready to be written: its template parsed, its context
/// made, and the script's data made row by row as the page is written.
pub struct Page<'c> {
    tera: tera::Tera,
    ctx: tera::Context,
    /// Where the data goes in the rendered page.
    mark: Mark,
    data: PageData<'c>,
    rows: Rows<'c>,
    /// The template cut at its loops over the rows (see `row_loops`), each
    /// piece a template of `tera` named by its index; None when the
    /// template is rendered whole, every row in `ctx`.
    pieces: Option<Vec<(String, row_loops::Piece)>>,
}

impl<'c> Page<'c> {
    /// Prepares the page of `corpus`, whose figures are `st`
    /// (`stats::of_corpus`), from the template text; Err says where the
    /// template is broken.
    pub fn new(corpus: &'c Corpus, st: &Stats, template: &str) -> Result<Page<'c>, String> {
        let mut tera = engine::new_tera();
        tera.autoescape_on([".html.tera"]);
        tera.add_raw_template(Layout::SITE_TEMPLATE, template)
            .map_err(|e| located(&engine::TemplateError::of(&e)))?;
        let (mut ctx, data, rows) = context(corpus, st);
        let mark = Mark::new();
        if streams_data(template) {
            ctx.insert("data_json", mark.as_str());
        } else {
            ctx.insert("data_json", &script_json(&data));
        }
        // Taken into the context whole, a large list's rows are most of the
        // memory a run needs (some 6 KB a row): where the template allows,
        // they are rendered a chunk at a time instead.
        let pieces = row_loops::cut(template, &LISTS).and_then(|pieces| {
            let named: Vec<(String, row_loops::Piece)> = pieces
                .into_iter()
                .enumerate()
                // The name keeps the page's extension, so escaping is the same.
                .map(|(n, p)| (format!("{n}#{}", Layout::SITE_TEMPLATE), p))
                .collect();
            named
                .iter()
                .all(|(name, p)| tera.add_raw_template(name, p.template()).is_ok())
                .then_some(named)
        });
        match pieces {
            Some(_) => {
                for list in LISTS {
                    ctx.insert(list, &(rows.len(list) > 0));
                }
            }
            None => rows.insert_all(&mut ctx),
        }
        Ok(Page {
            tera,
            ctx,
            mark,
            data,
            rows,
            pieces,
        })
    }

    /// Writes the page to `out` as it renders; returns its size in bytes.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> Result<u64, PageError> {
        let Some(pieces) = &self.pieces else {
            return page_data::render_to(
                &self.tera,
                Layout::SITE_TEMPLATE,
                &self.ctx,
                &self.mark,
                &self.data,
                out,
            );
        };
        let written = page_data::render_with(
            |w| self.render_pieces(pieces, w),
            &self.mark,
            &self.data,
            out,
        );
        match written {
            // Said as the whole template says it, at its own line and column.
            Err(PageError::Template(e)) => {
                Err(self.whole_error().unwrap_or(PageError::Template(e)))
            }
            other => other,
        }
    }

    /// Renders the pieces in order, each loop a chunk of rows at a time.
    /// The chunks of a loop are rendered on every core, each into a text of
    /// its own, and written in order: on a large list the rows are most of
    /// the page's work. A few chunks at a time, so that only their texts
    /// are held, never the page's.
    fn render_pieces(
        &self,
        pieces: &[(String, row_loops::Piece)],
        w: &mut dyn std::io::Write,
    ) -> Result<(), tera::Error> {
        for (name, piece) in pieces {
            let row_loops::Piece::Rows { list, .. } = piece else {
                self.tera.render_to(name, &self.ctx, &mut *w)?;
                continue;
            };
            let len = self.rows.len(list);
            let starts: Vec<usize> = (0..len).step_by(CHUNK).collect();
            for some in starts.chunks(CHUNKS_AT_ONCE) {
                let rendered = crate::parallel::each_in_parallel(some, |&from| {
                    let mut text = Vec::new();
                    self.render_chunk(name, list, from..(from + CHUNK).min(len), len, &mut text)
                        .map(|()| text)
                });
                for text in rendered {
                    w.write_all(&text?)?;
                }
            }
        }
        Ok(())
    }

    /// Renders the loop piece `name` over the rows `range` of `list` (of `len` rows).
    fn render_chunk(
        &self,
        name: &str,
        list: &str,
        range: std::ops::Range<usize>,
        len: usize,
        w: &mut dyn std::io::Write,
    ) -> Result<(), tera::Error> {
        let (from, to) = (range.start, range.end);
        let mut ctx = self.ctx.clone();
        self.rows.insert_chunk(&mut ctx, list, range);
        ctx.insert(row_loops::OFFSET, &from);
        ctx.insert(row_loops::FIRST, &(from == 0));
        ctx.insert(row_loops::LAST, &(to == len));
        ctx.insert(row_loops::LENGTH, &len);
        self.tera.render_to(name, &ctx, w)
    }

    /// The error of the whole template rendered with every row, when it has one.
    fn whole_error(&self) -> Option<PageError> {
        let mut ctx = self.ctx.clone();
        self.rows.insert_all(&mut ctx);
        page_data::render_to(
            &self.tera,
            Layout::SITE_TEMPLATE,
            &ctx,
            &self.mark,
            &self.data,
            &mut std::io::sink(),
        )
        .err()
    }
}

/// A template error as the site reports it: the template's path, line and column.
pub fn located(e: &engine::TemplateError) -> String {
    let at = e.at.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
    format!(
        "{}/{}{at}: {}",
        Layout::TEMPLATES_DIR,
        e.template.as_deref().unwrap_or(Layout::SITE_TEMPLATE),
        e.message
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_rendered_a_chunk_at_a_time_make_the_page_rendered_whole() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut corpus = crate::load::load(&root, crate::load::LoadOptions::default()).unwrap();
        // Past two chunks of each list, so both loops cross chunk boundaries
        // (which fall inside the template's groups of 50 rows).
        let (entries, records) = (corpus.entries.clone(), corpus.exclusions.clone());
        for n in 0..(2 * CHUNK + 7) / entries.len() {
            for le in &entries {
                let mut le = le.clone();
                le.entry.key = format!("{}-{n}", le.entry.key);
                corpus.entries.push(le);
            }
        }
        for n in 0..(2 * CHUNK + 7) / records.len() {
            for lx in &records {
                let mut lx = lx.clone();
                lx.record.record_id = format!("{}-{n}", lx.record.record_id);
                corpus.exclusions.push(lx);
            }
        }
        assert!(corpus.entries.len() > 2 * CHUNK && corpus.exclusions.len() > 2 * CHUNK);
        let st = crate::stats::of_corpus(&corpus);
        let template = include_str!("../../../../templates/site.html.tera");
        let page = |p: &Page| {
            let mut out = Vec::new();
            p.write_to(&mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let chunked = Page::new(&corpus, &st, template).unwrap();
        assert_eq!(chunked.pieces.as_ref().map(Vec::len), Some(5));
        let mut whole = Page::new(&corpus, &st, template).unwrap();
        whole.pieces = None;
        whole.rows.insert_all(&mut whole.ctx);
        let html = page(&chunked);
        assert_eq!(html, page(&whole));
        assert_eq!(
            html.matches("<tbody>").count(),
            corpus.entries.len().div_ceil(50) + corpus.exclusions.len().div_ceil(50)
        );
    }

    #[test]
    fn facets_count_list_values_once_and_keep_unknown_values() {
        let specs = vec![FieldSpec {
            field: "subdecisions",
            label: "Sub-decisions",
            values: vec![("a".into(), "A".into()), ("b".into(), "B".into())],
            of: Box::new(|r: &Vec<String>| r.clone()),
        }];
        let rows: Vec<Vec<String>> = vec![
            vec!["a".into(), "a".into(), "b".into()],
            vec![],
            vec!["zz".into()],
        ];
        let refs: Vec<&Vec<String>> = rows.iter().collect();
        let (f, per_row) = facets(&specs, &refs);
        let counts: Vec<(&str, usize)> = f[0]
            .values
            .iter()
            .map(|v| (v.id.as_str(), v.count))
            .collect();
        assert_eq!(counts, [("a", 1), ("b", 1), ("zz", 1)]);
        assert_eq!(per_row, [vec![vec![0, 1]], vec![vec![]], vec![vec![2]]]);
    }
}
