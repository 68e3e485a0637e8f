//! `corpus build`, `corpus render` and `corpus stats --write`: check, then
//! generate the files of a part and write them (or, with `--check`, only
//! compare them with the disk).

use super::completions::{MAN_MARK, MAN_PAGE};
use super::{checked_beside, sources, Audience, CheckedCorpus, Context, Outcome, Result};
use corpus_core::layout::Layout;
use corpus_core::load;
use corpus_core::model::corpus::Corpus;
use corpus_core::publish::fingerprint::Checked;
use corpus_core::publish::generate::{self, Part};
use corpus_core::publish::on_disk;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::report::{self, Format};

/// Options of `corpus build` and `corpus render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write nothing; fail when a generated file is stale.
    #[arg(long)]
    pub check: bool,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // Reports; the generated files themselves go to disk.
        true
    }
}

/// `corpus build`: checks, then regenerates every generated file, and the
/// man page `man` (the command line's, which `cli` hands down) when the
/// root has a `docs/` folder.
pub fn build(ctx: &Context, args: &Args, man: ManPage) -> Result {
    run_part(ctx, Part::All, args.check, Some(man))
}

/// Renders the man page, or says why it could not; called only when a
/// build has files to generate, beside parsing the data.
pub type ManPage = fn() -> std::result::Result<String, String>;

/// `corpus render`: checks, then regenerates README.md only.
pub fn render(ctx: &Context, args: &Args) -> Result {
    run_part(ctx, Part::Readme, args.check, None)
}

/// Checks the corpus, then writes the generated files of `part` and the man
/// page `man` renders (or, with `check_only`, fails when one of them is stale).
///
/// The stages run once each, in this order: the root; read (the inputs,
/// and what the previous build left on disk, in one pass); the shortcut
/// (this user's store, the key of what was read, and a fresh record ends
/// the run here); parse, check and count; render; place the user's files;
/// write (or compare) and record.
pub fn run_part(ctx: &Context, part: Part, check_only: bool, man: Option<ManPage>) -> Result {
    let built = stages(ctx, part, check_only, man)?;
    reported(built, check_only)
}

/// What the stages of a build came to, reported once they are all done.
enum Built {
    /// The record proved this many generated files fresh: nothing was parsed.
    Fresh(usize),
    /// `--check`: the stale files and the leftovers among the `generated`,
    /// and the `notes` for standard error.
    Compared {
        stale: Vec<String>,
        leftovers: Vec<String>,
        generated: usize,
        notes: String,
    },
    /// What was written, the user's changelog left alone (if any) and the
    /// `notes` for standard error.
    Written {
        written: generate::Written,
        kept: Option<String>,
        notes: String,
    },
    /// The check found errors, so nothing was written.
    Refused {
        corpus: Box<Corpus>,
        diagnostics: Vec<Diagnostic>,
    },
}

/// The stages of `run_part`, once each, in order; Err is a run that could
/// not go on (exit 2).
fn stages(
    ctx: &Context,
    part: Part,
    check_only: bool,
    man: Option<ManPage>,
) -> std::result::Result<Built, Outcome> {
    let root = if check_only {
        ctx.root()?
    } else {
        ctx.writing_root()?
    };
    let inputs = load::read_inputs_with_man(root, ctx.load, man.map(|_| MAN_PAGE));
    let previous = on_disk::Previous::of(root, &inputs.previous, man.map(|_| MAN_MARK));
    // Only a whole build is recorded: `render` and `stats --write` leave
    // the files they do not generate, the record among them, alone. So
    // only a whole build opens the store, has a key and can be found fresh.
    let store = if part == Part::All { ctx.store() } else { None };
    let key = match store {
        Some(s) => generate::fingerprint_key(s, &inputs, part),
        None => None,
    };
    if let (Some(s), Some(k)) = (store, key) {
        if let Some((paths, _)) = generate::unchanged(s, root, k, &previous) {
            return Ok(Built::Fresh(paths.len()));
        }
    }
    // Parsing the templates and rendering the man page need none of the
    // data, and on a small corpus they cost as much as parsing and checking
    // it: they run on a second thread meanwhile. The figures are counted
    // beside the check, before its verdict: they are of the corpus as
    // parsed, and the stages after the gate only render them.
    let (checked, (tera, man)) = checked_beside(&inputs, None, || {
        let tera = generate::parse_read_templates(&inputs.templates, part);
        // The page costs a third of this thread; a root that will not
        // take it (no `docs/`, or a page of the user's there) is spared it.
        let man = man.map(|render| {
            if previous.takes_man_page() {
                render()
            } else {
                Ok(String::new())
            }
        });
        (tera, man)
    });
    let man = man.transpose().map_err(|e| Outcome::fail(2, e))?;
    let CheckedCorpus {
        mut corpus,
        examples,
        found: rep,
        st,
    } = checked?;
    if rep.errors() > 0 {
        return Ok(Built::Refused {
            corpus: Box::new(corpus),
            diagnostics: rep.diagnostics,
        });
    }
    let failed = |d: &Diagnostic| {
        let at = match (d.line, d.column) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            (Some(l), None) => format!(":{l}"),
            _ => String::new(),
        };
        Outcome::fail(2, format!("{}{at}: {}", d.file, d.message))
    };
    // Past the gate nothing quotes a data file: the texts go, from the
    // corpus and the inputs alike, before rendering needs the room.
    corpus.release_texts();
    let templates = inputs.into_templates();
    let templates = templates.as_ref().map_err(failed)?;
    if part != Part::Stats && !templates.iter().any(|(n, _)| n == Layout::README_TEMPLATE) {
        return Err(Outcome::fail(
            2,
            format!(
                "no {}/README.md.tera under {}",
                Layout::TEMPLATES_DIR,
                root.display()
            ),
        ));
    }
    let tera = tera.map_err(|d| failed(&d))?;
    // What the record needs of the corpus, before rendering lets it go.
    let counted = (corpus.entries.len(), corpus.exclusions.len());
    let mut files = generate::generate_given(
        generate::Given::AtExit(Box::new(corpus)),
        &st,
        templates,
        &tera,
        &examples,
        part,
    )
    .map_err(|d| failed(&d))?;
    // The user's own files stay theirs: a changelog `build` did not write
    // is left out, and a man page only joins when the one on disk is ours.
    let kept = previous.keep_users_changelog(&mut files);
    let mut notes = String::new();
    match man.map(|page| previous.man_page(page)) {
        Some(Ok(Some(page))) => files.push(page),
        Some(Err(refused)) => notes = refused,
        _ => {}
    }
    if check_only {
        let leftovers = previous.leftovers(&files);
        let stale = on_disk::stale(root, &files);
        return Ok(Built::Compared {
            stale: stale.iter().map(|f| f.path.clone()).collect(),
            leftovers,
            generated: files.len(),
            notes,
        });
    }
    // The figures too, so that `stats` can print them unparsed.
    let record = match (store, key) {
        (Some(store), Some(key)) => Some(generate::Record {
            store,
            key,
            checked: Checked {
                entries: counted.0,
                exclusions: counted.1,
                waived: rep.waived.len(),
                diagnostics: rep.diagnostics,
                stats_json: serde_json::to_string(&st).ok(),
            },
        }),
        _ => None,
    };
    let written =
        generate::write(root, &files, &previous, record).map_err(|e| Outcome::fail(2, e))?;
    Ok(Built::Written {
        written,
        kept,
        notes,
    })
}

