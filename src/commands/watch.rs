//! `corpus watch`: asks arXiv and OpenAlex about every entry and record
//! (politely, through the answers cache), adds what changed to the status
//! file as dated events (with `--write`), and reports what needs a
//! maintainer's decision.

use super::{load_corpus, sources, Audience, Context, Outcome, ReportFormat, Result};
use corpus_core::layout::Layout;
use corpus_core::load::Corpus;
use corpus_core::model::status::Status;
use corpus_core::network::http::{Client, Policy};
use corpus_core::network::watch::cache::Cache;
use corpus_core::network::watch::{self, Services};
use corpus_core::network::{arxiv, openalex};
use corpus_diagnostics::report;
use corpus_io::reader::{self, ReadError};
use std::path::Path;
use std::time::Duration;

/// Largest status file or cache read.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// Options of `corpus watch`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Output format of the diagnostics.
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Add the new events to corpus/status.yaml (without it, they are only listed).
    #[arg(long)]
    pub write: bool,
    /// Ask no service: work from the answers cache alone.
    #[arg(long)]
    pub offline: bool,
    /// Do not ask again about ids answered within this age (e.g. 36h, 7d; plain numbers are seconds).
    #[arg(long, value_name = "AGE")]
    pub max_age: Option<String>,
    /// Contact address sent to OpenAlex (`mailto`, its polite pool).
    #[arg(long, value_name = "EMAIL")]
    pub contact: Option<String>,
    /// The arXiv API endpoint.
    #[arg(long, value_name = "URL", default_value = arxiv::DEFAULT_API)]
    pub arxiv_api: String,
    /// The OpenAlex API base URL.
    #[arg(long, value_name = "URL", default_value = openalex::DEFAULT_API)]
    pub openalex_api: String,
    /// Seconds between two arXiv requests (at least 3 against the public API, as it asks).
    #[arg(long, value_name = "SECONDS", default_value_t = arxiv::DEFAULT_PAUSE_SECS)]
    pub arxiv_pause: f64,
    /// Seconds between two OpenAlex requests (at least 0.1 against the public API).
    #[arg(long, value_name = "SECONDS", default_value_t = openalex::DEFAULT_PAUSE_SECS)]
    pub openalex_pause: f64,
    /// Timeout of one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// Watches the corpus's papers.
pub fn run(ctx: &Context, args: &Args) -> Result {
    // Online it writes its answers cache; with --write, the status file.
    let root = if args.offline && !args.write {
        ctx.root()?
    } else {
        ctx.writing_root()?
    };
    let corpus = load_corpus(root, ctx.load, Some(args.format.into()))?;
    command(root, &corpus, args, &ctx.progress).map_err(|e| Outcome::fail(2, e))
}

/// A number of seconds given on the command line, between 0 and an hour.
pub(super) fn seconds(v: f64, name: &str) -> std::result::Result<Duration, String> {
    if v.is_finite() && (0.0..=3600.0).contains(&v) {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(format!(
            "{name} must be a number of seconds between 0 and 3600"
        ))
    }
}

/// Reads a file this command keeps; None when there is none yet.
fn read_own(path: &Path, shown: &str) -> std::result::Result<Option<String>, String> {
    match reader::read_text(path, MAX_BYTES) {
        Ok(t) => Ok(Some(t)),
        Err(ReadError::Missing) => Ok(None),
        Err(e) => Err(format!("{shown}: {e}")),
    }
}

