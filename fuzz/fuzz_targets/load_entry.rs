//! Any bytes as an entry file (and, split at a NUL, an exclusion record):
//! loading and checking must give a result or diagnostics, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn taxonomy() -> &'static corpus_core::model::taxonomy::Taxonomy {
    static T: OnceLock<corpus_core::model::taxonomy::Taxonomy> = OnceLock::new();
    T.get_or_init(|| {
        corpus_core::model::taxonomy::Taxonomy::from_yaml(include_str!("../../corpus/taxonomy.yaml")).expect("shipped taxonomy")
    })
}

fuzz_target!(|data: &[u8]| {
    let (entry, record) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(entry) = std::str::from_utf8(entry) else { return };
    let record = String::from_utf8_lossy(record).into_owned();
    let c = corpus_core::load::corpus_from_texts(
        taxonomy().clone(),
        vec![("corpus/papers/fuzz.yaml".into(), entry.to_string())],
        vec![("exclusions/E001.yaml".into(), record)],
    );
    let findings = corpus_core::check::check(&c);
    let sources = corpus::cli::sources(&c);
    for d in &findings.diagnostics {
        let _ = corpus_diagnostics::report::human(d, &sources);
    }
});