/// The outcome of a build, from what its stages came to.
fn reported(built: Built, check_only: bool) -> Result {
    match built {
        Built::Fresh(n) => Ok(Outcome::ok(unchanged_message(n, check_only))),
        Built::Compared {
            stale,
            leftovers,
            generated,
            notes,
        } => Ok(Outcome {
            stderr: notes,
            ..compared(&stale, &leftovers, generated)
        }),
        Built::Written {
            written,
            kept,
            notes,
        } => Ok(Outcome {
            code: 0,
            stdout: written_message(&written, kept.as_deref()),
            stderr: notes,
        }),
        Built::Refused {
            corpus,
            diagnostics,
        } => Err(refused(&corpus, diagnostics)),
    }
}

/// What a build that wrote says: each file written or removed, the user's
/// changelog `kept` (if any), and the counts.
fn written_message(w: &generate::Written, kept: Option<&str>) -> String {
    let mut out = String::new();
    for p in &w.changed {
        out.push_str(&format!("wrote {p}\n"));
    }
    for p in &w.removed {
        out.push_str(&format!("removed {p}\n"));
    }
    if let Some(p) = kept {
        out.push_str(&format!(
            "left {p} alone: `corpus build` did not write it (move it away to have the changelog generated)\n"
        ));
    }
    out.push_str(&format!(
        "{} changed, {} unchanged, {} removed\n",
        w.changed.len(),
        w.unchanged,
        w.removed.len()
    ));
    out
}

/// The outcome of a build whose check found errors: they alone, rendered
/// against the data files, and that nothing was written.
fn refused(corpus: &Corpus, diagnostics: Vec<Diagnostic>) -> Outcome {
    let sources = sources(corpus);
    let errors: Vec<Diagnostic> = diagnostics.into_iter().filter(|d| d.fails(false)).collect();
    let summary = format!(
        "{} error(s): nothing was written; fix them and build again",
        errors.len()
    );
    Outcome {
        code: 1,
        stdout: String::new(),
        stderr: report::render(&errors, Format::Human, &sources, Some(&summary)),
    }
}

/// What a build with nothing to write says about its `n` files.
fn unchanged_message(n: usize, check_only: bool) -> String {
    if check_only {
        fresh_message(n)
    } else {
        format!("0 changed, {n} unchanged, 0 removed\n")
    }
}

/// What `--check` says when every generated file is fresh.
fn fresh_message(n: usize) -> String {
    format!("all {n} generated files are fresh\n")
}

/// `--check`: names the `stale` and `leftovers` files among the `n` a
/// build generates, writing nothing.
fn compared(stale: &[String], leftovers: &[String], n: usize) -> Outcome {
    if stale.is_empty() && leftovers.is_empty() {
        return Outcome::ok(fresh_message(n));
    }
    let mut msg = String::new();
    for p in stale {
        msg.push_str(&format!("stale: {p}\n"));
    }
    for p in leftovers {
        msg.push_str(&format!("no longer generated: {p}\n"));
    }
    msg.push_str("run `corpus build` and commit the result\n");
    Outcome::with_code(1, msg)
}
