//! The corpus as loaded: taxonomy, entries, exclusion records, the files
//! they came from, the claims ledger, and the problems met while loading.

use crate::model::claims::Verdict;
use crate::model::taxonomy::Taxonomy;
use crate::model::{Entry, Exclusion};
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::Diagnostic;
use std::sync::OnceLock;

/// An entry with the file it came from.
#[derive(Debug, Clone)]
pub struct LoadedEntry {
    /// The typed entry (fields that failed to convert hold defaults).
    pub entry: Entry,
    /// Index into [`Corpus::files`].
    pub file: usize,
}

/// An exclusion record with the file it came from.
#[derive(Debug, Clone)]
pub struct LoadedExclusion {
    /// The typed record.
    pub record: Exclusion,
    /// Index into [`Corpus::files`].
    pub file: usize,
}

/// Everything loaded from a root, plus the problems met while loading.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The vocabulary.
    pub taxonomy: Taxonomy,
    /// Entries that parsed into a mapping (possibly with field problems).
    pub entries: Vec<LoadedEntry>,
    /// Exclusion records that parsed into a mapping.
    pub exclusions: Vec<LoadedExclusion>,
    /// Every data file read, by index.
    pub files: Vec<SourceFile>,
    /// The claims ledger and its text, when the root has one and it parsed.
    pub claims: Option<(crate::model::claims::Ledger, String)>,
    /// The survey's own facts (figures, Benchmark Gap) and their text, when present.
    pub survey: Option<(crate::model::survey::Survey, String)>,
    /// Where the judged values come from, and the file's text, when present.
    pub locators: Option<(crate::model::locators::Locators, std::sync::Arc<str>)>,
    /// The survey's search (query families, screening rules), when present and valid.
    pub search: Option<crate::model::search::Search>,
    /// The status file (`corpus watch`'s dated events), when present and valid.
    pub status: Option<crate::model::status::Status>,
    /// The releases file (`corpus release`'s record), when present and valid.
    pub releases: Option<crate::model::releases::Releases>,
    /// The claims' verdicts, evaluated on first use and shared by every consumer.
    verdicts: OnceLock<Vec<Verdict>>,
    /// Problems found while loading.
    pub diagnostics: Vec<Diagnostic>,
}

impl Corpus {
    /// A corpus with a taxonomy and nothing else yet.
    pub fn new(taxonomy: Taxonomy) -> Corpus {
        Corpus {
            taxonomy,
            entries: Vec::new(),
            exclusions: Vec::new(),
            files: Vec::new(),
            claims: None,
            survey: None,
            locators: None,
            search: None,
            status: None,
            releases: None,
            verdicts: OnceLock::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Lets go of the texts of the data files and of the ledger, survey and
    /// locators files, which only quoting a diagnostic needs: past a clean
    /// check, a build renders from the parsed values alone, and on a large
    /// list these texts are a tenth of all it holds. Snippets and field
    /// positions come out empty after this.
    pub fn release_texts(&mut self) {
        let empty: std::sync::Arc<str> = std::sync::Arc::from("");
        for f in &mut self.files {
            f.release_text(empty.clone());
        }
        for text in [
            self.claims.as_mut().map(|(_, t)| t),
            self.survey.as_mut().map(|(_, t)| t),
        ]
        .into_iter()
        .flatten()
        {
            *text = String::new();
        }
        if let Some((_, text)) = &mut self.locators {
            *text = empty;
        }
    }

    /// The source file an entry came from.
    pub fn file(&self, idx: usize) -> &SourceFile {
        &self.files[idx]
    }

    /// The entries alone, in key order.
    pub fn entry_list(&self) -> Vec<&Entry> {
        self.entries.iter().map(|e| &e.entry).collect()
    }

    /// The entries by key, for finding the ones a figure, a release or a
    /// changelog names without searching the list for each (which grows
    /// with the square of the list). Of entries sharing a key (an error, so
    /// never in a list that renders) the first is kept.
    pub fn entries_by_key(&self) -> std::collections::HashMap<&str, &Entry> {
        let mut index = std::collections::HashMap::with_capacity(self.entries.len());
        for le in &self.entries {
            index.entry(le.entry.key.as_str()).or_insert(&le.entry);
        }
        index
    }

    /// The exclusion records alone, in record order.
    pub fn exclusion_list(&self) -> Vec<&Exclusion> {
        self.exclusions.iter().map(|e| &e.record).collect()
    }

    /// The rounds of the survey's pool, when the corpus has a survey file
    /// that names them; None: no split, every list is the survey's.
    pub fn survey_rounds(&self) -> Option<&[String]> {
        self.survey
            .as_ref()
            .map(|(s, _)| s.rounds.as_slice())
            .filter(|r| !r.is_empty())
    }

    /// Whether a file's `added_in` puts it in the survey's pool (always,
    /// when the corpus has no split).
    pub fn in_survey_pool(&self, added_in: Option<&str>) -> bool {
        self.taxonomy.in_rounds(added_in, self.survey_rounds())
    }

    /// The entries of the survey's pool, in key order.
    pub fn survey_entries(&self) -> Vec<&Entry> {
        self.entries
            .iter()
            .map(|e| &e.entry)
            .filter(|e| self.in_survey_pool(e.added_in.as_deref()))
            .collect()
    }

    /// The exclusion records of the survey's pool, in record order.
    pub fn survey_exclusions(&self) -> Vec<&Exclusion> {
        self.exclusions
            .iter()
            .map(|x| &x.record)
            .filter(|x| self.in_survey_pool(x.added_in.as_deref()))
            .collect()
    }

    /// Every claim of the ledger judged on this corpus (none without a
    /// ledger), evaluated once however many outputs show them: over the
    /// survey's pool, or the living list for a claim with `pool: living`.
    pub fn verdicts(&self) -> &[Verdict] {
        self.verdicts.get_or_init(|| match &self.claims {
            Some((ledger, _)) => {
                let survey = (self.survey_entries(), self.survey_exclusions());
                let living = (self.entry_list(), self.exclusion_list());
                ledger
                    .claims
                    .iter()
                    .map(|c| {
                        let (entries, records) = match c.pool {
                            crate::model::claims::Pool::Survey => &survey,
                            crate::model::claims::Pool::Living => &living,
                        };
                        crate::model::claims::evaluate(c, entries, records)
                    })
                    .collect()
            }
            None => Vec::new(),
        })
    }
}
