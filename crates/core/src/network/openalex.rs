//! OpenAlex, the open scholarly metadata service `corpus watch` asks about
//! published versions: one list request for up to [`BATCH`] DOIs at a time
//! (`/works?filter=doi:A|B`), one request in flight, a pause between two,
//! the contact address in `mailto` when one is given (OpenAlex's "polite
//! pool"). Chosen over Crossref and DBLP because one open API answers venue,
//! DOI, `is_retracted` and `cited_by_count` together, for arXiv preprints
//! (DOI 10.48550/arXiv.ID) and published versions alike, with no key.

use crate::network::http::{Client, Method};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The public API endpoint.
pub const DEFAULT_API: &str = "https://api.openalex.org";
/// The pause between two requests: OpenAlex allows ten a second; one a
/// second leaves it room.
pub const DEFAULT_PAUSE_SECS: f64 = 1.0;
/// The shortest pause allowed against the public API (ten requests a second).
pub const MIN_PAUSE_SECS: f64 = 0.1;
/// DOIs per request (OpenAlex takes up to 100 values in one filter).
pub const BATCH: usize = 50;

/// What `watch` keeps of one OpenAlex work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    /// The DOI, lowercase, without `https://doi.org/`.
    pub doi: String,
    /// The work's title.
    pub title: String,
    /// Publication date (YYYY-MM-DD), when given.
    pub date: Option<String>,
    /// Where it is published (the primary location's source), when known.
    pub venue: Option<String>,
    /// The kind of that source: journal, conference, repository, …
    pub venue_type: Option<String>,
    /// Whether OpenAlex marks the work retracted.
    pub retracted: bool,
    /// How many works cite it, as OpenAlex counts.
    pub cited_by: u64,
}

impl Work {
    /// Whether this is a published version: a venue that is not a
    /// repository (arXiv is one) and a DOI that is not arXiv's own.
    pub fn is_published(&self) -> bool {
        self.venue.is_some()
            && self.venue_type.as_deref() != Some("repository")
            && !self.doi.starts_with("10.48550/")
    }
}

pub use crate::text::ids::{doi_of_url, normalize_doi};

/// The DOI arXiv registers for a preprint (`10.48550/arxiv.2204.08348`).
pub fn arxiv_doi(id: &str) -> String {
    format!("10.48550/arxiv.{}", id.to_lowercase())
}

/// Percent-encodes everything in a query value but unreserved characters,
/// `/`, `:` and `.`, so a DOI's `<`, `;` or `|` cannot break the query.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' | b':' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Whether a contact address can go into `mailto` as it is.
pub fn valid_contact(s: &str) -> bool {
    let ok = |c: char| c.is_ascii_alphanumeric() || "@._+-".contains(c);
    s.split('@').count() == 2 && !s.starts_with('@') && !s.ends_with('@') && s.chars().all(ok)
}

/// The list request of one batch of DOIs.
pub fn query_url(api: &str, dois: &[&str], contact: Option<&str>) -> String {
    let values: Vec<String> = dois.iter().map(|d| encode(d)).collect();
    let mut url = format!(
        "{}/works?filter=doi:{}&per-page={}",
        api.trim_end_matches('/'),
        values.join("%7C"),
        BATCH
    );
    if let Some(c) = contact {
        url.push_str(&format!("&mailto={}", encode(c)));
    }
    url
}

/// Reads one list answer (`{"meta": …, "results": [work, …]}`).
pub fn parse_works(json: &str) -> Result<Vec<Work>, String> {
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("the API did not answer JSON: {e}"))?;
    let results = v
        .get("results")
        .and_then(|r| r.as_array())
        .ok_or("the API answered JSON with no `results` list")?;
    let text = |w: &serde_json::Value, path: &[&str]| {
        let mut at = w;
        for p in path {
            at = at.get(p)?;
        }
        at.as_str()
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|s| !s.is_empty())
    };
    Ok(results
        .iter()
        .filter_map(|w| {
            let doi = normalize_doi(&text(w, &["doi"])?);
            Some(Work {
                doi,
                title: text(w, &["display_name"])
                    .or_else(|| text(w, &["title"]))
                    .unwrap_or_default(),
                date: text(w, &["publication_date"]).filter(|d| d.len() == 10),
                venue: text(w, &["primary_location", "source", "display_name"]),
                venue_type: text(w, &["primary_location", "source", "type"]),
                retracted: w.get("is_retracted").and_then(|b| b.as_bool()) == Some(true),
                cited_by: w
                    .get("cited_by_count")
                    .and_then(|n| n.as_u64())
                    .unwrap_or(0),
            })
        })
        .collect())
}

