//! The rule registry: every rule a diagnostic can carry, built in or run by
//! a command (traces, OTLP import, links, verify, agreement), with its id,
//! its family, its default severity and what it finds, each stated once in
//! one row of the table below.
//!
//! The taxonomy declares the data rules (with the sentence a contributor
//! reads) and may change the severity of any rule; it may also define rules
//! of its own (`when`/`require` filters), which are identified by their id
//! alone and built with [`crate::diag::Diagnostic::custom`].

use crate::severity::Severity;
use std::fmt;

/// Which command runs a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// `check` and `build`: the corpus data; the taxonomy declares each.
    Data,
    /// `trace validate` and the example traces.
    Trace,
    /// `trace import --from otlp`.
    Otlp,
    /// `links`.
    Links,
    /// `verify`.
    Verify,
    /// `watch`.
    Watch,
    /// `agreement`.
    Agreement,
    /// `import`.
    Import,
    /// `build`, `render` and `site`: the templates.
    Publish,
}

/// One row per rule: the variant, then its id, family, default severity and
/// description; the variant's doc comment is made from the same row, so the
/// two cannot disagree.
macro_rules! registry {
    ($($variant:ident = $id:literal, $family:ident, $severity:ident, $description:literal;)*) => {
        /// A rule implemented in code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $(
                #[doc = concat!("`", $id, "`: ", $description)]
                $variant,
            )*
        }

        impl Rule {
            /// Every rule implemented in code, in registry order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable id, as written in diagnostics, waivers and the taxonomy.
            pub const fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// The command family that runs the rule.
            pub const fn family(self) -> Family {
                match self {
                    $(Rule::$variant => Family::$family,)*
                }
            }

            /// The severity when the taxonomy does not set one.
            pub const fn default_severity(self) -> Severity {
                match self {
                    $(Rule::$variant => Severity::$severity,)*
                }
            }

            /// What the rule finds, in one line.
            pub const fn description(self) -> &'static str {
                match self {
                    $(Rule::$variant => $description,)*
                }
            }
        }
    };
}

