//! Grows a corpus for the scale benchmark from the shipped entry files:
//! `cargo run --release --example grow_corpus -- N OUT_DIR [SHIPPED_ROOT]`.
//!
//! OUT_DIR gets a copy of the shipped tree (corpus, exclusions, templates,
//! traces) and then copies of the shipped entries until it holds N entries.
//! Each copy gets a new key, title, arXiv id (where the original has one),
//! URLs and year, drops the survey's cite key and citation year, keeps
//! everything else (sub-decisions, judgement sources, notes, links,
//! waivers; its judgements get locator rows of their own) and is stamped
//! `added_in: after_publication`, a
//! round outside the survey's pool, so the survey's claims still hold. The
//! exclusion log grows in the shipped proportion the same way. Entries in
//! real use look like these, so the costs measured on them are the ones
//! contributors meet (the simple generator, `gen_corpus`, stays as a second
//! series). Output is deterministic for a given N.

use std::collections::HashSet;
use std::path::Path;

/// Hands out the copies' arXiv ids.
struct Grower {
    /// arXiv ids the shipped files use, so no copy reuses one.
    taken: HashSet<String>,
    /// The next arXiv serial to hand out.
    next_id: usize,
}

impl Grower {
    /// A fresh arXiv id and a year that fits it (within two years).
    fn arxiv(&mut self) -> (String, u32) {
        loop {
            let g = self.next_id;
            self.next_id += 1;
            let yy = 19 + g / (12 * 99_999);
            let mm = 1 + (g / 99_999) % 12;
            let id = format!("{yy}{mm:02}.{:05}", g % 99_999 + 1);
            if !self.taken.contains(&id) {
                return (id, 2000 + yy as u32 + (g % 3) as u32);
            }
        }
    }
}

/// A copy's URL: the arXiv id swapped for the new one, other links made
/// distinct with a query parameter.
fn grown_url(url: &str, old: Option<&str>, new: &str, copy: usize) -> String {
    match old {
        Some(old) if url.contains(old) => url.replace(old, new),
        _ if url.contains('?') => format!("{url}&grown={copy}"),
        _ => format!("{url}?grown={copy}"),
    }
}

/// A title with the copy's number, quoted the way the original was.
fn grown_title(value: &str, copy: usize) -> String {
    match value.strip_suffix('"') {
        Some(inner) if value.starts_with('"') => format!("{inner} (copy {copy})\""),
        _ => match value.strip_suffix('\'') {
            Some(inner) if value.starts_with('\'') => format!("{inner} (copy {copy})'"),
            _ => format!("{value} (copy {copy})"),
        },
    }
}

/// The value of a top-level `field: value` line, unquoted.
fn field<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        let v = l.strip_prefix(name)?.strip_prefix(':')?.trim();
        Some(v.trim_matches('"').trim_matches('\''))
    })
}

/// Rewrites one shipped entry or record (key field `key_field`) into copy
/// number `copy` named `new_key`; the round line is replaced or added.
fn grow_file(text: &str, key_field: &str, new_key: &str, copy: usize, g: &mut Grower) -> String {
    let old_id = field(text, "arxiv_id").map(str::to_string).or_else(|| {
        field(text, "identifier")
            .and_then(|i| i.strip_prefix("arXiv:"))
            .map(str::to_string)
    });
    let (new_id, year) = g.arxiv();
    let mut out = String::with_capacity(text.len() + 64);
    let mut in_urls = false;
    // Inside a `*_source` list: how many sources it kept so far.
    let mut sources: Option<usize> = None;
    for line in text.lines() {
        let top = !line.starts_with(' ') && !line.starts_with('-');
        if top {
            if sources == Some(0) {
                out.push_str("  - contributor\n");
            }
            in_urls = line.starts_with("urls:");
            sources = line.ends_with("_source:").then_some(0);
        }
        // The survey's figures list the shipped entries, never a copy: a
        // copy's judgement from them is a contributor's reading instead.
        if let Some(kept) = sources.as_mut().filter(|_| !top) {
            if line.trim() == "- survey_figure" {
                continue;
            }
            *kept += 1;
        }
        if line.ends_with("_source: survey_figure") {
            out.push_str(&line.replace("survey_figure", "contributor"));
            out.push('\n');
            continue;
        }
        let rewritten = if line.starts_with(&format!("{key_field}: ")) {
            format!("{key_field}: {new_key}")
        } else if let Some(v) = line.strip_prefix("title: ") {
            format!("title: {}", grown_title(v, copy))
        } else if line.starts_with("year: ") {
            format!("year: {year}")
        } else if line.starts_with("arxiv_id: ") {
            format!("arxiv_id: \"{new_id}\"")
        } else if line.starts_with("identifier: arXiv:") {
            format!("identifier: arXiv:{new_id}")
        } else if let Some(v) = line.strip_prefix("identifier: ") {
            format!("identifier: {v}-G{copy}")
        } else if let Some(u) = line.strip_prefix("url: ") {
            format!("url: {}", grown_url(u, old_id.as_deref(), &new_id, copy))
        } else if let (true, Some(u)) = (in_urls, line.strip_prefix("  - ")) {
            format!("  - {}", grown_url(u, old_id.as_deref(), &new_id, copy))
        } else if line.starts_with("added_in: ")
            || line.starts_with("cite_key: ")
            || line.starts_with("cite_year: ")
        {
            // The survey cites the original, never a copy (which has a
            // year of its own).
            continue;
        } else {
            line.to_string()
        };
        out.push_str(&rewritten);
        out.push('\n');
    }
    if sources == Some(0) {
        out.push_str("  - contributor\n");
    }
    out.push_str("added_in: after_publication\n");
    let kind = if key_field == "key" {
        corpus_core::model::format::FileKind::Entry
    } else {
        corpus_core::model::format::FileKind::Record
    };
    corpus_core::model::format::formatted_or_same(out, kind)
}

