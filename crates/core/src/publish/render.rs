//! Rendering Markdown from the data: the README awesome list and STATS.md,
//! through Tera templates kept in `templates/`.
//!
//! Tera escapes only HTML/XML templates, so every piece of data text is
//! escaped here for Markdown before it reaches a template, and only http(s)
//! URLs ever become links.

use crate::layout::Layout;
use crate::model::claims::Verdict;
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::survey::Survey;
use crate::model::taxonomy::Taxonomy;
use crate::model::Entry;
use crate::publish::chart_files::Chart;
use crate::publish::entry_views::{display_cmp, entry_name, EntryViews, Listed};
use crate::publish::repository::{pages_url, repository_url};
use crate::stats::Stats;
use crate::text::markdown::{anchor, code_span, escape_markdown};
use corpus_trace::Metrics;
use serde::Serialize;
use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};

/// A category of the README with its entries.
#[derive(Debug, Clone, Serialize)]
pub struct CategoryView<'a> {
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
    pub entries: EntryViews<'a>,
}

/// The chosen representative entries (corpus/survey.yaml), by escaped short name.
fn representatives(
    survey: Option<&Survey>,
    entries: &[&Entry],
    field: &str,
    value: &str,
) -> Vec<String> {
    let keys = survey
        .map(|s| s.representatives(field, value))
        .unwrap_or(&[]);
    keys.iter()
        .filter_map(|k| entries.iter().find(|e| &e.key == k))
        .map(|e| escape_markdown(&entry_name(survey, e)))
        .collect()
}

/// A topology (orchestration form) row of the README.
#[derive(Debug, Clone, Serialize)]
pub struct TopologyView {
    /// The id as a code span.
    pub id: String,
    /// Escaped label.
    pub label: String,
    /// Escaped defining feature.
    pub feature: String,
    /// Entries with this form.
    pub count: u64,
    /// Escaped titles of up to three representative entries.
    pub examples: Vec<String>,
}

/// A reward-family row of the README.
#[derive(Debug, Clone, Serialize)]
pub struct FamilyView {
    /// Family id, e.g. R1.
    pub id: String,
    /// Escaped label.
    pub label: String,
    /// The reward types it covers, as code spans.
    pub reward_types: Vec<String>,
    /// Escaped typical credit unit.
    pub typical_credit: String,
    /// Entries in the family.
    pub count: u64,
    /// Escaped titles of up to three representative entries.
    pub examples: Vec<String>,
}

/// A tag field and its allowed values, as code spans.
#[derive(Debug, Clone, Serialize)]
pub struct FieldView {
    /// The field name.
    pub field: String,
    /// Its allowed values.
    pub values: Vec<String>,
}

/// A value of the exclusion log with its count.
#[derive(Debug, Clone, Serialize)]
pub struct CountView {
    /// Escaped value.
    pub value: String,
    /// Records with it.
    pub count: u64,
}

/// A claim of the ledger with its verdict.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimView {
    /// The id as a code span.
    pub id: String,
    /// Escaped statement.
    pub statement: String,
    /// The expectation as a code span.
    pub expected: String,
    /// The actual count.
    pub actual: u64,
    /// Whether it holds.
    pub holds: bool,
    /// Escaped boundary.
    pub boundary: String,
}

/// An example trace replayed into metrics.
#[derive(Debug, Clone, Serialize)]
pub struct TraceView {
    /// The file as a code span.
    pub file: String,
    /// Escaped topology (or `unknown`).
    pub topology: String,
    /// Events in the trace.
    pub events: usize,
    /// Agents in the trace.
    pub agents: usize,
    /// Largest fan-out.
    pub max_fan_out: usize,
    /// Wall-clock span, as the README has always printed a number (`13`,
    /// `1.5`; Tera 2 would print `13.0`).
    pub makespan: String,
    /// Steps on the critical path.
    pub critical_steps: usize,
    /// Average parallelism, two decimals.
    pub parallelism: String,
    /// Agent pairs exchanging untrusted content.
    pub untrusted_pairs: usize,
}

/// One trace imported from OTLP spans, for the README.
#[derive(Debug, Clone, Serialize)]
pub struct ImportView {
    /// The OTLP file as a code span.
    pub file: String,
    /// The OTLP file's root-relative path, for a command line.
    pub path: String,
    /// Events in the trace.
    pub events: usize,
    /// Edges in the trace.
    pub edges: usize,
    /// Events by type, the types that occur: "2 spawn, 3 tool_call".
    pub by_type: String,
    /// Agents in the trace.
    pub agents: usize,
    /// Agents spawned.
    pub spawned_agents: usize,
    /// Largest fan-out.
    pub max_fan_out: usize,
    /// Wall-clock span of the events, printed as `makespan` above.
    pub makespan: String,
    /// Steps on the critical path.
    pub critical_steps: usize,
    /// Average parallelism, two decimals.
    pub parallelism: String,
    /// Tokens, printed as `makespan` above.
    pub tokens: String,
    /// (untrusted event, return/aggregate) pairs.
    pub untrusted_pairs: usize,
}

