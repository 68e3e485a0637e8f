//! The arXiv API: batched `id_list` queries, one at a time with the pause the
//! API asks for, and its Atom answers read with a real XML parser.
//!
//! The feed's traps are handled here: an id arXiv does not know simply has
//! no `<entry>`, a malformed one comes back as an entry titled `Error` whose
//! id points at `/api/errors` (today with HTTP 400 for the whole request, so
//! the batch is asked again without the id arXiv named), ids carry a version
//! suffix, titles are hard-wrapped, and throttling is a plain-text body
//! instead of a feed.

use crate::network::http::{Client, Failure, Method};
use crate::network::progress::{Progress, Silent};
use std::collections::BTreeMap;
use std::time::Duration;

/// The public API endpoint.
pub const DEFAULT_API: &str = "https://export.arxiv.org/api/query";
/// The pause between two requests that the API's terms of use ask for.
pub const DEFAULT_PAUSE_SECS: f64 = 3.0;
/// Ids per request.
pub const BATCH: usize = 50;

const ATOM: &str = "http://www.w3.org/2005/Atom";
const ARXIV: &str = "http://arxiv.org/schemas/atom";

/// One arXiv record as the API describes it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The id without version.
    pub id: String,
    /// The latest version number, when the id carried one.
    pub version: Option<u32>,
    /// Title, whitespace collapsed.
    pub title: String,
    /// Author names in order, as arXiv writes them ("Given Family").
    pub authors: Vec<String>,
    /// The first author's affiliation, when the record gives one.
    pub affiliation: Option<String>,
    /// Date of the first version (YYYY-MM-DD).
    pub published: String,
    /// Date of the latest version (YYYY-MM-DD; the first version's when absent).
    pub updated: String,
    /// Whether the latest version is a withdrawal: arXiv's notice opens its
    /// comment or abstract (see [`withdrawal_notice`]).
    pub withdrawn: bool,
    /// The latest version's comment, whitespace collapsed.
    pub comment: Option<String>,
    /// The DOI of the published version, as the authors gave it to arXiv.
    pub doi: Option<String>,
    /// The journal reference, as the authors gave it to arXiv.
    pub journal_ref: Option<String>,
}

impl Record {
    /// Year of the first version.
    pub fn year(&self) -> Option<i64> {
        self.published.get(..4)?.parse().ok()
    }
}

/// What one feed said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Feed {
    /// Records by id (without version).
    pub records: BTreeMap<String, Record>,
    /// Errors the API reported (e.g. "incorrect id format for 1309.119").
    pub errors: Vec<String>,
    /// The ids arXiv refused, each with arXiv's own message.
    pub refused: BTreeMap<String, String>,
}

/// The id an error entry names: the summary's words after its last " for "
/// ("incorrect id format for 1309.119"), else the anchor's tail after
/// "_for_" (`…/api/errors#incorrect_id_format_for_1309.119`).
fn refused_id(anchor: &str, summary: &str) -> Option<String> {
    let named = summary
        .rsplit_once(" for ")
        .map(|(_, id)| id)
        .or_else(|| anchor.rsplit_once("_for_").map(|(_, id)| id))?
        .trim();
    (!named.is_empty() && !named.contains(char::is_whitespace)).then(|| named.to_string())
}

