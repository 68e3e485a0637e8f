//! `corpus list`: entries or exclusion records matching `--where` conditions.

use super::{json_text, load_corpus, Audience, Context, Outcome, Result};
use corpus_core::model::fields;
use corpus_core::model::filter::{self, Condition, Filter};

/// Output format of `corpus list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ListFormat {
    /// A text table, for a person.
    #[default]
    #[value(alias = "table")]
    Human,
    /// JSON array of the full entries.
    Json,
    /// One key per line.
    Keys,
}

impl ListFormat {
    /// Whether this format is read by a person rather than a program.
    pub fn is_for_humans(self) -> bool {
        self != ListFormat::Json
    }
}

/// Options of `corpus list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Condition FIELD=VALUE, FIELD!=VALUE, FIELD~TEXT or FIELD>=VALUE (repeatable; all must hold; see --help for the fields).
    #[arg(long = "where", value_name = "FIELD=VALUE", long_help = where_help())]
    pub conditions: Vec<String>,
    /// Only entries whose title, first author, affiliation, venue, one-liner or notes contain TEXT, ignoring case (records: title or identifier).
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,
    /// List exclusion records instead of entries.
    #[arg(long)]
    pub exclusions: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// Parses `FIELD=VALUE` conditions against the fields a filter may use.
pub fn parse_conditions(
    conditions: &[String],
    exclusions: bool,
) -> std::result::Result<Filter, String> {
    let known: Vec<&str> = if exclusions {
        fields::record_filter_fields().collect()
    } else {
        fields::entry_filter_fields().collect()
    };
    let mut filter = Filter::default();
    for c in conditions {
        let mut cond = Condition::parse_assignment(c).map_err(|e| format!("--where: {e}"))?;
        cond.field = filter::resolve_field(&cond.field, &known)
            .map_err(|e| format!("--where: {e}"))?
            .to_string();
        filter.conditions.push(cond);
    }
    Ok(filter)
}

/// The long help of `--where`: the syntax, the fields and their aliases.
fn where_help() -> String {
    let entry: Vec<&str> = fields::entry_filter_fields().collect();
    let record: Vec<&str> = fields::record_filter_fields().collect();
    let aliases: Vec<String> = filter::FIELD_ALIASES
        .iter()
        .map(|(a, f)| format!("{a} = {f}"))
        .collect();
    format!(
        "Condition on a field (repeatable; all must hold):\n  \
         FIELD=VALUE   equal (`a,b` allows several, `!VALUE` negates, `[]` is an empty list)\n  \
         FIELD!=VALUE  not equal\n  \
         FIELD~TEXT    contains TEXT, ignoring case (`title~mmoa`)\n  \
         FIELD>=VALUE  compares, also <=, >, < (`year>=2025`; numbers as numbers, dates as text)\n\n\
         Entry fields: {}\n\n\
         Record fields (with --exclusions): {}\n\n\
         Aliases: {}",
        entry.join(", "),
        record.join(", "),
        aliases.join(", ")
    )
}

/// Lists the entries (or, with `--exclusions`, the records) matching every condition.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.root()?;
    let filter =
        parse_conditions(&args.conditions, args.exclusions).map_err(|e| Outcome::fail(2, e))?;
    let corpus = load_corpus(root, ctx.load, None)?;
    // A value outside the vocabulary would answer "0 matching" as if that were a finding.
    let problems = corpus.taxonomy.filter_problems(&filter);
    if !problems.is_empty() {
        return Err(Outcome::fail(
            2,
            format!("--where: {}", problems.join("\nerror: --where: ")),
        ));
    }
    let needle = args.search.as_deref().map(str::to_lowercase);
    // `--search`: any of the texts holds the needle (a condition over several fields, which `--where` conditions never are).
    let found = |texts: &[&str]| {
        needle
            .as_deref()
            .is_none_or(|n| texts.iter().any(|t| t.to_lowercase().contains(n)))
    };
    let stdout = if args.exclusions {
        let items: Vec<&corpus_core::model::Exclusion> = corpus
            .exclusion_list()
            .into_iter()
            .filter(|x| filter.matches(*x))
            .filter(|x| found(&[&x.title, &x.identifier]))
            .collect();
        match args.format {
            ListFormat::Keys => items.iter().map(|x| format!("{}\n", x.record_id)).collect(),
            ListFormat::Json => json_text(&items),
            ListFormat::Human => table(
                &["record_id", "stage", "source", "title"],
                items.iter().map(|x| {
                    vec![
                        x.record_id.clone(),
                        x.stage.clone(),
                        x.source.clone(),
                        x.title.clone(),
                    ]
                }),
            ),
        }
    } else {
        let items: Vec<&corpus_core::model::Entry> = corpus
            .entry_list()
            .into_iter()
            .filter(|e| filter.matches(*e))
            .filter(|e| {
                found(&[
                    &e.title,
                    &e.first_author,
                    &e.affiliation,
                    &e.venue,
                    &e.one_liner,
                    e.notes.as_deref().unwrap_or(""),
                ])
            })
            .collect();
        match args.format {
            ListFormat::Keys => items.iter().map(|e| format!("{}\n", e.key)).collect(),
            ListFormat::Json => json_text(&items),
            ListFormat::Human => table(
                &["key", "year", "category", "reward", "credit", "form"],
                items.iter().map(|e| {
                    vec![
                        e.key.clone(),
                        e.year.to_string(),
                        e.category.clone(),
                        e.reward_type.clone(),
                        e.credit_granularity.clone(),
                        e.orchestration_form.clone(),
                    ]
                }),
            ),
        }
    };
    let mut out = Outcome::ok(stdout);
    // A file that does not load is missing from the list: say so, as `stats` does.
    let mut left_out: Vec<&str> = corpus
        .diagnostics
        .iter()
        .filter(|d| d.fails(false))
        .map(|d| d.file.as_str())
        .collect();
    left_out.sort_unstable();
    left_out.dedup();
    if !left_out.is_empty() {
        out.stderr = format!(
            "warning: {} file(s) could not be loaded and are left out of this list: {}; run `corpus check`\n",
            left_out.len(),
            left_out.join(", ")
        );
    }
    Ok(out)
}

fn table(head: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(100)
        .set_header(head.to_vec());
    let mut n = 0;
    for r in rows {
        t.add_row(r);
        n += 1;
    }
    format!("{t}\n{n} matching\n")
}
