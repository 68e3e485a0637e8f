//! Where the URLs are: entry and record links, and the Layout::README's Markdown links and anchors.

use super::{Link, Place};
use crate::layout::Layout;
use crate::load::Corpus;
use crate::model::fields;
use std::collections::{BTreeMap, HashMap};

/// Every URL of the corpus and the Layout::README, with where it is written.
pub fn collect(corpus: &Corpus, readme: Option<&str>) -> Vec<Link> {
    let mut by_url: BTreeMap<String, Link> = BTreeMap::new();
    let mut add = |url: &str, place: Place, arxiv: Option<String>| {
        let l = by_url.entry(url.to_string()).or_insert_with(|| Link {
            url: url.to_string(),
            places: Vec::new(),
            arxiv_ids: Vec::new(),
        });
        l.places.push(place);
        l.arxiv_ids.push(arxiv);
    };
    for le in &corpus.entries {
        let file = corpus.file(le.file);
        for (i, u) in le.entry.urls.iter().enumerate() {
            let line = file.spans().line(&format!("urls[{i}]"));
            let place = Place {
                file: file.rel.clone(),
                line,
            };
            add(
                u,
                place,
                Some(le.entry.arxiv_id.clone().unwrap_or_default()),
            );
        }
    }
    for lx in &corpus.exclusions {
        let file = corpus.file(lx.file);
        if lx.record.url.is_empty() {
            continue;
        }
        let place = Place {
            file: file.rel.clone(),
            line: file.spans().line(fields::URL),
        };
        add(&lx.record.url, place, None);
    }
    if let Some(text) = readme {
        for (line, url) in markdown_links(text) {
            let place = Place {
                file: Layout::README.to_string(),
                line: Some(line),
            };
            add(&url, place, None);
        }
    }
    by_url.into_values().collect()
}

/// Link targets of Markdown text with their lines: inline links and images,
/// autolinks and reference definitions, outside fenced code.
pub fn markdown_links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let line_no = i + 1;
        // Reference definitions: `[label]: url`.
        if let Some(rest) = t.strip_prefix('[') {
            if let Some((_, after)) = rest.split_once("]:") {
                if let Some(u) = after.split_whitespace().next() {
                    out.push((line_no, u.trim_matches(['<', '>']).to_string()));
                }
                continue;
            }
        }
        let bytes = line.as_bytes();
        let mut j = 0;
        while j + 1 < bytes.len() {
            if bytes[j] == b']' && bytes[j + 1] == b'(' {
                let start = j + 2;
                if let Some(len) = line[start..].find(')') {
                    let inner = line[start..start + len].trim();
                    let target = inner
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .trim_matches(['<', '>']);
                    if !target.is_empty() {
                        out.push((line_no, target.to_string()));
                    }
                    j = start + len;
                    continue;
                }
            }
            if bytes[j] == b'<' && line[j + 1..].starts_with("http") {
                if let Some(len) = line[j + 1..].find('>') {
                    let u = &line[j + 1..j + 1 + len];
                    if !u.contains(char::is_whitespace) {
                        out.push((line_no, u.to_string()));
                    }
                    j += len + 1;
                    continue;
                }
            }
            j += 1;
        }
    }
    out
}

/// The anchors GitHub makes for a Markdown text's headings (and explicit
/// `<a id>`/`<a name>` targets).
pub fn anchors(text: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut fenced = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for key in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(i) = rest.find(key) {
                let after = &rest[i + key.len()..];
                if let Some(end) = after.find('"') {
                    out.insert(after[..end].to_string());
                }
                rest = after;
            }
        }
        let hashes = t.chars().take_while(|c| *c == '#').count();
        if !(1..=6).contains(&hashes) || !t[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(t[hashes..].trim().trim_end_matches('#').trim());
        let n = counts.entry(base.clone()).or_insert(0);
        let anchor = if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        *n += 1;
        out.insert(anchor);
    }
    out
}

/// GitHub's heading anchor of a heading whose links keep only their text.
pub fn slug(heading: &str) -> String {
    let mut plain = String::new();
    let mut rest = heading;
    // `[text](url)` keeps only its text.
    while let Some(i) = rest.find('[') {
        plain.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.find("](") {
            Some(j) => {
                plain.push_str(&after[..j]);
                let tail = &after[j + 2..];
                rest = tail.find(')').map(|k| &tail[k + 1..]).unwrap_or("");
            }
            None => {
                plain.push('[');
                rest = after;
            }
        }
    }
    plain.push_str(rest);
    crate::text::markdown::anchor(&plain)
}

/// The arXiv id an arxiv.org link names (abs, pdf or html), version dropped.
pub fn arxiv_id_of_url(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let path = rest.strip_prefix("arxiv.org/")?;
    let (kind, id) = path.split_once('/')?;
    if !matches!(kind, "abs" | "pdf" | "html") {
        return None;
    }
    let id = id.split(['?', '#']).next().unwrap_or(id);
    let id = id.trim_end_matches('/').trim_end_matches(".pdf");
    Some(crate::text::ids::strip_version(id).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_github() {
        assert_eq!(slug("Quick start"), "quick-start");
        assert_eq!(
            slug("RL and Post-Training Methods (42)"),
            "rl-and-post-training-methods-42"
        );
        assert_eq!(slug("[Linked](https://x.org) heading"), "linked-heading");
        assert_eq!(slug("snake_case `code`"), "snake_case-code");
    }

    #[test]
    fn anchors_number_repeated_headings_and_skip_code() {
        let a = anchors("# A\n## A\n```\n# B\n```\n<a id=\"c\"></a>\n");
        assert!(a.contains("a") && a.contains("a-1") && a.contains("c"));
        assert!(!a.contains("b"));
    }

    #[test]
    fn markdown_links_are_found_with_their_lines() {
        let text = "x [a](https://a.org) and ![i](https://i.org/p.svg \"t\")\n<https://b.org>\n```\n[c](https://c.org)\n```\n[ref]: https://d.org\n[toc](#top)\n";
        let found: Vec<(usize, String)> = markdown_links(text);
        assert_eq!(
            found,
            vec![
                (1, "https://a.org".to_string()),
                (1, "https://i.org/p.svg".to_string()),
                (2, "https://b.org".to_string()),
                (6, "https://d.org".to_string()),
                (7, "#top".to_string()),
            ]
        );
    }

    #[test]
    fn arxiv_ids_come_out_of_links() {
        assert_eq!(
            arxiv_id_of_url("https://arxiv.org/abs/2508.04652v7").as_deref(),
            Some("2508.04652")
        );
        assert_eq!(
            arxiv_id_of_url("https://arxiv.org/pdf/2508.04652.pdf").as_deref(),
            Some("2508.04652")
        );
        assert_eq!(
            arxiv_id_of_url("https://arxiv.org/abs/cs/0701001").as_deref(),
            Some("cs/0701001")
        );
        assert_eq!(arxiv_id_of_url("https://arxiv.org/list/cs.AI/new"), None);
        assert_eq!(arxiv_id_of_url("https://example.org/abs/1"), None);
    }
}
