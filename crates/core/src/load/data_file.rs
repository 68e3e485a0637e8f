//! One data file read, parsed and converted, and the corpus taking in what the files yield.

use super::diag;
use super::read::accepted;
use crate::model::corpus::{Corpus, LoadedEntry, LoadedExclusion};
use crate::model::format::FileKind;
use crate::model::taxonomy::Taxonomy;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_io::reader::ReadError;
use serde_yaml::Value;
use std::sync::Arc;

/// What one data file yields: its text (when readable), the converted item
/// (when it held a mapping) and the problems found on the way.
pub(super) struct FileLoad<T> {
    pub(super) file: Option<SourceFile>,
    pub(super) item: Option<T>,
    pub(super) diagnostics: Vec<Diagnostic>,
}

/// What the data files of a folder yield, taken in file by file in their
/// order: every problem, the files that could be read, and the items made of
/// them (each knowing the index of its file among those files).
pub(super) struct Taken<L> {
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) files: Vec<SourceFile>,
    pub(super) items: Vec<L>,
}

impl<L> Taken<L> {
    /// Nothing taken yet, with room for `files` files and their items, and
    /// the problems found before them.
    pub(super) fn with_room(files: usize, diagnostics: Vec<Diagnostic>) -> Self {
        Taken {
            diagnostics,
            files: Vec::with_capacity(files),
            items: Vec::with_capacity(files),
        }
    }

    /// Takes in one file's result; `keep` makes the kept item of the item
    /// and its file's index.
    pub(super) fn take<T>(&mut self, one: FileLoad<T>, keep: impl Fn(T, usize) -> L) {
        self.diagnostics.extend(one.diagnostics);
        let Some(file) = one.file else { return };
        self.files.push(file);
        if let Some(item) = one.item {
            self.items.push(keep(item, self.files.len() - 1));
        }
    }
}

impl Corpus {
    /// Takes in the entry files of a folder, after the files already held.
    pub(super) fn add_entries(&mut self, taken: Taken<LoadedEntry>) {
        let items = self.add_files(taken, |e, offset| e.file += offset);
        put_after(&mut self.entries, items);
    }

    /// Takes in the exclusion files of a folder, after the files already held.
    pub(super) fn add_exclusions(&mut self, taken: Taken<LoadedExclusion>) {
        let items = self.add_files(taken, |r, offset| r.file += offset);
        put_after(&mut self.exclusions, items);
    }

    /// Takes in a folder's problems and files; returns its items, their
    /// file indices moved past the files held before.
    fn add_files<L>(&mut self, taken: Taken<L>, shift: impl Fn(&mut L, usize)) -> Vec<L> {
        let Taken {
            diagnostics,
            files,
            mut items,
        } = taken;
        self.diagnostics.extend(diagnostics);
        let offset = self.files.len();
        if offset > 0 {
            items.iter_mut().for_each(|item| shift(item, offset));
        }
        put_after(&mut self.files, files);
        items
    }
}

/// Puts `more` after the items of `list`; an empty list takes `more` as it
/// is, so a large folder's list is never copied into a second one.
fn put_after<T>(list: &mut Vec<T>, mut more: Vec<T>) {
    if list.is_empty() {
        *list = more;
    } else {
        list.append(&mut more);
    }
}

/// Converts a parsed mapping into an item, pushing field problems.
pub(super) type Convert<T> =
    fn(serde_yaml::Mapping, &SourceFile, &Taxonomy, &mut Vec<Diagnostic>) -> T;

/// Parses and converts one data file as read, or says why it could not be read.
pub(super) fn parse_read<T>(
    rel: &str,
    read: Result<&Arc<str>, &ReadError>,
    tax: &Taxonomy,
    convert: (FileKind, Convert<T>),
) -> FileLoad<T> {
    // The text read is shared, not copied: a large corpus's texts are
    // held once, by the inputs and the loaded files together.
    let refused = accepted(read.map(|t| &**t), rel, Some(tax)).err();
    match (read, refused) {
        (Ok(text), None) => parse_file(rel.to_string(), Arc::clone(text), tax, convert),
        (_, refused) => FileLoad {
            file: None,
            item: None,
            diagnostics: refused.into_iter().collect(),
        },
    }
}

/// Parses and converts the text of one data file.
pub(super) fn parse_file<T>(
    rel: String,
    text: Arc<str>,
    tax: &Taxonomy,
    (kind, convert): (FileKind, Convert<T>),
) -> FileLoad<T> {
    let mut diagnostics = Vec::new();
    let body = without_final_marker(&text);
    let whole = body.len() == text.len();
    let parsed = crate::yaml::flat::parse_value(body);
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
    // While the file is parsed, what its layout would be (the `not-formatted`
    // rule's question), so the check need not parse it again; a text the
    // check parses differently (a final `---`, a byte-order mark) is left
    // to the check.
    if let Some(v) = value
        .as_ref()
        .filter(|_| whole && !file.text.starts_with('\u{feff}'))
    {
        file.layout = Some(crate::model::format::layout_of(&file.text, v, kind));
    }
    // The mapping is converted after its layout is judged: the conversion
    // takes its values.
    let item = match value {
        Some(Value::Mapping(m)) => Some(convert(m, &file, tax, &mut diagnostics)),
        _ => None,
    };
    FileLoad {
        file: Some(file),
        item,
        diagnostics,
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

/// Turns a parser error into a diagnostic: the wording is `yaml_error`'s,
/// the rule and severity this corpus's.
fn yaml_error(e: &serde_yaml::Error, rel: &str, text: &str, tax: &Taxonomy) -> Diagnostic {
    explained(crate::yaml::error::explain(e, text), rel, tax)
}

fn explained(x: crate::yaml::error::Explained, rel: &str, tax: &Taxonomy) -> Diagnostic {
    let rule = match &x.kind {
        crate::yaml::error::ErrorKind::DuplicateKey(_) => Rule::DuplicateField,
        crate::yaml::error::ErrorKind::Type => Rule::FieldType,
        crate::yaml::error::ErrorKind::Syntax => Rule::YamlSyntax,
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