/// The list's title and description (`list:` in the taxonomy), escaped.
#[derive(Debug, Clone, Serialize)]
pub struct ListView {
    /// Escaped title.
    pub title: String,
    /// Escaped description, on one line.
    pub description: String,
}

/// Everything the README and STATS templates can use: one typed value,
/// every piece of data text already escaped for Markdown.
#[derive(Debug, Clone, Serialize)]
pub struct Context<'a> {
    /// The list's title and description, when the taxonomy gives them.
    pub list: Option<ListView>,
    /// Retained entries.
    pub retained: u64,
    /// Excluded records.
    pub excluded: u64,
    /// Retained plus excluded.
    pub audited: u64,
    /// The survey's pool beside the living list, when the list has grown beyond it.
    pub survey_pool: Option<crate::publish::provenance::PoolView>,
    /// The search cutoff date.
    pub cutoff: String,
    /// Categories with their entries.
    pub categories: Vec<CategoryView<'a>>,
    /// Orchestration forms.
    pub topologies: Vec<TopologyView>,
    /// Reward families.
    pub families: Vec<FamilyView>,
    /// Tag fields and their values.
    pub fields: Vec<FieldView>,
    /// Sources of the exclusion log, most frequent first.
    pub sources: Vec<CountView>,
    /// Query families of the exclusion log, most frequent first.
    pub query_families: Vec<CountView>,
    /// Every figure as Markdown tables.
    pub stats_markdown: String,
    /// Each cross-tab as a Markdown table, by name.
    pub crosstabs: BTreeMap<String, String>,
    /// The charts under stats/, with their alt text.
    pub charts: Vec<ChartView>,
    /// The claims ledger with verdicts.
    pub claims: Vec<ClaimView>,
    /// The example traces with their metrics.
    pub trace_examples: Vec<TraceView>,
    /// The traces imported from the OTLP examples.
    pub trace_imports: Vec<ImportView>,
    /// The span conventions `trace import` reads.
    pub trace_conventions: Vec<corpus_trace::otlp::conventions::ConventionView>,
    /// Where GitHub Pages publishes the page `corpus site` writes.
    pub pages_url: String,
    /// The project's repository, for `cargo install --git`.
    pub repository_url: String,
}

/// A chart as the templates show it.
#[derive(Debug, Clone, Serialize)]
pub struct ChartView {
    /// File name under stats/.
    pub file: String,
    /// Escaped alt text: what the chart shows, with its figures.
    pub alt: String,
}

/// What the templates show besides the entries and the figures.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extras<'a> {
    /// The charts under stats/ (their file names and descriptions are shown).
    pub charts: &'a [Chart],
    /// The claims' verdicts.
    pub verdicts: &'a [Verdict],
    /// The example traces' metrics, by file.
    pub traces: &'a [(String, Metrics)],
    /// The survey's own facts (short names, representatives), when present.
    pub survey: Option<&'a Survey>,
    /// The rounds of the survey's pool, when the list is split into pools.
    pub survey_rounds: Option<&'a [String]>,
}

impl<'a> Extras<'a> {
    /// The extras of `corpus` (whose entries may have been taken out), with
    /// the charts and verdicts of [`Beside`].
    pub(crate) fn of(
        corpus: &'a Corpus,
        charts: &'a [Chart],
        verdicts: &'a [Verdict],
        traces: &'a [(String, Metrics)],
    ) -> Self {
        Extras {
            charts,
            verdicts,
            traces,
            survey: corpus.survey.as_ref().map(|(s, _)| s),
            survey_rounds: corpus.survey_rounds(),
        }
    }
}

/// Builds the template context from the taxonomy, the entries, their figures and the extras.
pub fn context<'a>(
    tax: &'a Taxonomy,
    entries: &[&'a Entry],
    st: &Stats,
    extras: Extras<'a>,
) -> Context<'a> {
    let rows = rows(tax, entries, st, extras);
    let lists = by_category(tax, entries.iter().copied());
    let lists = lists.into_iter().map(Listed::Lent).collect();
    assembled(tax, lists, rows, st, extras)
}

