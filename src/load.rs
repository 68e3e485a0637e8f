//! Reading the corpus from disk: files to typed entries, with every problem
//! collected as a diagnostic instead of stopping at the first.
//!
//! YAML is parsed into `serde_yaml::Value` (whose mappings refuse duplicate
//! keys) and converted field by field, so that one file can report several
//! unknown, missing or mistyped fields at once. Lines come from our own scan
//! of the text because the parser's positions are not kept on values.

use crate::diag::{Diagnostic, Severity};
use crate::model::{Entry, Exclusion, ENTRY_FIELDS, EXCLUSION_FIELDS};
use crate::taxonomy::Taxonomy;
use serde_yaml::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Largest data file read by default (bytes); larger ones are refused.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Where the taxonomy lives, relative to the root.
pub const TAXONOMY_PATH: &str = "corpus/taxonomy.yaml";
/// Folder of entry files, relative to the root.
pub const PAPERS_DIR: &str = "corpus/papers";
/// Folder of exclusion records, relative to the root.
pub const EXCLUSIONS_DIR: &str = "exclusions";

/// Positions of fields in one file: `field`, `field[i]`, `field.sub` → (line, column).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spans {
    map: BTreeMap<String, (usize, usize)>,
}

impl Spans {
    /// Line of a field path, when found.
    pub fn line(&self, path: &str) -> Option<usize> {
        self.map.get(path).map(|p| p.0)
    }

    /// Line and column of a field path's value.
    pub fn pos(&self, path: &str) -> Option<(usize, usize)> {
        self.map.get(path).copied()
    }

    /// Raw text of a top-level field's value on its line (for lossless hints).
    pub fn raw_value<'a>(&self, text: &'a str, field: &str) -> Option<&'a str> {
        let (line, col) = self.pos(field)?;
        let l = text.lines().nth(line - 1)?;
        let v = l.get(col - 1..)?;
        let v = v.split(" #").next().unwrap_or(v);
        Some(v.trim())
    }

    /// Scans YAML text for top-level keys, their list items and nested keys.
    pub fn scan(text: &str) -> Spans {
        let mut map = BTreeMap::new();
        let mut current: Option<String> = None;
        let mut item = 0usize;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end_matches('\r');
            let lineno = i + 1;
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') || line == "---" {
                continue;
            }
            let indent = line.len() - trimmed.len();
            if indent == 0 && !trimmed.starts_with('-') {
                if let Some((key, col)) = split_key(line) {
                    let rest = line.get(col - 1..).unwrap_or("").trim_start();
                    // With the value on the following lines, point at the key itself.
                    let at = if rest.is_empty() || rest.starts_with('#') {
                        1
                    } else {
                        col
                    };
                    map.entry(key.clone()).or_insert((lineno, at));
                    item = 0;
                    if let Some(inner) = rest.strip_prefix('[') {
                        for _ in inner
                            .split(',')
                            .filter(|s| !s.trim().trim_end_matches(']').is_empty())
                        {
                            map.entry(format!("{key}[{item}]")).or_insert((lineno, col));
                            item += 1;
                        }
                    }
                    current = Some(key);
                } else {
                    current = None;
                }
                continue;
            }
            let Some(cur) = &current else { continue };
            if let Some(rest) =
                trimmed
                    .strip_prefix("- ")
                    .or(if trimmed == "-" { Some("") } else { None })
            {
                let _ = rest;
                map.entry(format!("{cur}[{item}]"))
                    .or_insert((lineno, indent + 3));
                item += 1;
            } else if let Some((key, col)) = split_key(trimmed) {
                map.entry(format!("{cur}.{key}"))
                    .or_insert((lineno, indent + col));
            }
        }
        Spans { map }
    }

    /// Line of the second occurrence of a top-level key (for duplicate-field reports).
    pub fn second_occurrence(text: &str, key: &str) -> Option<usize> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.starts_with([' ', '\t', '#', '-']))
            .filter(|(_, l)| {
                split_key(l.trim_end_matches('\r')).map(|(k, _)| k) == Some(key.to_string())
            })
            .nth(1)
            .map(|(i, _)| i + 1)
    }
}

