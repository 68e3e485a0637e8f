//! The rule registry: every rule implemented in code, with its id, its
//! default severity and what it finds, in one place.
//!
//! The taxonomy declares each of these (with the sentence a contributor
//! reads) and may change a severity; it may also define rules of its own
//! (`when`/`require` filters), which are identified by their id alone.

use crate::diag::Severity;
use std::fmt;

/// A rule implemented in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// `yaml-syntax`: The file is not YAML holding one mapping.
    YamlSyntax,
    /// `file-unreadable`: The file cannot be read: missing, not a regular file, too large, not UTF-8 or empty.
    FileUnreadable,
    /// `stray-file`: A file other than .yaml sits in an entry or exclusion folder.
    StrayFile,
    /// `unknown-field`: A field the field table does not know.
    UnknownField,
    /// `missing-field`: A required field is absent or empty.
    MissingField,
    /// `duplicate-field`: A field (or a list item) appears twice.
    DuplicateField,
    /// `field-type`: A field holds the wrong type of value.
    FieldType,
    /// `empty-field`: A required text field is blank.
    EmptyField,
    /// `unknown-value`: A tag value the taxonomy does not list.
    UnknownValue,
    /// `key-format`: A key or record id is not in its format.
    KeyFormat,
    /// `key-mismatch`: A key or record id differs from its file name.
    KeyMismatch,
    /// `arxiv-format`: An arXiv id that is malformed.
    ArxivFormat,
    /// `arxiv-unquoted`: An arXiv id written as a YAML number.
    ArxivUnquoted,
    /// `url-scheme`: A link that is not an absolute http(s) URL.
    UrlScheme,
    /// `year-range`: A year before the earliest accepted or after the cutoff year.
    YearRange,
    /// `date-invalid`: A date that is not a real YYYY-MM-DD date.
    DateInvalid,
    /// `date-after-cutoff`: A screening date after the search cutoff.
    DateAfterCutoff,
    /// `identifier-format`: An exclusion record identifier of no known form.
    IdentifierFormat,
    /// `duplicate-key`: Two files share a key or record id.
    DuplicateKey,
    /// `duplicate-arxiv`: Two entries share an arXiv id.
    DuplicateArxiv,
    /// `duplicate-url`: A link used twice.
    DuplicateUrl,
    /// `duplicate-title`: Two entries share a normalised title.
    DuplicateTitle,
    /// `excluded-retained`: An excluded record that is also a retained entry.
    ExcludedRetained,
    /// `arxiv-url-mismatch`: An entry with an arXiv id but no arxiv.org link.
    ArxivUrlMismatch,
    /// `arxiv-link-id`: An arxiv.org link naming another id than the entry's (or the record's identifier).
    ArxivLinkId,
    /// `control-character`: A text value holding a control or bidirectional-override character.
    ControlCharacter,
    /// `arxiv-year`: A year outside the arXiv id's year to two years after.
    ArxivYear,
    /// `waiver-unused`: A waiver that waives nothing, names no warning rule or gives no reason.
    WaiverUnused,
    /// `stale-generated`: A generated file differs from what `corpus build` writes.
    StaleGenerated,
    /// `claim-invalid`: A claim of the ledger that is malformed.
    ClaimInvalid,
    /// `claim-broken`: A claim of the ledger that does not hold on the data.
    ClaimBroken,
    /// `schema-modeline`: An entry file without the schema modeline on its first line.
    SchemaModeline,
    /// `judgement-unsourced`: A judged tag without its source, or a source without its tag.
    JudgementUnsourced,
    /// `subdecisions-not-judged`: An RL or partly-RL entry whose sub-decisions are not judged.
    SubdecisionsNotJudged,
    /// `additional-unit-repeats-primary`: An additional credit unit that repeats credit_granularity.
    AdditionalUnitRepeatsPrimary,
    /// `survey-figure-membership`: An entry that disagrees with a survey figure naming it, or cites the figure for what it does not show.
    SurveyFigureMembership,
    /// `survey-reference`: A key in corpus/survey.yaml that is no entry or does not carry the tag it illustrates.
    SurveyReference,
    /// `not-formatted`: A data file not in the layout `corpus fmt` writes.
    NotFormatted,
    /// `yaml-ambiguous-scalar`: Plain text that YAML 1.1 readers take for a boolean, number, date or null.
    YamlAmbiguousScalar,
    /// `latex-escape`: A LaTeX escape in a text field that should hold UTF-8 text.
    LatexEscape,
}

