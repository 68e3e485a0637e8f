//! The counts of the PRISMA 2020 flow diagram for an updated review,
//! computed from the loaded entries (`added_in`) and exclusion log
//! (`stage`, `added_in`) alone.
//!
//! The previous review is the survey's pool (the rounds corpus/survey.yaml
//! names), or the first round of corpus/taxonomy.yaml when there is no
//! survey file; every later round of the taxonomy is a new round. What the
//! data holds: the studies each round added (entries), and the records the
//! log excluded in each round at each stage. What it does not hold, and the
//! diagram therefore reports as not reported: the records a round's
//! searches identified and the records it screened (the log says where a
//! record was excluded, not which stages a retained entry passed), and a new
//! round's exclusions when the log holds no record of that round at all
//! (nothing logged cannot be told from nothing excluded).

use crate::model::corpus::Corpus;
use crate::stats::charts::{self, Flow, FlowRound};

/// The rounds of the previous review: the survey's pool, else the first round.
fn previous_rounds(corpus: &Corpus) -> Vec<String> {
    match corpus.survey_rounds() {
        Some(r) => r.to_vec(),
        None => corpus
            .taxonomy
            .rounds
            .first()
            .map(|r| vec![r.id.clone()])
            .unwrap_or_default(),
    }
}

/// The diagram's counts for a loaded corpus.
pub fn flow(corpus: &Corpus) -> Flow {
    let tax = &corpus.taxonomy;
    let entries = corpus.entry_list();
    let records = corpus.exclusion_list();
    if tax.rounds.is_empty() {
        // No rounds: the whole list is one review with nothing after it.
        return Flow {
            previous: entries.len() as u64,
            previous_lines: Vec::new(),
            rounds: Vec::new(),
        };
    }
    let previous = previous_rounds(corpus);
    let studies = |round: &str| {
        entries
            .iter()
            .filter(|e| tax.round_of(e.added_in.as_deref()) == Some(round))
            .count() as u64
    };
    let logged = |round: &str| {
        records
            .iter()
            .filter(|x| tax.round_of(x.added_in.as_deref()) == Some(round))
            .collect::<Vec<_>>()
    };
    let previous_lines = tax
        .rounds
        .iter()
        .filter(|r| previous.contains(&r.id))
        .map(|r| {
            format!(
                "{}: {}; {} records excluded in the log",
                r.label,
                charts::studies(studies(&r.id)),
                logged(&r.id).len()
            )
        })
        .collect();
    let rounds = tax
        .rounds
        .iter()
        .filter(|r| !previous.contains(&r.id))
        .map(|r| {
            let log = logged(&r.id);
            let excluded = tax
                .screening
                .stages
                .iter()
                .map(|s| {
                    let n = log.iter().filter(|x| x.stage == s.id).count() as u64;
                    (s.label.clone(), (!log.is_empty()).then_some(n))
                })
                .collect();
            FlowRound {
                label: r.label.clone(),
                identified: None,
                screened: None,
                excluded,
                included: studies(&r.id),
            }
        })
        .collect();
    Flow {
        previous: previous.iter().map(|r| studies(r)).sum(),
        previous_lines,
        rounds,
    }
}

/// What the README says about the diagram: its file and how the rounds split.
#[derive(Debug, Clone, serde::Serialize)]
pub struct View {
    /// The diagram's file under stats/.
    pub file: &'static str,
    /// Where the previous review's rounds come from.
    pub previous_source: &'static str,
    /// Labels of the previous review's rounds.
    pub previous_rounds: Vec<String>,
    /// Studies of the previous review.
    pub previous: u64,
    /// Labels of the new rounds, oldest first.
    pub new_rounds: Vec<String>,
    /// Studies the new rounds added.
    pub new_studies: u64,
}

/// The template's view of the diagram whose counts are `f` (`flow`).
pub fn view(corpus: &Corpus, f: &Flow) -> View {
    let previous = previous_rounds(corpus);
    View {
        file: crate::publish::chart_files::PRISMA_CHART,
        previous_source: if corpus.survey_rounds().is_some() {
            "the survey's pool (the rounds `corpus/survey.yaml` names)"
        } else {
            "the first round of `corpus/taxonomy.yaml`"
        },
        previous_rounds: corpus
            .taxonomy
            .rounds
            .iter()
            .filter(|r| previous.contains(&r.id))
            .map(|r| r.label.clone())
            .collect(),
        previous: f.previous,
        new_rounds: f.rounds.iter().map(|r| r.label.clone()).collect(),
        new_studies: f.rounds.iter().map(|r| r.included).sum(),
    }
}