fn command(
    root: &Path,
    corpus: &Corpus,
    a: &Args,
    progress: &dyn corpus_core::network::progress::Progress,
) -> std::result::Result<Outcome, String> {
    let timeout = seconds(a.timeout, "--timeout")?;
    if timeout.is_zero() {
        return Err("--timeout must be more than 0 seconds".into());
    }
    let mut arxiv_pause = seconds(a.arxiv_pause, "--arxiv-pause")?;
    if a.arxiv_api == arxiv::DEFAULT_API {
        arxiv_pause = arxiv_pause.max(Duration::from_secs_f64(arxiv::DEFAULT_PAUSE_SECS));
    }
    let mut openalex_pause = seconds(a.openalex_pause, "--openalex-pause")?;
    if a.openalex_api == openalex::DEFAULT_API {
        openalex_pause = openalex_pause.max(Duration::from_secs_f64(openalex::MIN_PAUSE_SECS));
    }
    if let Some(c) = &a.contact {
        if !openalex::valid_contact(c) {
            return Err(format!(
                "--contact `{c}` is not an e-mail address (letters, digits, @ . _ + -)"
            ));
        }
    }
    let max_age = super::max_age(a.max_age.as_deref())?;

    let status_path = root.join(Layout::STATUS);
    let mut status = match read_own(&status_path, Layout::STATUS)? {
        Some(t) => Status::from_yaml(&t).map_err(|e| format!("{}: {e}", Layout::STATUS))?,
        None => Status::default(),
    };
    // Believing a committed cache could hide a withdrawal or a retraction.
    let answers = super::answers_cache(
        root,
        Layout::WATCH_CACHE,
        "every paper is asked afresh",
        MAX_BYTES,
    )?;
    let (mut cache, mut stderr) = answers.decode(Cache::from_json, "watch");

    let subjects = watch::subjects(corpus);
    let mut asked = (0, 0);
    if !a.offline {
        let client = Client::new(Policy {
            timeout,
            ..Policy::default()
        });
        let svc = Services {
            client: &client,
            arxiv: (&a.arxiv_api, arxiv_pause),
            openalex: (&a.openalex_api, openalex_pause),
            contact: a.contact.as_deref(),
            max_age,
            now: corpus_core::model::dates::unix_now(),
            progress,
        };
        asked = watch::refresh(&subjects, &status, &mut cache, &svc, &std::thread::sleep)
            .map_err(no_network)?;
        let items = [(
            answers.path.clone(),
            answers.shown.clone(),
            cache.to_json().into_bytes(),
        )];
        let items: Vec<(std::path::PathBuf, String, corpus_io::files::Content)> = items
            .iter()
            .map(|(p, l, b)| (p.clone(), l.clone(), b.as_slice().into()))
            .collect();
        corpus_io::files::write_all(root, &items)?;
    }
    for s in &subjects {
        let Some(id) = &s.arxiv else { continue };
        match cache.arxiv.get(id) {
            None => stderr.push_str(&format!(
                "note: {}: no answer of arXiv for {id} in the cache\n",
                s.key
            )),
            Some(ans) => {
                if let Some(said) = &ans.refused {
                    stderr.push_str(&format!(
                        "note: {}: arXiv refused the id {id}; arXiv says: {said}\n",
                        s.key
                    ));
                }
            }
        }
    }
    let today = corpus_core::model::dates::today();
    let before = status.clone();
    let added = watch::observe(&subjects, &cache, &mut status, &today);
    for e in &added {
        let detail = [
            e.version.map(|v| format!("v{v}")),
            e.doi.clone(),
            e.venue.clone(),
            e.title.as_ref().map(|t| format!("\"{t}\"")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
        stderr.push_str(&format!(
            "{}: {} {} on {} ({}) {detail}\n",
            if a.write { "recorded" } else { "would record" },
            e.key,
            e.event.as_str(),
            e.date,
            e.source
        ));
    }
    if a.write && status != before {
        let text = status.to_yaml();
        corpus_io::files::write_all(
            root,
            &[(
                status_path,
                Layout::STATUS.to_string(),
                text.as_bytes().into(),
            )],
        )?;
    }
    // Diagnostics rest on what is recorded; without --write, on what would be.
    let mut diags = watch::diagnose(corpus, &status);
    corpus.taxonomy.apply_severities(&mut diags);
    corpus_diagnostics::diag::sort(&mut diags);
    let what = format!(
        "watched {} paper{} ({}; {} arXiv and {} OpenAlex request batches), {} new event{}{}",
        subjects.len(),
        if subjects.len() == 1 { "" } else { "s" },
        if a.offline {
            "offline, from the cache"
        } else {
            "online"
        },
        asked.0,
        asked.1,
        added.len(),
        if added.len() == 1 { "" } else { "s" },
        if a.write || added.is_empty() {
            ""
        } else {
            " (not written: add --write)"
        }
    );
    let summary = report::summary(&diags, 0, &what);
    Ok(Outcome {
        code: i32::from(diags.iter().any(|d| d.fails(false))),
        stdout: report::render(&diags, a.format.into(), &sources(corpus), Some(&summary)),
        stderr,
    })
}

/// Why watch could not ask; when a request got no answer at all, the
/// network looks down, which is said once with what works without it.
fn no_network(u: arxiv::Unusable) -> String {
    if u.unanswered {
        format!(
            "{}; no answer came, so the network looks down and nothing was recorded. \
Check the connection, or run `corpus watch --offline` to judge what the status file already holds",
            u.message
        )
    } else {
        u.message
    }
}