/// Whether a comment or abstract is arXiv's withdrawal notice: it opens
/// with "This paper (article, submission, …) has been withdrawn" or with
/// the word "Withdrawn" standing alone or followed by a colon, "by" or
/// "due to". A comment that merely mentions a withdrawal ("supersedes
/// withdrawn v1", "replaces the withdrawn 2301.00001") is not one.
pub fn withdrawal_notice(text: &str) -> bool {
    static NOTICE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    NOTICE
        .get_or_init(|| {
            regex::Regex::new(
                r"(?i)^\s*(?:(?:this|the)\s+(?:paper|article|submission|manuscript|preprint|work|version)\s+(?:has\s+been|was|is)\s+withdrawn\b|withdrawn\s*(?:$|[:.;,(\-]|by\b|due\b))",
            )
            .expect("the withdrawal pattern compiles")
        })
        .is_match(text)
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parses an Atom feed of the arXiv API.
pub fn parse_feed(xml: &str) -> Result<Feed, String> {
    let trimmed = xml.trim_start();
    if !trimmed.starts_with('<') {
        let first = trimmed
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(80)
            .collect::<String>();
        return Err(format!("the API did not answer with a feed: `{first}`"));
    }
    let doc = roxmltree::Document::parse(xml)
        .map_err(|e| format!("the API answered malformed XML: {e}"))?;
    let feed = doc.root_element();
    if !feed.has_tag_name((ATOM, "feed")) {
        return Err(format!(
            "the API answered XML that is not an Atom feed (root `{}`)",
            feed.tag_name().name()
        ));
    }
    let mut out = Feed::default();
    for entry in feed.children().filter(|n| n.has_tag_name((ATOM, "entry"))) {
        let child_text = |ns: &str, name: &str| {
            entry
                .children()
                .find(|n| n.has_tag_name((ns, name)))
                .and_then(|n| n.text())
                .map(collapse)
                .unwrap_or_default()
        };
        let id_url = child_text(ATOM, "id");
        if id_url.contains("/api/errors") {
            let summary = child_text(ATOM, "summary");
            if let Some(id) = refused_id(&id_url, &summary) {
                let said = if summary.is_empty() {
                    &id_url
                } else {
                    &summary
                };
                out.refused.insert(id, said.clone());
            }
            out.errors
                .push(if summary.is_empty() { id_url } else { summary });
            continue;
        }
        let Some((_, raw_id)) = id_url.split_once("/abs/") else {
            return Err(format!(
                "an entry's id `{id_url}` is not an arXiv abstract link"
            ));
        };
        let id = crate::text::ids::strip_version(raw_id).to_string();
        let version = raw_id[id.len()..]
            .strip_prefix('v')
            .and_then(|v| v.parse().ok());
        let title = child_text(ATOM, "title");
        let published = child_text(ATOM, "published");
        if title.is_empty() || published.len() < 10 {
            // Old API answers for an unknown id: an entry with no content.
            continue;
        }
        let author_nodes: Vec<roxmltree::Node> = entry
            .children()
            .filter(|n| n.has_tag_name((ATOM, "author")))
            .collect();
        let authors = author_nodes
            .iter()
            .filter_map(|a| a.children().find(|n| n.has_tag_name((ATOM, "name"))))
            .filter_map(|n| n.text().map(collapse))
            .collect();
        let affiliation = author_nodes
            .first()
            .and_then(|a| {
                a.children()
                    .find(|n| n.has_tag_name((ARXIV, "affiliation")))
            })
            .and_then(|n| n.text().map(collapse))
            .filter(|s| !s.is_empty());
        let comment = child_text(ARXIV, "comment");
        let summary = child_text(ATOM, "summary");
        let withdrawn = withdrawal_notice(&comment) || withdrawal_notice(&summary);
        let updated = child_text(ATOM, "updated");
        let some = |s: String| (!s.is_empty()).then_some(s);
        out.records.insert(
            id.clone(),
            Record {
                id,
                version,
                title,
                authors,
                affiliation,
                published: published[..10].to_string(),
                updated: updated.get(..10).unwrap_or(&published[..10]).to_string(),
                withdrawn,
                comment: some(comment),
                doi: some(child_text(ARXIV, "doi")),
                journal_ref: some(child_text(ARXIV, "journal_ref")),
            },
        );
    }
    Ok(out)
}

/// The abstracts of a feed's entries, by id without version, whitespace
/// collapsed (a search ranks on them; `Record` leaves them out).
pub fn abstracts(xml: &str) -> BTreeMap<String, String> {
    let Ok(doc) = roxmltree::Document::parse(xml) else {
        return BTreeMap::new();
    };
    let text = |entry: roxmltree::Node, name: &str| {
        entry
            .children()
            .find(|n| n.has_tag_name((ATOM, name)))
            .and_then(|n| n.text())
            .map(collapse)
            .unwrap_or_default()
    };
    doc.root_element()
        .children()
        .filter(|n| n.has_tag_name((ATOM, "entry")))
        .filter_map(|e| {
            let url = text(e, "id");
            let (_, raw) = url.split_once("/abs/")?;
            let id = crate::text::ids::strip_version(raw).to_string();
            Some((id, text(e, "summary")))
        })
        .collect()
}

/// The query URL of one batch.
pub fn query_url(api: &str, ids: &[&str]) -> String {
    let sep = if api.contains('?') { '&' } else { '?' };
    format!(
        "{api}{sep}id_list={}&start=0&max_results={}",
        ids.join(","),
        ids.len()
    )
}

/// Fetches the records of `ids`: batches of [`BATCH`], one request at a
/// time, `pause` between requests, 429/503 retried as the client allows.
///
/// arXiv refuses a whole request with HTTP 400 and an error entry when one
/// of its ids is malformed; that id is kept in [`Feed::refused`] with
/// arXiv's message and the rest of the batch is asked again. A 400 that
/// names no id of the batch is narrowed down by halving the batch. Err only
/// when the API cannot be used at all (no connection, another status, an
/// answer that is no feed): the first request that fails ends the fetch,
/// so a machine without a network learns it from one request. `progress`
/// hears each id answered.
pub fn fetch(
    client: &Client,
    api: &str,
    ids: &[&str],
    pause: Duration,
    sleep: &dyn Fn(Duration),
    progress: &dyn Progress,
) -> Result<Feed, Unusable> {
    let mut all = Feed::default();
    let mut queue: std::collections::VecDeque<Vec<&str>> =
        ids.chunks(BATCH).map(<[&str]>::to_vec).collect();
    let mut first = true;
    while let Some(batch) = queue.pop_front() {
        if !first {
            sleep(pause);
        }
        first = false;
        let url = query_url(api, &batch);
        let (result, attempts) = client.request_with_retries(Method::Get, &url, sleep);
        let resp = result.map_err(|f| Unusable::failed(api, &f))?;
        let text = String::from_utf8_lossy(&resp.body);
        if resp.status == 400 {
            let feed = parse_feed(&text).unwrap_or_default();
            let named: Vec<&str> = batch
                .iter()
                .copied()
                .filter(|id| feed.refused.contains_key(*id))
                .collect();
            if !named.is_empty() {
                for id in &named {
                    all.refused
                        .insert(id.to_string(), feed.refused[*id].clone());
                }
                progress.step(named.len() as u64);
                let rest: Vec<&str> = batch
                    .iter()
                    .copied()
                    .filter(|id| !named.contains(id))
                    .collect();
                if !rest.is_empty() {
                    queue.push_front(rest);
                }
            } else if batch.len() > 1 {
                let (a, b) = batch.split_at(batch.len() / 2);
                queue.push_front(b.to_vec());
                queue.push_front(a.to_vec());
            } else {
                let said = feed
                    .errors
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "the API answered 400 (bad request)".to_string());
                all.refused.insert(batch[0].to_string(), said);
                progress.step(1);
            }
            all.errors.extend(feed.errors);
            continue;
        }
        if resp.status != 200 {
            let tries = if attempts > 1 {
                format!(" after {attempts} attempts")
            } else {
                String::new()
            };
            return Err(format!("{api}: answered {}{tries}", resp.status).into());
        }
        let feed = parse_feed(&text).map_err(|e| format!("{api}: {e}"))?;
        progress.step(batch.len() as u64);
        all.records.extend(feed.records);
        all.errors.extend(feed.errors);
        all.refused.extend(feed.refused);
    }
    Ok(all)
}

