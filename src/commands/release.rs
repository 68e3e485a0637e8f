//! `corpus release VERSION`: on a clean, committed tree whose check passes,
//! records the release in `corpus/releases.yaml` (its day and every entry's
//! tags, from which the changelog's removals and tag changes are read),
//! regenerates the changelog and README with the version, writes
//! `CITATION.cff` and `.zenodo.json`, and freezes the figures of `stats/`
//! under `releases/VERSION/` — all in one write, all or none.

use super::{checked_beside, sources, Audience, CheckedCorpus, Context, Outcome, Result};
use corpus_core::exchange::git;
use corpus_core::layout::Layout;
use corpus_core::load;
use corpus_core::model::{dates, releases};
use corpus_core::publish::citation::{self, CFF_MARK, ZENODO_MARK};
use corpus_core::publish::{changes, generate, on_disk};
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::report::{self, Format};
use corpus_io::files::Content;
use std::path::PathBuf;

/// Options of `corpus release`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The version to release, e.g. 2026.12.0 (digits, letters, `.`, `-`, `+`, `_`).
    #[arg(value_name = "VERSION")]
    pub version: String,
    /// The release's day, YYYY-MM-DD (default: today, UTC).
    #[arg(long, value_name = "DATE")]
    pub date: Option<String>,
    /// Replace a CITATION.cff, .zenodo.json or releases/VERSION/ that `corpus release` did not write.
    #[arg(long)]
    pub force: bool,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        true
    }
}

/// Refuses `rel` when something other than a file `corpus release` wrote
/// (one holding `mark`) is there, unless `force`.
fn guard(
    root: &std::path::Path,
    rel: &str,
    mark: &str,
    force: bool,
) -> std::result::Result<(), Outcome> {
    let path = root.join(rel);
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return Ok(());
    };
    if !meta.is_file() {
        return Err(Outcome::fail(
            2,
            format!("{rel}: not a regular file; nothing was written"),
        ));
    }
    let ours = corpus_io::reader::read_text(&path, generate::MAX_GENERATED_BYTES)
        .is_ok_and(|t| t.contains(mark));
    if !ours && !force {
        return Err(Outcome::fail(2, format!("{rel} exists and was not written by `corpus release`; left untouched, nothing was written (pass --force to replace it)")));
    }
    Ok(())
}