impl Rule {
    /// Every built-in rule.
    pub const ALL: [Rule; 40] = [
        Rule::YamlSyntax,
        Rule::FileUnreadable,
        Rule::StrayFile,
        Rule::UnknownField,
        Rule::MissingField,
        Rule::DuplicateField,
        Rule::FieldType,
        Rule::EmptyField,
        Rule::UnknownValue,
        Rule::KeyFormat,
        Rule::KeyMismatch,
        Rule::ArxivFormat,
        Rule::ArxivUnquoted,
        Rule::UrlScheme,
        Rule::YearRange,
        Rule::DateInvalid,
        Rule::DateAfterCutoff,
        Rule::IdentifierFormat,
        Rule::DuplicateKey,
        Rule::DuplicateArxiv,
        Rule::DuplicateUrl,
        Rule::DuplicateTitle,
        Rule::ExcludedRetained,
        Rule::ArxivUrlMismatch,
        Rule::ArxivLinkId,
        Rule::ControlCharacter,
        Rule::ArxivYear,
        Rule::WaiverUnused,
        Rule::StaleGenerated,
        Rule::ClaimInvalid,
        Rule::ClaimBroken,
        Rule::SchemaModeline,
        Rule::JudgementUnsourced,
        Rule::SubdecisionsNotJudged,
        Rule::AdditionalUnitRepeatsPrimary,
        Rule::SurveyFigureMembership,
        Rule::SurveyReference,
        Rule::NotFormatted,
        Rule::YamlAmbiguousScalar,
        Rule::LatexEscape,
    ];

