//! `corpus init DIR`: a new list in an empty folder, built once so that
//! `check` passes on it as written.

use super::{publish, Audience, Context, Outcome, Result};
use corpus_core::layout::Layout;
use std::path::PathBuf;

/// The statistics and site templates name no list, so a new list starts
/// with the tool's own.
const SHARED_TEMPLATES: [(&str, &str); 2] = [
    (
        Layout::STATS_TEMPLATE,
        include_str!("../../templates/STATS.md.tera"),
    ),
    (
        Layout::SITE_TEMPLATE,
        include_str!("../../templates/site.html.tera"),
    ),
];

/// Options of `corpus init`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The folder of the new list: a new or empty folder.
    pub dir: PathBuf,
    /// Write into a folder that is not empty, replacing files of the same names.
    #[arg(long)]
    pub force: bool,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // What was written.
        true
    }
}

/// Writes the starter of a new list into DIR (refusing a folder that holds
/// anything, unless `--force`), then builds it.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let dir = ctx.cwd.join(&args.dir);
    let shown = args.dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(Outcome::fail(
            2,
            format!("{shown} is not a folder; `corpus init` makes a list in a new or empty folder"),
        ));
    }
    let names = corpus_io::reader::list_dir(&dir)
        .map_err(|e| Outcome::fail(2, format!("cannot list {shown}: {e}")))?
        .unwrap_or_default();
    if !names.is_empty() && !args.force {
        let first: Vec<&str> = names.iter().take(3).map(|l| l.name.as_str()).collect();
        return Err(Outcome::fail(
            2,
            format!(
                "{shown} is not empty ({} name(s), among them {}); nothing was written. \
                 `corpus init` makes a list in a new or empty folder; pass --force to write \
                 the starter files into it anyway, replacing files of the same names",
                names.len(),
                first.join(", ")
            ),
        ));
    }
    let today = corpus_core::model::dates::today();
    let files: Vec<(PathBuf, String)> =
        corpus_core::exchange::starter::files(&today, &SHARED_TEMPLATES)
            .into_iter()
            .map(|(rel, text)| (dir.join(rel), text))
            .collect();
    let written = corpus_io::files::write_new_files(&dir, &files, args.force)
        .map_err(|e| Outcome::fail(2, e))?;
    // Built once, so README.md, stats/ and the entry schema exist and a
    // `check` of the new list finds nothing stale.
    // No man page: that is the tool's, not the list's.
    let built = publish::run_part(
        &Context::new(Some(dir.clone()), ctx.load, &ctx.cwd),
        corpus_core::publish::generate::Part::All,
        false,
        None,
    )
    .map_err(|mut o| {
        o.stderr = format!(
            "wrote the starter of a new list in {shown}, but building it failed:\n{}",
            o.stderr
        );
        o
    })?;
    // The build's last line sums up what it wrote; the starter is the news.
    let summary = built.stdout.lines().last().unwrap_or_default().to_string();
    Ok(Outcome {
        stdout: format!(
            "wrote the starter of a new list in {shown} ({written} files): {}, the templates and empty {}/ and {}/\n\
             built it: {summary}\n\
             next: set the list's title and description in {}, then `corpus new KEY` for the first entry\n",
            Layout::TAXONOMY,
            Layout::PAPERS_DIR,
            Layout::EXCLUSIONS_DIR,
            Layout::TAXONOMY,
        ),
        ..built
    })
}
