//! Leave-one-round-out evaluation of the ranking `corpus discover` uses:
//! `cargo run --release --example rank_eval -- [ROOT] [ROUND]`
//! (default: the current folder and `coverage_refresh`).
//!
//! The held round's entries are the papers to find; the exclusion log's
//! records are the papers to pass over. Each held entry is scored by models
//! that never saw its round; each record by a model trained without that
//! record (leave one out), so no paper is scored by a model that learnt its
//! own label. Training sees every other entry and record. Printed as the
//! Markdown table BENCHMARKS.md carries, so the figures can be regenerated.

use corpus_core::rank::{examples, Example, Ranker, Text};

/// Recall at which work saved is measured.
const RECALL: f64 = 0.95;

struct Ranked {
    /// (score, id, kept) best first.
    order: Vec<(f64, String, bool)>,
}

impl Ranked {
    fn positives(&self) -> usize {
        self.order.iter().filter(|o| o.2).count()
    }

    fn recall_at(&self, k: usize) -> f64 {
        let hits = self.order.iter().take(k).filter(|o| o.2).count();
        hits as f64 / self.positives() as f64
    }

    /// Papers read, in ranked order, until `RECALL` of the positives are found.
    fn read_for_recall(&self) -> usize {
        let need = (RECALL * self.positives() as f64).ceil() as usize;
        let mut hits = 0;
        for (i, o) in self.order.iter().enumerate() {
            hits += usize::from(o.2);
            if hits >= need {
                return i + 1;
            }
        }
        self.order.len()
    }
}

/// Work saved over sampling at `RECALL`: the share of papers left unread
/// when the ranked order reaches that recall, minus the share a reader
/// skipping at random would leave for the same recall (1 − RECALL).
fn wss(read: f64, n: f64) -> f64 {
    (n - read) / n - (1.0 - RECALL)
}

fn evaluate(corpus: &corpus_core::load::Corpus, text: Text, round: &str) -> Ranked {
    let all = examples(corpus, text, None);
    let held: Vec<&Example> = corpus
        .entries
        .iter()
        .filter(|le| le.entry.added_in.as_deref() == Some(round))
        .filter_map(|le| all.iter().find(|e| e.kept && e.id == le.entry.key))
        .collect();
    let train_base: Vec<&Example> = examples(corpus, text, Some(round))
        .into_iter()
        .filter(|e| e.kept)
        .map(|e| {
            all.iter()
                .find(|a| a.kept && a.id == e.id)
                .expect("same entry")
        })
        .collect();
    let records: Vec<&Example> = all.iter().filter(|e| !e.kept).collect();
    let mut held_sum = vec![0.0; held.len()];
    let mut order = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let mut train: Vec<Example> = train_base.iter().map(|e| (*e).clone()).collect();
        train.extend(
            records
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, e)| (*e).clone()),
        );
        let model = Ranker::train(&train).expect("both classes in training");
        order.push((model.score(&r.text).score, r.id.clone(), false));
        for (s, h) in held_sum.iter_mut().zip(&held) {
            *s += model.score(&h.text).score;
        }
    }
    for (s, h) in held_sum.iter().zip(&held) {
        order.push((s / records.len() as f64, h.id.clone(), true));
    }
    // Ties go to the record, so a tie never flatters the ranking.
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.cmp(&b.2)).then(a.1.cmp(&b.1)));
    Ranked { order }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let root = std::path::PathBuf::from(args.next().unwrap_or_else(|| ".".into()));
    let round = args.next().unwrap_or_else(|| "coverage_refresh".into());
    let corpus = match corpus_core::load::load(&root, Default::default()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot load {}: {e:?}", root.display());
            std::process::exit(2);
        }
    };
    let runs: Vec<(Text, Ranked)> = Text::ALL
        .iter()
        .map(|t| (*t, evaluate(&corpus, *t, &round)))
        .collect();
    let (p, n) = {
        let r = &runs[0].1;
        (r.positives(), r.order.len())
    };
    if p == 0 {
        eprintln!("round `{round}` has no entries to find");
        std::process::exit(2);
    }
    println!(
        "Held-out round `{round}`: {p} entries to find among {n} papers ({} excluded records).\n",
        n - p
    );
    println!("| order | recall@10 | recall@20 | read for {:.0}% recall | WSS@{:.0} | ranks of the held entries |", RECALL * 100.0, RECALL * 100.0);
    println!("|---|---:|---:|---:|---:|---|");
    for (t, r) in &runs {
        let ranks: Vec<String> = r
            .order
            .iter()
            .enumerate()
            .filter(|(_, o)| o.2)
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        let read = r.read_for_recall();
        println!(
            "| model over {} | {:.3} | {:.3} | {read} of {n} | {:.3} | {} |",
            t.label(),
            r.recall_at(10),
            r.recall_at(20),
            wss(read as f64, n as f64),
            ranks.join(", ")
        );
    }
    // A random order finds k/n of the positives in its first k on average;
    // the r-th of p positives sits at r(n+1)/(p+1) on average.
    let need = (RECALL * p as f64).ceil();
    let read = need * (n as f64 + 1.0) / (p as f64 + 1.0);
    println!(
        "| random order (expected) | {:.3} | {:.3} | {read:.1} of {n} | {:.3} | |",
        (10.0 / n as f64).min(1.0),
        (20.0 / n as f64).min(1.0),
        wss(read, n as f64)
    );
}
