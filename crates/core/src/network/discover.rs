//! `corpus discover`: the survey's query families run again against the
//! arXiv API for a date range, one request at a time with the API's pause
//! and every answer kept in a cache (`.cache/corpus-discover.json`, never
//! committed) so `--max-age` and `--offline` can spare the service; what
//! the pool, the exclusion log or the queue already holds is dropped (by
//! arXiv id without version, DOI and normalised title), and the rest become
//! ranked candidates.

use crate::model::candidate::{Candidate, SuggestedTag};
use crate::model::corpus::Corpus;
use crate::model::search::Query;
use crate::network::arxiv::{self, Record};
use crate::network::http::{Client, Method};
use crate::rank::Ranker;
use crate::text::ids::{arxiv_link_id, doi_of_url, normalize_doi, normalize_title, strip_version};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Results asked for per request.
pub const PAGE: usize = 100;
/// The most results asked for per query, unless told otherwise.
pub const DEFAULT_MAX_RESULTS: usize = 300;
/// The cache format this tool writes and reads.
pub const CACHE_VERSION: u32 = 1;

/// One answer of the API, as it came.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// Unix time of the answer.
    pub fetched: u64,
    /// The feed's text.
    pub body: String,
}

/// The answers cache, by request URL.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    /// Format version.
    pub version: u32,
    /// By request URL.
    pub answers: BTreeMap<String, Answer>,
}

impl Cache {
    /// Parses cache text; another format version is refused.
    pub fn from_json(text: &str) -> Result<Cache, String> {
        let c: Cache = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if c.version != CACHE_VERSION {
            return Err(format!(
                "format version {} (this tool reads {CACHE_VERSION})",
                c.version
            ));
        }
        Ok(c)
    }

    /// The cache as written: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut c = self.clone();
        c.version = CACHE_VERSION;
        serde_json::to_string_pretty(&c).unwrap_or_default() + "\n"
    }
}

/// The arXiv query of a family for a date range (YYYY-MM-DD, both days in):
/// any of its terms, and any of its `with` terms when it has some.
pub fn search_query(q: &Query, from: &str, to: &str) -> String {
    let any = |terms: &[String]| {
        let alts: Vec<String> = terms.iter().map(|t| format!("all:\"{t}\"")).collect();
        format!("({})", alts.join(" OR "))
    };
    let mut parts = vec![any(&q.terms)];
    if !q.with.is_empty() {
        parts.push(any(&q.with));
    }
    let day = |d: &str| d.replace('-', "");
    parts.push(format!(
        "submittedDate:[{}0000 TO {}2359]",
        day(from),
        day(to)
    ));
    parts.join(" AND ")
}

/// Percent-encodes a query value (space as `+`), leaving only unreserved characters.
fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b':' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The request URL of one page of a query, oldest submissions first so
/// that pages stay stable while new papers arrive.
pub fn search_url(api: &str, q: &Query, from: &str, to: &str, start: usize) -> String {
    let sep = if api.contains('?') { '&' } else { '?' };
    format!(
        "{api}{sep}search_query={}&start={start}&max_results={PAGE}&sortBy=submittedDate&sortOrder=ascending",
        encode(&search_query(q, from, to))
    )
}

/// A paper a query found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Its arXiv record.
    pub record: Record,
    /// Its abstract.
    pub summary: String,
    /// The first query that found it.
    pub query: String,
    /// That query's family.
    pub family: String,
}

/// How to ask.
pub struct Settings<'a> {
    /// The one HTTP client.
    pub client: &'a Client,
    /// The API endpoint.
    pub api: &'a str,
    /// The pause between two requests.
    pub pause: Duration,
    /// Answers younger than this are used instead of asking (None: ask every time).
    pub max_age: Option<Duration>,
    /// Now, in Unix seconds.
    pub now: u64,
    /// Ask nothing: use the cache alone.
    pub offline: bool,
    /// The most results per query.
    pub max_results: usize,
    /// Hears one step per query family asked.
    pub progress: &'a dyn crate::network::progress::Progress,
}

