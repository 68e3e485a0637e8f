//! The field table: every field of an entry and of an exclusion record,
//! described once. The loader, the checks, the JSON Schema, the scaffold,
//! import, export and `--where` all derive what they know of fields from here.

/// The modeline every entry file starts with (relative to corpus/papers/).
pub const MODELINE: &str = "# yaml-language-server: $schema=../entry.schema.json";

/// What a contributor should write in a field (used as the schema description).
pub fn describe(field: &str) -> &'static str {
    match field {
        "key" => "Equals the file name without .yaml; lowercase letters, digits and '-'.",
        "title" => "The title as published.",
        "first_author" => "\"Family, Given\", or an organisation.",
        "affiliation" => "The first author's affiliation.",
        "year" => "Publication year.",
        "arxiv_id" => {
            "arXiv id as a quoted string, e.g. \"2508.04652\"; leave out when there is none."
        }
        "venue" => "Where it appeared, e.g. arXiv, NeurIPS 2025, Tech Blog.",
        "urls" => "Links, most canonical first (http or https).",
        "subdecisions" => "Orchestration sub-decisions the entry trains or designs.",
        "strict_credit" => "True where the entry has an explicit credit estimator.",
        "one_liner" => "One sentence, in your own words.",
        "notes" => "Optional remarks, in your own words.",
        "waivers" => "Acknowledged warnings: rule id -> reason.",
        "record_id" => "E followed by digits; equals the file name without .yaml.",
        "identifier" => {
            "arXiv:…, OpenReview:…, ACL:…, github:owner/repo, or an upper-case document id."
        }
        "url" => "Where the record can be read (http or https).",
        "date_screened" => "When it was screened, YYYY-MM-DD.",
        "reason" => "Why it was excluded, in your own words.",
        _ => "A value from corpus/taxonomy.yaml.",
    }
}
