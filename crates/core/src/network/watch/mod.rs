//! `corpus watch`: each entry's and record's paper as arXiv and OpenAlex
//! describe it now, compared with what the status file recorded, every
//! change added as a dated event; then what needs a maintainer's decision
//! (a withdrawn or retracted paper still counted, a title arXiv changed, a
//! published version the entry does not name) as diagnostics.
//!
//! The order of work: [`subjects`] (what to ask about), [`refresh`] (ask
//! the services for what the cache lacks or holds too long, one request at
//! a time per service), [`observe`] (answers → new events), [`diagnose`].

pub mod cache;

use crate::load::Corpus;
use crate::model::status::{Event, Kind, Latest, Status};
use crate::network::arxiv;
use crate::network::http::Client;
use crate::network::openalex::{self, Work};
use crate::text::ids::{normalize_title, strip_version};
use cache::{ArxivAnswer, Cache, WorkAnswer};
use corpus_diagnostics::diag::Diagnostic;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// One paper `watch` asks about: an entry or an exclusion record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// The entry's key or the record's id.
    pub key: String,
    /// Index of its file in [`Corpus::files`].
    pub file: usize,
    /// Whether it is an entry (records are watched, never diagnosed).
    pub entry: bool,
    /// The bare arXiv id, when it has one.
    pub arxiv: Option<String>,
    /// The DOIs its links name.
    pub dois: Vec<String>,
}

/// The entries and records of a corpus that name an arXiv id or a DOI.
pub fn subjects(corpus: &Corpus) -> Vec<Subject> {
    let arxiv_id = |id: &str| {
        let id = id.trim();
        crate::text::ids::arxiv_year(id).map(|_| strip_version(id).to_string())
    };
    let mut out = Vec::new();
    for le in &corpus.entries {
        let e = &le.entry;
        out.push(Subject {
            key: e.key.clone(),
            file: le.file,
            entry: true,
            arxiv: e.arxiv_id.as_deref().and_then(arxiv_id),
            dois: e
                .urls
                .iter()
                .filter_map(|u| openalex::doi_of_url(u))
                .collect(),
        });
    }
    for lx in &corpus.exclusions {
        let r = &lx.record;
        let ident = r.identifier.trim();
        let named = ident
            .get(..6)
            .filter(|p| p.eq_ignore_ascii_case("arxiv:"))
            .map(|_| &ident[6..]);
        out.push(Subject {
            key: r.record_id.clone(),
            file: lx.file,
            entry: false,
            arxiv: named.and_then(arxiv_id),
            dois: openalex::doi_of_url(&r.url)
                .into_iter()
                .chain(openalex::doi_of_url(ident))
                .collect(),
        });
    }
    out.retain(|s| s.arxiv.is_some() || !s.dois.is_empty());
    out
}

/// The DOIs to ask OpenAlex about for one subject: its links', arXiv's
/// preprint DOI, the published DOI arXiv gives and those already recorded.
pub fn dois_of(s: &Subject, cache: &Cache, status: &Status) -> Vec<String> {
    let mut d: BTreeSet<String> = s.dois.iter().cloned().collect();
    if let Some(id) = &s.arxiv {
        d.insert(openalex::arxiv_doi(id));
        if let Some(doi) = cache
            .arxiv
            .get(id)
            .and_then(|a| a.record.as_ref())
            .and_then(|r| r.doi.as_deref())
        {
            d.insert(openalex::normalize_doi(doi));
        }
    }
    d.extend(status.of(&s.key).filter_map(|e| e.doi.clone()));
    d.into_iter().collect()
}

