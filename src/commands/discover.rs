//! `corpus discover`: runs the query families of corpus/search.yaml against
//! the arXiv API for a date range (politely, through the answers cache),
//! drops what the pool, the exclusion log and the queue already hold, and
//! writes each new paper as a ranked candidate to corpus/candidates/.

use super::{load_corpus, Audience, Context, Outcome, Result};
use corpus_core::layout::Layout;
use corpus_core::model::candidate::Candidate;
use corpus_core::model::dates::parse_date;
use corpus_core::network::arxiv;
use corpus_core::network::discover::{self, Cache, Known, Settings};
use corpus_core::network::http::{Client, Policy};
use corpus_core::rank::{examples, Ranker, DEFAULT_TEXT};
use corpus_io::reader;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Largest candidate file or cache read.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// Options of `corpus discover`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// First submission day searched (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub from: String,
    /// Last submission day searched (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub to: String,
    /// Run only these queries of corpus/search.yaml (by id; repeatable).
    #[arg(long = "query", value_name = "ID")]
    pub queries: Vec<String>,
    /// The most results asked for per query.
    #[arg(long, value_name = "N", default_value_t = discover::DEFAULT_MAX_RESULTS)]
    pub max_results: usize,
    /// Ask no service: work from the answers cache alone.
    #[arg(long)]
    pub offline: bool,
    /// Use cached answers younger than this instead of asking (e.g. 36h, 7d; plain numbers are seconds).
    #[arg(long, value_name = "AGE")]
    pub max_age: Option<String>,
    /// The arXiv API endpoint.
    #[arg(long, value_name = "URL", default_value = arxiv::DEFAULT_API)]
    pub arxiv_api: String,
    /// Seconds between two arXiv requests (at least 3 against the public API, as it asks).
    #[arg(long, value_name = "SECONDS", default_value_t = arxiv::DEFAULT_PAUSE_SECS)]
    pub arxiv_pause: f64,
    /// Timeout of one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        true
    }
}

/// The candidates of the queue, each with its path; Err when one cannot be
/// read or parsed (a queue that cannot be read cannot be deduplicated against).
pub fn read_queue(root: &Path) -> std::result::Result<Vec<(PathBuf, Candidate)>, String> {
    let dir = root.join(Layout::CANDIDATES_DIR);
    let listed = reader::list_dir(&dir)
        .map_err(|e| format!("{}: {e}", Layout::CANDIDATES_DIR))?
        .unwrap_or_default();
    let mut out = Vec::new();
    for listed in listed {
        let name = &listed.name;
        if !name.ends_with(".yaml") || corpus_io::files::is_temp_name(name) {
            continue;
        }
        let shown = format!("{}/{name}", Layout::CANDIDATES_DIR);
        let text =
            reader::read_listed_text(&listed, MAX_BYTES).map_err(|e| format!("{shown}: {e}"))?;
        let c = Candidate::parse(&text)
            .map_err(|e| format!("{shown}: not a candidate ({e}); correct it or remove it"))?;
        out.push((listed.path, c));
    }
    Ok(out)
}

/// Discovers new candidates.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.writing_root()?;
    let corpus = load_corpus(root, ctx.load, None)?;
    command(root, &corpus, args, &ctx.progress).map_err(|e| Outcome::fail(2, e))
}

