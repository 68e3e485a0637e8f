//! What `corpus release` writes about a release besides the changelog: the
//! citation file (`CITATION.cff`, Citation File Format 1.2.0: the list at
//! this version, with the survey it accompanies as the preferred citation)
//! and Zenodo's deposit metadata (`.zenodo.json`). Both are made from the
//! taxonomy (the list's title, description and repository) and the survey
//! file (its paper); each carries a mark saying `corpus release` wrote it,
//! so a later release may replace it while a file the user wrote is kept.

use crate::model::corpus::Corpus;
use crate::publish::repository::{pages_url, repository_url};

/// The mark of a citation file written by `corpus release`.
pub const CFF_MARK: &str = "# Written by `corpus release`";
/// The mark of Zenodo metadata written by `corpus release` (in its `notes`,
/// a field Zenodo knows, since JSON has no comments).
pub const ZENODO_MARK: &str = "Metadata written by corpus release";

/// A YAML double-quoted scalar (JSON's string syntax is valid YAML).
fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// A person "Family, Given" as CFF author lines, or an entity when the
/// name has no comma (an organisation).
fn cff_author(name: &str, indent: &str) -> String {
    match name.split_once(',') {
        Some((family, given)) if !family.trim().is_empty() && !given.trim().is_empty() => format!(
            "{indent}- family-names: {}\n{indent}  given-names: {}\n",
            q(family.trim()),
            q(given.trim())
        ),
        _ => format!("{indent}- name: {}\n", q(name.trim())),
    }
}

/// Who the list names as its authors: the survey's authors (the list is its
/// artifact), else the repository's owner, else its maintainers unnamed.
fn authors(corpus: &Corpus) -> Vec<String> {
    if let Some((s, _)) = &corpus.survey {
        if !s.paper.authors.is_empty() {
            return s.paper.authors.clone();
        }
    }
    let repo = &corpus.taxonomy.repository;
    match repo.split_once('/') {
        Some((owner, _)) if !owner.is_empty() => vec![owner.to_string()],
        _ => vec!["The list's maintainers".to_string()],
    }
}

fn list_title(corpus: &Corpus) -> String {
    corpus.taxonomy.list.as_ref().map_or_else(
        || {
            let repo = &corpus.taxonomy.repository;
            if repo.is_empty() {
                "A curated literature list".to_string()
            } else {
                repo.clone()
            }
        },
        |l| l.title.trim().to_string(),
    )
}

fn description(corpus: &Corpus) -> Option<String> {
    let l = corpus.taxonomy.list.as_ref()?;
    let d = l
        .description
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!d.is_empty()).then_some(d)
}

/// The text of `CITATION.cff` for a release.
pub fn cff(corpus: &Corpus, version: &str, date: &str) -> String {
    let mut out = format!("{CFF_MARK} for release {version}, from corpus/taxonomy.yaml and corpus/survey.yaml;\n# the next release replaces it. Cite the survey (preferred-citation) and the list at the version used.\n");
    out.push_str("cff-version: 1.2.0\n");
    out.push_str("message: \"If you use this list, please cite the survey it accompanies (preferred-citation) and the list at the version you used.\"\n");
    out.push_str("type: dataset\n");
    out.push_str(&format!("title: {}\n", q(&list_title(corpus))));
    out.push_str(&format!("version: {}\n", q(version)));
    out.push_str(&format!("date-released: {}\n", q(date)));
    if let Some(d) = description(corpus) {
        out.push_str(&format!("abstract: {}\n", q(&d)));
    }
    out.push_str("authors:\n");
    for a in authors(corpus) {
        out.push_str(&cff_author(&a, "  "));
    }
    let repo = &corpus.taxonomy.repository;
    if !repo.is_empty() {
        out.push_str(&format!("repository-code: {}\n", q(&repository_url(repo))));
        out.push_str(&format!("url: {}\n", q(&pages_url(repo))));
    }
    if let Some((s, _)) = &corpus.survey {
        let p = &s.paper;
        out.push_str("preferred-citation:\n  type: article\n");
        out.push_str(&format!("  title: {}\n", q(p.title.trim())));
        out.push_str("  authors:\n");
        for a in &p.authors {
            out.push_str(&cff_author(a, "    "));
        }
        out.push_str(&format!("  year: {}\n", p.year));
        if !p.arxiv_id.is_empty() {
            out.push_str(&format!(
                "  journal: {}\n  url: {}\n  identifiers:\n    - type: other\n      value: {}\n      description: \"The arXiv identifier\"\n",
                q(&format!("arXiv preprint arXiv:{}", p.arxiv_id)),
                q(&format!("https://arxiv.org/abs/{}", p.arxiv_id)),
                q(&format!("arXiv:{}", p.arxiv_id))
            ));
        }
    }
    out
}

/// The text of `.zenodo.json` for a release.
pub fn zenodo(corpus: &Corpus, version: &str, date: &str) -> String {
    let mut z = serde_json::json!({
        "title": list_title(corpus),
        "upload_type": "dataset",
        "version": version,
        "publication_date": date,
        "creators": authors(corpus).iter().map(|a| serde_json::json!({"name": a})).collect::<Vec<_>>(),
        "notes": format!("{ZENODO_MARK} for release {version}; the next release replaces it."),
    });
    z["description"] = description(corpus)
        .unwrap_or_else(|| list_title(corpus))
        .into();
    if let Some((s, _)) = &corpus.survey {
        if !s.paper.arxiv_id.is_empty() {
            z["related_identifiers"] = serde_json::json!([{
                "identifier": format!("arXiv:{}", s.paper.arxiv_id),
                "relation": "isSupplementTo",
                "scheme": "arxiv",
            }]);
        }
    }
    let mut text = serde_json::to_string_pretty(&z).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_people_or_entities_and_stay_quoted() {
        assert_eq!(
            cff_author("Zhang, Chenchen", ""),
            "- family-names: \"Zhang\"\n  given-names: \"Chenchen\"\n"
        );
        assert_eq!(
            cff_author("ACME: \"Lab\"", ""),
            "- name: \"ACME: \\\"Lab\\\"\"\n"
        );
    }
}
