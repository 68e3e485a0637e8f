//! `corpus list`: entries or exclusion records matching `--where` conditions.

use super::{json_text, load_corpus, Audience, Context, Outcome, Result};
use corpus_core::model::fields;
use corpus_core::model::filter::{Condition, Filter};

/// Output format of `corpus list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ListFormat {
    /// A text table.
    #[default]
    Table,
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
    /// FIELD=VALUE condition (repeatable; all must hold). `!` negates, `a,b` allows several, `[]` is an empty list.
    #[arg(long = "where", value_name = "FIELD=VALUE")]
    pub conditions: Vec<String>,
    /// List exclusion records instead of entries.
    #[arg(long)]
    pub exclusions: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
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
        let cond = Condition::parse_assignment(c).map_err(|e| format!("--where: {e}"))?;
        if !known.contains(&cond.field.as_str()) {
            return Err(format!(
                "--where: unknown field `{}`; fields: {}",
                cond.field,
                known.join(", ")
            ));
        }
        filter.conditions.push(cond);
    }
    Ok(filter)
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
    let stdout = if args.exclusions {
        let items: Vec<&corpus_core::model::Exclusion> = corpus
            .exclusion_list()
            .into_iter()
            .filter(|x| filter.matches(*x))
            .collect();
        match args.format {
            ListFormat::Keys => items.iter().map(|x| format!("{}\n", x.record_id)).collect(),
            ListFormat::Json => json_text(&items),
            ListFormat::Table => table(
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
            .collect();
        match args.format {
            ListFormat::Keys => items.iter().map(|e| format!("{}\n", e.key)).collect(),
            ListFormat::Json => json_text(&items),
            ListFormat::Table => table(
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
