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
