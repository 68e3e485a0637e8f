//! `corpus site`: check, render the page, and write `OUT/index.html`
//! (with `feed.json` and `feed.atom` of the list's changes and, when the
//! corpus has a status file, its status changes) atomically, all or none, never over a file this
//! command did not write.

use super::{checked_and_counted, parse_checked, Audience, Context, Outcome, Result};
use corpus_core::layout::Layout;
use corpus_core::load;
use corpus_core::publish::feeds;
use corpus_core::publish::page_data::PageError;
use corpus_core::publish::repository::pages_url;
use corpus_core::publish::site::{self, GENERATOR};
use corpus_io::files::Content;
use std::path::{Path, PathBuf};

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
    let inputs = load::read_inputs(root, ctx.load);
    let (mut corpus, _) = parse_checked(&inputs, None)?;
    let (found, st) = checked_and_counted(&corpus);
    let errors = found.errors();
    if errors > 0 {
        return Err(Outcome::fail(1, format!("the corpus has {errors} error(s); run `corpus check` and fix them; nothing was written")));
    }
    // Past the check nothing quotes a data file: the texts go before the
    // page is rendered.
    corpus.release_texts();
    let templates = inputs.into_templates();
    let templates = templates
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
    let page = site::Page::new(&corpus, &st, template).map_err(|e| Outcome::fail(2, e))?;
    let dir = match &args.out {
        Some(p) => ctx.cwd.join(p),
        None => root.join(Layout::SITE_DIR),
    };
    // The status file and the releases file were read and checked with the
    // other inputs; an invalid one is an error, which stopped the run above.
    let repo = &corpus.taxonomy.repository;
    let (home, name) = if repo.is_empty() {
        (String::new(), "corpus")
    } else {
        (pages_url(repo), repo.as_str())
    };
    let items = feeds::all(&corpus, &home);
    let changes = items.len();
    let page_at = dir.join(Layout::SITE_PAGE);
    for (path, mark) in [
        (&page_at, GENERATOR),
        (&dir.join(feeds::JSON_FEED), FEED_MARK_JSON),
        (&dir.join(feeds::ATOM_FEED), FEED_MARK_ATOM),
    ] {
        refuse_foreign(path, mark, args.force)?;
    }
    // The page streams into its file as it renders: on a large list it is
    // the largest thing the command makes. A template that fails part-way
    // fails the write, and nothing is replaced.
    let page_bytes = std::cell::Cell::new(0);
    let broken = std::cell::RefCell::new(None);
    let write_page = |out: &mut dyn std::io::Write| match page.write_to(out) {
        Ok(n) => {
            page_bytes.set(n);
            Ok(())
        }
        Err(PageError::Io(e)) => Err(e),
        Err(PageError::Template(e)) => {
            let said = site::located(&e);
            *broken.borrow_mut() = Some(said.clone());
            Err(std::io::Error::other(said))
        }
    };
    // The feeds too are written as they are made, item by item.
    let json_feed = |out: &mut dyn std::io::Write| feeds::write_json_feed(out, name, &home, &items);
    let atom_feed = |out: &mut dyn std::io::Write| feeds::write_atom(out, name, &home, &items);
    let files: Vec<(PathBuf, String, Content)> = vec![
        labelled(page_at.clone(), &write_page),
        labelled(dir.join(feeds::JSON_FEED), &json_feed),
        labelled(dir.join(feeds::ATOM_FEED), &atom_feed),
    ];
    corpus_io::files::write_all(root, &files)
        .map_err(|e| Outcome::fail(2, broken.take().unwrap_or(e)))?;
    let page_kib = page_bytes.get().div_ceil(1024);
    let path = page_at;
    let feeds_said = format!(
        "; {} and {}: {changes} change{}",
        feeds::JSON_FEED,
        feeds::ATOM_FEED,
        if changes == 1 { "" } else { "s" }
    );
    // On stdout, as `corpus build` reports what it wrote.
    let said = format!(
        "wrote {} ({} KiB: {} entries, {} exclusion records){feeds_said}\n",
        path.display(),
        page_kib,
        corpus.entries.len(),
        corpus.exclusions.len()
    );
    drop(files);
    super::left_for_exit(page);
    super::left_for_exit((items, corpus));
    Ok(Outcome::ok(said))
}

/// A file to write, labelled by its path, and what writes it.
fn labelled(
    path: PathBuf,
    write: &dyn Fn(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> (PathBuf, String, Content<'_>) {
    let label = path.display().to_string();
    (path, label, Content::Written(write))
}

/// What marks a JSON feed as written by `corpus site`.
const FEED_MARK_JSON: &str = "\"generator\": \"corpus site\"";
/// What marks an Atom feed as written by `corpus site`.
const FEED_MARK_ATOM: &str = "<generator>corpus site</generator>";

/// Refuses a path holding anything but a regular file, or a file that does
/// not carry `mark` (not written by this command) unless `force`.
fn refuse_foreign(path: &Path, mark: &str, force: bool) -> std::result::Result<(), Outcome> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() {
        return Err(Outcome::fail(
            2,
            format!(
                "{}: not a regular file; nothing was written",
                path.display()
            ),
        ));
    }
    // The mark stands near the top of what this command writes: the file
    // is read only as far as it, never held whole.
    if !force && !corpus_io::reader::contains(path, mark.as_bytes(), site::MAX_PAGE_BYTES) {
        return Err(Outcome::fail(
            2,
            format!(
                "{} exists and was not written by `corpus site`; left untouched (pass --force to replace it)",
                path.display()
            ),
        ));
    }
    Ok(())
}
