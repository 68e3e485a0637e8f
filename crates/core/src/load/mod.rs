//! Reading the corpus from disk: files to typed entries, with every problem
//! collected as a diagnostic instead of stopping at the first.
//!
//! YAML is parsed into `serde_yaml::Value` (whose mappings refuse duplicate
//! keys) and converted field by field, so that one file can report several
//! unknown, missing or mistyped fields at once. Lines come from our own scan
//! of the text because the parser's positions are not kept on values.

pub mod examples;

pub use crate::model::corpus::{Corpus, LoadedEntry, LoadedExclusion};
use crate::model::fields;
use crate::model::taxonomy::Taxonomy;
use crate::model::{Entry, Exclusion};
use crate::text::closest::closest;
use crate::yaml::format::Kind;
pub use crate::yaml::source::{SourceFile, Spans};
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_io::digest::Digest;
use corpus_io::reader::{self, ReadError};
use serde_yaml::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Largest data file read by default (bytes); larger ones are refused.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

pub use crate::model::claims::CLAIMS_PATH;

/// Where the taxonomy lives, relative to the root.
pub const TAXONOMY_PATH: &str = "corpus/taxonomy.yaml";
/// Folder of entry files, relative to the root.
pub const PAPERS_DIR: &str = "corpus/papers";
/// Folder of exclusion records, relative to the root.
pub const EXCLUSIONS_DIR: &str = "exclusions";

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
    Diagnostic::new(rule.id(), severity, file, msg)
}

/// Deepest `[`/`{` nesting accepted; serde_yaml refuses deeper documents
/// anyway, but its scanner takes quadratic time getting there.
pub const MAX_FLOW_DEPTH: usize = 128;

/// The line where flow nesting first exceeds [`MAX_FLOW_DEPTH`], if it does.
///
/// Quotes and comments are skipped roughly; the aim is to bound the parser's
/// work, not to judge the YAML.
fn too_deep(text: &str) -> Option<usize> {
    let (mut depth, mut line) = (0usize, 1usize);
    let mut quote: Option<u8> = None;
    let mut comment = false;
    for b in text.bytes() {
        if b == b'\n' {
            // Quotes are closed at line ends: an apostrophe in plain text must
            // not hide the brackets of the following lines.
            line += 1;
            comment = false;
            quote = None;
            continue;
        }
        if comment {
            continue;
        }
        match (quote, b) {
            (Some(q), b) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'#') => comment = true,
            (None, b'[' | b'{') => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Some(line);
                }
            }
            (None, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Reads a file as text, refusing what is too large, unreadable, not UTF-8 or empty.
pub fn read_text(
    path: &Path,
    rel: &str,
    max: u64,
    tax: Option<&Taxonomy>,
) -> Result<String, Diagnostic> {
    let unreadable = |m: String| diag(Rule::FileUnreadable, tax, rel, m);
    let text = reader::read_text(path, max).map_err(|e| match e {
        ReadError::NotRegular(_) => unreadable(format!("`{rel}` is not a regular file")),
        ReadError::TooLarge { size, max } => {
            let size =
                size.map_or_else(|| "larger than that".to_string(), |n| format!("{n} bytes"));
            unreadable(format!(
                "`{rel}` is {size}, over the {max}-byte limit for a data file"
            ))
            .help("split the file, or raise the limit with --max-file-size if it is genuine")
        }
        ReadError::NotUtf8 { line } => {
            unreadable(format!("`{rel}` is not valid UTF-8 (line {line})"))
                .at_line(Some(line))
                .help("save the file as UTF-8")
        }
        e @ (ReadError::Missing | ReadError::Io(_)) => {
            unreadable(format!("cannot read `{rel}`: {e}"))
        }
    })?;
    if text.trim().is_empty() {
        return Err(unreadable(format!("`{rel}` is empty"))
            .at_line(Some(1))
            .help("remove the file or fill it in"));
    }
    if let Some(line) = too_deep(&text) {
        return Err(diag(
            Rule::YamlSyntax,
            tax,
            rel,
            format!("`{rel}` nests brackets more than {MAX_FLOW_DEPTH} levels deep"),
        )
        .at_line(Some(line))
        .help("data files are flat mappings; remove the nesting"));
    }
    Ok(text)
}

/// Loads taxonomy, entries and exclusions below `root`.
pub fn load(root: &Path, opts: LoadOptions) -> Result<Corpus, LoadError> {
    let tax_path = root.join(TAXONOMY_PATH);
    let tax_text = read_text(&tax_path, TAXONOMY_PATH, opts.max_file_bytes, None).map_err(|d| {
        if tax_path.is_file() {
            LoadError::Taxonomy(vec![d])
        } else {
            LoadError::Io(d.message)
        }
    })?;
    let taxonomy = Taxonomy::from_yaml(&tax_text).map_err(|e| {
        let x = crate::yaml::error::explain(&e, &tax_text);
        let d = x.place(diag(
            Rule::YamlSyntax,
            None,
            TAXONOMY_PATH,
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
                        TAXONOMY_PATH,
                        format!("taxonomy: {p}"),
                    )
                })
                .collect(),
        ));
    }
    let mut corpus = Corpus::new(taxonomy);
    corpus
        .diagnostics
        .extend(rule_filter_problems(&corpus.taxonomy, &tax_text));
    let mut digest = digest_start(opts, &tax_text);
    let papers = list_dir(root, PAPERS_DIR, &mut corpus, &mut digest);
    let loaded = in_parallel(&papers, |(p, rel)| {
        load_one(p, rel, opts, &corpus.taxonomy, (Kind::Entry, convert_entry))
    });
    add_digests(&mut digest, &loaded);
    corpus.add_entries(loaded);
    let records = list_dir(root, EXCLUSIONS_DIR, &mut corpus, &mut digest);
    let loaded = in_parallel(&records, |(p, rel)| {
        load_one(
            p,
            rel,
            opts,
            &corpus.taxonomy,
            (Kind::Record, convert_exclusion),
        )
    });
    add_digests(&mut digest, &loaded);
    corpus.add_exclusions(loaded);
    load_claims(root, opts.max_file_bytes, &mut corpus, &mut digest);
    load_survey(root, opts.max_file_bytes, &mut corpus, &mut digest);
    corpus.source_digest = Some(digest.value());
    Ok(corpus)
}