/// [`context`] of entries handed over: each is let go as soon as its view
/// is in the template context, so on a large list the entries and the
/// context are never both held whole.
pub fn context_handed<'a>(
    tax: &'a Taxonomy,
    entries: Vec<Box<Entry>>,
    st: &Stats,
    extras: Extras<'a>,
) -> Context<'a> {
    let rows = rows(
        tax,
        &entries.iter().map(|e| &**e).collect::<Vec<_>>(),
        st,
        extras,
    );
    let lists = by_category(tax, entries);
    let lists = lists.into_iter().map(Listed::handed).collect();
    assembled(tax, lists, rows, st, extras)
}

/// `entries` in one list per category of the taxonomy, in its order, each
/// in display order; an entry of a category the taxonomy does not list is
/// in none (and, handed over, let go here).
fn by_category<E: Borrow<Entry>>(
    tax: &Taxonomy,
    entries: impl IntoIterator<Item = E>,
) -> Vec<Vec<E>> {
    let mut at: HashMap<&str, usize> = HashMap::new();
    for (i, c) in tax.category.iter().enumerate() {
        at.entry(c.id.as_str()).or_insert(i);
    }
    let mut lists: Vec<Vec<E>> = tax.category.iter().map(|_| Vec::new()).collect();
    for e in entries {
        if let Some(&i) = at.get(e.borrow().category.as_str()) {
            lists[i].push(e);
        }
    }
    for list in &mut lists {
        list.sort_by(|a, b| display_cmp(a.borrow(), b.borrow()));
    }
    lists
}

/// The README's rows that name entries: topologies and reward families
/// with their representatives.
struct Rows {
    topologies: Vec<TopologyView>,
    families: Vec<FamilyView>,
}

fn rows(tax: &Taxonomy, entries: &[&Entry], st: &Stats, extras: Extras) -> Rows {
    let count = |t: Option<&crate::stats::Tally>, v: &str| t.map(|t| t.get(v)).unwrap_or(0);
    let form_count = st.count(fields::ORCHESTRATION_FORM);
    let topologies = tax
        .orchestration_forms
        .iter()
        .map(|f| {
            let of: Vec<&Entry> = entries
                .iter()
                .copied()
                .filter(|e| e.orchestration_form == f.id)
                .collect();
            TopologyView {
                id: code_span(&f.id),
                label: escape_markdown(&f.label),
                feature: escape_markdown(f.feature.as_deref().unwrap_or("")),
                count: count(form_count, &f.id),
                examples: representatives(extras.survey, &of, fields::ORCHESTRATION_FORM, &f.id),
            }
        })
        .collect();

    let fam_count = st.count("reward_family");
    let families = tax
        .reward_families
        .iter()
        .map(|f| {
            let of: Vec<&Entry> = entries
                .iter()
                .copied()
                .filter(|e| f.reward_types.contains(&e.reward_type))
                .collect();
            FamilyView {
                id: f.id.clone(),
                label: escape_markdown(&f.label),
                reward_types: f.reward_types.iter().map(|t| code_span(t)).collect(),
                typical_credit: escape_markdown(&f.typical_credit),
                count: count(fam_count, &f.id),
                examples: representatives(extras.survey, &of, "reward_family", &f.id),
            }
        })
        .collect();

    Rows {
        topologies,
        families,
    }
}