registry! {
    YamlSyntax = "yaml-syntax", Data, Error, "The file is not YAML holding one mapping.";
    FileUnreadable = "file-unreadable", Data, Error, "The file cannot be read: missing, not a regular file, too large, not UTF-8 or empty.";
    StrayFile = "stray-file", Data, Warning, "A file other than .yaml sits in an entry or exclusion folder.";
    FileNameEncoding = "file-name-encoding", Data, Error, "A file name in an entry or exclusion folder is not valid UTF-8.";
    LeftoverTempFile = "leftover-temp-file", Data, Warning, "A temporary file an interrupted run left in a folder the tool writes.";
    UnknownField = "unknown-field", Data, Error, "A field the field table does not know.";
    MissingField = "missing-field", Data, Error, "A required field is absent or empty.";
    DuplicateField = "duplicate-field", Data, Error, "A field (or a list item) appears twice.";
    FieldType = "field-type", Data, Error, "A field holds the wrong type of value.";
    EmptyField = "empty-field", Data, Error, "A required text field is blank.";
    UnknownValue = "unknown-value", Data, Error, "A tag value the taxonomy does not list.";
    KeyFormat = "key-format", Data, Error, "A key or record id is not in its format.";
    KeyMismatch = "key-mismatch", Data, Error, "A key or record id differs from its file name.";
    ArxivFormat = "arxiv-format", Data, Error, "An arXiv id that is malformed.";
    ArxivUnquoted = "arxiv-unquoted", Data, Error, "An arXiv id written as a YAML number.";
    UrlScheme = "url-scheme", Data, Error, "A link that is not an absolute http(s) URL.";
    YearRange = "year-range", Data, Error, "A year before the earliest accepted or after the cutoff year.";
    DateInvalid = "date-invalid", Data, Error, "A date that is not a real YYYY-MM-DD date.";
    DateAfterCutoff = "date-after-cutoff", Data, Error, "A screening date after the search cutoff.";
    IdentifierFormat = "identifier-format", Data, Error, "An exclusion record identifier of no known form.";
    DuplicateKey = "duplicate-key", Data, Error, "Two files share a key or record id, or two records an identifier.";
    DuplicateArxiv = "duplicate-arxiv", Data, Error, "Two entries share an arXiv id.";
    DuplicateUrl = "duplicate-url", Data, Error, "A link used twice.";
    DuplicateTitle = "duplicate-title", Data, Error, "Two entries, or two records, share a normalised title.";
    ExcludedRetained = "excluded-retained", Data, Error, "An excluded record that is also a retained entry.";
    ArxivUrlMismatch = "arxiv-url-mismatch", Data, Warning, "An entry with an arXiv id but no arxiv.org link.";
    ArxivLinkId = "arxiv-link-id", Data, Error, "An arxiv.org link naming another id than the entry's (or the record's identifier).";
    ControlCharacter = "control-character", Data, Error, "A text value holding a control or bidirectional-override character.";
    ArxivYear = "arxiv-year", Data, Warning, "A year outside the arXiv id's year to two years after.";
    WaiverUnused = "waiver-unused", Data, Warning, "A waiver that waives nothing, names no warning rule or gives no reason.";
    StaleGenerated = "stale-generated", Data, Error, "A generated file differs from what `corpus build` writes.";
    ClaimInvalid = "claim-invalid", Data, Error, "A claim of the ledger that is malformed.";
    ClaimBroken = "claim-broken", Data, Error, "A claim of the ledger that does not hold on the data.";
    ClaimUnfalsifiable = "claim-unfalsifiable", Data, Error, "A claim that no single-entry edit could make fail: a bound with slack, or a filter on keys alone.";
    ClaimExpectationRewritten = "claim-expectation-rewritten", Data, Error, "A claim from the survey or its artifact whose expectation changed against the base without a new source.";
    SchemaModeline = "schema-modeline", Data, Warning, "An entry file without the schema modeline on its first line.";
    JudgementUnsourced = "judgement-unsourced", Data, Error, "A judged tag without its source, or a source without its tag.";
    SubdecisionsNotJudged = "subdecisions-not-judged", Data, Warning, "An RL or partly-RL entry whose sub-decisions are not judged.";
    AdditionalUnitRepeatsPrimary = "additional-unit-repeats-primary", Data, Error, "An additional credit unit that repeats credit_granularity.";
    SurveyFigureMembership = "survey-figure-membership", Data, Error, "An entry that disagrees with a survey figure naming it, or cites the figure for what it does not show.";
    JudgementLocator = "judgement-locator", Data, Error, "A judged value or chosen representative with no locator in the artifact and no reason, a locator nothing judged needs, or a round with no commit.";
    SurveyReference = "survey-reference", Data, Error, "A key in corpus/survey.yaml that is no entry or does not carry the tag it illustrates.";
    SearchProtocol = "search-protocol", Data, Error, "A search file (corpus/search.yaml) whose queries or screening rules are malformed.";
    NotFormatted = "not-formatted", Data, Warning, "A data file not in the layout `corpus fmt` writes.";
    YamlAmbiguousScalar = "yaml-ambiguous-scalar", Data, Warning, "Plain text that YAML 1.1 readers take for a boolean, number, date or null.";
    AuthorsMissing = "authors-missing", Data, Warning, "An entry without its author list, so its citation cannot name every author.";
    AuthorsFirstAuthor = "authors-first-author", Data, Error, "An author list whose first name is not first_author.";
    AuthorsOthers = "authors-others", Data, Error, "A blank author, or `others` anywhere but last after at least one name.";
    CiteKeyFormat = "cite-key-format", Data, Error, "A cite key BibTeX cannot read as one key.";
    DuplicateCiteKey = "duplicate-cite-key", Data, Error, "Two entries cited by the same key (cite_key, else the entry key).";
    BibType = "bib-type", Data, Error, "A bib_type that is not an entry type of the standard BibTeX styles.";
    CiteYearOrder = "cite-year-order", Data, Error, "A cite_year that is not later than year.";
    LatexEscape = "latex-escape", Data, Warning, "A LaTeX escape in a text field that should hold UTF-8 text.";
    TraceLink = "trace-link", Data, Error, "A linked trace (an entry's `traces`) that is no valid trace the corpus ships below traces/examples or traces/otlp, or a path of another form.";
    TraceTagsDisagree = "trace-tags-disagree", Data, Warning, "An entry claiming a sub-decision none of its linked traces takes, or an orchestration form events can show that none of them shows while one shows another (a run taking more than the tags is not reported, since one run cannot tell a decided step from a fixed one).";
    TraceEmpty = "trace-empty", Trace, Error, "A trace file that is empty.";
    TraceJson = "trace-json", Trace, Error, "A trace file that is not one JSON document.";
    TraceSchema = "trace-schema", Trace, Error, "A trace that does not meet the trace schema.";
    TraceUnreadable = "trace-unreadable", Trace, Error, "A trace file that cannot be read.";
    TraceTooLarge = "trace-too-large", Trace, Error, "A trace file over the size limit, left unread.";
    TraceDuplicateId = "trace-duplicate-id", Trace, Error, "Two events of a trace share an id.";
    TraceDanglingEdge = "trace-dangling-edge", Trace, Error, "An edge naming an event the trace does not hold.";
    TraceSelfLoop = "trace-self-loop", Trace, Error, "An edge from an event to itself.";
    TraceTimeOrder = "trace-time-order", Trace, Error, "An edge that runs back in time.";
    TraceCycle = "trace-cycle", Trace, Error, "Causal edges that run in a cycle.";
    TraceSpawnTarget = "trace-spawn-target", Trace, Error, "A spawn edge that does not end at the spawned agent.";
    TraceDespawnUnknown = "trace-despawn-unknown", Trace, Error, "A despawn of an agent that was never spawned.";
    TraceActBeforeSpawn = "trace-act-before-spawn", Trace, Error, "An agent acting before the event that spawns it.";
    TraceMessageEndpoints = "trace-message-endpoints", Trace, Error, "A message edge whose ends are not the agents it names.";
    TraceCostMismatch = "trace-cost-mismatch", Trace, Error, "Recorded costs that differ from what the events add up to.";
    TraceOverflow = "trace-overflow", Trace, Error, "A trace whose metrics overflow to a non-finite figure.";
    TraceFormDisagrees = "trace-form-disagrees", Trace, Warning, "A trace whose declared topology is not the orchestration form its events show.";
    TraceTokenOverflow = "trace-token-overflow", Trace, Error, "A token count above 2^53, the largest a trace counts exactly.";
    OtlpEmpty = "otlp-empty", Otlp, Error, "An import input holding no OTLP document.";
    OtlpJson = "otlp-json", Otlp, Error, "An import input that is not OTLP JSON.";
    OtlpSpanId = "otlp-span-id", Otlp, Error, "A span or parent id that is not a hex or base64 id of the right length.";
    OtlpSpanTime = "otlp-span-time", Otlp, Error, "A span time that is missing or not a positive count of nanoseconds.";
    OtlpAttributeType = "otlp-attribute-type", Otlp, Warning, "An attribute value of the wrong type, ignored.";
    OtlpDuplicateSpan = "otlp-duplicate-span", Otlp, Error, "Two spans of a trace share a span id.";
    OtlpMissingParent = "otlp-missing-parent", Otlp, Warning, "A span whose parent is not in the input, imported as a root.";
    OtlpParentCycle = "otlp-parent-cycle", Otlp, Error, "Parent ids that run in a cycle.";
    OtlpClock = "otlp-clock", Otlp, Error, "A span that ends before it starts, or starts before its parent.";
    OtlpNoAgent = "otlp-no-agent", Otlp, Warning, "An agent span that names no agent.";
    OtlpNoTool = "otlp-no-tool", Otlp, Warning, "A tool span that names no tool.";
    OtlpLinkDropped = "otlp-link-dropped", Otlp, Warning, "A span link that carries over as no edge.";
    OtlpActBeforeCreate = "otlp-act-before-create", Otlp, Error, "An agent acting before the span that creates it.";
    OtlpNoEvents = "otlp-no-events", Otlp, Warning, "A trace none of whose spans maps to an event.";
    OtlpInvalidResult = "otlp-invalid-result", Otlp, Error, "An imported trace that fails the trace rules.";
    OtlpOtherConvention = "otlp-other-convention", Otlp, Warning, "A trace whose spans follow a convention other than the one imported.";
    OtlpTokenOverflow = "otlp-token-overflow", Otlp, Error, "Token usage whose sum over a trace exceeds 2^53, the largest count a trace holds exactly.";
    LinkRedirected = "link-redirected", Links, Warning, "A link that answers only after a redirect.";
    LinkBroken = "link-broken", Links, Error, "A link whose server answers with an error, or a missing anchor.";
    LinkTimeout = "link-timeout", Links, Error, "A link with no answer within the timeout.";
    LinkError = "link-error", Links, Error, "A link that fails otherwise: bad syntax, connection, TLS or a redirect loop.";
    LinkPrivateRedirect = "link-private-redirect", Links, Error, "A link on a public address that redirects to a loopback, link-local or private one, not followed.";
    ArxivNotFound = "arxiv-not-found", Verify, Error, "An arXiv id the arXiv API does not know.";
    ArxivWithdrawn = "arxiv-withdrawn", Verify, Error, "An entry resting on a withdrawn arXiv record.";
    ArxivTitleMismatch = "arxiv-title-mismatch", Verify, Error, "A title that differs from the arXiv record's.";
    ArxivAuthorMismatch = "arxiv-author-mismatch", Verify, Error, "A first author whose family name differs from the arXiv record's.";
    ArxivAuthorsMismatch = "arxiv-authors-mismatch", Verify, Warning, "An author list that differs from the arXiv record's: a name it lacks or out of order, or another count of names.";
    ArxivYearMismatch = "arxiv-year-mismatch", Verify, Error, "A year that the arXiv record's first version does not allow.";
    StatusFile = "status-file", Watch, Error, "A status file (corpus/status.yaml) that cannot be read as one.";
    StatusWithdrawn = "status-withdrawn", Watch, Error, "An entry whose arXiv record was withdrawn, as `corpus watch` recorded, with no later version.";
    StatusRetracted = "status-retracted", Watch, Error, "An entry whose paper OpenAlex marks retracted, as `corpus watch` recorded.";
    StatusTitleChanged = "status-title-changed", Watch, Warning, "An entry that does not carry the title arXiv changed to.";
    StatusPublished = "status-published", Watch, Warning, "An entry kept as an arXiv preprint while a published version (DOI) is recorded.";
    ReleasesFile = "releases-file", Publish, Error, "A releases file (corpus/releases.yaml) that cannot be read as one.";
    AgreementInput = "agreement-input", Agreement, Error, "An annotations file that cannot be read as annotations.";
    AgreementUnknownField = "agreement-unknown-field", Agreement, Error, "An annotation of a field that is not a tag.";
    AgreementUnknownKey = "agreement-unknown-key", Agreement, Error, "An annotation of a key that is no entry.";
    AgreementUnknownValue = "agreement-unknown-value", Agreement, Error, "An annotated value the taxonomy does not list.";
    AgreementDuplicateKey = "agreement-duplicate-key", Agreement, Error, "An entry annotated twice.";
    CsvRow = "csv-row", Import, Error, "A row of an imported CSV file that cannot become an entry or record.";
    Template = "template", Publish, Error, "A template that cannot be read, parsed or rendered.";
}

impl Rule {
    /// The rule with this id.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.id() == id)
    }

    /// The rules of one family.
    pub fn of(family: Family) -> impl Iterator<Item = Rule> {
        Rule::ALL
            .iter()
            .copied()
            .filter(move |r| r.family() == family)
    }
}

/// A diagnostic's rule (kept as its id) compares with the registry's rule.
impl PartialEq<Rule> for String {
    fn eq(&self, rule: &Rule) -> bool {
        self == rule.id()
    }
}

/// An id compares with the registry's rule.
impl PartialEq<Rule> for &str {
    fn eq(&self, rule: &Rule) -> bool {
        *self == rule.id()
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
        for &r in Rule::ALL {
            assert!(seen.insert(r.id()), "`{}` twice", r.id());
            assert_eq!(Rule::from_id(r.id()), Some(r));
        }
        assert_eq!(Rule::from_id("industry-is-case"), None);
    }

    #[test]
    fn ids_are_kebab_case_and_descriptions_one_sentence() {
        for &r in Rule::ALL {
            assert!(
                r.id()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{r}"
            );
            let d = r.description();
            assert!(
                d.ends_with('.') && !d.trim_end_matches('.').contains(". "),
                "{r}: {d}"
            );
        }
    }
}
