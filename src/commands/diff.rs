//! `corpus diff`: what a change moves — entries, figures and claims —
//! between an old root (or a git revision) and this one.

use super::{json_text, Audience, Context, Outcome, Result};
use corpus_core::layout::Layout;
use corpus_core::load;
use std::path::{Path, PathBuf};

/// Output format of `corpus diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DiffFormat {
    /// Plain text, for a person.
    #[default]
    #[value(alias = "text")]
    Human,
    /// A pull-request comment.
    Markdown,
    /// JSON.
    Json,
}

impl DiffFormat {
    /// Whether this format is read by a person rather than a program.
    pub fn is_for_humans(self) -> bool {
        self != DiffFormat::Json
    }
}

/// The revision bare `corpus diff` compares with: the last commit.
pub const DEFAULT_BASE: &str = "HEAD";

/// Options of `corpus diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The old corpus root to compare with (instead of --base).
    #[arg(value_name = "OLD_ROOT", conflicts_with = "base")]
    pub old_root: Option<PathBuf>,
    /// Compare with the corpus as committed at this git revision (default, without OLD_ROOT: HEAD, i.e. what the working tree changed since the last commit).
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    pub format: DiffFormat,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// Compares the corpus at OLD_ROOT (or as committed at `--base`) with this one.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.root()?;
    let snapshot;
    let old_root: &Path = match (args.old_root.as_deref(), args.base.as_deref()) {
        (Some(p), _) => {
            if !p.join(Layout::TAXONOMY).is_file() {
                return Err(Outcome::fail(
                    2,
                    format!("{}: no {} there", p.display(), Layout::TAXONOMY),
                ));
            }
            p
        }
        (None, rev) => {
            // Bare `corpus diff` asks what the uncommitted changes move, as `git diff` does.
            snapshot = corpus_core::exchange::git::snapshot_at(root, rev.unwrap_or(DEFAULT_BASE))
                .map_err(|e| Outcome::fail(2, e))?;
            snapshot.root()
        }
    };
    let load_one = |r: &Path| {
        load::load(r, ctx.load).map_err(|e| Outcome::fail(2, format!("{}: {e}", r.display())))
    };
    let old = load_one(old_root)?;
    let new = load_one(root)?;
    let mut d = corpus_core::exchange::diff::diff(&old, &new);
    // Templates are not part of a loaded corpus; a side whose templates
    // cannot be read is left out of that comparison rather than shown as
    // every template removed.
    let templates = |r: &Path| corpus_core::load::templates::read(r).ok();
    if let (Some(a), Some(b)) = (templates(old_root), templates(root)) {
        d.review.templates = corpus_core::exchange::review::template_edits(&a, &b);
    }
    let unreadable: usize = [&old, &new]
        .iter()
        .map(|c| c.diagnostics.iter().filter(|d| d.fails(false)).count())
        .sum();
    let stdout = match args.format {
        DiffFormat::Human => corpus_core::exchange::diff::text(&d),
        DiffFormat::Markdown => corpus_core::exchange::diff::markdown(&d),
        DiffFormat::Json => json_text(&d),
    };
    // Files of the new side that fail to load make the diff incomplete: the
    // run fails (1) so that a job summary built on it does not pass quietly.
    let new_errors = new.diagnostics.iter().filter(|d| d.fails(false)).count();
    let mut out = Outcome::with_code(i32::from(new_errors > 0), stdout);
    if unreadable > 0 {
        let level = if new_errors > 0 { "error" } else { "warning" };
        out.stderr = format!("{level}: {unreadable} file problem(s) left some data out of the comparison; run `corpus check`\n");
    }
    Ok(out)
}
