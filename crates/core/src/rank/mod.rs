//! Ranking candidates by the corpus's own decisions: retained entries are
//! the positive examples, excluded records (whatever their stage) the
//! negative ones. The model (`model`) is TF-IDF over words and word pairs
//! with a logistic regression; each score comes with the words that raised
//! it, and each suggested tag with the words it rests on. Suggestions are
//! never judgements: nothing here writes a tag.

pub mod model;

use crate::model::corpus::Corpus;
use crate::model::{Entry, Exclusion};
use model::{features, Logistic, Sparse, Vectorizer};

/// Which text of an entry or record the model learns from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// Titles alone.
    Titles,
    /// Titles with the project's description: an entry's one-liner, a
    /// record's reason for exclusion.
    Described,
}

impl Text {
    /// Every choice, for an evaluation that compares them.
    pub const ALL: [Text; 2] = [Text::Titles, Text::Described];

    /// The text of an entry.
    pub fn of_entry(self, e: &Entry) -> String {
        match self {
            Text::Titles => e.title.clone(),
            Text::Described => format!("{}. {}", e.title, e.one_liner),
        }
    }

    /// The text of an excluded record.
    pub fn of_record(self, x: &Exclusion) -> String {
        match self {
            Text::Titles => x.title.clone(),
            Text::Described => format!("{}. {}", x.title, x.reason),
        }
    }

    /// Its name in reports.
    pub fn label(self) -> &'static str {
        match self {
            Text::Titles => "titles",
            Text::Described => "titles + one-liners / reasons",
        }
    }
}

/// The text `corpus discover` trains on.
pub const DEFAULT_TEXT: Text = Text::Described;

/// One decision of the corpus, as the model sees it.
#[derive(Debug, Clone)]
pub struct Example {
    /// The entry's key or the record's id.
    pub id: String,
    /// The text learnt from.
    pub text: String,
    /// Kept (an entry) or dropped (a record).
    pub kept: bool,
    /// The entry's tags the suggestions learn from: (field, value).
    pub tags: Vec<(&'static str, String)>,
}

/// The tag fields a candidate gets a suggestion for.
pub const SUGGESTED: [&str; 4] = [
    crate::model::fields::CATEGORY,
    crate::model::fields::ORCHESTRATION_FORM,
    crate::model::fields::CREDIT_GRANULARITY,
    crate::model::fields::SCENARIO,
];

fn tags_of(e: &Entry) -> Vec<(&'static str, String)> {
    [
        &e.category,
        &e.orchestration_form,
        &e.credit_granularity,
        &e.scenario,
    ]
    .into_iter()
    .zip(SUGGESTED)
    .filter(|(v, _)| !v.is_empty())
    .map(|(v, f)| (f, v.clone()))
    .collect()
}

/// The decisions of a corpus: every entry and every record, except those
/// of the round `leave_out` (for an evaluation that holds a round back).
pub fn examples(corpus: &Corpus, text: Text, leave_out: Option<&str>) -> Vec<Example> {
    let kept = |round: Option<&str>| leave_out.is_none() || round != leave_out;
    let mut out: Vec<Example> = corpus
        .entries
        .iter()
        .map(|le| &le.entry)
        .filter(|e| kept(e.added_in.as_deref()))
        .map(|e| Example {
            id: e.key.clone(),
            text: text.of_entry(e),
            kept: true,
            tags: tags_of(e),
        })
        .collect();
    out.extend(
        corpus
            .exclusions
            .iter()
            .map(|lx| &lx.record)
            .filter(|x| kept(x.added_in.as_deref()))
            .map(|x| Example {
                id: x.record_id.clone(),
                text: text.of_record(x),
                kept: false,
                tags: Vec::new(),
            }),
    );
    out
}

/// A tag the words of a candidate point to: a suggestion, never a judgement.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// The tag field.
    pub field: &'static str,
    /// The value whose entries' words the candidate shares most.
    pub value: String,
    /// The shared words that weigh most.
    pub evidence: Vec<String>,
}

/// A score with its reasons.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The probability the model gives that the paper is kept, 0 to 1.
    pub score: f64,
    /// The words and word pairs that raised it most.
    pub terms: Vec<String>,
    /// Suggested tags, each with its evidence.
    pub suggestions: Vec<Suggestion>,
}

