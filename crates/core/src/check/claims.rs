//! The claims of the ledger that no longer hold.

use crate::layout::Layout;
use crate::model::claims::{claim_line, unfalsifiable};
use crate::model::corpus::Corpus;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;

/// `claim-broken` and `claim-unfalsifiable` diagnostics, in one pass over
/// the ledger's claims and their verdicts (judged once, `Corpus::verdicts`):
/// a claim that does not hold is broken; one that holds though no single
/// edit could break its form (see [`crate::model::claims::unfalsifiable`])
/// cannot fail. The form alone decides, so `check` stays as fast as
/// counting; the search over edits runs in the test suite.
pub(super) fn claim_problems(corpus: &Corpus) -> Vec<Diagnostic> {
    let Some((ledger, text)) = &corpus.claims else {
        return Vec::new();
    };
    let tax = &corpus.taxonomy;
    let broken = tax.severity_of(Rule::ClaimBroken);
    let cannot_fail = tax.severity_of(Rule::ClaimUnfalsifiable);
    let mut out = Vec::new();
    for (c, v) in ledger.claims.iter().zip(corpus.verdicts()) {
        let why = unfalsifiable(c, v);
        if v.holds && why.is_none() {
            continue;
        }
        let line = claim_line(text, &v.id);
        if let Some(why) = why {
            out.push(
                Diagnostic::new(
                    Rule::ClaimUnfalsifiable,
                    cannot_fail,
                    Layout::CLAIMS,
                    format!("claim `{}` cannot fail: {why}", c.id),
                )
                .at_line(line)
                .field(format!("claims.{}", c.id))
                .help("state the source's figure exactly (`== N` or the set of keys) and filter on the tags the sentence is about"),
            );
        }
        if v.holds {
            continue;
        }
        let named = !v.missing.is_empty() || !v.unexpected.is_empty() || v.matching.len() <= 12;
        let who = if let Some((field, judged, of)) = v.coverage.as_ref().filter(|_| !v.covered()) {
            format!("`{field}` is judged for only {judged} of the {of} entries the claim needs; it cannot hold by construction")
        } else if !v.missing.is_empty() || !v.unexpected.is_empty() {
            let mut parts = Vec::new();
            if !v.missing.is_empty() {
                parts.push(format!("no longer matching: {}", v.missing.join(", ")));
            }
            if !v.unexpected.is_empty() {
                parts.push(format!("newly matching: {}", v.unexpected.join(", ")));
            }
            parts.join("; ")
        } else if v.matching.len() <= 12 {
            format!(
                "matching: {}",
                if v.matching.is_empty() {
                    "none".to_string()
                } else {
                    v.matching.join(", ")
                }
            )
        } else {
            format!("{} entries match", v.matching.len())
        };
        out.push(
            Diagnostic::new(
                Rule::ClaimBroken,
                broken,
                Layout::CLAIMS,
                format!("claim `{}` no longer holds: expected {}, found {} ({who})", v.id, v.expected, v.actual),
            )
            .at_line(line)
            .field(format!("claims.{}", v.id))
            .help(if named {
                format!("\"{}\" — fix the tags of the entries named, or update the claim and the survey text together", v.statement)
            } else {
                format!("\"{}\" — `corpus claims --verbose` lists the matching entries; fix their tags, or update the claim and the survey text together", v.statement)
            }),
        );
    }
    out
}

/// `claim-expectation-rewritten` diagnostics: every claim whose source is the
/// survey or its artifact (the survey file's `published_sources`, on either
/// side) and whose expectation differs from the base's while its source
/// stayed the same. A published figure is not the contributor's to change;
/// a new source (an erratum, a later version) must be named with it.
pub fn rewritten_expectations(base: &Corpus, corpus: &Corpus) -> Vec<Diagnostic> {
    let (Some((old, _)), Some((new, text))) = (&base.claims, &corpus.claims) else {
        return Vec::new();
    };
    let published = |c: &Corpus| -> Vec<String> {
        c.survey
            .as_ref()
            .map(|(s, _)| s.published_sources.clone())
            .unwrap_or_default()
    };
    let (was, is) = (published(base), published(corpus));
    let severity = corpus.taxonomy.severity_of(Rule::ClaimExpectationRewritten);
    let mut out = Vec::new();
    for claim in &new.claims {
        let Some(before) = old.claims.iter().find(|c| c.id == claim.id) else {
            continue;
        };
        let from_survey = was.contains(&before.source) || is.contains(&claim.source);
        if !from_survey || before.expect == claim.expect || before.source != claim.source {
            continue;
        }
        out.push(
            Diagnostic::new(
                Rule::ClaimExpectationRewritten,
                severity,
                Layout::CLAIMS,
                format!(
                    "claim `{}` (source `{}`) changes its expectation: {} → {}",
                    claim.id,
                    claim.source,
                    before.expect,
                    claim.expect
                ),
            )
            .at_line(claim_line(text, &claim.id))
            .field(format!("claims.{}", claim.id))
            .help("a published figure does not move with the data: restore the expectation, or name the new source (an erratum, a later version) in `source` in the same change"),
        );
    }
    out
}
