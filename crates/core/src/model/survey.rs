//! Facts of the survey itself (`corpus/survey.yaml`): the paper and its
//! artifact, the memberships of the survey's two figures, its Benchmark Gap
//! table, short names and chosen representatives. Entries are referenced by
//! key; `survey_check` checks them against the entries.

use crate::layout::Layout;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use serde::{Deserialize, Serialize};

/// The judgement source that stands for a survey figure.
pub const FIGURE_SOURCE: &str = "survey_figure";

/// The paper and its public artifact.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Paper {
    /// Title as published.
    pub title: String,
    /// Authors, "Family, Given".
    pub authors: Vec<String>,
    /// Year of the preprint.
    pub year: i64,
    /// arXiv id, quoted.
    pub arxiv_id: String,
    /// The upstream artifact repository.
    pub artifact: String,
    /// Date of the artifact snapshot the corpus follows, YYYY-MM-DD.
    pub snapshot: String,
    /// The key of the README's BibTeX record; when absent, the first
    /// author's family name, the year and the title's first word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bibtex_key: Option<String>,
}

impl Paper {
    /// The key of the paper's BibTeX record, letters and digits only.
    pub fn bibtex_key(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_lowercase()
        };
        if let Some(k) = self
            .bibtex_key
            .as_deref()
            .map(clean)
            .filter(|k| !k.is_empty())
        {
            return k;
        }
        let family = self
            .authors
            .first()
            .map(|a| a.split(',').next().unwrap_or(a))
            .unwrap_or("anonymous");
        let word = self.title.split_whitespace().next().unwrap_or("");
        format!("{}{}{}", clean(family), self.year, clean(word))
    }
}

/// One level of a figure: the value it shows and the entries named there.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// A credit unit or a sub-decision id.
    pub value: String,
    /// Keys of the entries the figure names at this level (may be empty).
    #[serde(default)]
    pub entries: Vec<String>,
    /// What the figure shows at a level without entries, in the project's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The text of the figure's file that heads this level (its column or
    /// row): `corpus survey figures` finds the entries by its position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
}

/// Which entry field a figure's levels are values of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FigureField {
    /// Credit units: `credit_granularity` or `additional_credit_units`.
    CreditUnit,
    /// `subdecisions`.
    Subdecisions,
    /// `orchestration_form`: the figure names examples of each form, which
    /// need not carry the form as their tag.
    OrchestrationForm,
}

/// How a figure's file lays its levels out, so the entries named under a
/// level can be found from the positions of its texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FigureLayout {
    /// Each level heads a column: its entries share the header's x and sit
    /// below it (the nearest header above them on that x).
    Columns,
    /// Each level heads a row: its entries share the header's y and sit to
    /// its right (the nearest header left of them on that y).
    Rows,
}

/// A figure of the survey, as memberships.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// Stable id.
    pub id: String,
    /// Caption in the project's words.
    pub title: String,
    /// The field the levels are values of.
    pub field: FigureField,
    /// The figure's file in the artifact (e.g. `assets/credit_hierarchy.svg`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The artifact's commit that last changed that file: the memberships
    /// were read from the file as of this commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// How the file lays the levels out (needed to read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<FigureLayout>,
    /// Levels in the project's order.
    pub levels: Vec<Level>,
}

/// What a label of the survey's figures names: the entries (none for a
/// text that names no entry, such as a baseline or a node's letter).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FigureLabel {
    /// The label as the figure writes it.
    pub label: String,
    /// The entries it names; empty: it names none.
    #[serde(default)]
    pub keys: Vec<String>,
}

/// One row of the Benchmark Gap table.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GapRow {
    /// Task domain.
    pub domain: String,
    /// Benchmark entries the survey cites for it (keys of `benchmark` entries).
    pub benchmarks: Vec<String>,
    /// Benchmarks it names that are not entries of the corpus.
    #[serde(default)]
    pub also_named: Vec<String>,
    /// Whether the benchmarks are native to multi-agent systems.
    pub mas_native: String,
    /// Which evaluation measures (E1–E4) they cover.
    pub measures: String,
}