/// What a search gave.
#[derive(Debug, Default)]
pub struct Searched {
    /// Papers found, by id; withdrawn ones left out.
    pub found: BTreeMap<String, Found>,
    /// Requests sent.
    pub requests: usize,
    /// What a reader should know (a query the cache could not answer offline).
    pub notes: Vec<String>,
}

/// Runs every query for the date range; Err when the API cannot be used.
pub fn search(
    queries: &[Query],
    (from, to): (&str, &str),
    s: &Settings,
    cache: &mut Cache,
    sleep: &dyn Fn(Duration),
) -> Result<Searched, String> {
    let mut out = Searched::default();
    s.progress.start(queries.len() as u64, "query families");
    let result = search_each(queries, (from, to), s, cache, sleep, &mut out);
    s.progress.finish();
    result.map(|()| out)
}

/// The loop of `search`, so that progress ends however it stops.
fn search_each(
    queries: &[Query],
    (from, to): (&str, &str),
    s: &Settings,
    cache: &mut Cache,
    sleep: &dyn Fn(Duration),
    out: &mut Searched,
) -> Result<(), String> {
    for q in queries {
        s.progress.step(1);
        let mut start = 0;
        while start < s.max_results {
            let url = search_url(s.api, q, from, to, start);
            let fresh = cache.answers.get(&url).filter(|a| {
                s.offline
                    || s.max_age
                        .is_some_and(|m| s.now.saturating_sub(a.fetched) <= m.as_secs())
            });
            let body = match fresh {
                Some(a) => a.body.clone(),
                None if s.offline => {
                    out.notes.push(format!(
                        "query `{}` (from result {start}): no answer in the cache; run without --offline to ask arXiv",
                        q.id
                    ));
                    break;
                }
                None => {
                    if out.requests > 0 {
                        sleep(s.pause);
                    }
                    out.requests += 1;
                    let (result, _) = s.client.request_with_retries(Method::Get, &url, sleep);
                    let resp = result.map_err(|f| format!("{}: {}", s.api, f.describe()))?;
                    if resp.status != 200 {
                        return Err(format!(
                            "{}: answered {} to query `{}`",
                            s.api, resp.status, q.id
                        ));
                    }
                    let body = String::from_utf8_lossy(&resp.body).into_owned();
                    cache.answers.insert(
                        url.clone(),
                        Answer {
                            fetched: s.now,
                            body: body.clone(),
                        },
                    );
                    body
                }
            };
            let feed = arxiv::parse_feed(&body).map_err(|e| format!("{}: {e}", s.api))?;
            let mut abstracts = arxiv::abstracts(&body);
            let got = feed.records.len();
            for (id, record) in feed.records {
                if record.withdrawn {
                    continue;
                }
                let summary = abstracts.remove(&id).unwrap_or_default();
                out.found.entry(id).or_insert_with(|| Found {
                    record,
                    summary,
                    query: q.id.clone(),
                    family: q.family.clone(),
                });
            }
            if got < PAGE {
                break;
            }
            start += PAGE;
        }
    }
    Ok(())
}

/// What the pool, the exclusion log and the queue already hold.
#[derive(Debug, Default)]
pub struct Known {
    arxiv: BTreeSet<String>,
    doi: BTreeSet<String>,
    titles: BTreeSet<String>,
    /// Keys of entries and candidates, so a new candidate takes another.
    pub keys: BTreeSet<String>,
}

impl Known {
    fn add(&mut self, arxiv: Option<&str>, urls: &[&str], doi: Option<&str>, title: &str) {
        let ids = urls.iter().filter_map(|u| arxiv_link_id(u));
        for id in arxiv.map(str::to_string).into_iter().chain(ids) {
            self.arxiv.insert(strip_version(id.trim()).to_string());
        }
        let dois = urls.iter().filter_map(|u| doi_of_url(u));
        for d in doi.map(normalize_doi).into_iter().chain(dois) {
            self.doi.insert(d);
        }
        let t = normalize_title(title);
        if !t.is_empty() {
            self.titles.insert(t);
        }
    }