/// Where and how politely to ask.
pub struct Services<'a> {
    /// The one HTTP client.
    pub client: &'a Client,
    /// arXiv API endpoint and the pause between its requests.
    pub arxiv: (&'a str, Duration),
    /// OpenAlex endpoint and the pause between its requests.
    pub openalex: (&'a str, Duration),
    /// The contact address sent to OpenAlex (`mailto`).
    pub contact: Option<&'a str>,
    /// Answers younger than this are not asked again (None: ask every time).
    pub max_age: Option<Duration>,
    /// Now, in Unix seconds.
    pub now: u64,
    /// Hears each paper answered, arXiv's then OpenAlex's.
    pub progress: &'a dyn crate::network::progress::Progress,
}

/// Asks arXiv, then OpenAlex, about what the cache lacks or holds too long,
/// and stores the answers in the cache. Returns how many requests of each
/// were needed, or why a service could not be used (and whether its request
/// got no answer at all: then the network may be down).
pub fn refresh(
    subjects: &[Subject],
    status: &Status,
    cache: &mut Cache,
    svc: &Services,
    sleep: &dyn Fn(Duration),
) -> Result<(usize, usize), arxiv::Unusable> {
    let stale = |fetched: u64| match svc.max_age {
        Some(age) => svc.now.saturating_sub(fetched) > age.as_secs(),
        None => true,
    };
    let ids: BTreeSet<&str> = subjects
        .iter()
        .filter_map(|s| s.arxiv.as_deref())
        .filter(|id| cache.arxiv.get(*id).is_none_or(|a| stale(a.fetched)))
        .collect();
    let ids: Vec<&str> = ids.into_iter().collect();
    if !ids.is_empty() {
        svc.progress.start(ids.len() as u64, "arXiv records");
        let feed = arxiv::fetch(
            svc.client,
            svc.arxiv.0,
            &ids,
            svc.arxiv.1,
            sleep,
            svc.progress,
        );
        svc.progress.finish();
        let feed = feed?;
        for id in &ids {
            cache.arxiv.insert(
                id.to_string(),
                ArxivAnswer {
                    fetched: svc.now,
                    record: feed.records.get(*id).cloned(),
                    refused: feed.refused.get(*id).cloned(),
                },
            );
        }
    }
    let dois: BTreeSet<String> = subjects
        .iter()
        .flat_map(|s| dois_of(s, cache, status))
        .filter(|d| cache.openalex.get(d).is_none_or(|a| stale(a.fetched)))
        .collect();
    let dois: Vec<&str> = dois.iter().map(String::as_str).collect();
    if !dois.is_empty() {
        svc.progress.start(dois.len() as u64, "OpenAlex works");
        let works = openalex::fetch(
            svc.client,
            svc.openalex.0,
            &dois,
            svc.contact,
            svc.openalex.1,
            sleep,
            svc.progress,
        );
        svc.progress.finish();
        let works = works?;
        let by_doi: BTreeMap<&str, &Work> = works.iter().map(|w| (w.doi.as_str(), w)).collect();
        for d in &dois {
            cache.openalex.insert(
                d.to_string(),
                WorkAnswer {
                    fetched: svc.now,
                    work: by_doi.get(d).map(|w| (*w).clone()),
                },
            );
        }
    }
    Ok((
        ids.len().div_ceil(arxiv::BATCH),
        dois.len().div_ceil(openalex::BATCH),
    ))
}

/// The events the cached answers add to the status file (each change once),
/// the figures updated; returns the new events. Subjects the cache holds
/// nothing for are left alone.
pub fn observe(
    subjects: &[Subject],
    cache: &Cache,
    status: &mut Status,
    today: &str,
) -> Vec<Event> {
    let mut added = Vec::new();
    for s in subjects {
        let mut new: Vec<Event> = Vec::new();
        let event = |kind: Kind, source: &str, date: &str| Event {
            key: s.key.clone(),
            event: kind,
            date: date.to_string(),
            observed: today.to_string(),
            source: source.to_string(),
            version: None,
            title: None,
            doi: None,
            venue: None,
            note: None,
        };
        let record = s
            .arxiv
            .as_ref()
            .and_then(|id| cache.arxiv.get(id))
            .and_then(|a| a.record.as_ref());
        if let Some(r) = record {
            let version = r.version.unwrap_or(1);
            let seen = status.of(&s.key).filter_map(|e| e.version).max();
            let last_title = status
                .of(&s.key)
                .filter(|e| matches!(e.event, Kind::Version | Kind::Title))
                .filter_map(|e| e.title.as_deref())
                .last();
            let newer = seen.is_none_or(|v| version > v);
            if last_title.is_some_and(|t| normalize_title(t) != normalize_title(&r.title)) {
                let date = if newer { r.updated.as_str() } else { today };
                new.push(Event {
                    version: Some(version),
                    title: Some(r.title.clone()),
                    ..event(Kind::Title, "arxiv", date)
                });
            }
            if newer {
                new.push(Event {
                    version: Some(version),
                    title: Some(r.title.clone()),
                    ..event(Kind::Version, "arxiv", &r.updated)
                });
            }
            if r.withdrawn {
                new.push(Event {
                    version: Some(version),
                    note: r.comment.clone(),
                    ..event(Kind::Withdrawn, "arxiv", &r.updated)
                });
            }
            if let Some(doi) = &r.doi {
                new.push(Event {
                    doi: Some(openalex::normalize_doi(doi)),
                    venue: r.journal_ref.clone(),
                    ..event(Kind::Published, "arxiv", today)
                });
            }
        }
        let works: Vec<&Work> = dois_of(s, cache, status)
            .iter()
            .filter_map(|d| cache.openalex.get(d)?.work.as_ref())
            .collect();
        for w in &works {
            if w.is_published() {
                new.push(Event {
                    doi: Some(w.doi.clone()),
                    venue: w.venue.clone(),
                    ..event(
                        Kind::Published,
                        "openalex",
                        w.date.as_deref().unwrap_or(today),
                    )
                });
            }
            if w.retracted {
                new.push(Event {
                    doi: Some(w.doi.clone()),
                    title: Some(w.title.clone()).filter(|t| !t.is_empty()),
                    ..event(Kind::Retracted, "openalex", today)
                });
            }
        }
        let best = works.iter().map(|w| w.cited_by).max();
        // A count that did not move keeps its date, so a look that finds
        // nothing new leaves the file as it was.
        let moved = best.is_some_and(|b| {
            !status
                .latest
                .iter()
                .any(|l| l.key == s.key && l.cited_by == b)
        });
        if let Some(best) = best.filter(|_| moved) {
            status.latest.retain(|l| l.key != s.key);
            status.latest.push(Latest {
                key: s.key.clone(),
                observed: today.to_string(),
                cited_by: best,
            });
        }
        for e in new {
            // A published DOI counts once, whichever service named it first.
            let known = |x: &Event| {
                x.identity() == e.identity()
                    || (e.event == Kind::Published
                        && x.event == Kind::Published
                        && x.key == e.key
                        && x.doi == e.doi)
            };
            if !status.events.iter().any(known) {
                status.events.push(e.clone());
                added.push(e);
            }
        }
    }
    status.sort();
    added
}

/// What the recorded status asks of the entries (see [`crate::check::status`]).
pub fn diagnose(corpus: &Corpus, status: &Status) -> Vec<Diagnostic> {
    crate::check::status::problems(corpus, status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(version: u32, title: &str, withdrawn: bool) -> arxiv::Record {
        arxiv::Record {
            id: "2204.08348".into(),
            version: Some(version),
            title: title.into(),
            authors: vec!["Myeongsoo Kim".into()],
            affiliation: None,
            published: "2022-04-18".into(),
            updated: format!("2022-07-0{version}"),
            withdrawn,
            comment: None,
            doi: None,
            journal_ref: None,
        }
    }

    fn look(cache: &mut Cache, r: arxiv::Record, cited_by: u64) {
        cache.arxiv.insert(
            r.id.clone(),
            ArxivAnswer {
                fetched: 0,
                record: Some(r),
                refused: None,
            },
        );
        cache.openalex.insert(
            "10.48550/arxiv.2204.08348".into(),
            WorkAnswer {
                fetched: 0,
                work: Some(Work {
                    doi: "10.48550/arxiv.2204.08348".into(),
                    title: "t".into(),
                    date: None,
                    venue: Some("arXiv (Cornell University)".into()),
                    venue_type: Some("repository".into()),
                    retracted: false,
                    cited_by,
                }),
            },
        );
    }

    #[test]
    fn each_change_is_recorded_once_and_a_quiet_day_changes_nothing() {
        let s = [Subject {
            key: "k".into(),
            file: 0,
            entry: true,
            arxiv: Some("2204.08348".into()),
            dois: vec![],
        }];
        let (mut cache, mut status) = (Cache::default(), Status::default());
        look(&mut cache, record(1, "A title", false), 5);
        assert_eq!(observe(&s, &cache, &mut status, "2026-12-01").len(), 1);
        let quiet = status.clone();
        assert!(observe(&s, &cache, &mut status, "2026-12-02").is_empty());
        assert_eq!(status, quiet, "nothing moved, not even a date");

        look(&mut cache, record(2, "A  Title", false), 7);
        let added = observe(&s, &cache, &mut status, "2026-12-03");
        assert_eq!(
            added.iter().map(|e| e.event).collect::<Vec<_>>(),
            [Kind::Version]
        );
        assert_eq!(status.latest[0].cited_by, 7);

        look(&mut cache, record(3, "Another title", true), 7);
        let kinds: Vec<Kind> = observe(&s, &cache, &mut status, "2026-12-04")
            .iter()
            .map(|e| e.event)
            .collect();
        assert_eq!(kinds, [Kind::Title, Kind::Version, Kind::Withdrawn]);
        assert!(observe(&s, &cache, &mut status, "2026-12-05").is_empty());
    }
}
