//! `corpus verify`: fetches the arXiv records of the chosen entries,
//! compares them, renders the diagnostics and, with `--write`, records the
//! date in the entries that agree.

use super::{load_corpus, sources, Audience, Context, Outcome, ReportFormat, Result};
use corpus_core::load::Corpus;
use corpus_core::network::arxiv;
use corpus_core::network::http::{Client, Policy};
use corpus_core::network::progress::Progress;
use corpus_core::network::verify::{compare, not_found, with_date, VerifyOptions, FIELD};
use corpus_diagnostics::report;
use corpus_io::files::Content;
use std::path::Path;
use std::time::Duration;

/// Options of `corpus verify`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Entries to verify (default: every entry with an arxiv_id).
    #[arg(value_name = "KEY")]
    pub keys: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Record today's date in `arxiv_verified_on` of each entry that agrees with arXiv.
    #[arg(long)]
    pub write: bool,
    /// The arXiv API endpoint.
    #[arg(long, value_name = "URL", default_value = corpus_core::network::arxiv::DEFAULT_API)]
    pub arxiv_api: String,
    /// Seconds between two API requests (at least 3 against the public API, as it asks).
    #[arg(long, value_name = "SECONDS", default_value_t = corpus_core::network::arxiv::DEFAULT_PAUSE_SECS)]
    pub pause: f64,
    /// Timeout of one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

impl Args {
    /// The library's options for these arguments.
    fn options(&self) -> VerifyOptions {
        VerifyOptions {
            keys: self.keys.clone(),
            format: self.format.into(),
            write: self.write,
            arxiv_api: self.arxiv_api.clone(),
            pause: self.pause,
            timeout: self.timeout,
        }
    }
}

/// Verifies the entries of the corpus against the arXiv API.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = if args.write {
        ctx.writing_root()?
    } else {
        ctx.root()?
    };
    let a = args.options();
    let corpus = load_corpus(root, ctx.load, Some(a.format))?;
    command(root, &corpus, &a, &ctx.progress).map_err(|e| Outcome::fail(2, e))
}

/// `corpus verify`: compares, renders, records the dates; Err says why it
/// could not run.
fn command(
    root: &Path,
    corpus: &Corpus,
    a: &VerifyOptions,
    progress: &dyn Progress,
) -> std::result::Result<Outcome, String> {
    let secs = |v: f64, name: &str| {
        if v.is_finite() && (0.0..=3600.0).contains(&v) {
            Ok(Duration::from_secs_f64(v))
        } else {
            Err(format!(
                "{name} must be a number of seconds between 0 and 3600"
            ))
        }
    };
    let timeout = secs(a.timeout, "--timeout")?;
    if timeout.is_zero() {
        return Err("--timeout must be more than 0 seconds".into());
    }
    let mut pause = secs(a.pause, "--pause")?;
    if a.arxiv_api == arxiv::DEFAULT_API {
        pause = pause.max(Duration::from_secs_f64(arxiv::DEFAULT_PAUSE_SECS));
    }
    for k in &a.keys {
        if !corpus.entries.iter().any(|le| &le.entry.key == k) {
            return Err(format!("no entry has the key `{k}`"));
        }
    }
    let chosen: Vec<&corpus_core::load::LoadedEntry> = corpus
        .entries
        .iter()
        .filter(|le| a.keys.is_empty() || a.keys.contains(&le.entry.key))
        .filter(|le| le.entry.arxiv_id.as_deref().is_some_and(|i| !i.is_empty()))
        .collect();
    let mut diags = Vec::new();
    let mut ids: Vec<&str> = Vec::new();
    for le in &chosen {
        let id = le.entry.arxiv_id.as_deref().unwrap_or_default();
        if corpus_core::text::ids::arxiv_year(id).is_some() {
            ids.push(corpus_core::text::ids::strip_version(id));
        } else {
            diags.push(not_found(
                corpus.file(le.file),
                format!("`{id}` is not a well-formed arXiv id, so it was not looked up"),
            ));
        }
    }
    ids.sort_unstable();
    ids.dedup();
    let client = Client::new(Policy {
        timeout,
        ..Policy::default()
    });
    let feed = if ids.is_empty() {
        arxiv::Feed::default()
    } else {
        progress.start(ids.len() as u64, "arXiv records");
        let feed = arxiv::fetch(
            &client,
            &a.arxiv_api,
            &ids,
            pause,
            &std::thread::sleep,
            progress,
        );
        progress.finish();
        feed.map_err(no_network)?
    };
    let mut agreeing: Vec<usize> = Vec::new();
    for le in &chosen {
        let id = le.entry.arxiv_id.as_deref().unwrap_or_default();
        if corpus_core::text::ids::arxiv_year(id).is_none() {
            continue;
        }
        let file = corpus.file(le.file);
        let bare = corpus_core::text::ids::strip_version(id);
        let found = match feed.records.get(bare) {
            Some(r) => compare(file, &le.entry, r),
            None => match feed.refused.get(bare) {
                Some(said) => vec![not_found(
                    file,
                    format!("arXiv refused the id {bare}; arXiv says: {said}"),
                )
                .help("correct `arxiv_id` to the id arXiv shows on the paper's page")],
                None => vec![not_found(file, format!("arXiv has no record {bare}"))
                    .help("correct `arxiv_id`, or remove it when the work is not on arXiv")],
            },
        };
        if found.is_empty() {
            agreeing.push(le.file);
        }
        diags.extend(found);
    }
    corpus.taxonomy.apply_severities(&mut diags);
    corpus_diagnostics::diag::sort(&mut diags);
    let mut stderr = String::new();
    if a.write && !agreeing.is_empty() {
        let today = corpus_core::model::dates::today();
        let files: Vec<(std::path::PathBuf, String, Vec<u8>)> = agreeing
            .iter()
            .map(|&i| {
                let f = corpus.file(i);
                (
                    root.join(&f.rel),
                    f.rel.clone(),
                    with_date(&f.text, &today).into_bytes(),
                )
            })
            .collect();
        let items: Vec<(std::path::PathBuf, String, Content)> = files
            .iter()
            .map(|(p, l, b)| (p.clone(), l.clone(), b.as_slice().into()))
            .collect();
        let written = corpus_io::files::write_all(root, &items)?;
        stderr.push_str(&format!(
            "recorded {FIELD}: {today} in {} entr{}\n",
            written.len(),
            if written.len() == 1 { "y" } else { "ies" }
        ));
    }
    let what = format!(
        "verified {} entr{} against {}",
        chosen.len(),
        if chosen.len() == 1 { "y" } else { "ies" },
        a.arxiv_api
    );
    let summary = report::summary(&diags, 0, &what);
    Ok(Outcome {
        code: i32::from(diags.iter().any(|d| d.fails(false))),
        stdout: report::render(&diags, a.format, &sources(corpus), Some(&summary)),
        stderr,
    })
}

/// Why verify could not run; when its first request got no answer at all,
/// the network looks down, which is said once with what works without it.
fn no_network(u: arxiv::Unusable) -> String {
    if u.unanswered {
        format!(
            "{}; no answer came, so the network looks down and nothing was verified or recorded. \
Check the connection; `corpus check` and `corpus links --offline` run without the network",
            u.message
        )
    } else {
        u.message
    }
}
