//! `corpus site`: check, render the page, and write `OUT/index.html`
//! atomically, never over a file this command did not write.

use super::{parse_checked, Audience, Context, Outcome, Result};
use corpus_core::check;
use corpus_core::layout::Layout;
use corpus_core::load::Inputs;
use corpus_core::publish::site::{self, GENERATOR};
use std::path::PathBuf;

/// Options of `corpus site`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder to write index.html into (default: site/ under the corpus root).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace an index.html that `corpus site` did not write.
    #[arg(long)]
    pub force: bool,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // The page goes to a file; only reports reach the terminal.
        true
    }
}

/// Writes the page of a corpus without errors into `--out` (relative to the
/// working directory; default `site/` under the root).
///
/// An existing page is replaced only when this command wrote it (it carries
/// [`GENERATOR`]) or with `--force`; anything other than a regular file at
/// the page's path is refused, and so is a corpus with errors.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.writing_root()?;
    let inputs = Inputs::read(root, ctx.load);
    let (corpus, _) = parse_checked(&inputs, None)?;
    let errors = check::check(&corpus).errors();
    if errors > 0 {
        return Err(Outcome::fail(1, format!("the corpus has {errors} error(s); run `corpus check` and fix them; nothing was written")));
    }
    let templates = inputs
        .templates
        .as_ref()
        .map_err(|d| Outcome::fail(2, &d.message))?;
    let Some((_, template)) = templates.iter().find(|(n, _)| n == Layout::SITE_TEMPLATE) else {
        return Err(Outcome::fail(
            2,
            format!(
                "no page template: {}/{} is missing",
                Layout::TEMPLATES_DIR,
                Layout::SITE_TEMPLATE
            ),
        ));
    };
    let html = site::page(&corpus, template).map_err(|e| Outcome::fail(2, e))?;
    let dir = match &args.out {
        Some(p) => ctx.cwd.join(p),
        None => root.join(Layout::SITE_DIR),
    };
    let path = dir.join(Layout::SITE_PAGE);
    if let Ok(meta) = std::fs::symlink_metadata(&path) {
        if !meta.is_file() {
            return Err(Outcome::fail(
                2,
                format!(
                    "{}: not a regular file; nothing was written",
                    path.display()
                ),
            ));
        }
        let ours = corpus_io::reader::read_bytes(&path, site::MAX_PAGE_BYTES)
            .is_ok_and(|b| String::from_utf8_lossy(&b).contains(GENERATOR));
        if !ours && !args.force {
            return Err(Outcome::fail(
                2,
                format!(
                    "{} exists and was not written by `corpus site`; left untouched (pass --force to replace it)",
                    path.display()
                ),
            ));
        }
    }
    corpus_io::files::write_atomic(root, &path, html.as_bytes())
        .map_err(|e| Outcome::fail(2, format!("cannot write {}: {e}", path.display())))?;
    Ok(Outcome {
        code: 0,
        stdout: String::new(),
        stderr: format!(
            "wrote {} ({} KiB: {} entries, {} exclusion records)\n",
            path.display(),
            html.len().div_ceil(1024),
            corpus.entries.len(),
            corpus.exclusions.len()
        ),
    })
}