/// The YAML files of a folder, sorted by name, with their stems.
fn yaml_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Copies a tree of files and folders.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

/// The locator rows of a grown entry (`corpus/locators.yaml`): one per
/// source of each judged field, a reason for a reading, a place otherwise.
fn locator_rows(text: &str, key: &str) -> String {
    let mut out = String::new();
    let mut field_of: Option<&str> = None;
    let mut row = |field: &str, source: &str| {
        let at = if source == "project_reading" || source == "contributor" {
            "reason: A grown copy is judged as the shipped entry it copies.".to_string()
        } else {
            "file: papers/papers.csv, place: the shipped entry's row".to_string()
        };
        out.push_str(&format!(
            "  - {{key: {key}, field: {field}, source: {source}, {at}}}\n"
        ));
    };
    for line in text.lines() {
        if !line.starts_with(' ') {
            field_of = None;
        }
        if let Some((name, value)) = line
            .split_once(": ")
            .or(line.strip_suffix(':').map(|n| (n, "")))
        {
            if let Some(field) = name
                .strip_suffix("_source")
                .filter(|_| !name.starts_with(' '))
            {
                if value.is_empty() {
                    field_of = Some(field);
                } else {
                    row(field, value.trim());
                }
                continue;
            }
        }
        if let (Some(field), Some(source)) = (field_of, line.strip_prefix("  - ")) {
            row(field, source.trim());
        }
    }
    out
}

/// Writes the shipped tree under `out` and grows it to `n` entries (never
/// fewer than the shipped ones); returns the number of entries written.
pub fn grow(shipped: &Path, out: &Path, n: usize) -> usize {
    for d in ["corpus", "exclusions", "templates", "traces"] {
        if shipped.join(d).is_dir() {
            copy_tree(&shipped.join(d), &out.join(d));
        }
    }
    let entries = yaml_files(&shipped.join("corpus/papers"));
    let records = yaml_files(&shipped.join("exclusions"));
    let mut taken = HashSet::new();
    for (_, text) in entries.iter().chain(&records) {
        for name in ["arxiv_id", "identifier"] {
            if let Some(v) = field(text, name) {
                taken.insert(v.trim_start_matches("arXiv:").to_string());
            }
        }
    }
    let mut g = Grower { taken, next_id: 0 };
    let shipped_n = entries.len();
    let mut rows = String::new();
    for j in 0..n.saturating_sub(shipped_n) {
        let (stem, text) = &entries[j % shipped_n];
        let copy = j / shipped_n + 1;
        let key = format!("{stem}-g{copy}");
        let grown = grow_file(text, "key", &key, copy, &mut g);
        rows.push_str(&locator_rows(&grown, &key));
        std::fs::write(out.join(format!("corpus/papers/{key}.yaml")), grown).unwrap();
    }
    let locators = out.join("corpus/locators.yaml");
    if let Ok(text) = std::fs::read_to_string(&locators) {
        let grown = text.replacen("\njudgements:\n", &format!("\njudgements:\n{rows}"), 1);
        std::fs::write(&locators, grown).unwrap();
    }
    // The exclusion log keeps the shipped proportion of records to entries.
    let want = (n.max(shipped_n) * records.len()).div_ceil(shipped_n.max(1));
    for j in 0..want.saturating_sub(records.len()) {
        let (_, text) = &records[j % records.len()];
        let copy = j / records.len() + 1;
        let id = format!("E9{:06}", j + 1);
        let grown = grow_file(text, "record_id", &id, copy, &mut g);
        std::fs::write(out.join(format!("exclusions/{id}.yaml")), grown).unwrap();
    }
    n.max(shipped_n)
}

#[allow(dead_code)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(out)) = (
        args.get(1).and_then(|s| s.parse::<usize>().ok()),
        args.get(2),
    ) else {
        eprintln!("usage: grow_corpus N OUT_DIR [SHIPPED_ROOT]");
        std::process::exit(2);
    };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = args.get(3).map_or(manifest, |s| Path::new(s.as_str()));
    let written = grow(shipped, Path::new(out), n);
    println!("grew {written} entries in {out}");
}