/// Why an API could not be used, and whether its request got no answer at
/// all (no host, no connection, no reply in time: the network may be down).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unusable {
    /// What happened, in words, naming the API.
    pub message: String,
    /// The request got no answer of any kind.
    pub unanswered: bool,
}

impl Unusable {
    /// A request to `api` that ended in `f`.
    pub fn failed(api: &str, f: &Failure) -> Unusable {
        Unusable {
            message: format!("{api}: {}", f.describe()),
            unanswered: matches!(f, Failure::Connection(_) | Failure::Timeout(_)),
        }
    }
}

impl From<String> for Unusable {
    fn from(message: String) -> Unusable {
        Unusable {
            message,
            unanswered: false,
        }
    }
}

impl From<Unusable> for String {
    fn from(u: Unusable) -> String {
        u.message
    }
}

/// Fetches one record (for `corpus new --fetch`), or says why there is none.
pub fn fetch_one(api: &str, id: &str) -> Result<Record, String> {
    if crate::text::ids::arxiv_year(id).is_none() {
        return Err(format!("`{id}` is not an arXiv id (e.g. 2508.04652)"));
    }
    let client = Client::new(crate::network::http::Policy::default());
    let bare = crate::text::ids::strip_version(id);
    let feed = fetch(
        &client,
        api,
        &[bare],
        Duration::ZERO,
        &std::thread::sleep,
        &Silent,
    )?;
    match feed.records.get(bare) {
        Some(r) if r.withdrawn => Err(format!("arXiv {bare} has been withdrawn")),
        Some(r) => Ok(r.clone()),
        None => {
            let said = feed
                .refused
                .get(bare)
                .or(feed.errors.first())
                .map(|m| format!(" (arXiv says: {m})"))
                .unwrap_or_default();
            Err(format!("arXiv has no record {bare}{said}"))
        }
    }
}