/// Splits `key: value` into the unquoted key and the 1-based column of the value.
fn split_key(line: &str) -> Option<(String, usize)> {
    let (key, after) = if let Some(q) = line.strip_prefix('"').or_else(|| line.strip_prefix('\'')) {
        let quote = line.as_bytes()[0] as char;
        let end = q.find(quote)?;
        (q[..end].to_string(), end + 2)
    } else {
        let end = line.find(':')?;
        (line[..end].trim_end().to_string(), end)
    };
    let rest = line.get(after..)?;
    let rest_after_colon = rest.strip_prefix(':')?;
    if !(rest_after_colon.is_empty() || rest_after_colon.starts_with([' ', '\t'])) {
        return None;
    }
    let ws = rest_after_colon.len() - rest_after_colon.trim_start().len();
    Some((key, after + 1 + ws + 1))
}

/// One data file as read from disk.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the root, with `/` separators.
    pub rel: String,
    /// File text (BOM removed).
    pub text: String,
    /// Field positions, scanned on first use: clean files never need them.
    spans: std::sync::OnceLock<Spans>,
}

impl SourceFile {
    /// A file read from disk.
    pub fn new(rel: String, text: String) -> SourceFile {
        SourceFile {
            rel,
            text,
            spans: std::sync::OnceLock::new(),
        }
    }

    /// Field positions of the file.
    pub fn spans(&self) -> &Spans {
        self.spans.get_or_init(|| Spans::scan(&self.text))
    }
}

/// An entry with the file it came from.
#[derive(Debug, Clone)]
pub struct LoadedEntry {
    /// The typed entry (fields that failed to convert hold defaults).
    pub entry: Entry,
    /// Index into [`Corpus::files`].
    pub file: usize,
}

/// An exclusion record with the file it came from.
#[derive(Debug, Clone)]
pub struct LoadedExclusion {
    /// The typed record.
    pub record: Exclusion,
    /// Index into [`Corpus::files`].
    pub file: usize,
}

/// Everything loaded from a root, plus the problems met while loading.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The vocabulary.
    pub taxonomy: Taxonomy,
    /// Entries that parsed into a mapping (possibly with field problems).
    pub entries: Vec<LoadedEntry>,
    /// Exclusion records that parsed into a mapping.
    pub exclusions: Vec<LoadedExclusion>,
    /// Every data file read, by index.
    pub files: Vec<SourceFile>,
    /// Example traces shipped with the corpus (traces/examples/*.json) and their metrics.
    pub trace_examples: Vec<(String, crate::trace::Metrics)>,
    /// OTLP examples (traces/otlp/*.json): file, spans read, and the metrics of each imported trace.
    pub otlp_examples: Vec<(String, usize, crate::trace::Metrics)>,
    /// The claims ledger and its text, when the root has one and it parsed.
    pub claims: Option<(crate::claims::Ledger, String)>,
    /// Problems found while loading.
    pub diagnostics: Vec<Diagnostic>,
}

impl Corpus {
    /// The source file an entry came from.
    pub fn file(&self, idx: usize) -> &SourceFile {
        &self.files[idx]
    }

    /// The entries alone, in key order.
    pub fn entry_list(&self) -> Vec<&Entry> {
        self.entries.iter().map(|e| &e.entry).collect()
    }

    /// The exclusion records alone, in record order.
    pub fn exclusion_list(&self) -> Vec<&Exclusion> {
        self.exclusions.iter().map(|e| &e.record).collect()
    }
}

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