/// Makes the release (see the module's comment).
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.writing_root()?;
    let version = args.version.as_str();
    if let Some(p) = releases::version_problem(version) {
        return Err(Outcome::fail(2, p));
    }
    let date = args.date.clone().unwrap_or_else(dates::today);
    if dates::parse_date(&date).is_none() {
        return Err(Outcome::fail(
            2,
            format!("--date `{date}` is not a YYYY-MM-DD date"),
        ));
    }
    // A release is of what is committed: the tag must name these bytes.
    let dirty = git::uncommitted(root).map_err(|e| {
        Outcome::fail(
            2,
            format!(
                "cannot tell whether the tree is committed ({e}); a release needs a git repository"
            ),
        )
    })?;
    if !dirty.is_empty() {
        let shown: Vec<&str> = dirty.iter().take(5).map(String::as_str).collect();
        return Err(Outcome::fail(2, format!(
            "the working tree has {} uncommitted change(s) ({}{}); commit or stash them, then release; nothing was written",
            dirty.len(),
            shown.join(", "),
            if dirty.len() > 5 { ", …" } else { "" }
        )));
    }
    let inputs = load::read_inputs(root, ctx.load);
    let previous = on_disk::Previous::of(root, &inputs.previous, None);
    let (checked, tera) = checked_beside(&inputs, None, || {
        generate::parse_read_templates(&inputs.templates, generate::Part::All)
    });
    let CheckedCorpus {
        mut corpus,
        examples,
        found: mut rep,
        st,
    } = checked?;
    rep.diagnostics.extend(generate::stale_diagnostics(
        root,
        generate::Given::Lent(&corpus),
        &inputs.templates,
        &examples,
        generate::Part::All,
        &previous,
        generate::Prepared {
            st: &st,
            tera: &tera,
        },
    ));
    let errors: Vec<Diagnostic> = rep
        .diagnostics
        .into_iter()
        .filter(|d| d.fails(false))
        .collect();
    if !errors.is_empty() {
        let summary = format!(
            "{} error(s): no release was made; fix them, commit, and release again",
            errors.len()
        );
        return Err(Outcome {
            code: 1,
            stdout: String::new(),
            stderr: report::render(&errors, Format::Human, &sources(&corpus), Some(&summary)),
        });
    }
    let mut record = corpus.releases.clone().unwrap_or_default();
    if record.releases.iter().any(|r| r.version == version) {
        return Err(Outcome::fail(
            2,
            format!(
                "release {version} is already in {}; choose a new version",
                Layout::RELEASES
            ),
        ));
    }
    if let Some(last) = record.latest().filter(|l| l.date > date) {
        return Err(Outcome::fail(
            2,
            format!(
                "release {} is dated {}, after {date}; a release cannot predate the one before it",
                last.version, last.date
            ),
        ));
    }
    let folder = format!("{}/{version}", Layout::RELEASES_DIR);
    guard(root, Layout::CITATION, CFF_MARK, args.force)?;
    guard(root, Layout::ZENODO, ZENODO_MARK, args.force)?;
    if std::fs::symlink_metadata(root.join(&folder)).is_ok() && !args.force {
        return Err(Outcome::fail(2, format!("{folder}/ exists already; left untouched, nothing was written (pass --force to write into it)")));
    }
    record.releases.push(releases::Release {
        version: version.to_string(),
        date: date.clone(),
        entries: changes::snapshot(&corpus),
    });
    corpus.releases = Some(record.clone());
    let templates = inputs
        .templates
        .as_ref()
        .map_err(|d| Outcome::fail(2, format!("{}: {}", d.file, d.message)))?;
    let st = corpus_core::stats::of_corpus(&corpus);
    let mut files =
        generate::generate_counted(&corpus, &st, templates, &examples, generate::Part::All)
            .map_err(|d| Outcome::fail(2, format!("{}: {}", d.file, d.message)))?;
    previous.keep_users_changelog(&mut files);
    // The figures as they stand at the release: stats/ is regenerated by
    // every build, so the snapshot is what a citation of this version
    // points to (and what the release workflow attaches).
    let mut out: Vec<(String, String)> = files
        .iter()
        .filter_map(|f| {
            let name = f.path.strip_prefix(&format!("{}/", Layout::STATS_DIR))?;
            (f.path != Layout::MANIFEST).then(|| (format!("{folder}/{name}"), f.content.clone()))
        })
        .collect();
    out.extend(
        on_disk::stale(root, &files)
            .into_iter()
            .map(|f| (f.path.clone(), f.content.clone())),
    );
    out.push((Layout::RELEASES.to_string(), record.to_yaml()));
    out.push((
        Layout::CITATION.to_string(),
        citation::cff(&corpus, version, &date),
    ));
    out.push((
        Layout::ZENODO.to_string(),
        citation::zenodo(&corpus, version, &date),
    ));
    let items: Vec<(PathBuf, String, Content)> = out
        .iter()
        .map(|(rel, text)| (root.join(rel), rel.clone(), text.as_bytes().into()))
        .collect();
    let written = corpus_io::files::write_all(root, &items).map_err(|e| Outcome::fail(2, e))?;
    let mut msg = String::new();
    for p in &written {
        msg.push_str(&format!("wrote {p}\n"));
    }
    let tag = if version.starts_with('v') {
        version.to_string()
    } else {
        format!("v{version}")
    };
    msg.push_str(&format!(
        "release {version} of {date}: {} entries; commit these files, then tag the commit (`git tag {tag}`) and push the tag to publish it\n",
        corpus.entries.len()
    ));
    Ok(Outcome::ok(msg))
}