/// Fetches the works of `dois`: batches of [`BATCH`], one request at a
/// time, `pause` between two, 429/503 retried as the client allows. Err
/// when the service cannot be used (no connection, an error status, an
/// answer that is not a list of works).
pub fn fetch(
    client: &Client,
    api: &str,
    dois: &[&str],
    contact: Option<&str>,
    pause: Duration,
    sleep: &dyn Fn(Duration),
    progress: &dyn crate::network::progress::Progress,
) -> Result<Vec<Work>, crate::network::arxiv::Unusable> {
    let mut all = Vec::new();
    for (i, batch) in dois.chunks(BATCH).enumerate() {
        if i > 0 {
            sleep(pause);
        }
        let url = query_url(api, batch, contact);
        let (result, attempts) = client.request_with_retries(Method::Get, &url, sleep);
        let resp = result.map_err(|f| crate::network::arxiv::Unusable::failed(api, &f))?;
        if resp.status != 200 {
            let tries = if attempts > 1 {
                format!(" after {attempts} attempts")
            } else {
                String::new()
            };
            return Err(format!("{api}: answered {}{tries}", resp.status).into());
        }
        let works =
            parse_works(&String::from_utf8_lossy(&resp.body)).map_err(|e| format!("{api}: {e}"))?;
        progress.step(batch.len() as u64);
        all.extend(works);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dois_are_normalized_and_found_in_links() {
        assert_eq!(
            normalize_doi("https://doi.org/10.7717/PeerJ.4375"),
            "10.7717/peerj.4375"
        );
        assert_eq!(
            doi_of_url("https://dx.doi.org/10.1145/3533767.3534401").as_deref(),
            Some("10.1145/3533767.3534401")
        );
        assert_eq!(doi_of_url("https://arxiv.org/abs/2204.08348"), None);
        assert_eq!(arxiv_doi("2204.08348"), "10.48550/arxiv.2204.08348");
    }

    #[test]
    fn queries_batch_dois_and_encode_what_could_break_them() {
        assert_eq!(
            query_url("http://127.0.0.1:9/", &["10.1/a", "10.2/b;c|d"], Some("me@example.org")),
            "http://127.0.0.1:9/works?filter=doi:10.1/a%7C10.2/b%3Bc%7Cd&per-page=50&mailto=me%40example.org"
        );
        assert!(valid_contact("curator+list@example.org"));
        assert!(!valid_contact("a@b&x=1"));
        assert!(!valid_contact("nobody"));
    }

    #[test]
    fn a_list_answer_gives_works_and_refuses_what_is_not_one() {
        let json = r#"{"meta":{"count":1},"results":[{"doi":"https://doi.org/10.1/X","display_name":"A  title","publication_date":"2018-02-13","primary_location":{"source":{"display_name":"PeerJ","type":"journal"}},"is_retracted":true,"cited_by_count":962},{"display_name":"no DOI"}]}"#;
        let works = parse_works(json).unwrap();
        assert_eq!(works.len(), 1);
        let w = &works[0];
        assert_eq!((w.doi.as_str(), w.title.as_str()), ("10.1/x", "A title"));
        assert_eq!(w.venue.as_deref(), Some("PeerJ"));
        assert!(w.retracted && w.is_published());
        assert_eq!(w.cited_by, 962);
        assert!(parse_works("<html>")
            .unwrap_err()
            .contains("not answer JSON"));
        assert!(parse_works("{}").unwrap_err().contains("no `results`"));
    }
}