/// A trained ranker.
#[derive(Debug, Clone)]
pub struct Ranker {
    vectorizer: Vectorizer,
    model: Logistic,
    /// Per (field, value): the sum of its entries' vectors, dense.
    profiles: Vec<(&'static str, String, Vec<f64>)>,
}

/// Terms shown behind a score, and evidence words behind a suggestion.
const SHOWN: usize = 5;

impl Ranker {
    /// Trains on the examples; None when they hold no kept or no dropped paper.
    pub fn train(examples: &[Example]) -> Option<Ranker> {
        if !examples.iter().any(|e| e.kept) || examples.iter().all(|e| e.kept) {
            return None;
        }
        let docs: Vec<Vec<String>> = examples.iter().map(|e| features(&e.text)).collect();
        let vectorizer = Vectorizer::fit(&docs, 2);
        let xs: Vec<Sparse> = docs.iter().map(|d| vectorizer.transform(d)).collect();
        let ys: Vec<bool> = examples.iter().map(|e| e.kept).collect();
        let model = Logistic::fit(&xs, &ys, vectorizer.len());
        let mut profiles: Vec<(&'static str, String, Vec<f64>)> = Vec::new();
        for (ex, x) in examples.iter().zip(&xs) {
            for (field, value) in &ex.tags {
                let at = match profiles
                    .iter()
                    .position(|(f, v, _)| f == field && v == value)
                {
                    Some(i) => i,
                    None => {
                        profiles.push((field, value.clone(), vec![0.0; vectorizer.len()]));
                        profiles.len() - 1
                    }
                };
                for &(i, v) in x {
                    profiles[at].2[i] += v;
                }
            }
        }
        profiles.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        Some(Ranker {
            vectorizer,
            model,
            profiles,
        })
    }

    /// Scores a text, with the terms behind the score and the suggested tags.
    pub fn score(&self, text: &str) -> Scored {
        let x = self.vectorizer.transform(&features(text));
        let terms = self
            .model
            .reasons(&x, SHOWN)
            .into_iter()
            .map(|(i, _)| self.vectorizer.name(i).to_string())
            .collect();
        Scored {
            score: self.model.probability(&x),
            terms,
            suggestions: self.suggest(&x),
        }
    }

    /// Per field, the value whose entries share most weight with `x`
    /// (cosine with the value's summed vector), when any word is shared.
    fn suggest(&self, x: &Sparse) -> Vec<Suggestion> {
        let mut out = Vec::new();
        for field in SUGGESTED {
            let mut best: Option<(f64, &String, &Vec<f64>)> = None;
            for (_, value, p) in self.profiles.iter().filter(|(f, _, _)| *f == field) {
                let norm = p.iter().map(|v| v * v).sum::<f64>().sqrt();
                if norm == 0.0 {
                    continue;
                }
                let sim = x.iter().map(|&(i, v)| v * p[i]).sum::<f64>() / norm;
                if sim > 0.0 && best.is_none_or(|(b, _, _)| sim > b) {
                    best = Some((sim, value, p));
                }
            }
            if let Some((_, value, p)) = best {
                let mut shared: Vec<(usize, f64)> = x
                    .iter()
                    .map(|&(i, v)| (i, v * p[i]))
                    .filter(|(_, c)| *c > 0.0)
                    .collect();
                shared.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                out.push(Suggestion {
                    field,
                    value: value.clone(),
                    evidence: shared
                        .iter()
                        .take(SHOWN)
                        .map(|(i, _)| self.vectorizer.name(*i).to_string())
                        .collect(),
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(id: &str, text: &str, kept: bool, category: &str) -> Example {
        Example {
            id: id.into(),
            text: text.into(),
            kept,
            tags: if category.is_empty() {
                Vec::new()
            } else {
                vec![(crate::model::fields::CATEGORY, category.into())]
            },
        }
    }

    #[test]
    fn scores_come_with_terms_and_suggestions() {
        let set = [
            ex(
                "a",
                "credit assignment for multi agent reinforcement learning",
                true,
                "method",
            ),
            ex(
                "b",
                "multi agent credit assignment with critics",
                true,
                "method",
            ),
            ex("c", "a benchmark of agent teams", true, "benchmark"),
            ex("d", "benchmark agent teams safety", true, "benchmark"),
            ex("e", "prompted debate at inference time", false, ""),
            ex("f", "prompted debate improves chat inference", false, ""),
        ];
        let r = Ranker::train(&set).expect("both classes");
        let good = r.score("credit assignment among reinforcement learning agents");
        let bad = r.score("prompted debate for inference");
        assert!(good.score > bad.score, "{good:?} {bad:?}");
        assert!(
            good.terms.iter().any(|t| t == "credit assignment"),
            "{good:?}"
        );
        let s = &good.suggestions[0];
        assert_eq!((s.field, s.value.as_str()), ("category", "method"));
        assert!(s.evidence.iter().any(|w| w == "credit"), "{s:?}");
        assert!(
            Ranker::train(&set[..4]).is_none(),
            "no dropped paper, nothing to learn"
        );
    }
}