/// The start of the source digest: the options and the taxonomy.
fn digest_start(opts: LoadOptions, tax_text: &str) -> Digest {
    let mut digest = Digest::new();
    digest
        .add(&opts.max_file_bytes.to_le_bytes())
        .add(TAXONOMY_PATH.as_bytes())
        .add(tax_text.as_bytes());
    digest
}

/// The digest of one data file's path and text.
fn file_digest(rel: &str, text: &str) -> u128 {
    Digest::new()
        .add(rel.as_bytes())
        .add(text.as_bytes())
        .value()
}

/// The digest `load` would give as `Corpus::source_digest`, taken from the
/// files' bytes alone, without parsing or checking them: the build
/// fingerprint's key before anything is parsed. None when a file or folder
/// cannot be read (then the full path says what is wrong). It reads what
/// `load` reads, in the same order, and adds the same parts, so the two
/// agree on every tree `load` reads without a read problem (a unit test
/// and tests/fingerprint.rs hold them to it).
pub fn source_digest(root: &Path, opts: LoadOptions) -> Option<u128> {
    let max = opts.max_file_bytes;
    let tax_text = reader::read_text(&root.join(TAXONOMY_PATH), max).ok()?;
    let mut digest = digest_start(opts, &tax_text);
    for dir in [PAPERS_DIR, EXCLUSIONS_DIR] {
        let names = reader::list_dir(&root.join(dir)).ok()?.unwrap_or_default();
        add_names(&mut digest, dir, &names);
        let data: Vec<_> = names
            .into_iter()
            .filter(|(name, _)| is_data_file(name))
            .collect();
        let texts = in_parallel(&data, |(name, path)| {
            let rel = format!("{dir}/{name}");
            reader::read_text(path, max)
                .ok()
                .map(|t| file_digest(&rel, &t))
        });
        for d in texts {
            digest.add(&d?.to_le_bytes());
        }
    }
    for rel in [CLAIMS_PATH, crate::model::survey::SURVEY_PATH] {
        digest.add(rel.as_bytes());
        let path = root.join(rel);
        if path.exists() {
            digest.add(reader::read_text(&path, max).ok()?.as_bytes());
        }
    }
    Some(digest.value())
}

