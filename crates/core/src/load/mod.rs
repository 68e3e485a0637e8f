//! Reading the corpus from disk: files to typed entries, with every problem
//! collected as a diagnostic instead of stopping at the first.
//!
//! YAML is parsed into `serde_yaml::Value` (whose mappings refuse duplicate
//! keys) and converted field by field, so that one file can report several
//! unknown, missing or mistyped fields at once. Lines come from our own scan
//! of the text because the parser's positions are not kept on values.

pub mod examples;
pub mod leftovers;
pub mod templates;

mod convert;
mod data_file;
mod digest;
mod inputs;
mod listing;
mod optional;
mod read;

pub use crate::model::corpus::{Corpus, LoadedEntry, LoadedExclusion};
pub use crate::yaml::source::{SourceFile, Spans};
pub use inputs::{Inputs, Outputs, Unread, CHANGELOG_MARK};
pub use listing::is_data_file;
pub use listing::Folder;
pub use read::{read_text, MAX_FLOW_DEPTH};

use crate::layout::Layout;
use crate::model::format::FileKind;
use crate::model::taxonomy::Taxonomy;
use crate::parallel::in_blocks;
use convert::{convert_entry, convert_exclusion};
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_io::reader;
use data_file::{parse_file, parse_read, Convert, Taken};
use listing::listing_problems;
use optional::{parse_releases, parse_status, Optional};
use read::accepted;
use std::path::Path;

/// Largest data file read by default (bytes); larger ones are refused.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Largest generated file read back (for comparison, or as what a previous
/// build left).
pub const MAX_GENERATED_BYTES: u64 = 512 * 1024 * 1024;

/// Why a corpus could not be loaded at all.
#[derive(Debug)]
pub enum LoadError {
    /// The root or the taxonomy file cannot be read (exit 2).
    Io(String),
    /// The taxonomy is broken; checks cannot run against it (exit 1).
    Taxonomy(Vec<Diagnostic>),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(m) => f.write_str(m),
            LoadError::Taxonomy(d) => write!(f, "the taxonomy has {} problem(s)", d.len()),
        }
    }
}

/// Options for loading.
#[derive(Debug, Clone, Copy)]
pub struct LoadOptions {
    /// Files larger than this are refused with a diagnostic.
    pub max_file_bytes: u64,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
        }
    }
}

fn diag(rule: Rule, tax: Option<&Taxonomy>, file: &str, msg: impl Into<String>) -> Diagnostic {
    let severity = tax.map_or(rule.default_severity(), |t| t.severity_of(rule));
    Diagnostic::new(rule, severity, file, msg)
}

/// The files of the data folders whose names are not valid UTF-8, by
/// root-relative path as shown (what `check` reports as `file-name-encoding`).
pub fn names_not_utf8(root: &Path) -> Vec<String> {
    [Layout::PAPERS_DIR, Layout::EXCLUSIONS_DIR]
        .iter()
        .flat_map(|dir| {
            let listed = corpus_io::reader::list_dir(&root.join(dir))
                .ok()
                .flatten()
                .unwrap_or_default();
            listed
                .into_iter()
                .filter(|l| !inputs::utf8_name(&l.path))
                .map(move |l| format!("{dir}/{}", l.name))
        })
        .collect()
}

/// Loads taxonomy, entries and exclusions below `root`.
pub fn load(root: &Path, opts: LoadOptions) -> Result<Corpus, LoadError> {
    parse(&read_inputs(root, opts))
}

/// Reads every input below `root`; nothing that fails stops the others.
pub fn read_inputs(root: &Path, opts: LoadOptions) -> Inputs {
    read_inputs_with_man(root, opts, None)
}