fn command(
    root: &Path,
    corpus: &corpus_core::load::Corpus,
    a: &Args,
    progress: &dyn corpus_core::network::progress::Progress,
) -> std::result::Result<Outcome, String> {
    let search = corpus.search.as_ref().ok_or_else(|| {
        format!("{} is missing or has problems (`corpus check` lists them); it holds the queries to run", Layout::SEARCH)
    })?;
    for (name, d) in [("--from", &a.from), ("--to", &a.to)] {
        if parse_date(d).is_none() || d.len() != 10 {
            return Err(format!("{name} `{d}` is not a date (YYYY-MM-DD)"));
        }
    }
    if parse_date(&a.from) > parse_date(&a.to) {
        return Err(format!("--from {} is after --to {}", a.from, a.to));
    }
    let queries: Vec<_> = if a.queries.is_empty() {
        search.queries.clone()
    } else {
        let mut q = Vec::new();
        for id in &a.queries {
            let known: Vec<&str> = search.queries.iter().map(|q| q.id.as_str()).collect();
            q.push(search.query(id).cloned().ok_or_else(|| {
                format!(
                    "--query `{id}` is not a query of {}; it has: {}",
                    Layout::SEARCH,
                    known.join(", ")
                )
            })?);
        }
        q
    };
    let timeout = super::watch::seconds(a.timeout, "--timeout")?;
    if timeout.is_zero() {
        return Err("--timeout must be more than 0 seconds".into());
    }
    let mut pause = super::watch::seconds(a.arxiv_pause, "--arxiv-pause")?;
    if a.arxiv_api == arxiv::DEFAULT_API {
        pause = pause.max(Duration::from_secs_f64(arxiv::DEFAULT_PAUSE_SECS));
    }
    let max_age = super::max_age(a.max_age.as_deref())?;
    // Trained first: a corpus it cannot learn from is said before any request.
    let ranker = Ranker::train(&examples(corpus, DEFAULT_TEXT, None)).ok_or(
        "the ranking learns from the corpus's decisions and needs at least one entry and one exclusion record",
    )?;
    let queue = read_queue(root)?;

    let answers = super::answers_cache(
        root,
        Layout::DISCOVER_CACHE,
        "every query is asked afresh",
        MAX_BYTES,
    )?;
    let (mut cache, mut stderr) = answers.decode(Cache::from_json, "discover");
    let client = Client::new(Policy {
        timeout,
        ..Policy::default()
    });
    let settings = Settings {
        client: &client,
        api: &a.arxiv_api,
        pause,
        max_age,
        now: corpus_core::model::dates::unix_now(),
        offline: a.offline,
        max_results: a.max_results,
        progress,
    };
    let searched = discover::search(
        &queries,
        (&a.from, &a.to),
        &settings,
        &mut cache,
        &std::thread::sleep,
    )?;
    if searched.requests > 0 {
        corpus_io::files::write_all(
            root,
            &[(
                answers.path.clone(),
                answers.shown.clone(),
                cache.to_json().as_bytes().into(),
            )],
        )?;
    }
    for n in &searched.notes {
        stderr.push_str(&format!("note: {n}\n"));
    }
    // A file's name is taken even when its `key` was edited to another.
    let stems: Vec<String> = queue
        .iter()
        .filter_map(|(p, _)| Some(p.file_stem()?.to_string_lossy().into_owned()))
        .collect();
    let queued: Vec<Candidate> = queue.into_iter().map(|(_, c)| c).collect();
    let mut known = Known::of(corpus, &queued);
    known.keys.extend(stems);
    let found = searched.found.len();
    let today = corpus_core::model::dates::today();
    let (new, held) = discover::candidates(searched.found, &mut known, &ranker, &today);
    let files: Vec<(PathBuf, String)> = new
        .iter()
        .map(|c| {
            (
                root.join(format!("{}/{}.yaml", Layout::CANDIDATES_DIR, c.key)),
                c.to_yaml(),
            )
        })
        .collect();
    corpus_io::files::write_new_files(root, &files, false)?;
    let mut out = String::new();
    for c in &new {
        out.push_str(&format!(
            "{:.3}  {}  [{}]  {}\n       terms: {}\n",
            c.score,
            c.key,
            c.query,
            c.title,
            c.top_terms.join(", ")
        ));
    }
    let by = |why: &str| held.iter().filter(|(_, w)| *w == why).count();
    out.push_str(&format!(
        "{} queries ({} requests{}), {found} papers found: {} already in the pool, the exclusion log or the queue (arXiv id {}, DOI {}, title {}), {} new candidate{} written to {}/\n",
        queries.len(),
        searched.requests,
        if a.offline { ", offline" } else { "" },
        held.len(),
        by("arXiv id"),
        by("DOI"),
        by("title"),
        new.len(),
        if new.len() == 1 { "" } else { "s" },
        Layout::CANDIDATES_DIR
    ));
    if !new.is_empty() {
        out.push_str("next: read each candidate, then `corpus screen KEY --include` or `corpus screen KEY --exclude --stage STAGE --reason TEXT`\n");
    }
    Ok(Outcome {
        code: 0,
        stdout: out,
        stderr,
    })
}
