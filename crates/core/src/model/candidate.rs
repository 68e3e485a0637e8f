//! A candidate of the screening queue (`corpus/candidates/<key>.yaml`): a
//! paper `corpus discover` found and nobody has screened yet, with the
//! query that found it, the ranking's score and its reasons, and suggested
//! tags. Written once and never rewritten by the tool: the maintainer may
//! edit a candidate (its key, say) before `corpus screen` moves it.

use crate::model::format::scalar;
use serde::{Deserialize, Serialize};

/// A suggested tag and the words behind it; never a judgement.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct SuggestedTag {
    /// The tag field.
    pub field: String,
    /// The suggested value.
    pub value: String,
    /// The words of the candidate the suggestion rests on.
    #[serde(default)]
    pub evidence: Vec<String>,
}

/// One candidate.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Candidate {
    /// Its key, the file's stem; the entry key it gets when included.
    pub key: String,
    /// Title as arXiv gives it, whitespace collapsed.
    pub title: String,
    /// Authors in arXiv's order, "Given Family".
    #[serde(default)]
    pub authors: Vec<String>,
    /// The first author's affiliation, when arXiv gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliation: Option<String>,
    /// The arXiv id, without version.
    pub arxiv_id: String,
    /// The DOI the authors gave arXiv, when any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// Date of the first version, YYYY-MM-DD.
    pub published: String,
    /// Where to read it.
    pub url: String,
    /// Id of the query (corpus/search.yaml) that found it first.
    pub query: String,
    /// That query's family.
    pub query_family: String,
    /// The day `discover` found it.
    pub found_on: String,
    /// The ranking's probability that it is kept, 0 to 1.
    pub score: f64,
    /// The words and word pairs that raised the score most.
    #[serde(default)]
    pub top_terms: Vec<String>,
    /// Tags its words point to: suggestions, never judged.
    #[serde(default)]
    pub suggested_tags: Vec<SuggestedTag>,
    /// The abstract, whitespace collapsed.
    #[serde(default)]
    pub summary: String,
}

fn field(out: &mut String, name: &str, v: &str) {
    out.push_str(&format!("{name}: {}\n", scalar(v)));
}

fn list(out: &mut String, name: &str, items: &[String], indent: &str) {
    if items.is_empty() {
        out.push_str(&format!("{indent}{name}: []\n"));
        return;
    }
    out.push_str(&format!("{indent}{name}:\n"));
    for i in items {
        out.push_str(&format!("{indent}  - {}\n", scalar(i)));
    }
}

impl Candidate {
    /// The file text: fields in a fixed order, scalars quoted as `corpus fmt`
    /// quotes them, block lists, one final newline.
    pub fn to_yaml(&self) -> String {
        let mut o = String::new();
        field(&mut o, "key", &self.key);
        field(&mut o, "title", &self.title);
        list(&mut o, "authors", &self.authors, "");
        if let Some(a) = &self.affiliation {
            field(&mut o, "affiliation", a);
        }
        // An id like 2605.01234 would be a number to YAML: always quoted.
        o.push_str(&format!("arxiv_id: \"{}\"\n", self.arxiv_id));
        if let Some(d) = &self.doi {
            field(&mut o, "doi", d);
        }
        field(&mut o, "published", &self.published);
        field(&mut o, "url", &self.url);
        field(&mut o, "query", &self.query);
        field(&mut o, "query_family", &self.query_family);
        field(&mut o, "found_on", &self.found_on);
        o.push_str(&format!("score: {:.3}\n", self.score));
        list(&mut o, "top_terms", &self.top_terms, "");
        o.push_str(
            "# Suggestions from the words of the title and abstract; nobody has judged them.\n",
        );
        if self.suggested_tags.is_empty() {
            o.push_str("suggested_tags: []\n");
        } else {
            o.push_str("suggested_tags:\n");
            for t in &self.suggested_tags {
                o.push_str(&format!("  - field: {}\n", scalar(&t.field)));
                o.push_str(&format!("    value: {}\n", scalar(&t.value)));
                list(&mut o, "evidence", &t.evidence, "    ");
            }
        }
        field(&mut o, "summary", &self.summary);
        o
    }

    /// Parses a candidate file's text.
    pub fn parse(text: &str) -> Result<Candidate, String> {
        serde_yaml::from_str(text).map_err(|e| crate::yaml::error::explain(&e, text).message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidate_round_trips_through_its_file() {
        let c = Candidate {
            key: "magrpo2026".into(),
            title: "Yes: a title: with colons".into(),
            authors: vec!["Shuo Liu".into()],
            affiliation: None,
            arxiv_id: "2605.01234".into(),
            doi: Some("10.1/x".into()),
            published: "2026-05-06".into(),
            url: "https://arxiv.org/abs/2605.01234".into(),
            query: "credit".into(),
            query_family: "Credit assignment".into(),
            found_on: "2026-12-02".into(),
            score: 0.8126,
            top_terms: vec!["credit".into()],
            suggested_tags: vec![SuggestedTag {
                field: "category".into(),
                value: "method".into(),
                evidence: vec!["credit".into(), "no".into()],
            }],
            summary: "We study # things.".into(),
        };
        let text = c.to_yaml();
        let back = Candidate::parse(&text).expect(&text);
        assert_eq!(back.score, 0.813);
        assert_eq!(
            Candidate {
                score: 0.8126,
                ..back
            },
            c
        );
        assert!(text.contains("arxiv_id: \"2605.01234\"\n"), "{text}");
    }
}