/// Reads every input below `root`, and with what a previous build left
/// there the man page at `man_page` (a root-relative path), when asked
/// and the root has the page's folder.
pub fn read_inputs_with_man(root: &Path, opts: LoadOptions, man_page: Option<&str>) -> Inputs {
    let max = opts.max_file_bytes;
    // The reads do not depend on each other, so their order is free: whole
    // folders (traces, templates, data) first, then the single files.
    let traces = examples::read_traces(root);
    let templates = templates::read(root);
    let folders =
        [Layout::PAPERS_DIR, Layout::EXCLUSIONS_DIR].map(|dir| Folder::read(root, dir, max));
    let tax_path = root.join(Layout::TAXONOMY);
    let taxonomy = reader::read_text(&tax_path, max).map_err(|error| Unread {
        error,
        is_file: tax_path.is_file(),
    });
    // What a previous build left, through the reader like every input: a
    // FIFO or device planted here must not hang `check`.
    let changelog = root.join(Layout::CHANGELOG);
    let previous = Outputs {
        changelog_present: std::fs::symlink_metadata(&changelog).is_ok(),
        changelog: reader::read_text(&changelog, MAX_GENERATED_BYTES)
            .map(|text| text.contains(CHANGELOG_MARK)),
        manifest: reader::read_text(&root.join(Layout::MANIFEST), MAX_GENERATED_BYTES),
        // The page goes only into a folder the root already has.
        man_page: man_page
            .filter(|path| {
                Path::new(path)
                    .parent()
                    .is_some_and(|dir| root.join(dir).is_dir())
            })
            .map(|path| {
                let text = reader::read_text(&root.join(path), MAX_GENERATED_BYTES);
                (path.to_string(), text)
            }),
    };
    let optional = |rel: &str| {
        let path = root.join(rel);
        path.exists().then(|| reader::read_text(&path, max))
    };
    Inputs {
        root: root.to_path_buf(),
        opts,
        taxonomy,
        folders,
        claims: optional(Layout::CLAIMS),
        survey: optional(Layout::SURVEY),
        locators: optional(Layout::LOCATORS).map(|read| read.map(std::sync::Arc::from)),
        search: optional(Layout::SEARCH),
        status: optional(Layout::STATUS),
        releases: optional(Layout::RELEASES),
        traces,
        templates,
        previous,
    }
}

/// Builds the corpus from the inputs read: the taxonomy (refused whole when
/// broken), then the entries and records, the claims ledger and the survey.
pub fn parse(inputs: &Inputs) -> Result<Corpus, LoadError> {
    parse_with(inputs, |_| ()).map(|(corpus, ())| corpus)
}

/// [`parse`], and `beside` run on the taxonomy while the data folders are
/// parsed (on the thread of the ledger and survey files): work that needs
/// only the taxonomy, such as replaying the example traces, costs no time
/// of its own there.
pub fn parse_with<R: Send>(
    inputs: &Inputs,
    beside: impl FnOnce(&Taxonomy) -> R + Send,
) -> Result<(Corpus, R), LoadError> {
    let read = inputs.taxonomy.as_deref().map_err(|u| &u.error);
    let tax_text = accepted(read, Layout::TAXONOMY, None).map_err(|d| match &inputs.taxonomy {
        Err(Unread { is_file: false, .. }) => LoadError::Io(d.message),
        _ => LoadError::Taxonomy(vec![d]),
    })?;
    let taxonomy = Taxonomy::from_yaml(tax_text).map_err(|e| {
        let x = crate::yaml::error::explain(&e, tax_text);
        let d = x.place(diag(
            Rule::YamlSyntax,
            None,
            Layout::TAXONOMY,
            format!("the taxonomy cannot be read: {}", x.message),
        ));
        LoadError::Taxonomy(vec![d])
    })?;
    let problems = taxonomy.problems();
    if !problems.is_empty() {
        return Err(LoadError::Taxonomy(
            problems
                .into_iter()
                .map(|p| {
                    diag(
                        Rule::FieldType,
                        None,
                        Layout::TAXONOMY,
                        format!("taxonomy: {p}"),
                    )
                })
                .collect(),
        ));
    }
    let mut corpus = Corpus::new(taxonomy);
    corpus
        .diagnostics
        .extend(rule_filter_problems(&corpus.taxonomy, tax_text));
    let [papers, records] = &inputs.folders;
    // The ledger, survey, locators and search files are as much work as the
    // data folders on a small corpus, and need only the taxonomy: a second
    // thread reads them meanwhile, and they join the corpus in the same order.
    let tax = &corpus.taxonomy;
    let (optional, folders) = crate::parallel::beside(
        || (Optional::parse(inputs, tax), beside(tax)),
        || {
            (
                parse_folder(
                    papers,
                    tax,
                    (FileKind::Entry, convert_entry),
                    |entry, file| LoadedEntry { entry, file },
                ),
                parse_folder(
                    records,
                    tax,
                    (FileKind::Record, convert_exclusion),
                    |record, file| LoadedExclusion { record, file },
                ),
            )
        },
    );
    let (optional, besides) = optional;
    let (papers, records) = folders;
    corpus.add_entries(papers);
    corpus.add_exclusions(records);
    optional.into_corpus(&mut corpus);
    parse_status(inputs.status.as_ref(), &mut corpus);
    parse_releases(inputs.releases.as_ref(), &mut corpus);
    Ok((corpus, besides))
}