/// The texts of the data files among `rels` (root-relative paths), as
/// `load` would hold them in `Corpus::files`: what a renderer quotes from
/// when the diagnostics come from the build fingerprint rather than a load.
/// None when one cannot be read (then the full path says why).
pub fn data_texts<'a>(
    root: &Path,
    opts: LoadOptions,
    rels: impl IntoIterator<Item = &'a str>,
) -> Option<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for rel in rels {
        let is_data = [PAPERS_DIR, EXCLUSIONS_DIR].iter().any(|dir| {
            rel.strip_prefix(dir)
                .and_then(|r| r.strip_prefix('/'))
                .is_some_and(|name| !name.contains('/') && is_data_file(name))
        });
        if is_data && !out.contains_key(rel) {
            let text = reader::read_text(&root.join(rel), opts.max_file_bytes).ok()?;
            out.insert(rel.to_string(), text);
        }
    }
    Some(out)
}

/// Adds a folder's listing (every name, read or not: a stray file is
/// reported) to the source digest.
fn add_names(digest: &mut Digest, dir: &str, names: &[(String, PathBuf)]) {
    digest.add(dir.as_bytes());
    for (name, _) in names {
        digest.add(name.as_bytes());
    }
    digest.add(b"\0end of listing");
}

/// Whether a name in a data folder is a data file `load` reads.
pub fn is_data_file(name: &str) -> bool {
    !HOUSEKEEPING_FILES.contains(&name) && !name.starts_with('.') && name.ends_with(".yaml")
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
                        TAXONOMY_PATH,
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

/// Reads the survey facts (`corpus/survey.yaml`), when the root has them.
fn load_survey(root: &Path, max: u64, corpus: &mut Corpus, digest: &mut Digest) {
    let path = root.join(crate::model::survey::SURVEY_PATH);
    digest.add(crate::model::survey::SURVEY_PATH.as_bytes());
    if !path.exists() {
        return;
    }
    let parsed = read_text(&path, crate::model::survey::SURVEY_PATH, max, None)
        .inspect(|text| {
            digest.add(text.as_bytes());
        })
        .map_err(|d| vec![d])
        .and_then(|text| crate::model::survey::parse(&text).map(|s| (s, text)));
    match parsed {
        Ok(s) => corpus.survey = Some(s),
        Err(d) => corpus.diagnostics.extend(d),
    }
}

/// Reads and validates the claims ledger, when the root has one; a ledger
/// with problems is reported and left out, so no claim is judged on it.
fn load_claims(root: &Path, max: u64, corpus: &mut Corpus, digest: &mut Digest) {
    let path = root.join(CLAIMS_PATH);
    digest.add(CLAIMS_PATH.as_bytes());
    if !path.exists() {
        return;
    }
    let parsed = read_text(&path, CLAIMS_PATH, max, None)
        .inspect(|text| {
            digest.add(text.as_bytes());
        })
        .map_err(|d| vec![d])
        .and_then(|text| crate::model::claims::parse(&text).map(|ledger| (ledger, text)));
    match parsed {
        Ok((ledger, text)) => {
            let problems = crate::model::claims::validate(&ledger, &text, Some(&corpus.taxonomy));
            if problems.is_empty() {
                corpus.claims = Some((ledger, text));
            }
            corpus.diagnostics.extend(problems);
        }
        Err(d) => corpus.diagnostics.extend(d),
    }
}

/// Files that keep a folder in git or that the desktop drops everywhere;
/// they are no data, so they are skipped without a word.
const HOUSEKEEPING_FILES: [&str; 5] = [
    ".gitkeep",
    ".keep",
    ".gitignore",
    ".gitattributes",
    ".DS_Store",
];

/// The `.yaml` files directly in a folder, sorted; anything else is reported.
fn list_dir(
    root: &Path,
    dir: &str,
    corpus: &mut Corpus,
    digest: &mut Digest,
) -> Vec<(PathBuf, String)> {
    let full = root.join(dir);
    let mut out = Vec::new();
    let names = match reader::list_dir(&full) {
        Ok(Some(names)) => names,
        Ok(None) => {
            add_names(digest, dir, &[]);
            return out;
        }
        Err(e) => {
            let d = diag(
                Rule::FileUnreadable,
                Some(&corpus.taxonomy),
                dir,
                format!("cannot list `{dir}`: {e}"),
            );
            corpus.diagnostics.push(d);
            digest.add(b"\0unreadable folder");
            return out;
        }
    };
    add_names(digest, dir, &names);
    for (name, path) in names {
        let rel = format!("{dir}/{name}");
        if HOUSEKEEPING_FILES.contains(&name.as_str()) {
            continue;
        }
        if name.starts_with('.') {
            // Other hidden files (a hidden `.x.yaml`, an editor's backup) are
            // not read, and the user is told so rather than left to wonder
            // why an entry does not count.
            let d = diag(
                Rule::StrayFile,
                Some(&corpus.taxonomy),
                &rel,
                format!("`{rel}` is a hidden file and is ignored"),
            )
            .help("remove it, or rename it without the leading dot if it is an entry");
            corpus.diagnostics.push(d);
            continue;
        }
        if is_data_file(&name) {
            out.push((path, rel));
        } else {
            let help = if name.ends_with(".yml") {
                format!("rename it to `{}.yaml`", name.trim_end_matches(".yml"))
            } else {
                "move it out of this folder".to_string()
            };
            let d = diag(
                Rule::StrayFile,
                Some(&corpus.taxonomy),
                &rel,
                format!("`{rel}` is not a .yaml file and is ignored"),
            )
            .help(help);
            corpus.diagnostics.push(d);
        }
    }
    out
}

/// What one data file yields: its text (when readable), the converted item
/// (when it held a mapping) and the problems found on the way.
struct FileLoad<T> {
    file: Option<SourceFile>,
    item: Option<T>,
    diagnostics: Vec<Diagnostic>,
    /// Digest of the path and text, when the file was read from disk
    /// (taken on the loading thread, where the text is in cache).
    digest: Option<u128>,
}

/// Adds the digests of loaded files, in order, to the corpus's source digest.
fn add_digests<T>(digest: &mut Digest, loaded: &[FileLoad<T>]) {
    for l in loaded {
        match l.digest {
            Some(d) => digest.add(&d.to_le_bytes()),
            None => digest.add(b"\0unreadable"),
        };
    }
}

impl Corpus {
    /// Takes in loaded entry files, in order.
    fn add_entries(&mut self, loaded: Vec<FileLoad<Entry>>) {
        let items = self.absorb_all(loaded);
        self.entries.extend(
            items
                .into_iter()
                .map(|(entry, file)| LoadedEntry { entry, file }),
        );
    }

    /// Takes in loaded exclusion files, in order.
    fn add_exclusions(&mut self, loaded: Vec<FileLoad<Exclusion>>) {
        let items = self.absorb_all(loaded);
        self.exclusions.extend(
            items
                .into_iter()
                .map(|(record, file)| LoadedExclusion { record, file }),
        );
    }

    /// Takes in loaded files in order; returns each item with its file index.
    fn absorb_all<T>(&mut self, loaded: Vec<FileLoad<T>>) -> Vec<(T, usize)> {
        loaded
            .into_iter()
            .filter_map(|one| {
                let item = self.absorb(one)?;
                Some((item, self.files.len() - 1))
            })
            .collect()
    }

    /// Takes in one file's result; returns the item when there is one (its file is then the last).
    fn absorb<T>(&mut self, one: FileLoad<T>) -> Option<T> {
        self.diagnostics.extend(one.diagnostics);
        let file = one.file?;
        self.files.push(file);
        one.item
    }
}

/// Runs `f` over the items on every core, keeping the input order.
///
/// Reading and parsing one file is independent of every other, and on large
/// corpora it is most of the time a check takes.
fn in_parallel<I: Sync, T: Send>(items: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    if threads < 2 || items.len() < 64 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                let f = &f;
                s.spawn(move || part.iter().map(f).collect::<Vec<T>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Converts a parsed mapping into an item, pushing field problems.
type Convert<T> = fn(&serde_yaml::Mapping, &SourceFile, &Taxonomy, &mut Vec<Diagnostic>) -> T;

/// Reads, parses and converts one data file.
fn load_one<T>(
    path: &Path,
    rel: &str,
    opts: LoadOptions,
    tax: &Taxonomy,
    convert: (Kind, Convert<T>),
) -> FileLoad<T> {
    match read_text(path, rel, opts.max_file_bytes, Some(tax)) {
        Ok(text) => FileLoad {
            digest: Some(file_digest(rel, &text)),
            ..parse_file(rel.to_string(), text, tax, convert)
        },
        Err(d) => FileLoad {
            file: None,
            item: None,
            diagnostics: vec![d],
            digest: None,
        },
    }
}

/// Parses and converts the text of one data file.
fn parse_file<T>(
    rel: String,
    text: String,
    tax: &Taxonomy,
    (kind, convert): (Kind, Convert<T>),
) -> FileLoad<T> {
    let mut diagnostics = Vec::new();
    let body = without_final_marker(&text);
    let whole = body.len() == text.len();
    let parsed: Result<Value, _> = serde_yaml::from_str(body);
    let value = match parsed {
        Ok(v @ Value::Mapping(_)) => Some(v),
        Ok(Value::Null) => {
            diagnostics.push(
                diag(
                    Rule::FileUnreadable,
                    Some(tax),
                    &rel,
                    format!("`{rel}` holds only comments"),
                )
                .help("fill in the fields, or remove the file"),
            );
            None
        }
        Ok(other) => {
            let x = crate::yaml::error::not_a_mapping(&text, other.is_sequence());
            diagnostics.push(explained(x, &rel, tax));
            None
        }
        Err(e) => {
            diagnostics.push(yaml_error(&e, &rel, &text, tax));
            None
        }
    };
    let mut file = SourceFile::new(rel, text);
    let map = match &value {
        Some(Value::Mapping(m)) => Some(m),
        _ => None,
    };
    // While the file is parsed, what its layout would be (the `not-formatted`
    // rule's question), so the check need not parse it again; a text the
    // check parses differently (a final `---`, a byte-order mark) is left
    // to the check.
    if let Some(v) = value
        .as_ref()
        .filter(|_| whole && !file.text.starts_with('\u{feff}'))
    {
        file.layout = Some(crate::yaml::format::layout_of(&file.text, v, kind));
    }
    let item = map.map(|m| convert(m, &file, tax, &mut diagnostics));
    FileLoad {
        file: Some(file),
        item,
        diagnostics,
        digest: None,
    }
}

/// The text without a lone `---` on its last line: an editor's or a
/// concatenating script's end marker holds no second document, so it is
/// accepted rather than refused as "more than one document".
fn without_final_marker(text: &str) -> &str {
    let body = text.trim_end();
    match body.strip_suffix("---") {
        Some(rest) if rest.is_empty() || rest.ends_with('\n') => rest,
        _ => text,
    }
}

/// Builds a corpus from file texts in memory, as `load` would from disk:
/// `(relative path, text)` pairs for entries and exclusion records.
pub fn corpus_from_texts(
    taxonomy: Taxonomy,
    entries: Vec<(String, String)>,
    exclusions: Vec<(String, String)>,
) -> Corpus {
    let mut corpus = Corpus::new(taxonomy);
    let loaded: Vec<_> = entries
        .into_iter()
        .map(|(rel, text)| parse_file(rel, text, &corpus.taxonomy, (Kind::Entry, convert_entry)))
        .collect();
    corpus.add_entries(loaded);
    let loaded: Vec<_> = exclusions
        .into_iter()
        .map(|(rel, text)| {
            parse_file(
                rel,
                text,
                &corpus.taxonomy,
                (Kind::Record, convert_exclusion),
            )
        })
        .collect();
    corpus.add_exclusions(loaded);
    corpus
}

/// Turns a parser error into a diagnostic: the wording is `yaml_error`'s,
/// the rule and severity this corpus's.
fn yaml_error(e: &serde_yaml::Error, rel: &str, text: &str, tax: &Taxonomy) -> Diagnostic {
    explained(crate::yaml::error::explain(e, text), rel, tax)
}

fn explained(x: crate::yaml::error::Explained, rel: &str, tax: &Taxonomy) -> Diagnostic {
    let rule = match &x.kind {
        crate::yaml::error::Kind::DuplicateKey(_) => Rule::DuplicateField,
        crate::yaml::error::Kind::Type => Rule::FieldType,
        crate::yaml::error::Kind::Syntax => Rule::YamlSyntax,
    };
    let mut d = diag(rule, Some(tax), rel, x.message).help(x.help);
    d = match (x.line, x.column) {
        (Some(l), Some(c)) => d.at(l, c),
        (line, _) => d.at_line(line),
    };
    if let Some(f) = x.field {
        d = d.field(f);
    }
    d
}

/// Root-relative path with `/` separators.
pub fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Converts mapping values field by field, reporting each problem.
struct Converter<'a> {
    map: &'a serde_yaml::Mapping,
    /// The field table of what is converted (entry or record).
    table: &'static [fields::Field],
    file: &'a SourceFile,
    tax: &'a Taxonomy,
    out: Vec<Diagnostic>,
}

impl<'a> Converter<'a> {
    fn diag(&self, rule: Rule, field: &str, msg: impl Into<String>) -> Diagnostic {
        let mut d = diag(rule, Some(self.tax), &self.file.rel, msg).field(field);
        if let Some((l, c)) = self.file.spans().pos(field) {
            d = d.at(l, c);
        }
        d
    }

    fn get(&self, field: &str) -> Option<&'a Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    /// What a contributor should write in a field, from this file's table.
    fn help(&self, field: &str) -> &'static str {
        self.table
            .iter()
            .find(|f| f.name == field)
            .map_or_else(|| fields::describe(field), |f| f.help)
    }

    /// How to write a field that must hold one value.
    fn one_value_help(&self, field: &str) -> String {
        match self.tax.allowed(field) {
            Some(vals) => format!(
                "write one value on the line, `{field}: VALUE`, one of {}",
                vals.join(", ")
            ),
            None => format!(
                "write one value on the line, `{field}: VALUE`: {}",
                self.help(field)
            ),
        }
    }

    /// Whether a field must hold something, so a blank value is reported.
    fn required(&self, field: &str) -> bool {
        self.table.iter().any(|f| f.name == field && f.required)
    }

    /// Reports unknown fields, and required ones that are missing or empty.
    fn check_fields(&mut self) {
        let known = fields::names(self.table);
        let required = fields::required(self.table);
        for k in self.map.keys() {
            let name = match k {
                Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            };
            if !known.contains(&name.as_str()) {
                let help = closest(&name, known.iter().copied())
                    .map(|c| format!("did you mean `{c}`?"))
                    .unwrap_or_else(|| format!("allowed fields: {}", known.join(", ")));
                let d = self
                    .diag(Rule::UnknownField, &name, format!("unknown field `{name}`"))
                    .help(help);
                self.out.push(d);
            }
        }
        for f in &required {
            if self.get(f).is_none() {
                let present = self.map.contains_key(*f);
                let msg = if present {
                    format!("required field `{f}` is still empty")
                } else {
                    format!("required field `{f}` is missing")
                };
                let mut d = self.diag(Rule::MissingField, f, msg);
                let mut place = String::new();
                if d.line.is_none() {
                    // Point where the field belongs: after the nearest earlier field that is present.
                    let idx = known.iter().position(|k| k == f).unwrap_or(0);
                    let before = known[..idx]
                        .iter()
                        .rev()
                        .find_map(|k| self.file.spans().line(k));
                    d = d.at_line(Some(before.unwrap_or(1)));
                    if let Some(l) = before {
                        place = format!(" after line {l}");
                    }
                }
                let verb = if present { "fill in" } else { "add" };
                let help = match self.tax.allowed(f) {
                    Some(vals) => format!("{verb} `{f}`{place}: one of {}", vals.join(", ")),
                    None => format!("{verb} `{f}`{place}: {}", self.help(f)),
                };
                self.out.push(d.help(help));
            }
        }
    }

    fn text(&mut self, field: &str) -> Option<String> {
        match self.get(field)? {
            Value::String(s) if s.trim().is_empty() && self.required(field) => {
                let d = self
                    .diag(Rule::EmptyField, field, format!("`{field}` is blank"))
                    .help(format!("fill in `{field}`: {}", self.help(field)));
                self.out.push(d);
                Some(String::new())
            }
            Value::String(s) => Some(s.clone()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => {
                let d = self
                    .diag(
                        Rule::FieldType,
                        field,
                        format!("`{field}` must be a single value, not a list or mapping"),
                    )
                    .help(self.one_value_help(field));
                self.out.push(d);
                None
            }
        }
    }

    fn int(&mut self, field: &str) -> Option<i64> {
        match self.get(field)? {
            Value::Number(n) if n.as_i64().is_some() => n.as_i64(),
            other => {
                // Name what was found: "found a number" for `2026.5` reads as nonsense.
                let (found, help) = match other {
                    Value::Number(n) => (
                        format!("the number {n}"),
                        format!("write a whole number, e.g. `{field}: 2025`"),
                    ),
                    Value::String(t) => (
                        format!("the text `{t}`"),
                        format!("write it unquoted, e.g. `{field}: 2025`"),
                    ),
                    v => (
                        describe(v).to_string(),
                        format!("write a whole number, e.g. `{field}: 2025`"),
                    ),
                };
                let d = self
                    .diag(
                        Rule::FieldType,
                        field,
                        format!("`{field}` must be a whole number, found {found}"),
                    )
                    .help(help);
                self.out.push(d);
                None
            }
        }
    }

    fn boolean(&mut self, field: &str) -> Option<bool> {
        match self.get(field)? {
            Value::Bool(b) => Some(*b),
            other => {
                let d = self
                    .diag(
                        Rule::FieldType,
                        field,
                        format!("`{field}` must be true or false, found {}", describe(other)),
                    )
                    .help(format!("write `{field}: true` or leave the field out"));
                self.out.push(d);
                None
            }
        }
    }

    fn list(&mut self, field: &str) -> Option<Vec<String>> {
        match self.get(field)? {
            Value::Sequence(items) => {
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::String(s) => out.push(s.clone()),
                        other => {
                            let mut d = self.diag(
                                Rule::FieldType,
                                field,
                                format!(
                                    "item {} of `{field}` must be text, found {}",
                                    i + 1,
                                    describe(other)
                                ),
                            );
                            if let Some((l, c)) = self.file.spans().pos(&format!("{field}[{i}]")) {
                                d = d.at(l, c);
                            }
                            d = d.help(format!(
                                "write each item of `{field}` as one line of text; quote an item that looks like a number, a date or yes/no"
                            ));
                            self.out.push(d);
                        }
                    }
                }
                Some(out)
            }
            Value::String(s) => {
                let d = self
                    .diag(Rule::FieldType, field, format!("`{field}` must be a list"))
                    .help(format!("write it as a list: `{field}: [{s}]`"));
                self.out.push(d);
                Some(vec![s.clone()])
            }
            other => {
                let d = self
                    .diag(
                        Rule::FieldType,
                        field,
                        format!("`{field}` must be a list, found {}", describe(other)),
                    )
                    .help(format!(
                        "write it as a list, one item per line under `{field}:` or as `{field}: [a, b]`"
                    ));
                self.out.push(d);
                None
            }
        }
    }

    fn mapping(&mut self, field: &str) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        match self.get(field) {
            None => {}
            Some(Value::Mapping(m)) => {
                for (k, v) in m {
                    match (k, v) {
                        (Value::String(k), Value::String(v)) => {
                            out.insert(k.clone(), v.clone());
                        }
                        _ => {
                            let d = self
                                .diag(
                                    Rule::FieldType,
                                    field,
                                    format!("`{field}` maps rule ids to reasons, both text"),
                                )
                                .help("write `rule-id: why this warning is acceptable`");
                            self.out.push(d);
                        }
                    }
                }
            }
            Some(other) => {
                let d = self.diag(
                    Rule::FieldType,
                    field,
                    format!(
                        "`{field}` must be a mapping of rule id to reason, found {}",
                        describe(other)
                    ),
                );
                self.out.push(d.help(format!(
                    "write one `rule-id: reason` per line, indented under `{field}:`"
                )));
            }
        }
        out
    }

    /// An arXiv id, reporting (and recovering from) an unquoted number.
    fn arxiv(&mut self, field: &str) -> Option<String> {
        match self.get(field)? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => {
                let raw = self
                    .file
                    .spans()
                    .raw_value(&self.file.text, field)
                    .map(str::to_string)
                    .unwrap_or_else(|| n.to_string());
                let shown = n.to_string();
                let lost = if shown != raw {
                    format!(" (YAML reads `{raw}` as the number {shown})")
                } else {
                    String::new()
                };
                let d = self
                    .diag(
                        Rule::ArxivUnquoted,
                        field,
                        format!("`{field}` is written as a number{lost}"),
                    )
                    .help(format!("quote it: `{field}: \"{raw}\"`"));
                self.out.push(d);
                Some(raw)
            }
            _ => self.text(field),
        }
    }
}

fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

fn convert_entry(
    map: &serde_yaml::Mapping,
    file: &SourceFile,
    tax: &Taxonomy,
    out: &mut Vec<Diagnostic>,
) -> Entry {
    let mut c = Converter {
        map,
        table: &fields::ENTRY,
        file,
        tax,
        out: Vec::new(),
    };
    c.check_fields();
    let mut t = |f: &str| c.text(f).unwrap_or_default();
    let entry = Entry {
        key: t("key"),
        title: t("title"),
        first_author: t("first_author"),
        affiliation: t("affiliation"),
        year: 0,
        arxiv_id: None,
        venue: t("venue"),
        urls: Vec::new(),
        category: t("category"),
        is_rl: t("is_rl"),
        reward_type: t("reward_type"),
        credit_granularity: t("credit_granularity"),
        orchestration_form: t("orchestration_form"),
        scenario: t("scenario"),
        is_core: t("is_core"),
        verified: t("verified"),
        arxiv_verified_on: None,
        additional_credit_units: None,
        additional_credit_units_source: Vec::new(),
        subdecisions: None,
        subdecisions_source: Vec::new(),
        strict_credit: None,
        strict_credit_source: None,
        added_in: None,
        one_liner: t("one_liner"),
        notes: None,
        waivers: BTreeMap::new(),
    };
    let entry = Entry {
        year: c.int("year").unwrap_or(0),
        arxiv_id: c.arxiv("arxiv_id"),
        arxiv_verified_on: c.text("arxiv_verified_on"),
        urls: c.list("urls").unwrap_or_default(),
        additional_credit_units: c.list("additional_credit_units"),
        additional_credit_units_source: c
            .list("additional_credit_units_source")
            .unwrap_or_default(),
        subdecisions: c.list("subdecisions"),
        subdecisions_source: c.list("subdecisions_source").unwrap_or_default(),
        strict_credit: c.boolean("strict_credit"),
        strict_credit_source: c.text("strict_credit_source"),
        added_in: c.text("added_in"),
        notes: c.text("notes"),
        waivers: c.mapping("waivers"),
        ..entry
    };
    out.extend(c.out);
    entry
}

