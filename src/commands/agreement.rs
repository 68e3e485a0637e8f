//! `corpus agreement`: annotators' tags compared with each other and the corpus.

use super::{json_text, load_corpus, Audience, Context, Outcome, Result, TableFormat};
use corpus_core::exchange::agreement;
use corpus_diagnostics::report::{self, Sources};
use std::path::PathBuf;

/// Options of `corpus agreement`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Annotations, one file per annotator: CSV with `key` and `ann_<field>` columns, or YAML
    /// with the same content. One file: Cohen's kappa against the corpus; two or more:
    /// Krippendorff's alpha among them and the corpus.
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Krippendorff's alpha even for one file against the corpus (two raters).
    #[arg(long)]
    pub alpha: bool,
    /// Leave the corpus's own tags out of the raters (alpha among the files only).
    #[arg(long)]
    pub no_corpus: bool,
    /// Bootstrap resamples of the alpha interval.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub resamples: u32,
    /// Seed of the bootstrap resampling (the same seed gives the same interval).
    #[arg(long, default_value_t = 29)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Human)]
    pub format: TableFormat,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// Compares the annotations in FILES (relative to the working directory) with the corpus.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.root()?;
    let raters = args.files.len() + usize::from(!args.no_corpus);
    if raters < 2 {
        return Err(Outcome::fail(
            2,
            "agreement needs two raters: give a second file, or leave out --no-corpus",
        ));
    }
    let kappa = args.files.len() == 1 && !args.alpha && !args.no_corpus;
    let mut inputs = Vec::new();
    for file in &args.files {
        let text = agreement::read_input(&ctx.cwd.join(file), ctx.load.max_file_bytes)
            .map_err(|e| Outcome::fail(2, e))?;
        inputs.push((file.display().to_string(), text));
    }
    let corpus = load_corpus(root, ctx.load, None)?;
    let entries = corpus.entry_list();
    let result = if kappa {
        let (label, text) = &inputs[0];
        agreement::parse(label, text)
            .and_then(|anns| agreement::compare(label, &anns, &entries, &corpus.taxonomy))
            .map(|r| match args.format {
                TableFormat::Human => agreement::table(&r),
                TableFormat::Json => json_text(&r),
            })
    } else {
        let mut parsed = Vec::new();
        let mut diags = Vec::new();
        for (label, text) in &inputs {
            match agreement::parse_fields(label, text, agreement::Accept::WithSets) {
                Ok(anns) => parsed.push((label.clone(), anns)),
                Err(d) => diags.extend(d),
            }
        }
        let opts = agreement::Options {
            with_corpus: !args.no_corpus,
            resamples: args.resamples as usize,
            seed: args.seed,
        };
        if diags.is_empty() {
            agreement::reliability(&parsed, &entries, &corpus.taxonomy, opts)
        } else {
            Err(diags)
        }
        .map(|r| match args.format {
            TableFormat::Human => agreement::reliability_table(&r),
            TableFormat::Json => json_text(&r),
        })
    };
    match result {
        Ok(text) => Ok(Outcome::ok(text)),
        Err(diags) => {
            let mut src = Sources::new();
            for (label, text) in &inputs {
                src.insert(label.as_str(), text.as_str());
            }
            let summary = format!(
                "{} problem(s) in the annotations; nothing was compared",
                diags.len()
            );
            Err(Outcome::with_code(
                1,
                report::render(&diags, args.format.report_format(), &src, Some(&summary)),
            ))
        }
    }
}
