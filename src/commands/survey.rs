//! `corpus survey figures`: the survey's figure memberships read from the
//! figure files of its artifact (a git repository, bare or not) and
//! compared with `corpus/survey.yaml`, or written into it with `--write`.

use super::{load_corpus, Audience, Context, Outcome, Result};
use corpus_core::exchange::figures::{self, Resolver};
use corpus_core::layout::Layout;
use std::path::PathBuf;

/// The `corpus survey` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum SurveyCommand {
    /// Read the survey's figure memberships from the artifact's SVG files; check or write corpus/survey.yaml.
    Figures(FiguresArgs),
    /// Derive each entry's and record's round from the artifact's history and compare with `added_in`.
    Rounds(RoundsArgs),
}

/// Options of `corpus survey rounds`.
#[derive(Debug, clap::Args)]
pub struct RoundsArgs {
    /// The artifact's git repository (a checkout or a bare mirror).
    #[arg(long, value_name = "DIR")]
    pub artifact: PathBuf,
    /// The artifact's revision whose history is read.
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub rev: String,
}

impl Audience for SurveyCommand {
    fn stdout_is_for_humans(&self) -> bool {
        // A report of differences or of what was written.
        true
    }
}

/// Options of `corpus survey figures`.
#[derive(Debug, clap::Args)]
pub struct FiguresArgs {
    /// The artifact's git repository (a checkout or a bare mirror).
    #[arg(long, value_name = "DIR")]
    pub artifact: PathBuf,
    /// The artifact's revision to read the figures from.
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub rev: String,
    /// Write the derived memberships and commits into corpus/survey.yaml instead of reporting differences.
    #[arg(long)]
    pub write: bool,
}

/// Runs a `corpus survey` subcommand.
pub fn run(ctx: &Context, command: &SurveyCommand) -> Result {
    match command {
        SurveyCommand::Figures(a) => figures_run(ctx, a),
        SurveyCommand::Rounds(a) => rounds_run(ctx, a),
    }
}

/// Derives every figure from its file; reports the differences from the
/// survey file (exit 1 when any) or, with `--write`, writes them in.
fn figures_run(ctx: &Context, args: &FiguresArgs) -> Result {
    let root = if args.write {
        ctx.writing_root()?
    } else {
        ctx.root()?
    };
    let corpus = load_corpus(root, ctx.load, None)?;
    let Some((survey, text)) = &corpus.survey else {
        return Err(Outcome::fail(
            2,
            format!("{} is missing or cannot be read", Layout::SURVEY),
        ));
    };
    let repo = ctx.cwd.join(&args.artifact);
    let resolver = Resolver::new(survey, corpus.entries.iter().map(|e| &e.entry).collect());
    let mut problems = Vec::new();
    let mut diffs = Vec::new();
    let mut updated = Vec::new();
    for fig in &survey.figures {
        let Some(file) = &fig.file else {
            problems.push(format!(
                "figure `{}` names no file of the artifact to read it from",
                fig.id
            ));
            updated.push(fig.clone());
            continue;
        };
        let (bytes, commit) = corpus_core::exchange::git::file_at(&repo, &args.rev, file)
            .map_err(|e| Outcome::fail(2, format!("{}: {e}", args.artifact.display())))?;
        let svg = String::from_utf8_lossy(&bytes);
        match figures::derive(fig, &svg, &resolver) {
            Ok(derived) => {
                diffs.extend(figures::differences(fig, &derived, &commit));
                updated.push(figures::updated(fig, &derived, &commit));
            }
            Err(errs) => {
                problems.extend(errs);
                updated.push(fig.clone());
            }
        }
    }
    if !problems.is_empty() {
        let mut out = String::new();
        for p in &problems {
            out += &format!("error: {p}\n");
        }
        return Ok(Outcome {
            code: 1,
            stdout: String::new(),
            stderr: out,
        });
    }
    let n = survey.figures.len();
    if diffs.is_empty() {
        return Ok(Outcome::ok(format!(
            "{n} figures of {} agree with their files in the artifact\n",
            Layout::SURVEY
        )));
    }
    let mut out: String = diffs.iter().map(|d| format!("{d}\n")).collect();
    if !args.write {
        out += &format!(
            "{} differences; `corpus survey figures --artifact {} --write` writes the files' memberships into {}\n",
            diffs.len(),
            args.artifact.display(),
            Layout::SURVEY
        );
        return Ok(Outcome::with_code(1, out));
    }
    let new_text = figures::rewrite(text, &updated).map_err(|e| Outcome::fail(2, e))?;
    corpus_io::files::write_atomic(root, &root.join(Layout::SURVEY), new_text.as_bytes())
        .map_err(|e| Outcome::fail(2, format!("cannot write {}: {e}", Layout::SURVEY)))?;
    out += &format!(
        "wrote the memberships of {n} figures into {}; run `corpus check`\n",
        Layout::SURVEY
    );
    Ok(Outcome::ok(out))
}