/// What a data folder yields, its listing's problems reported first; the
/// files are parsed on every core, as each is independent of the others.
///
/// They are parsed a block at a time, each block taken in before the next
/// is parsed: the results of a whole large folder (an entry and its file
/// each) would be held beside the lists that keep them, the size of the
/// parsed corpus twice over.
fn parse_folder<T: Send, L>(
    folder: &Folder,
    tax: &Taxonomy,
    convert: (FileKind, Convert<T>),
    keep: impl Fn(T, usize) -> L,
) -> Taken<L> {
    let mut taken = Taken::with_room(folder.files.len(), listing_problems(folder, tax));
    in_blocks(&folder.files, |(rel, read)| {
        parse_read(rel, read.as_ref(), tax, convert)
    })
    .for_each(|one| taken.take(one, &keep));
    taken
}

/// Rule filters (`when`/`require`) naming values outside the vocabulary: such
/// a rule would never fire, or always, without anyone noticing.
fn rule_filter_problems(tax: &Taxonomy, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for r in &tax.rules {
        for (part, f) in [("when", &r.when), ("require", &r.require)] {
            let Some(f) = f else { continue };
            for p in tax.filter_problems(f) {
                out.push(
                    diag(
                        Rule::UnknownValue,
                        None,
                        Layout::TAXONOMY,
                        format!("rule `{}` {part}: {p}", r.id),
                    )
                    .at_line(crate::model::claims::claim_line(text, &r.id))
                    .field(format!("rules.{}.{part}", r.id)),
                );
            }
        }
    }
    out
}

/// Builds a corpus from file texts in memory, as `load` would from disk:
/// `(relative path, text)` pairs for entries and exclusion records.
pub fn corpus_from_texts(
    taxonomy: Taxonomy,
    entries: Vec<(String, String)>,
    exclusions: Vec<(String, String)>,
) -> Corpus {
    let mut corpus = Corpus::new(taxonomy);
    let tax = &corpus.taxonomy;
    let mut papers = Taken::with_room(entries.len(), Vec::new());
    for (rel, text) in entries {
        let one = parse_file(rel, text.into(), tax, (FileKind::Entry, convert_entry));
        papers.take(one, |entry, file| LoadedEntry { entry, file });
    }
    let mut records = Taken::with_room(exclusions.len(), Vec::new());
    for (rel, text) in exclusions {
        let one = parse_file(rel, text.into(), tax, (FileKind::Record, convert_exclusion));
        records.take(one, |record, file| LoadedExclusion { record, file });
    }
    corpus.add_entries(papers);
    corpus.add_exclusions(records);
    corpus
}

/// Root-relative path with `/` separators.
pub fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