fn diag(rule: &str, tax: Option<&Taxonomy>, file: &str, msg: impl Into<String>) -> Diagnostic {
    let severity = tax
        .and_then(|t| t.rule(rule))
        .map(|r| r.severity.into())
        .unwrap_or(Severity::Error);
    Diagnostic::new(rule, severity, file, msg)
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
    let unreadable = |m: String| diag("file-unreadable", tax, rel, m);
    let meta =
        std::fs::metadata(path).map_err(|e| unreadable(format!("cannot read `{rel}`: {e}")))?;
    if !meta.is_file() {
        return Err(unreadable(format!("`{rel}` is not a regular file")));
    }
    if meta.len() > max {
        return Err(unreadable(format!(
            "`{rel}` is {} bytes, over the {max}-byte limit for a data file",
            meta.len()
        ))
        .help("split the file, or raise the limit with --max-file-size if it is genuine"));
    }
    let bytes = std::fs::read(path).map_err(|e| unreadable(format!("cannot read `{rel}`: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|b| **b == b'\n').count() + 1;
        unreadable(format!("`{rel}` is not valid UTF-8 (line {line})"))
            .at_line(Some(line))
            .help("save the file as UTF-8")
    })?;
    let text = text
        .strip_prefix('\u{feff}')
        .map(str::to_string)
        .unwrap_or(text);
    if text.trim().is_empty() {
        return Err(unreadable(format!("`{rel}` is empty")).help("remove the file or fill it in"));
    }
    if let Some(line) = too_deep(&text) {
        return Err(diag(
            "yaml-syntax",
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
        let loc = e.location();
        let mut d = diag("yaml-syntax", None, TAXONOMY_PATH, format!("taxonomy: {e}"));
        if let Some(l) = loc {
            d = d.at(l.line(), l.column());
        }
        LoadError::Taxonomy(vec![d])
    })?;
    let problems = taxonomy.problems();
    if !problems.is_empty() {
        return Err(LoadError::Taxonomy(
            problems
                .into_iter()
                .map(|p| diag("field-type", None, TAXONOMY_PATH, format!("taxonomy: {p}")))
                .collect(),
        ));
    }
    let mut corpus = Corpus::empty(taxonomy);
    let papers = list_dir(root, PAPERS_DIR, &mut corpus);
    let loaded = in_parallel(&papers, |(p, rel)| {
        load_one(p, rel, opts, &corpus.taxonomy, convert_entry)
    });
    corpus.add_entries(loaded);
    let records = list_dir(root, EXCLUSIONS_DIR, &mut corpus);
    let loaded = in_parallel(&records, |(p, rel)| {
        load_one(p, rel, opts, &corpus.taxonomy, convert_exclusion)
    });
    corpus.add_exclusions(loaded);
    load_trace_examples(root, &mut corpus);
    load_otlp_examples(root, &mut corpus);
    match crate::claims::load(root, opts.max_file_bytes) {
        Ok(Some((ledger, text))) => {
            let problems = crate::claims::validate(&ledger, &text);
            if problems.is_empty() {
                corpus.claims = Some((ledger, text));
            }
            corpus.diagnostics.extend(problems);
        }
        Ok(None) => {}
        Err(d) => corpus.diagnostics.extend(d),
    }
    Ok(corpus)
}

/// Folder of example traces, relative to the root.
pub const TRACE_EXAMPLES_DIR: &str = "traces/examples";

/// Validates the example traces and replays the valid ones into metrics, so
/// the README can show them and `check` keeps them valid.
fn load_trace_examples(root: &Path, corpus: &mut Corpus) {
    let dir = root.join(TRACE_EXAMPLES_DIR);
    if !dir.is_dir() {
        return;
    }
    let files = match crate::trace::collect_inputs(&[dir]) {
        Ok(f) => f,
        Err(e) => {
            corpus.diagnostics.push(diag(
                "file-unreadable",
                Some(&corpus.taxonomy),
                TRACE_EXAMPLES_DIR,
                e,
            ));
            return;
        }
    };
    let families = corpus.taxonomy.channel_families();
    for f in files {
        let rel = rel_path(root, &f);
        let checked = crate::trace::read_limited(&f, &rel, crate::trace::DEFAULT_MAX_BYTES)
            .map_err(|d| vec![d])
            .and_then(|b| crate::trace::validate_and_parse(&rel, &b));
        match checked {
            Ok(t) => corpus
                .trace_examples
                .push((rel, crate::trace::metrics(&t, &families))),
            Err(d) => corpus.diagnostics.extend(d),
        }
    }
}

/// Folder of OTLP examples, relative to the root.
pub const OTLP_EXAMPLES_DIR: &str = "traces/otlp";

/// Imports the OTLP examples as `corpus trace import` would and replays the
/// traces, so the README shows an imported trace and `check` keeps it importable.
fn load_otlp_examples(root: &Path, corpus: &mut Corpus) {
    use crate::trace::{self, otlp};
    let dir = root.join(OTLP_EXAMPLES_DIR);
    if !dir.is_dir() {
        return;
    }
    let files = match trace::collect_inputs(&[dir]) {
        Ok(f) => f,
        Err(e) => {
            let d = diag(
                "file-unreadable",
                Some(&corpus.taxonomy),
                OTLP_EXAMPLES_DIR,
                e,
            );
            corpus.diagnostics.push(d);
            return;
        }
    };
    let families = corpus.taxonomy.channel_families();
    for f in files {
        let label = rel_path(root, &f);
        let bytes = match trace::read_limited(&f, &label, trace::DEFAULT_MAX_BYTES) {
            Ok(b) => b,
            Err(d) => {
                corpus.diagnostics.push(d);
                continue;
            }
        };
        let input = otlp::Input {
            label: label.clone(),
            bytes,
        };
        let imported = otlp::import(std::slice::from_ref(&input), &otlp::Options::default());
        corpus.diagnostics.extend(imported.diagnostics);
        for t in imported.traces {
            if let Ok(parsed) = trace::parse(&label, t.text.as_bytes()) {
                let m = trace::metrics(&parsed, &families);
                corpus
                    .otlp_examples
                    .push((label.clone(), imported.spans, m));
            }
        }
    }
}

/// The `.yaml` files directly in a folder, sorted; anything else is reported.
fn list_dir(root: &Path, dir: &str, corpus: &mut Corpus) -> Vec<(PathBuf, String)> {
    let full = root.join(dir);
    let mut out = Vec::new();
    let rd = match std::fs::read_dir(&full) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return out,
        Err(e) => {
            let d = diag(
                "file-unreadable",
                Some(&corpus.taxonomy),
                dir,
                format!("cannot list `{dir}`: {e}"),
            );
            corpus.diagnostics.push(d);
            return out;
        }
    };
    let mut names: Vec<(String, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    names.sort();
    for (name, path) in names {
        let rel = format!("{dir}/{name}");
        if name.starts_with('.') {
            continue;
        }
        if name.ends_with(".yaml") {
            out.push((path, rel));
        } else {
            let help = if name.ends_with(".yml") {
                format!("rename it to `{}.yaml`", name.trim_end_matches(".yml"))
            } else {
                "move it out of this folder".to_string()
            };
            let d = diag(
                "stray-file",
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
}

impl Corpus {
    /// A corpus with a taxonomy and nothing else yet.
    fn empty(taxonomy: Taxonomy) -> Corpus {
        Corpus {
            taxonomy,
            entries: Vec::new(),
            exclusions: Vec::new(),
            files: Vec::new(),
            claims: None,
            trace_examples: Vec::new(),
            otlp_examples: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

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
    convert: Convert<T>,
) -> FileLoad<T> {
    match read_text(path, rel, opts.max_file_bytes, Some(tax)) {
        Ok(text) => parse_file(rel.to_string(), text, tax, convert),
        Err(d) => FileLoad {
            file: None,
            item: None,
            diagnostics: vec![d],
        },
    }
}

/// Parses and converts the text of one data file.
fn parse_file<T>(rel: String, text: String, tax: &Taxonomy, convert: Convert<T>) -> FileLoad<T> {
    let mut diagnostics = Vec::new();
    let parsed: Result<Value, _> = serde_yaml::from_str(&text);
    let map = match parsed {
        Ok(Value::Mapping(m)) => Some(m),
        Ok(Value::Null) => {
            diagnostics.push(
                diag(
                    "file-unreadable",
                    Some(tax),
                    &rel,
                    format!("`{rel}` holds only comments"),
                )
                .help("fill in the fields, or remove the file"),
            );
            None
        }
        Ok(_) => {
            diagnostics.push(
                diag(
                    "yaml-syntax",
                    Some(tax),
                    &rel,
                    "the file must hold a mapping of field: value",
                )
                .at_line(Some(1)),
            );
            None
        }
        Err(e) => {
            diagnostics.push(yaml_error(&e, &rel, &text, tax));
            None
        }
    };
    let file = SourceFile::new(rel, text);
    let item = map.map(|m| convert(&m, &file, tax, &mut diagnostics));
    FileLoad {
        file: Some(file),
        item,
        diagnostics,
    }
}

/// Builds a corpus from file texts in memory, as `load` would from disk:
/// `(relative path, text)` pairs for entries and exclusion records.
pub fn corpus_from_texts(
    taxonomy: Taxonomy,
    entries: Vec<(String, String)>,
    exclusions: Vec<(String, String)>,
) -> Corpus {
    let mut corpus = Corpus::empty(taxonomy);
    let loaded: Vec<_> = entries
        .into_iter()
        .map(|(rel, text)| parse_file(rel, text, &corpus.taxonomy, convert_entry))
        .collect();
    corpus.add_entries(loaded);
    let loaded: Vec<_> = exclusions
        .into_iter()
        .map(|(rel, text)| parse_file(rel, text, &corpus.taxonomy, convert_exclusion))
        .collect();
    corpus.add_exclusions(loaded);
    corpus
}

/// Turns a parser error into a diagnostic with the best location we can give.
fn yaml_error(e: &serde_yaml::Error, rel: &str, text: &str, tax: &Taxonomy) -> Diagnostic {
    let msg = e.to_string();
    if let Some(key) = msg
        .strip_prefix("duplicate entry with key \"")
        .and_then(|r| r.split('"').next())
    {
        let line = Spans::second_occurrence(text, key);
        return diag(
            "duplicate-field",
            Some(tax),
            rel,
            format!("field `{key}` appears more than once"),
        )
        .at_line(line)
        .field(key)
        .help("keep one of them: a repeated field would silently lose data");
    }
    let mut d = diag(
        "yaml-syntax",
        Some(tax),
        rel,
        format!("invalid YAML: {msg}"),
    );
    if let Some(l) = e.location() {
        d = d.at(l.line(), l.column());
        if text
            .lines()
            .nth(l.line().saturating_sub(1))
            .is_some_and(|s| s.contains('\t'))
        {
            d = d.help("indent with spaces: YAML does not allow tabs for indentation");
        }
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
    /// Fields that must hold something, so a blank value is reported.
    required: Vec<&'static str>,
    file: &'a SourceFile,
    tax: &'a Taxonomy,
    out: Vec<Diagnostic>,
}

impl<'a> Converter<'a> {
    fn diag(&self, rule: &str, field: &str, msg: impl Into<String>) -> Diagnostic {
        let mut d = diag(rule, Some(self.tax), &self.file.rel, msg).field(field);
        if let Some((l, c)) = self.file.spans().pos(field) {
            d = d.at(l, c);
        }
        d
    }

    fn get(&self, field: &str) -> Option<&'a Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    fn check_fields(&mut self, known: &[&str], required: &[&str]) {
        for k in self.map.keys() {
            let name = match k {
                Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            };
            if !known.contains(&name.as_str()) {
                let help = crate::check::closest(&name, known.iter().copied())
                    .map(|c| format!("did you mean `{c}`?"))
                    .unwrap_or_else(|| format!("allowed fields: {}", known.join(", ")));
                let d = self
                    .diag("unknown-field", &name, format!("unknown field `{name}`"))
                    .help(help);
                self.out.push(d);
            }
        }
        for f in required {
            if self.get(f).is_none() {
                let present = self.map.contains_key(*f);
                let msg = if present {
                    format!("required field `{f}` is still empty")
                } else {
                    format!("required field `{f}` is missing")
                };
                let mut d = self.diag("missing-field", f, msg);
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
                    None => format!("{verb} `{f}`{place}: {}", crate::schema::describe(f)),
                };
                self.out.push(d.help(help));
            }
        }
    }

    fn text(&mut self, field: &str) -> Option<String> {
        match self.get(field)? {
            Value::String(s) if s.trim().is_empty() && self.required.contains(&field) => {
                let d = self
                    .diag("empty-field", field, format!("`{field}` is blank"))
                    .help(format!(
                        "fill in `{field}`: {}",
                        crate::schema::describe(field)
                    ));
                self.out.push(d);
                Some(String::new())
            }
            Value::String(s) => Some(s.clone()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => {
                let d = self.diag(
                    "field-type",
                    field,
                    format!("`{field}` must be a single value, not a list or mapping"),
                );
                self.out.push(d);
                None
            }
        }
    }

    fn int(&mut self, field: &str) -> Option<i64> {
        match self.get(field)? {
            Value::Number(n) if n.as_i64().is_some() => n.as_i64(),
            other => {
                let d = self
                    .diag(
                        "field-type",
                        field,
                        format!(
                            "`{field}` must be a whole number, found {}",
                            describe(other)
                        ),
                    )
                    .help(format!("write it unquoted, e.g. `{field}: 2025`"));
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
                        "field-type",
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
                                "field-type",
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
                            self.out.push(d);
                        }
                    }
                }
                Some(out)
            }
            Value::String(s) => {
                let d = self
                    .diag("field-type", field, format!("`{field}` must be a list"))
                    .help(format!("write it as a list: `{field}: [{s}]`"));
                self.out.push(d);
                Some(vec![s.clone()])
            }
            other => {
                let d = self.diag(
                    "field-type",
                    field,
                    format!("`{field}` must be a list, found {}", describe(other)),
                );
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
                                    "field-type",
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
                    "field-type",
                    field,
                    format!(
                        "`{field}` must be a mapping of rule id to reason, found {}",
                        describe(other)
                    ),
                );
                self.out.push(d);
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
                        "arxiv-unquoted",
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
        required: ENTRY_FIELDS
            .iter()
            .filter(|(_, r)| *r)
            .map(|(f, _)| *f)
            .collect(),
        file,
        tax,
        out: Vec::new(),
    };
    let known: Vec<&str> = ENTRY_FIELDS.iter().map(|(f, _)| *f).collect();
    let required: Vec<&str> = ENTRY_FIELDS
        .iter()
        .filter(|(_, r)| *r)
        .map(|(f, _)| *f)
        .collect();
    c.check_fields(&known, &required);
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
        subdecisions: Vec::new(),
        strict_credit: false,
        one_liner: t("one_liner"),
        notes: None,
        waivers: BTreeMap::new(),
    };
    let entry = Entry {
        year: c.int("year").unwrap_or(0),
        arxiv_id: c.arxiv("arxiv_id"),
        urls: c.list("urls").unwrap_or_default(),
        subdecisions: c.list("subdecisions").unwrap_or_default(),
        strict_credit: c.boolean("strict_credit").unwrap_or(false),
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
        required: EXCLUSION_FIELDS.to_vec(),
        file,
        tax,
        out: Vec::new(),
    };
    c.check_fields(&EXCLUSION_FIELDS, &EXCLUSION_FIELDS);
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
    fn scan_finds_fields_items_and_nested_keys() {
        let s = Spans::scan("key: a\nurls:\n  - https://x\n  - https://y\nsubdecisions: [o1_spawn, o2_delegate]\nwaivers:\n  arxiv-year: because\n");
        assert_eq!(s.pos("key"), Some((1, 6)));
        assert_eq!(s.line("urls[1]"), Some(4));
        assert_eq!(s.line("subdecisions[1]"), Some(5));
        assert_eq!(s.line("waivers.arxiv-year"), Some(7));
    }

    #[test]
    fn raw_value_keeps_trailing_zeros() {
        let text = "arxiv_id: 2510.20510 # comment\n";
        let s = Spans::scan(text);
        assert_eq!(s.raw_value(text, "arxiv_id"), Some("2510.20510"));
    }

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

    #[test]
    fn second_occurrence_locates_duplicates() {
        assert_eq!(Spans::second_occurrence("a: 1\nb: 2\na: 3\n", "a"), Some(3));
    }
}