/// "Given Middle Family" as the corpus writes names: "Family, Given Middle".
/// Lowercase particles before the family name (de, van, von …) stay with it.
pub fn family_first(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() < 2 {
        return name.trim().to_string();
    }
    let mut start = words.len() - 1;
    while start > 1 && words[start - 1].starts_with(|c: char| c.is_lowercase()) {
        start -= 1;
    }
    format!("{}, {}", words[start..].join(" "), words[..start].join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <id>https://arxiv.org/api/x</id>
  <title>arXiv Query</title>
  <entry>
    <id>http://arxiv.org/abs/2508.04652v7</id>
    <published>2025-08-06T17:18:08Z</published>
    <title>LLM Collaboration With
      Multi-Agent Reinforcement Learning</title>
    <summary>We study ...</summary>
    <author><name>Shuo Liu</name><arxiv:affiliation>Northeastern University</arxiv:affiliation></author>
    <author><name>Christopher Amato</name></author>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/cs/0701001v1</id>
    <published>2007-01-01T00:00:00Z</published>
    <title>Old style</title>
    <summary>This paper has been withdrawn by the author.</summary>
    <arxiv:comment>withdrawn</arxiv:comment>
    <author><name>A B</name></author>
  </entry>
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1309.119</id>
    <title>Error</title>
    <summary>incorrect id format for 1309.119</summary>
  </entry>
</feed>"#;

    #[test]
    fn a_feed_gives_records_and_errors() {
        let f = parse_feed(FEED).unwrap();
        let r = &f.records["2508.04652"];
        assert_eq!(
            r.title,
            "LLM Collaboration With Multi-Agent Reinforcement Learning"
        );
        assert_eq!(r.authors, ["Shuo Liu", "Christopher Amato"]);
        assert_eq!(r.affiliation.as_deref(), Some("Northeastern University"));
        assert_eq!(r.published, "2025-08-06");
        assert_eq!(r.year(), Some(2025));
        assert_eq!(r.version, Some(7));
        assert!(!r.withdrawn);
        assert!(f.records["cs/0701001"].withdrawn);
        assert_eq!(f.errors, ["incorrect id format for 1309.119"]);
        assert_eq!(f.refused["1309.119"], "incorrect id format for 1309.119");
        assert_eq!(abstracts(FEED)["2508.04652"], "We study ...");
    }

    #[test]
    fn only_arxivs_notice_marks_a_withdrawal() {
        for notice in [
            "This paper has been withdrawn by the authors due to an error in Lemma 2",
            "this submission has been withdrawn by arXiv administrators",
            "The article was withdrawn",
            "Withdrawn",
            "withdrawn: the experiments were flawed",
            "Withdrawn by the author",
            "  withdrawn due to a duplicate submission",
        ] {
            assert!(withdrawal_notice(notice), "{notice}");
        }
        for live in [
            "supersedes withdrawn v1",
            "12 pages; replaces the withdrawn 2301.00001",
            "v2: the claim of v1 is withdrawn, see Section 4",
            "Withdrawnness of agents in debate",
            "",
        ] {
            assert!(!withdrawal_notice(live), "{live}");
        }
    }

    #[test]
    fn non_feeds_are_refused_with_what_came_back() {
        assert!(parse_feed("Rate exceeded.")
            .unwrap_err()
            .contains("Rate exceeded."));
        assert!(parse_feed("<feed><entry>")
            .unwrap_err()
            .contains("malformed XML"));
        assert!(parse_feed("<html/>")
            .unwrap_err()
            .contains("not an Atom feed"));
    }

    #[test]
    fn names_are_written_family_first() {
        assert_eq!(family_first("Shuo Liu"), "Liu, Shuo");
        assert_eq!(family_first("Mary Ann de Vries"), "de Vries, Mary Ann");
        assert_eq!(family_first("OpenAI"), "OpenAI");
    }

    #[test]
    fn query_urls_batch_ids() {
        assert_eq!(
            query_url("http://127.0.0.1:9/api/query", &["1", "2"]),
            "http://127.0.0.1:9/api/query?id_list=1,2&start=0&max_results=2"
        );
    }
}
