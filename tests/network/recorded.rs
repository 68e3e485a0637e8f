//! Loopback doubles of the arXiv API and of OpenAlex that answer with the
//! real recorded answers in `tests/fixtures/watch/` (their sources and every
//! trim or edit are listed in the README there).

use crate::common::fixture_dir;
use crate::common::server::{Reply, Request, Server};
use std::collections::BTreeMap;

/// A recorded answer, as bytes turned text (every fixture is UTF-8).
pub fn fixture(rel: &str) -> String {
    let path = fixture_dir("watch").join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `<entry>` elements of a recorded feed, verbatim.
fn entries(feed: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = feed;
    while let Some(start) = rest.find("  <entry>") {
        let end = rest[start..].find("</entry>\n").expect("a closed entry") + start + 9;
        out.push(rest[start..end].to_string());
        rest = &rest[end..];
    }
    out
}

/// The head of a recorded feed: everything before its first entry (or its end).
fn head(feed: &str) -> &str {
    let cut = feed
        .find("  <entry>")
        .or_else(|| feed.find("</feed>"))
        .expect("a feed");
    &feed[..cut]
}

/// An arXiv API double: `answers` maps a bare id to the recorded file of its
/// record (under `arxiv/`); a request naming any id of `malformed` gets
/// arXiv's recorded 400 answer naming that id; ids in neither are unknown.
pub fn arxiv(answers: &[(&str, &str)], malformed: &[&str]) -> Server {
    let answers: BTreeMap<String, String> = answers
        .iter()
        .map(|(id, file)| (id.to_string(), fixture(&format!("arxiv/{file}"))))
        .collect();
    let malformed: Vec<String> = malformed.iter().map(|s| s.to_string()).collect();
    let refusal = fixture("arxiv/400-abc.xml");
    let unknown = fixture("arxiv/0000.0000.xml");
    Server::start(move |r: &Request| {
        if r.path != "/api/query" {
            return Reply::status(404);
        }
        let ids: Vec<&str> = r
            .query
            .split('&')
            .find_map(|kv| kv.strip_prefix("id_list="))
            .unwrap_or("")
            .split(',')
            .collect();
        if let Some(bad) = ids.iter().find(|id| malformed.iter().any(|m| m == *id)) {
            return Reply::Send {
                status: 400,
                headers: vec![("Content-Type".into(), "application/atom+xml".into())],
                body: refusal.replace("abc", bad),
            };
        }
        let known: Vec<&String> = ids.iter().filter_map(|id| answers.get(*id)).collect();
        let mut body = head(known.first().map_or(&unknown, |f| *f)).to_string();
        for f in &known {
            body.extend(entries(f));
        }
        body.push_str("</feed>\n");
        Reply::body("application/atom+xml; charset=utf-8", &body)
    })
}

/// An OpenAlex double holding the recorded work objects `works` (files under
/// `openalex/`): `/works?filter=doi:A|B` answers the list envelope around
/// the works whose DOI was asked for.
pub fn openalex(works: &[&str]) -> Server {
    let works: Vec<(String, String)> = works
        .iter()
        .map(|f| {
            let text = fixture(&format!("openalex/{f}"));
            let v: serde_json::Value = serde_json::from_str(&text).expect("a work object");
            let doi = v["doi"].as_str().expect("a DOI").to_lowercase();
            (doi, text.trim().to_string())
        })
        .collect();
    Server::start(move |r: &Request| {
        if r.path != "/works" {
            return Reply::status(404);
        }
        let filter = r
            .query
            .split('&')
            .find_map(|kv| kv.strip_prefix("filter=doi:"))
            .unwrap_or("");
        let asked: Vec<String> = decode(filter)
            .split('|')
            .map(|d| format!("https://doi.org/{}", d.to_lowercase()))
            .collect();
        let found: Vec<&str> = works
            .iter()
            .filter(|(doi, _)| asked.contains(doi))
            .map(|(_, w)| w.as_str())
            .collect();
        let body = format!(
            "{{\"meta\":{{\"count\":{n},\"db_response_time_ms\":12,\"page\":1,\"per_page\":50,\"groups_count\":null}},\"results\":[{}],\"group_by\":[]}}",
            found.join(","),
            n = found.len()
        );
        Reply::body("application/json", &body)
    })
}

/// A query value with its `%XX` escapes decoded.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).expect("UTF-8 query")
}
