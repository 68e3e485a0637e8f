//! Times each phase of a build on a corpus root, for finding where time goes:
//! `cargo run --release --example phases -- ROOT [MAX_FILE_BYTES]` (a grown
//! corpus's locators file passes the default limit near 30k entries), with
//! the resident memory after each phase and its peak so far (Linux).

use std::time::Instant;

/// The process's resident memory now and at its peak, from /proc (Linux).
fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or("?".to_string(), |kb| format!("{} MiB", kb / 1024))
    };
    format!("rss {}, peak {}", field("VmRSS:"), field("VmHWM:"))
}

fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let t = Instant::now();
    let mut opts = corpus_core::load::LoadOptions::default();
    if let Some(max) = std::env::args().nth(2) {
        opts.max_file_bytes = max.parse().expect("MAX_FILE_BYTES is a number of bytes");
    }
    let inputs = corpus_core::load::read_inputs(&root, opts);
    eprintln!("read {:?}; {}", t.elapsed(), memory());
    let t = Instant::now();
    let key = inputs.digest(&corpus_io::digest::Key([0; 16]));
    eprintln!("digest {:?} ({})", t.elapsed(), key.is_some());
    let t = Instant::now();
    let c = corpus_core::load::parse(&inputs).unwrap();
    eprintln!("parse {:?}; {}", t.elapsed(), memory());
    let t = Instant::now();
    let r = corpus_core::check::check(&c);
    eprintln!(
        "check {:?} ({} diags); {}",
        t.elapsed(),
        r.diagnostics.len(),
        memory()
    );
    let t = Instant::now();
    let s = corpus_core::stats::of_corpus(&c);
    eprintln!("stats {:?}; {}", t.elapsed(), memory());
    let t = Instant::now();
    let _ =
        corpus_core::publish::render::context(&c.taxonomy, &c.entry_list(), &s, Default::default());
    eprintln!("context {:?}; {}", t.elapsed(), memory());
    let t = Instant::now();
    let tpl = inputs.templates.as_ref().unwrap();
    let examples = corpus_core::load::examples::replay(&inputs.traces, &c.taxonomy);
    let files = corpus_core::publish::generate::generate(
        &c,
        tpl,
        &examples.metrics,
        corpus_core::publish::generate::Part::All,
    )
    .unwrap();
    eprintln!("generate {:?}; {}", t.elapsed(), memory());
    let t = Instant::now();
    let st = corpus_core::publish::on_disk::stale(&root, &files);
    eprintln!("stale compare {:?} ({} stale)", t.elapsed(), st.len());
    let t = Instant::now();
    drop(files);
    drop(c);
    eprintln!("drop {:?}; {}", t.elapsed(), memory());
}
