//! The optional files of a root: the claims ledger, the survey facts, the
//! locators of judged values, the search file, the status file and the
//! releases file.

use super::inputs::Inputs;
use super::read::accepted;
use crate::layout::Layout;
use crate::model::corpus::Corpus;
use crate::model::taxonomy::Taxonomy;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_io::reader::ReadError;
use std::sync::Arc;

/// The claims ledger, the survey facts, the locators and the search file,
/// parsed apart from the corpus: they need only the taxonomy, so they are
/// read while the data folders are, and join the corpus after its files.
#[derive(Default)]
pub(super) struct Optional {
    claims: Option<(crate::model::claims::Ledger, String)>,
    survey: Option<(crate::model::survey::Survey, String)>,
    locators: Option<(crate::model::locators::Locators, Arc<str>)>,
    search: Option<crate::model::search::Search>,
    diagnostics: Vec<Diagnostic>,
}

impl Optional {
    /// Parses the four files the root has, in the order their problems are reported.
    pub(super) fn parse(inputs: &Inputs, taxonomy: &Taxonomy) -> Self {
        let mut out = Optional::default();
        parse_claims(inputs.claims.as_ref(), taxonomy, &mut out);
        parse_survey(inputs.survey.as_ref(), &mut out);
        parse_locators(inputs.locators.as_ref(), &mut out);
        parse_search(inputs.search.as_ref(), taxonomy, &mut out);
        out
    }

    /// The parsed files, and their problems after those already reported.
    pub(super) fn into_corpus(self, corpus: &mut Corpus) {
        corpus.claims = self.claims;
        corpus.survey = self.survey;
        corpus.locators = self.locators;
        corpus.search = self.search;
        corpus.diagnostics.extend(self.diagnostics);
    }
}

/// Takes in the survey facts (`corpus/survey.yaml`), when the root has them.
fn parse_survey(read: Option<&Result<String, ReadError>>, out: &mut Optional) {
    let Some(read) = read else { return };
    let parsed = accepted(read.as_deref(), Layout::SURVEY, None)
        .map_err(|d| vec![d])
        .and_then(|text| crate::model::survey::parse(text).map(|s| (s, text.to_string())));
    match parsed {
        Ok(s) => out.survey = Some(s),
        Err(d) => out.diagnostics.extend(d),
    }
}

/// Takes in the locators of judged values (`corpus/locators.yaml`), when
/// the root has them.
fn parse_locators(read: Option<&Result<Arc<str>, ReadError>>, out: &mut Optional) {
    let Some(read) = read else { return };
    // The text the corpus keeps is the one read, shared, not a copy.
    let kept = |text: &str| match read {
        Ok(shared) => Arc::clone(shared),
        Err(_) => Arc::from(text),
    };
    let parsed = accepted(read.as_deref(), Layout::LOCATORS, None)
        .map_err(|d| vec![d])
        .and_then(|text| crate::model::locators::parse(text).map(|l| (l, kept(text))));
    match parsed {
        Ok(l) => out.locators = Some(l),
        Err(d) => out.diagnostics.extend(d),
    }
}

/// Takes in and validates the search file, when the root has one; a search
/// with problems is reported and left out, so `discover` never runs it.
fn parse_search(read: Option<&Result<String, ReadError>>, taxonomy: &Taxonomy, out: &mut Optional) {
    let Some(read) = read else { return };
    let parsed = accepted(read.as_deref(), Layout::SEARCH, None)
        .map_err(|d| vec![d])
        .and_then(crate::model::search::parse);
    match parsed {
        Ok(s) => {
            let problems = crate::model::search::validate(&s, Some(taxonomy));
            if problems.is_empty() {
                out.search = Some(s);
            }
            out.diagnostics.extend(problems);
        }
        Err(d) => out.diagnostics.extend(d),
    }
}

/// Takes in the status file, when the root has one; one that does not parse
/// is reported (`status-file`) and left out.
pub(super) fn parse_status(read: Option<&Result<String, ReadError>>, corpus: &mut Corpus) {
    let Some(read) = read else { return };
    let text = match accepted(read.as_deref(), Layout::STATUS, None) {
        Ok(t) => t,
        Err(d) => return corpus.diagnostics.push(d),
    };
    match crate::model::status::Status::from_yaml(text) {
        Ok(s) => corpus.status = Some(s),
        Err(e) => corpus.diagnostics.push(
            Diagnostic::new(
                Rule::StatusFile,
                Rule::StatusFile.default_severity(),
                Layout::STATUS,
                format!("not a status file: {e}"),
            )
            .help("correct the hand edit, or restore the file from git; `corpus watch --write` writes it"),
        ),
    }
}

/// Takes in the releases file, when the root has one; one that does not
/// parse is reported (`releases-file`) and left out.
pub(super) fn parse_releases(read: Option<&Result<String, ReadError>>, corpus: &mut Corpus) {
    let Some(read) = read else { return };
    let text = match accepted(read.as_deref(), Layout::RELEASES, None) {
        Ok(t) => t,
        Err(d) => return corpus.diagnostics.push(d),
    };
    match crate::model::releases::Releases::from_yaml(text) {
        Ok(r) => corpus.releases = Some(r),
        Err(e) => corpus.diagnostics.push(
            Diagnostic::new(
                Rule::ReleasesFile,
                corpus.taxonomy.severity_of(Rule::ReleasesFile),
                Layout::RELEASES,
                format!("not a releases file: {e}"),
            )
            .help(
                "correct the hand edit, or restore the file from git; `corpus release` writes it",
            ),
        ),
    }
}

/// Takes in and validates the claims ledger, when the root has one; a ledger
/// with problems is reported and left out, so no claim is judged on it.
fn parse_claims(read: Option<&Result<String, ReadError>>, taxonomy: &Taxonomy, out: &mut Optional) {
    let Some(read) = read else { return };
    let parsed = accepted(read.as_deref(), Layout::CLAIMS, None)
        .map_err(|d| vec![d])
        .and_then(|text| crate::model::claims::parse(text).map(|ledger| (ledger, text)));
    match parsed {
        Ok((ledger, text)) => {
            let problems = crate::model::claims::validate(&ledger, text, Some(taxonomy));
            if problems.is_empty() {
                out.claims = Some((ledger, text.to_string()));
            }
            out.diagnostics.extend(problems);
        }
        Err(d) => out.diagnostics.extend(d),
    }
}
