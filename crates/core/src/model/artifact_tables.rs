//! The survey artifact's own tables, kept as data in `corpus/survey.yaml`,
//! each with a locator naming the artifact file and the place it sits in:
//! the representatives its README tables name per topology and reward
//! family, the claim ledger's per-row readings of the sparse credit cells,
//! the stress test's near-miss exclusions, the protocol's evidence levels
//! and the spot-check's scope, agreement and disagreements. The README
//! shows them as the survey's; `check` keeps their keys pointing at entries
//! and records, and the ledger's readings equal to the entries' tags.

use serde::{Deserialize, Serialize};

/// One entry a survey table names, with the label the table gives it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Named {
    /// Entry key.
    pub key: String,
    /// The table's label for it ("Kimi PARL", "MALT role-PRM").
    #[serde(rename = "as")]
    pub label: String,
}

/// The entries one row of a survey table names as representatives.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SurveyRepresentatives {
    /// `orchestration_form` or `reward_family`.
    pub field: String,
    /// The value the row stands for.
    pub value: String,
    /// The artifact file, table and row.
    pub locator: String,
    /// The entries, in the table's order.
    pub entries: Vec<Named>,
}

/// One row of the claim ledger's per-row table of sparse credit cells.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerRow {
    /// Entry key.
    pub key: String,
    /// The credit unit the row is tagged at.
    pub level: String,
    /// The `strict_credit` value the row's boundary amounts to.
    pub reading: String,
    /// Why the row sits at that unit, in the project's words.
    pub rationale: String,
    /// The mechanism boundary, in the project's words.
    pub boundary: String,
}

/// The claim ledger's per-row table.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerTable {
    /// The artifact file and table.
    pub locator: String,
    /// Rows in the ledger's order.
    pub rows: Vec<LedgerRow>,
}

/// One near-miss exclusion of the stress test.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NearMiss {
    /// The exclusion record's id.
    pub record: String,
    /// Why it was tested, in the project's words.
    pub why: String,
    /// What retaining it would change, in the project's words.
    pub effect: String,
}

/// The stress test's near-miss table.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NearMissTable {
    /// The artifact file and section.
    pub locator: String,
    /// Rows in the audit's order.
    pub rows: Vec<NearMiss>,
    /// What the audit concludes of all of them, in the project's words.
    pub finding: String,
}

/// One evidence level of the artifact protocol.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceLevel {
    /// The kind of source.
    pub evidence: String,
    /// The claims it may support.
    pub supports: String,
}

/// The protocol's evidence levels.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceLevels {
    /// The artifact file and section.
    pub locator: String,
    /// Levels in the protocol's order.
    pub levels: Vec<EvidenceLevel>,
}

/// Agreement on one field of the spot-check.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Agreement {
    /// The field compared.
    pub field: String,
    /// Rows on which the two readings agree.
    pub agree: u64,
    /// Rows compared.
    pub of: u64,
}

/// A row the spot-check records a disagreement or a note on.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpotNote {
    /// Entry key.
    pub key: String,
    /// The CSV's agreement_note value (`disagree_credit`, `agree_with_note`).
    pub verdict: String,
    /// What the second reader said, in the project's words.
    pub note: String,
}

/// The artifact's independent spot-check, as the artifact describes it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpotCheck {
    /// The artifact files and sections.
    pub locator: String,
    /// The date of the audit, YYYY-MM-DD.
    pub date: String,
    /// How many retained rows it covers.
    pub rows: u64,
    /// How the rows were chosen (they were chosen, not sampled).
    pub selection: Vec<String>,
    /// What the audit says it is not, in the project's words.
    pub caveat: String,
    /// Agreement per field, as the claim ledger reports it.
    pub agreement: Vec<Agreement>,
    /// Disagreements and notes, per row.
    pub notes: Vec<SpotNote>,
}