/// The context of `lists` (one per category of the taxonomy, in its order)
/// and `rows`, with everything the templates show besides.
fn assembled<'a>(
    tax: &'a Taxonomy,
    lists: Vec<Listed<'a>>,
    rows: Rows,
    st: &Stats,
    extras: Extras<'a>,
) -> Context<'a> {
    // Addresses (none for a list not yet published) and tables first.
    let (pages, repo) = match tax.repository.as_str() {
        "" => Default::default(),
        r => (pages_url(r), repository_url(r)),
    };
    let stats_markdown = crate::stats::render::markdown(st);
    let categories: Vec<CategoryView> = tax
        .category
        .iter()
        .zip(lists)
        .map(|(c, list)| {
            let heading = format!("{} ({})", c.label, list.len());
            CategoryView {
                id: c.id.clone(),
                label: escape_markdown(&c.label),
                heading: escape_markdown(&heading),
                anchor: anchor(&heading),
                count: list.len(),
                entries: EntryViews {
                    tax,
                    entries: list,
                    survey_rounds: extras.survey_rounds,
                },
            }
        })
        .collect();
    let Rows {
        topologies,
        families,
    } = rows;

    let fields = crate::model::fields::entry_tags()
        .map(|f| FieldView {
            field: code_span(f),
            values: tax
                .allowed(f)
                .unwrap_or_default()
                .iter()
                .map(|v| code_span(v))
                .collect(),
        })
        .collect();

    let sorted_rows = |name: &str| -> Vec<CountView> {
        st.exclusion(name)
            .map(|t| t.sorted())
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(v, n)| CountView {
                value: escape_markdown(&v),
                count: n,
            })
            .collect()
    };

    Context {
        list: tax.list.as_ref().map(|l| ListView {
            title: escape_markdown(l.title.trim()),
            description: escape_markdown(&one_line(&l.description)),
        }),
        retained: st.retained,
        excluded: st.excluded,
        audited: st.audited,
        survey_pool: crate::publish::provenance::PoolView::of(st),
        cutoff: tax.screening.cutoff.clone(),
        categories,
        topologies,
        families,
        fields,
        sources: sorted_rows(fields::SOURCE),
        query_families: sorted_rows(fields::QUERY_FAMILY),
        stats_markdown,
        crosstabs: st
            .crosstabs
            .iter()
            .map(|x| (x.name.clone(), crate::stats::render::crosstab_markdown(x)))
            .collect(),
        charts: extras
            .charts
            .iter()
            .map(|c| ChartView {
                file: c.file.clone(),
                alt: escape_markdown(&c.desc),
            })
            .collect(),
        claims: extras
            .verdicts
            .iter()
            .map(|v| ClaimView {
                id: code_span(&v.id),
                statement: escape_markdown(&v.statement),
                expected: code_span(&v.expected),
                actual: v.actual,
                holds: v.holds,
                boundary: escape_markdown(&v.boundary),
            })
            .collect(),
        trace_imports: extras
            .traces
            .iter()
            .filter(|(file, _)| crate::load::examples::is_imported(file))
            .map(|(file, m)| ImportView {
                file: code_span(file),
                path: file.clone(),
                events: m.events,
                edges: m.edges,
                by_type: m
                    .events_by_type
                    .iter()
                    .filter(|(_, n)| **n > 0)
                    .map(|(k, n)| format!("{n} {k}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                agents: m.agents,
                spawned_agents: m.spawned_agents,
                max_fan_out: m.max_fan_out,
                makespan: m.makespan.to_string(),
                critical_steps: m.critical_steps,
                parallelism: format!("{:.2}", m.parallelism),
                tokens: m.tokens.to_string(),
                untrusted_pairs: m.untrusted_pair_count,
            })
            .collect(),
        trace_examples: extras
            .traces
            .iter()
            .filter(|(file, _)| !crate::load::examples::is_imported(file))
            .map(|(file, m)| TraceView {
                file: code_span(file),
                topology: escape_markdown(m.topology.as_deref().unwrap_or("unknown")),
                events: m.events,
                agents: m.agents,
                max_fan_out: m.max_fan_out,
                makespan: m.makespan.to_string(),
                critical_steps: m.critical_steps,
                parallelism: format!("{:.2}", m.parallelism),
                untrusted_pairs: m.untrusted_pair_count,
            })
            .collect(),
        trace_conventions: corpus_trace::otlp::conventions::views(),
        pages_url: pages,
        repository_url: repo,
    }
}

/// What the templates show beside the entries' lists, made from the whole
/// corpus: the views of provenance, release, PRISMA flow and artifact in a
/// context of their own, the charts, and the claims' verdicts.
pub(crate) struct Beside {
    /// Their context.
    pub ctx: tera::Context,
    /// The charts under stats/.
    pub charts: Vec<Chart>,
    /// The claims' verdicts.
    pub verdicts: Vec<Verdict>,
}

/// [`Beside`] of a corpus, which it reads whole.
pub(crate) fn beside_entries(corpus: &Corpus, st: &Stats) -> Beside {
    // The PRISMA counts once: the diagram draws them, the README words them.
    let flow = crate::publish::prisma::flow(corpus);
    let prisma = crate::publish::prisma::view(corpus, &flow);
    let verdicts = corpus.verdicts();
    let charts = crate::publish::chart_files::charts(corpus, st, &flow);
    let mut ctx = tera::Context::new();
    crate::publish::provenance::extend_context(&mut ctx, corpus, st, verdicts);
    // The release a reader can cite: the newest of corpus/releases.yaml.
    if let Some(r) = corpus.releases.as_ref().and_then(|r| r.latest()) {
        ctx.insert(
            "release",
            &serde_json::json!({"version": r.version, "date": r.date, "citation": Layout::CITATION}),
        );
    }
    ctx.insert("prisma", &prisma);
    crate::publish::artifact_views::extend_context(&mut ctx, corpus);
    Beside {
        ctx,
        charts,
        verdicts: verdicts.to_vec(),
    }
}

/// Text on one line: runs of white space (line breaks included) become one
/// space, so a description cannot start a heading or a list in the README.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