fn convert_exclusion(
    map: &serde_yaml::Mapping,
    file: &SourceFile,
    tax: &Taxonomy,
    out: &mut Vec<Diagnostic>,
) -> Exclusion {
    let mut c = Converter {
        map,
        table: &fields::RECORD,
        file,
        tax,
        out: Vec::new(),
    };
    c.check_fields();
    let mut t = |f: &str| c.text(f).unwrap_or_default();
    let record = Exclusion {
        record_id: t("record_id"),
        title: t("title"),
        identifier: t("identifier"),
        url: t("url"),
        source: t("source"),
        query_family: t("query_family"),
        date_screened: t("date_screened"),
        stage: t("stage"),
        reason: t("reason"),
    };
    out.extend(c.out);
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_depth_is_bounded_outside_quotes_and_comments() {
        let deep = format!("a: {}", "[".repeat(MAX_FLOW_DEPTH + 1));
        assert_eq!(too_deep(&deep), Some(1));
        assert_eq!(too_deep(&format!("a: \"{}\"", "[".repeat(500))), None);
        assert_eq!(too_deep(&format!("a: 1 # {}", "{".repeat(500))), None);
        assert_eq!(
            too_deep(&format!("t: it's\nb: {}", "[".repeat(200))),
            Some(2)
        );
        assert_eq!(too_deep("a: [x, [y]]\n"), None);
    }
}