/// The short name the README uses for an entry.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Name {
    /// Entry key.
    pub key: String,
    /// Short name (the survey's label where it names the entry).
    pub name: String,
}

/// Representative entries chosen for one value of a field.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Representatives {
    /// `orchestration_form` or `reward_family`.
    pub field: String,
    /// The value they illustrate.
    pub value: String,
    /// Entry keys, in display order.
    pub entries: Vec<String>,
    /// The artifact's file that names them, when the survey chose them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The place in that file (a table and its row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// When this project chose them: one sentence saying on what grounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The whole survey file.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Survey {
    /// The paper.
    pub paper: Paper,
    /// The rounds (of the taxonomy) whose entries and records make up the
    /// survey's pool; empty: the survey's pool is the whole list.
    #[serde(default)]
    pub rounds: Vec<String>,
    /// The claim sources that are the survey or its artifact: a claim from
    /// one of them keeps its expectation unless its source changes too.
    #[serde(default)]
    pub published_sources: Vec<String>,
    /// The survey's figures, as memberships (none when the survey has none).
    #[serde(default)]
    pub figures: Vec<Figure>,
    /// Labels of the figures that are not an entry's short name, key or
    /// title before its colon, with the entries they name.
    #[serde(default)]
    pub figure_labels: Vec<FigureLabel>,
    /// What E1–E4 stand for, as far as the survey's table says.
    #[serde(default)]
    pub measures_note: String,
    /// The Benchmark Gap table (the README leaves it out when empty).
    #[serde(default)]
    pub benchmark_gap: Vec<GapRow>,
    /// Short names for entries whose title has none before a colon.
    #[serde(default)]
    pub names: Vec<Name>,
    /// Representative entries per orchestration form and reward family,
    /// chosen by this project among entries carrying the value.
    #[serde(default)]
    pub representatives: Vec<Representatives>,
    /// The representatives the survey's own README tables name.
    #[serde(default)]
    pub survey_representatives: Vec<crate::model::artifact_tables::SurveyRepresentatives>,
    /// The claim ledger's per-row readings of the sparse credit cells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_ledger: Option<crate::model::artifact_tables::LedgerTable>,
    /// The coverage stress test's near-miss exclusions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near_misses: Option<crate::model::artifact_tables::NearMissTable>,
    /// The artifact protocol's evidence levels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_levels: Option<crate::model::artifact_tables::EvidenceLevels>,
    /// The artifact's independent spot-check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spotcheck: Option<crate::model::artifact_tables::SpotCheck>,
}

impl Survey {
    /// The figure whose levels are values of `field`.
    pub fn figure(&self, field: FigureField) -> Option<&Figure> {
        self.figures.iter().find(|f| f.field == field)
    }

    /// The survey's own representatives for a value of a field.
    pub fn survey_representatives(
        &self,
        field: &str,
        value: &str,
    ) -> &[crate::model::artifact_tables::Named] {
        self.survey_representatives
            .iter()
            .find(|r| r.field == field && r.value == value)
            .map(|r| r.entries.as_slice())
            .unwrap_or(&[])
    }

    /// The representative entries chosen for a value of a field.
    pub fn representatives(&self, field: &str, value: &str) -> &[String] {
        self.representatives
            .iter()
            .find(|r| r.field == field && r.value == value)
            .map(|r| r.entries.as_slice())
            .unwrap_or(&[])
    }

    /// Values a figure of `field` shows for an entry.
    pub fn memberships(&self, field: FigureField, key: &str) -> Vec<&str> {
        self.figure(field)
            .map(|f| {
                f.levels
                    .iter()
                    .filter(|l| l.entries.iter().any(|k| k == key))
                    .map(|l| l.value.as_str())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Parses the survey file's text.
pub fn parse(text: &str) -> Result<Survey, Vec<Diagnostic>> {
    crate::yaml::block::from_str(text).map_err(|e| {
        let x = crate::yaml::error::explain(&e, text);
        vec![x.place(Diagnostic::new(
            Rule::YamlSyntax,
            Severity::Error,
            Layout::SURVEY,
            format!("the survey file cannot be read: {}", x.message),
        ))]
    })
}