    /// The stable id, as written in diagnostics, waivers and the taxonomy.
    pub fn id(self) -> &'static str {
        match self {
            Rule::YamlSyntax => "yaml-syntax",
            Rule::FileUnreadable => "file-unreadable",
            Rule::StrayFile => "stray-file",
            Rule::UnknownField => "unknown-field",
            Rule::MissingField => "missing-field",
            Rule::DuplicateField => "duplicate-field",
            Rule::FieldType => "field-type",
            Rule::EmptyField => "empty-field",
            Rule::UnknownValue => "unknown-value",
            Rule::KeyFormat => "key-format",
            Rule::KeyMismatch => "key-mismatch",
            Rule::ArxivFormat => "arxiv-format",
            Rule::ArxivUnquoted => "arxiv-unquoted",
            Rule::UrlScheme => "url-scheme",
            Rule::YearRange => "year-range",
            Rule::DateInvalid => "date-invalid",
            Rule::DateAfterCutoff => "date-after-cutoff",
            Rule::IdentifierFormat => "identifier-format",
            Rule::DuplicateKey => "duplicate-key",
            Rule::DuplicateArxiv => "duplicate-arxiv",
            Rule::DuplicateUrl => "duplicate-url",
            Rule::DuplicateTitle => "duplicate-title",
            Rule::ExcludedRetained => "excluded-retained",
            Rule::ArxivUrlMismatch => "arxiv-url-mismatch",
            Rule::ArxivLinkId => "arxiv-link-id",
            Rule::ControlCharacter => "control-character",
            Rule::ArxivYear => "arxiv-year",
            Rule::WaiverUnused => "waiver-unused",
            Rule::StaleGenerated => "stale-generated",
            Rule::ClaimInvalid => "claim-invalid",
            Rule::ClaimBroken => "claim-broken",
            Rule::SchemaModeline => "schema-modeline",
            Rule::JudgementUnsourced => "judgement-unsourced",
            Rule::SubdecisionsNotJudged => "subdecisions-not-judged",
            Rule::AdditionalUnitRepeatsPrimary => "additional-unit-repeats-primary",
            Rule::SurveyFigureMembership => "survey-figure-membership",
            Rule::SurveyReference => "survey-reference",
            Rule::NotFormatted => "not-formatted",
            Rule::YamlAmbiguousScalar => "yaml-ambiguous-scalar",
            Rule::LatexEscape => "latex-escape",
        }
    }

    /// The severity when the taxonomy does not set one.
    pub fn default_severity(self) -> Severity {
        match self {
            Rule::YamlSyntax => Severity::Error,
            Rule::FileUnreadable => Severity::Error,
            Rule::StrayFile => Severity::Warning,
            Rule::UnknownField => Severity::Error,
            Rule::MissingField => Severity::Error,
            Rule::DuplicateField => Severity::Error,
            Rule::FieldType => Severity::Error,
            Rule::EmptyField => Severity::Error,
            Rule::UnknownValue => Severity::Error,
            Rule::KeyFormat => Severity::Error,
            Rule::KeyMismatch => Severity::Error,
            Rule::ArxivFormat => Severity::Error,
            Rule::ArxivUnquoted => Severity::Error,
            Rule::UrlScheme => Severity::Error,
            Rule::YearRange => Severity::Error,
            Rule::DateInvalid => Severity::Error,
            Rule::DateAfterCutoff => Severity::Error,
            Rule::IdentifierFormat => Severity::Error,
            Rule::DuplicateKey => Severity::Error,
            Rule::DuplicateArxiv => Severity::Error,
            Rule::DuplicateUrl => Severity::Error,
            Rule::DuplicateTitle => Severity::Error,
            Rule::ExcludedRetained => Severity::Error,
            Rule::ArxivUrlMismatch => Severity::Warning,
            Rule::ArxivLinkId => Severity::Error,
            Rule::ControlCharacter => Severity::Error,
            Rule::ArxivYear => Severity::Warning,
            Rule::WaiverUnused => Severity::Warning,
            Rule::StaleGenerated => Severity::Error,
            Rule::ClaimInvalid => Severity::Error,
            Rule::ClaimBroken => Severity::Error,
            Rule::SchemaModeline => Severity::Warning,
            Rule::JudgementUnsourced => Severity::Error,
            Rule::SubdecisionsNotJudged => Severity::Warning,
            Rule::AdditionalUnitRepeatsPrimary => Severity::Error,
            Rule::SurveyFigureMembership => Severity::Error,
            Rule::SurveyReference => Severity::Error,
            Rule::NotFormatted => Severity::Warning,
            Rule::YamlAmbiguousScalar => Severity::Warning,
            Rule::LatexEscape => Severity::Warning,
        }
    }

    /// What the rule finds, in one line.
    pub fn description(self) -> &'static str {
        match self {
            Rule::YamlSyntax => "The file is not YAML holding one mapping.",
            Rule::FileUnreadable => "The file cannot be read: missing, not a regular file, too large, not UTF-8 or empty.",
            Rule::StrayFile => "A file other than .yaml sits in an entry or exclusion folder.",
            Rule::UnknownField => "A field the field table does not know.",
            Rule::MissingField => "A required field is absent or empty.",
            Rule::DuplicateField => "A field (or a list item) appears twice.",
            Rule::FieldType => "A field holds the wrong type of value.",
            Rule::EmptyField => "A required text field is blank.",
            Rule::UnknownValue => "A tag value the taxonomy does not list.",
            Rule::KeyFormat => "A key or record id is not in its format.",
            Rule::KeyMismatch => "A key or record id differs from its file name.",
            Rule::ArxivFormat => "An arXiv id that is malformed.",
            Rule::ArxivUnquoted => "An arXiv id written as a YAML number.",
            Rule::UrlScheme => "A link that is not an absolute http(s) URL.",
            Rule::YearRange => "A year before the earliest accepted or after the cutoff year.",
            Rule::DateInvalid => "A date that is not a real YYYY-MM-DD date.",
            Rule::DateAfterCutoff => "A screening date after the search cutoff.",
            Rule::IdentifierFormat => "An exclusion record identifier of no known form.",
            Rule::DuplicateKey => "Two files share a key or record id, or two records an identifier.",
            Rule::DuplicateArxiv => "Two entries share an arXiv id.",
            Rule::DuplicateUrl => "A link used twice.",
            Rule::DuplicateTitle => "Two entries, or two records, share a normalised title.",
            Rule::ExcludedRetained => "An excluded record that is also a retained entry.",
            Rule::ArxivUrlMismatch => "An entry with an arXiv id but no arxiv.org link.",
            Rule::ArxivLinkId => "An arxiv.org link naming another id than the entry's (or the record's identifier).",
            Rule::ControlCharacter => "A text value holding a control or bidirectional-override character.",
            Rule::ArxivYear => "A year outside the arXiv id's year to two years after.",
            Rule::WaiverUnused => "A waiver that waives nothing, names no warning rule or gives no reason.",
            Rule::StaleGenerated => "A generated file differs from what `corpus build` writes.",
            Rule::ClaimInvalid => "A claim of the ledger that is malformed.",
            Rule::ClaimBroken => "A claim of the ledger that does not hold on the data.",
            Rule::SchemaModeline => "An entry file without the schema modeline on its first line.",
            Rule::JudgementUnsourced => "A judged tag without its source, or a source without its tag.",
            Rule::SubdecisionsNotJudged => "An RL or partly-RL entry whose sub-decisions are not judged.",
            Rule::AdditionalUnitRepeatsPrimary => "An additional credit unit that repeats credit_granularity.",
            Rule::SurveyFigureMembership => "An entry that disagrees with a survey figure naming it, or cites the figure for what it does not show.",
            Rule::SurveyReference => "A key in corpus/survey.yaml that is no entry or does not carry the tag it illustrates.",
            Rule::NotFormatted => "A data file not in the layout `corpus fmt` writes.",
            Rule::YamlAmbiguousScalar => "Plain text that YAML 1.1 readers take for a boolean, number, date or null.",
            Rule::LatexEscape => "A LaTeX escape in a text field that should hold UTF-8 text.",
        }
    }

    /// The built-in rule with this id.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.id() == id)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for r in Rule::ALL {
            assert!(seen.insert(r.id()), "`{}` twice", r.id());
            assert_eq!(Rule::from_id(r.id()), Some(r));
        }
        assert_eq!(Rule::from_id("industry-is-case"), None);
    }
}
