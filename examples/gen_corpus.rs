//! Writes a synthetic but realistic corpus for the scale benchmark:
//! `cargo run --release --example gen_corpus -- N OUT_DIR`.
//!
//! Entries draw their tags from the project's taxonomy with a skew like the
//! shipped pool's, have realistic field lengths, and unique keys, titles,
//! arXiv ids and links; the exclusion log is sized in the shipped proportion
//! (32 records per 84 entries), every file in the layout `corpus fmt` writes.
//! Output is deterministic for a given N.

use corpus_core::model::format::{formatted_or_same, FileKind};
use std::path::Path;

/// A small deterministic generator, so runs are comparable without a crate.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    /// Picks an item, favouring the first ones the way real tag counts do.
    fn skewed<'a>(&mut self, items: &'a [String]) -> &'a str {
        let a = self.next() as usize % items.len();
        let b = self.next() as usize % items.len();
        &items[a.min(b)]
    }
    fn pick<'a>(&mut self, items: &'a [&str]) -> &'a str {
        items[self.next() as usize % items.len()]
    }
}

const WORDS: [&str; 24] = [
    "Multi-Agent",
    "Reinforcement",
    "Learning",
    "Orchestration",
    "Credit",
    "Assignment",
    "Language",
    "Models",
    "Collaborative",
    "Reasoning",
    "Debate",
    "Planning",
    "Tool",
    "Agents",
    "Hierarchical",
    "Reward",
    "Policy",
    "Optimization",
    "Scalable",
    "Team",
    "Communication",
    "Verifier",
    "Swarm",
    "Benchmark",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(out)) = (
        args.get(1).and_then(|s| s.parse::<usize>().ok()),
        args.get(2),
    ) else {
        eprintln!("usage: gen_corpus N OUT_DIR");
        std::process::exit(2);
    };
    let root = Path::new(out);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tax_text =
        std::fs::read_to_string(manifest.join("corpus/taxonomy.yaml")).expect("taxonomy");
    let tax = corpus_core::model::taxonomy::Taxonomy::from_yaml(&tax_text).expect("valid taxonomy");
    std::fs::create_dir_all(root.join("corpus/papers")).unwrap();
    std::fs::create_dir_all(root.join("exclusions")).unwrap();
    std::fs::create_dir_all(root.join("templates")).unwrap();
    std::fs::write(root.join("corpus/taxonomy.yaml"), &tax_text).unwrap();
    for t in ["README.md.tera", "STATS.md.tera", "site.html.tera"] {
        std::fs::copy(
            manifest.join("templates").join(t),
            root.join("templates").join(t),
        )
        .unwrap();
    }
    let vals = |f: &str| tax.allowed(f).unwrap();
    let (rewards, credits, forms, scenarios) = (
        vals("reward_type"),
        vals("credit_granularity"),
        vals("orchestration_form"),
        vals("scenario"),
    );
    let categories: Vec<String> = [
        "rl_method",
        "benchmark",
        "classical_marl",
        "survey",
        "framework",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut rng = Lcg(n as u64);
    for i in 0..n {
        let key = format!("paper-{i:06}");
        let title: Vec<&str> = (0..6 + rng.next() % 6).map(|_| rng.pick(&WORDS)).collect();
        let month = 1 + i / 90_000 % 12;
        let arxiv = format!("{}{:02}.{:05}", 23 + (i / 1_080_000), month, i % 90_000 + 1);
        let form = rng.skewed(&forms).to_string();
        let reward = rng.skewed(&rewards).to_string();
        // Keep the cross-field rules satisfied so the benchmark measures clean data.
        let credit = if reward == "NA" {
            "NA".to_string()
        } else {
            rng.skewed(&credits).to_string()
        };
        let subs = if form != "NA" && rng.next().is_multiple_of(5) {
            "[o2_delegate]"
        } else {
            "[]"
        };
        let strict = if credit != "NA" && rng.next().is_multiple_of(3) {
            "strict"
        } else {
            "\"no\""
        };
        let text = format!(
            "# yaml-language-server: $schema=../entry.schema.json\n\
             key: {key}\n\
             title: \"{} {i}\"\n\
             first_author: Author{}, Given\n\
             affiliation: University of Example {}\n\
             year: {}\n\
             arxiv_id: \"{arxiv}\"\n\
             venue: arXiv\n\
             urls:\n  - https://arxiv.org/abs/{arxiv}\n\
             category: {}\n\
             is_rl: \"yes\"\n\
             reward_type: {reward}\n\
             credit_granularity: {credit}\n\
             orchestration_form: {form}\n\
             scenario: {}\n\
             is_core: {}\n\
             verified: \"yes\"\n\
             subdecisions: {subs}\n\
             subdecisions_source: [contributor]\n\
             strict_credit: {strict}\n\
             strict_credit_source: contributor\n\
             one_liner: A synthetic entry about {} used to measure how the tool scales with corpus size.\n",
            title.join(" "),
            rng.next() % 5000,
            rng.next() % 300,
            2023 + i / 1_080_000 + 1,
            rng.skewed(&categories),
            rng.skewed(&scenarios),
            rng.pick(&["core", "supporting"]),
            rng.pick(&WORDS).to_lowercase(),
        );
        // In the layout `corpus fmt` writes, as a curated corpus is kept.
        let text = formatted_or_same(text, FileKind::Entry);
        std::fs::write(root.join(format!("corpus/papers/{key}.yaml")), text).unwrap();
    }
    let stages: Vec<String> = tax.screening.stages.iter().map(|s| s.id.clone()).collect();
    for j in 0..(n * 32).div_ceil(84) {
        let id = format!("E{:06}", j + 1);
        let text = format!(
            "record_id: {id}\ntitle: Screened record {j}\nidentifier: OpenReview:bench{j}\nurl: https://openreview.net/forum?id=bench{j}\n\
             source: {}\nquery_family: {}\ndate_screened: 2026-04-26\nstage: {}\nreason: A synthetic record excluded for the benchmark.\n",
            rng.skewed(&tax.screening.sources),
            rng.skewed(&tax.screening.query_families),
            rng.skewed(&stages),
        );
        let text = formatted_or_same(text, FileKind::Record);
        std::fs::write(root.join(format!("exclusions/{id}.yaml")), text).unwrap();
    }
    println!("wrote {n} entries to {}", root.display());
}
