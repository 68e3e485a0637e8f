//! The templates a build renders (`templates/*.tera`), read with the other
//! inputs so that the fingerprint's key and the renderer see the same text.

use crate::layout::Layout;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use corpus_io::reader::{self, ReadError};
use std::path::Path;

/// Largest template read.
const MAX_TEMPLATE_BYTES: u64 = 512 * 1024 * 1024;

/// Reads `templates/*.tera` below the root, sorted by name.
pub fn read(root: &Path) -> Result<Vec<(String, String)>, Diagnostic> {
    let dir = root.join(Layout::TEMPLATES_DIR);
    let names = match reader::list_dir(&dir) {
        Ok(names) => names.unwrap_or_default(),
        Err(e) => {
            return Err(problem(
                Layout::TEMPLATES_DIR,
                format!("cannot list templates: {e}"),
            ))
        }
    };
    let mut out = Vec::new();
    for listed in names {
        let name = &listed.name;
        if !name.ends_with(".tera") {
            continue;
        }
        let label = format!("{}/{name}", Layout::TEMPLATES_DIR);
        let text = reader::read_listed_text(&listed, MAX_TEMPLATE_BYTES).map_err(|e| {
            let why = match e {
                ReadError::NotUtf8 { .. } => "not UTF-8",
                _ => "not a readable regular file",
            };
            problem(&label, format!("cannot read template: {why}"))
        })?;
        out.push((listed.name, text));
    }
    Ok(out)
}

/// A problem with a template; an error, as nothing is rendered past it.
pub fn problem(file: &str, msg: String) -> Diagnostic {
    Diagnostic::new(Rule::Template, Severity::Error, file, msg)
}