    /// What a corpus (its entries, records and the DOIs of its status
    /// file) and its queue hold.
    pub fn of(corpus: &Corpus, queue: &[Candidate]) -> Known {
        let mut k = Known::default();
        for e in corpus.entries.iter().map(|le| &le.entry) {
            let urls: Vec<&str> = e.urls.iter().map(String::as_str).collect();
            k.add(e.arxiv_id.as_deref(), &urls, None, &e.title);
            k.keys.insert(e.key.clone());
        }
        for x in corpus.exclusions.iter().map(|lx| &lx.record) {
            let id = x
                .identifier
                .get(..6)
                .filter(|p| p.eq_ignore_ascii_case("arxiv:"));
            let arxiv = id.map(|_| &x.identifier[6..]);
            k.add(arxiv, &[x.url.as_str()], None, &x.title);
        }
        // A published version `watch` recorded is the entry's too.
        for ev in corpus.status.iter().flat_map(|s| &s.events) {
            if let Some(d) = &ev.doi {
                k.doi.insert(normalize_doi(d));
            }
        }
        for c in queue {
            k.add(
                Some(&c.arxiv_id),
                &[c.url.as_str()],
                c.doi.as_deref(),
                &c.title,
            );
            k.keys.insert(c.key.clone());
        }
        k
    }

    /// Why a record is already held (which identifier matched), if it is.
    pub fn holds(&self, r: &Record) -> Option<&'static str> {
        self.holds_paper(&r.id, r.doi.as_deref(), &r.title)
    }

    /// Why a paper (arXiv id, DOI, title) is already held, if it is.
    pub fn holds_paper(&self, id: &str, doi: Option<&str>, title: &str) -> Option<&'static str> {
        if self.arxiv.contains(strip_version(id)) {
            Some("arXiv id")
        } else if doi.is_some_and(|d| self.doi.contains(&normalize_doi(d))) {
            Some("DOI")
        } else if self.titles.contains(&normalize_title(title)) {
            Some("title")
        } else {
            None
        }
    }

    /// A key for a new paper: the title's name before a colon (or its first
    /// two words) and the year, e.g. `agentdojo2024`; made unique with `-2`, `-3`….
    fn key_for(&mut self, r: &Record) -> String {
        let title = &r.title;
        let head = match title.split_once(':') {
            Some((h, _)) if h.split_whitespace().count() <= 3 => h.to_string(),
            _ => title
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" "),
        };
        let year = r.published.get(..4).unwrap_or("");
        let mut base = crate::text::ids::suggest_key(&head);
        base.truncate(40);
        let base = format!("{}{year}", base.trim_end_matches('-'));
        let base = if crate::text::ids::valid_key(&base)
            && base.starts_with(|c: char| c.is_ascii_lowercase())
        {
            base
        } else {
            format!("arxiv-{}", crate::text::ids::suggest_key(&r.id))
        };
        let mut key = base.clone();
        let mut n = 2;
        while self.keys.contains(&key) {
            key = format!("{base}-{n}");
            n += 1;
        }
        self.keys.insert(key.clone());
        key
    }
}

