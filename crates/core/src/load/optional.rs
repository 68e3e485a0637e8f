//! The optional files of a root: the claims ledger and the survey facts.

use super::read_text;
use crate::layout::Layout;

use crate::model::corpus::Corpus;
use corpus_io::digest::Digest;
use std::path::Path;

/// Reads the survey facts (`corpus/survey.yaml`), when the root has them.
pub(super) fn load_survey(root: &Path, max: u64, corpus: &mut Corpus, digest: &mut Digest) {
    let path = root.join(Layout::SURVEY);
    digest.add(Layout::SURVEY.as_bytes());
    if !path.exists() {
        return;
    }
    let parsed = read_text(&path, Layout::SURVEY, max, None)
        .inspect(|text| {
            digest.add(text.as_bytes());
        })
        .map_err(|d| vec![d])
        .and_then(|text| crate::model::survey::parse(&text).map(|s| (s, text)));
    match parsed {
        Ok(s) => corpus.survey = Some(s),
        Err(d) => corpus.diagnostics.extend(d),
    }
}

/// Reads and validates the claims ledger, when the root has one; a ledger
/// with problems is reported and left out, so no claim is judged on it.
pub(super) fn load_claims(root: &Path, max: u64, corpus: &mut Corpus, digest: &mut Digest) {
    let path = root.join(Layout::CLAIMS);
    digest.add(Layout::CLAIMS.as_bytes());
    if !path.exists() {
        return;
    }
    let parsed = read_text(&path, Layout::CLAIMS, max, None)
        .inspect(|text| {
            digest.add(text.as_bytes());
        })
        .map_err(|d| vec![d])
        .and_then(|text| crate::model::claims::parse(&text).map(|ledger| (ledger, text)));
    match parsed {
        Ok((ledger, text)) => {
            let problems = crate::model::claims::validate(&ledger, &text, Some(&corpus.taxonomy));
            if problems.is_empty() {
                corpus.claims = Some((ledger, text));
            }
            corpus.diagnostics.extend(problems);
        }
        Err(d) => corpus.diagnostics.extend(d),
    }
}
