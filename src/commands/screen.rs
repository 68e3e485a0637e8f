//! `corpus screen`: moves candidates of the queue into the pool (the
//! scaffold of an entry, stamped with the open round) or into the exclusion
//! log (with its stage and reason), one or many at a time. Every file is
//! written new, all together; nothing existing is overwritten.

use super::discover::read_queue;
use super::{load_corpus, Audience, Context, Outcome, Result};
use corpus_core::exchange::screen::{entry_text, next_record_ids, record_text, Decision};
use corpus_core::layout::Layout;
use corpus_core::network::discover::Known;
use std::path::PathBuf;

/// Options of `corpus screen`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("decision").required(true).args(["include", "exclude"])))]
pub struct Args {
    /// Keys of the candidates (files of corpus/candidates/).
    #[arg(required = true, value_name = "KEY")]
    pub keys: Vec<String>,
    /// Keep them: each becomes the scaffold of an entry in corpus/papers/.
    #[arg(long)]
    pub include: bool,
    /// Drop them: each becomes a record of the exclusion log (needs --stage and --reason).
    #[arg(long, requires_all = ["stage", "reason"])]
    pub exclude: bool,
    /// The screening stage that drops them (one of the taxonomy's stages).
    #[arg(long, value_name = "STAGE", requires = "exclude")]
    pub stage: Option<String>,
    /// Why they leave the pool, in your words.
    #[arg(long, value_name = "TEXT", requires = "exclude")]
    pub reason: Option<String>,
    /// The entry key of the one candidate included (default: the candidate's key).
    #[arg(long, value_name = "KEY", requires = "include")]
    pub key: Option<String>,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        true
    }
}

/// Screens the candidates named.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.writing_root()?;
    let corpus = load_corpus(root, ctx.load, None)?;
    let fail = |e: String| Outcome::fail(2, e);
    if args.key.is_some() && args.keys.len() > 1 {
        return Err(fail(
            "--key names the entry of one candidate; screen the others separately".into(),
        ));
    }
    let queue = read_queue(root).map_err(fail)?;
    let mut chosen = Vec::new();
    for k in &args.keys {
        let stem_is = |p: &PathBuf| p.file_stem().is_some_and(|s| s == k.as_str());
        if chosen.iter().any(|(p, _)| stem_is(p)) {
            continue;
        }
        let Some(found) = queue.iter().find(|(p, _)| stem_is(p)) else {
            let keys: Vec<String> = queue
                .iter()
                .filter_map(|(p, _)| Some(p.file_stem()?.to_string_lossy().into_owned()))
                .collect();
            let hint = corpus_core::text::closest::closest(k, keys.iter().map(String::as_str))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            return Err(fail(format!(
                "{}/{k}.yaml: no such candidate{hint}",
                Layout::CANDIDATES_DIR
            )));
        };
        chosen.push(found.clone());
    }
    // A paper screened since `discover` queued it must not land twice.
    let known = Known::of(&corpus, &[]);
    for (_, c) in &chosen {
        if let Some(why) = known.holds_paper(&c.arxiv_id, c.doi.as_deref(), &c.title) {
            return Err(fail(format!(
                "{}: the pool or the exclusion log already holds this paper (same {why}); remove the candidate file instead",
                c.key
            )));
        }
    }
    let today = corpus_core::model::dates::today();
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    let mut said = String::new();
    if args.include {
        for (_, c) in &chosen {
            let key = args.key.clone().unwrap_or_else(|| c.key.clone());
            let rel = format!("{}/{key}.yaml", Layout::PAPERS_DIR);
            files.push((
                root.join(&rel),
                entry_text(&corpus.taxonomy, c, &key).map_err(fail)?,
            ));
            said.push_str(&format!("included {} as {rel}\n", c.key));
        }
        said.push_str("next: fill in the empty fields of each new entry (the candidate's suggested tags are only suggestions), then `corpus check` and `corpus build`\n");
    } else {
        let existing: Vec<String> = corpus
            .exclusions
            .iter()
            .map(|x| x.record.record_id.clone())
            .collect();
        let ids = next_record_ids(&existing, chosen.len());
        for ((_, c), id) in chosen.iter().zip(&ids) {
            let d = Decision {
                record_id: id,
                stage: args.stage.as_deref().unwrap_or_default(),
                reason: args.reason.as_deref().unwrap_or_default(),
                date: &today,
            };
            let text =
                record_text(&corpus.taxonomy, corpus.search.as_ref(), c, &d).map_err(fail)?;
            let rel = format!("{}/{id}.yaml", Layout::EXCLUSIONS_DIR);
            files.push((root.join(&rel), text));
            said.push_str(&format!("excluded {} as {rel}\n", c.key));
        }
        said.push_str("next: `corpus build` updates the README and the statistics\n");
    }
    corpus_io::files::write_new_files(root, &files, false).map_err(fail)?;
    for (path, c) in &chosen {
        corpus_io::files::remove(root, path).map_err(|e| {
            fail(format!(
                "{} was written, but its candidate file could not be removed ({e}); remove {}/{}.yaml by hand",
                c.key,
                Layout::CANDIDATES_DIR,
                c.key
            ))
        })?;
    }
    Ok(Outcome::ok(said))
}