/// Every version of one of the artifact's CSV files up to `rev`, oldest first.
fn versions(args: &RoundsArgs, file: &str) -> std::result::Result<Vec<(String, String)>, Outcome> {
    let repo = args.artifact.as_path();
    let fail = |e: String| Outcome::fail(2, format!("{}: {e}", repo.display()));
    let commits = corpus_core::exchange::git::commits_of(repo, &args.rev, file).map_err(fail)?;
    commits
        .into_iter()
        .map(|c| {
            let (bytes, _) = corpus_core::exchange::git::file_at(repo, &c, file).map_err(fail)?;
            Ok((c, String::from_utf8_lossy(&bytes).into_owned()))
        })
        .collect()
}

/// Compares each entry's and record's round with the round of the commit
/// that first added its row to the artifact (exit 1 on any difference).
fn rounds_run(ctx: &Context, args: &RoundsArgs) -> Result {
    use corpus_core::exchange::rounds::{first_seen, round_of, EXCLUDED, PAPERS};
    let root = ctx.root()?;
    let corpus = load_corpus(root, ctx.load, None)?;
    let Some((locs, _)) = &corpus.locators else {
        return Err(Outcome::fail(
            2,
            format!(
                "{} is missing or cannot be read: it names each round's commit",
                Layout::LOCATORS
            ),
        ));
    };
    let args = RoundsArgs {
        artifact: ctx.cwd.join(&args.artifact),
        rev: args.rev.clone(),
    };
    let first = corpus
        .taxonomy
        .rounds
        .first()
        .map(|r| r.id.as_str())
        .unwrap_or_default();
    let rows: Vec<(&str, &str, Option<&str>)> = corpus
        .entries
        .iter()
        .map(|e| ("entry", e.entry.key.as_str(), e.entry.added_in.as_deref()))
        .collect();
    let records: Vec<(&str, &str, Option<&str>)> = corpus
        .exclusions
        .iter()
        .map(|x| {
            (
                "record",
                x.record.record_id.as_str(),
                x.record.added_in.as_deref(),
            )
        })
        .collect();
    let mut diffs = Vec::new();
    for ((file, id), items) in [(PAPERS, rows), (EXCLUDED, records)] {
        let seen = first_seen(&versions(&args, file)?, id)
            .map_err(|e| Outcome::fail(1, format!("{file}: {e}")))?;
        for (kind, key, added_in) in items {
            let have = added_in.unwrap_or(first);
            let msg = match seen.get(key) {
                None if corpus.in_survey_pool(added_in) => format!(
                    "{kind} `{key}` is in round `{have}` of the survey's pool, but no commit of the artifact's {file} holds it"
                ),
                None => continue,
                Some(s) => match round_of(s, &locs.rounds) {
                    Some(r) if r == have => continue,
                    Some(r) => format!(
                        "{kind} `{key}` is in round `{have}`, but commit {} first added it to {file}, which is round `{r}`",
                        s.commit
                    ),
                    None => format!(
                        "{kind} `{key}` was first added to {file} by commit {}, which no round of {} names",
                        s.commit,
                        Layout::LOCATORS
                    ),
                },
            };
            diffs.push(msg);
        }
    }
    if diffs.is_empty() {
        return Ok(Outcome::ok(format!(
            "{} entries and {} records are in the rounds of the artifact's commits that added them\n",
            corpus.entries.len(),
            corpus.exclusions.len()
        )));
    }
    let out: String = diffs.iter().map(|d| format!("{d}\n")).collect();
    Ok(Outcome::with_code(1, out))
}