/// The candidates among what was found: what `known` does not hold, scored
/// by `ranker`, best first, each given a key. Also returns each paper left
/// out with the identifier that matched.
pub fn candidates(
    found: BTreeMap<String, Found>,
    known: &mut Known,
    ranker: &Ranker,
    today: &str,
) -> (Vec<Candidate>, Vec<(String, &'static str)>) {
    let mut held = Vec::new();
    let mut scored = Vec::new();
    for (id, f) in found {
        if let Some(why) = known.holds(&f.record) {
            held.push((id, why));
            continue;
        }
        // A title found twice in one run counts once.
        known.titles.insert(normalize_title(&f.record.title));
        let s = ranker.score(&format!("{}. {}", f.record.title, f.summary));
        scored.push((f, s));
    }
    scored.sort_by(|a, b| {
        b.1.score
            .total_cmp(&a.1.score)
            .then(a.0.record.id.cmp(&b.0.record.id))
    });
    let out = scored
        .into_iter()
        .map(|(f, s)| Candidate {
            key: known.key_for(&f.record),
            url: format!("https://arxiv.org/abs/{}", f.record.id),
            title: f.record.title,
            authors: f.record.authors,
            affiliation: f.record.affiliation,
            arxiv_id: f.record.id,
            doi: f.record.doi,
            published: f.record.published,
            query: f.query,
            query_family: f.family,
            found_on: today.to_string(),
            score: s.score,
            top_terms: s.terms,
            suggested_tags: s
                .suggestions
                .into_iter()
                .map(|t| SuggestedTag {
                    field: t.field.to_string(),
                    value: t.value,
                    evidence: t.evidence,
                })
                .collect(),
            summary: f.summary,
        })
        .collect();
    (out, held)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::search::Locator;

    #[test]
    fn known_papers_match_by_id_without_version_doi_or_title() {
        let tax = crate::model::taxonomy::Taxonomy::from_yaml(include_str!(
            "../../../../corpus/taxonomy.yaml"
        ))
        .expect("taxonomy");
        let entry = "key: a\ntitle: \"Agents: All the Way\"\narxiv_id: \"2508.03680\"\nurls:\n  - https://doi.org/10.1145/X.Y\n";
        let record = "record_id: E001\ntitle: Debate Only\nidentifier: arXiv:2305.14325v2\nurl: https://arxiv.org/abs/2305.14325\n";
        let corpus = crate::load::corpus_from_texts(
            tax,
            vec![("corpus/papers/a.yaml".into(), entry.into())],
            vec![("exclusions/E001.yaml".into(), record.into())],
        );
        let k = Known::of(&corpus, &[]);
        assert_eq!(k.holds_paper("2508.03680v3", None, "x"), Some("arXiv id"));
        assert_eq!(k.holds_paper("2305.14325", None, "x"), Some("arXiv id"));
        assert_eq!(
            k.holds_paper("9999.00001", Some("https://doi.org/10.1145/x.y"), "x"),
            Some("DOI")
        );
        assert_eq!(
            k.holds_paper("9999.00001", None, "agents -- all the WAY"),
            Some("title")
        );
        assert_eq!(
            k.holds_paper("9999.00001", None, "Debate only."),
            Some("title")
        );
        assert_eq!(
            k.holds_paper("9999.00001", Some("10.1/other"), "Another paper"),
            None
        );
        assert!(k.keys.contains("a"));
    }

    #[test]
    fn keys_come_from_the_title_and_year_and_never_repeat() {
        let rec = |id: &str, title: &str| Record {
            id: id.into(),
            version: None,
            title: title.into(),
            authors: Vec::new(),
            affiliation: None,
            published: "2024-06-19".into(),
            updated: "2024-06-19".into(),
            withdrawn: false,
            comment: None,
            doi: None,
            journal_ref: None,
        };
        let mut k = Known::default();
        k.keys.insert("agentdojo2024".into());
        assert_eq!(
            k.key_for(&rec("1", "AgentDojo: A Dynamic Environment")),
            "agentdojo2024-2"
        );
        assert_eq!(
            k.key_for(&rec("2", "Learning to Cooperate in Teams")),
            "learning-to2024"
        );
        assert_eq!(k.key_for(&rec("2406.1", "数据 集")), "arxiv-2406-1");
    }

    #[test]
    fn a_family_becomes_one_arxiv_query_per_page() {
        let q = Query {
            id: "mas-rl".into(),
            family: "Multi-agent LLM RL".into(),
            terms: vec!["multi-agent LLM".into(), "LLM-MAS".into()],
            with: vec!["RL".into()],
            logged_as: "multi-agent LLM".into(),
            covered_from: None,
            covered_to: "2026-05-04".into(),
            locator: Locator {
                file: "f".into(),
                section: "s".into(),
            },
        };
        assert_eq!(
            search_query(&q, "2026-05-05", "2026-06-30"),
            "(all:\"multi-agent LLM\" OR all:\"LLM-MAS\") AND (all:\"RL\") AND submittedDate:[202605050000 TO 202606302359]"
        );
        let url = search_url("http://h/api/query", &q, "2026-05-05", "2026-06-30", 100);
        assert!(
            url.starts_with("http://h/api/query?search_query=%28all:%22multi-agent+LLM%22+OR"),
            "{url}"
        );
        assert!(
            url.ends_with("&start=100&max_results=100&sortBy=submittedDate&sortOrder=ascending")
        );
    }
}
