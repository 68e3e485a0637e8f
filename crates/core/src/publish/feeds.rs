//! The feeds of what changed: the dated changes of the list (additions by
//! round, removals and tag changes by release: `publish::changes`) and
//! every event of the status file (a new version, a withdrawal, a published
//! version, a retraction, a new title), as the items of a JSON Feed 1.1
//! (`feed.json`) and an Atom feed (`feed.atom`), written by `corpus site`
//! beside the page. Each item links the paper on the page (a search for its
//! title). The feeds depend only on the data, never on the clock, so the
//! same data gives the same bytes.

use crate::load::Corpus;
use crate::model::status::{Event, Kind, Status};
use serde::Serialize;

/// The marker that says a feed file was written by `corpus site`.
pub const GENERATOR: &str = "corpus site";
/// The JSON Feed file name, beside the page.
pub const JSON_FEED: &str = "feed.json";
/// The Atom feed file name, beside the page.
pub const ATOM_FEED: &str = "feed.atom";

/// One item of both feeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// A stable id (a URN made of the key, the event and what it is about).
    pub id: String,
    /// The day of the change (YYYY-MM-DD).
    pub date: String,
    /// One line: the paper and what happened.
    pub title: String,
    /// The details in a sentence.
    pub text: String,
    /// The paper on the page.
    pub url: String,
}

/// Percent-encodes a URN or URL fragment part (unreserved characters stay).
pub(crate) fn enc(s: &str) -> String {
    // Pushed byte by byte into one buffer: a string per byte cost more than
    // the rest of the changelog.
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len() + s.len() / 2);
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char);
            }
            _ => {
                out.push('%');
                out.push(HEX[usize::from(b >> 4)] as char);
                out.push(HEX[usize::from(b & 0xf)] as char);
            }
        }
    }
    out
}

fn sentence(e: &Event, paper: &str) -> (String, String) {
    let v = e.version.map(|v| format!("v{v}")).unwrap_or_default();
    let doi = e.doi.as_deref().unwrap_or("");
    let venue = e
        .venue
        .as_deref()
        .map(|x| format!(" in {x}"))
        .unwrap_or_default();
    let (what, text) = match e.event {
        Kind::Version => (
            format!("new version {v}"),
            format!("arXiv shows version {v} of \"{paper}\", dated {}.", e.date),
        ),
        Kind::Title => (
            "title changed".to_string(),
            format!(
                "arXiv now titles the paper \"{}\".",
                e.title.as_deref().unwrap_or("")
            ),
        ),
        Kind::Withdrawn => (
            "withdrawn".to_string(),
            format!(
                "arXiv marks \"{paper}\" withdrawn ({v}){}.",
                e.note
                    .as_deref()
                    .map(|n| format!(": {n}"))
                    .unwrap_or_default()
            ),
        ),
        Kind::Published => (
            "published".to_string(),
            format!(
                "\"{paper}\" is published{venue}, DOI {doi} ({} says so).",
                e.source
            ),
        ),
        Kind::Retracted => (
            "retracted".to_string(),
            format!("OpenAlex marks {doi} (\"{paper}\") retracted."),
        ),
    };
    (what, text)
}

/// The items of the status file, newest first (then by key and kind);
/// `site` is the page's address (empty: links relative to the page).
pub fn items(corpus: &Corpus, status: &Status, site: &str) -> Vec<Item> {
    let title_of = |key: &str| -> (String, bool) {
        if let Some(le) = corpus.entries.iter().find(|le| le.entry.key == key) {
            return (le.entry.title.clone(), true);
        }
        match corpus
            .exclusions
            .iter()
            .find(|lx| lx.record.record_id == key)
        {
            Some(lx) => (lx.record.title.clone(), false),
            None => (key.to_string(), true),
        }
    };
    let page = if site.is_empty() { "index.html" } else { site };
    let mut out: Vec<(Kind, Item)> = status
        .events
        .iter()
        .map(|e| {
            let (paper, entry) = title_of(&e.key);
            let (what, text) = sentence(e, &paper);
            let about = e
                .version
                .map(|v| format!("v{v}"))
                .or_else(|| e.doi.clone())
                .unwrap_or_else(|| e.date.clone());
            let url = if entry {
                format!("{page}#q={}", enc(&paper))
            } else {
                format!("{page}#view=exclusions&xq={}", enc(&paper))
            };
            let item = Item {
                id: format!(
                    "urn:x-corpus-status:{}:{}:{}",
                    enc(&e.key),
                    e.event.as_str(),
                    enc(&about)
                ),
                date: e.date.clone(),
                title: format!("{}: {what}", e.key),
                text,
                url,
            };
            (e.event, item)
        })
        .collect();
    out.sort_by(|(ka, a), (kb, b)| {
        b.date
            .cmp(&a.date)
            .then_with(|| a.title.cmp(&b.title))
            .then_with(|| ka.cmp(kb))
    });
    out.into_iter().map(|(_, i)| i).collect()
}

/// Every item of the feeds, newest first (then by title and id): the
/// list's dated changes and, when there is a status file, its events.
pub fn all(corpus: &Corpus, site: &str) -> Vec<Item> {
    let mut out = crate::publish::changes::feed_items(corpus, site);
    if let Some(status) = &corpus.status {
        out.extend(items(corpus, status, site));
    }
    out.sort_by(|a, b| {
        b.date
            .cmp(&a.date)
            .then_with(|| a.title.cmp(&b.title))
            .then_with(|| a.id.cmp(&b.id))
    });
    out
}

fn rfc3339(date: &str) -> String {
    format!("{date}T00:00:00Z")
}

/// Writes the JSON Feed 1.1 of the items to `out`, item by item as it is serialized.
pub fn write_json_feed(
    out: &mut dyn std::io::Write,
    list_title: &str,
    site: &str,
    items: &[Item],
) -> std::io::Result<()> {
    let feed = JsonFeed {
        corpus: Generator {
            generator: GENERATOR,
        },
        description: "Papers added (by round), removed and retagged (by release), and the papers' new versions, withdrawals, published versions, retractions and title changes as recorded by corpus watch.",
        feed_url: (!site.is_empty()).then(|| format!("{site}{JSON_FEED}")),
        home_page_url: (!site.is_empty()).then_some(site),
        items: JsonItems(items),
        title: format!("{list_title}: changes"),
        version: "https://jsonfeed.org/version/1.1",
    };
    serde_json::to_writer_pretty(&mut *out, &feed)?;
    out.write_all(b"\n")
}

/// The JSON Feed's object; its keys stand in the order of their names, as
/// the feed has always been written.
#[derive(Serialize)]
struct JsonFeed<'a> {
    #[serde(rename = "_corpus")]
    corpus: Generator,
    description: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    feed_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    home_page_url: Option<&'a str>,
    items: JsonItems<'a>,
    title: String,
    version: &'static str,
}

/// The tool that wrote a feed.
#[derive(Serialize)]
struct Generator {
    generator: &'static str,
}

/// The items of a JSON Feed, each made as it is written.
struct JsonItems<'a>(&'a [Item]);

/// One item of a JSON Feed (keys in the order of their names).
#[derive(Serialize)]
struct JsonItem<'a> {
    content_text: &'a str,
    date_published: String,
    id: &'a str,
    title: &'a str,
    url: &'a str,
}

impl Serialize for JsonItems<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|i| JsonItem {
            content_text: &i.text,
            date_published: rfc3339(&i.date),
            id: &i.id,
            title: &i.title,
            url: &i.url,
        }))
    }
}

fn xml(s: &str) -> std::borrow::Cow<'_, str> {
    // Nearly every text needs nothing, and is found so without a copy: a
    // byte that might (a markup character, a control character, the lead
    // byte of U+0080–U+00BF) sends it the long way.
    let plain = s.bytes().all(|b| {
        !matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'' | 0x7F | 0xC2)
            && (b >= 0x20 || matches!(b, b'\n' | b'\t' | b'\r'))
    });
    if plain {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 cannot carry other control characters, not even escaped.
            c if c.is_control() && !matches!(c, '\n' | '\t' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Writes the Atom feed of the items to `out`, entry by entry; `updated` is
/// the newest item's day (or a fixed day when there is none), never the clock.
pub fn write_atom(
    out: &mut dyn std::io::Write,
    list_title: &str,
    site: &str,
    items: &[Item],
) -> std::io::Result<()> {
    let updated = items.first().map_or("1970-01-01", |i| i.date.as_str());
    let id = if site.is_empty() {
        "urn:x-corpus-status:feed".to_string()
    } else {
        format!("{site}{ATOM_FEED}")
    };
    out.write_all(b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n")?;
    writeln!(out, "  <id>{}</id>", xml(&id))?;
    writeln!(out, "  <title>{}: changes</title>", xml(list_title))?;
    writeln!(out, "  <updated>{}</updated>", rfc3339(updated))?;
    writeln!(out, "  <generator>{GENERATOR}</generator>")?;
    writeln!(out, "  <author><name>{}</name></author>", xml(list_title))?;
    if !site.is_empty() {
        writeln!(out, "  <link rel=\"alternate\" href=\"{}\"/>", xml(site))?;
        writeln!(out, "  <link rel=\"self\" href=\"{}\"/>", xml(&id))?;
    }
    for i in items {
        out.write_all(b"  <entry>\n")?;
        writeln!(out, "    <id>{}</id>", xml(&i.id))?;
        writeln!(out, "    <title>{}</title>", xml(&i.title))?;
        writeln!(out, "    <updated>{}</updated>", rfc3339(&i.date))?;
        writeln!(
            out,
            "    <link rel=\"alternate\" href=\"{}\"/>",
            xml(&i.url)
        )?;
        writeln!(out, "    <summary>{}</summary>", xml(&i.text))?;
        out.write_all(b"  </entry>\n")?;
    }
    out.write_all(b"</feed>\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(list_title: &str, site: &str, items: &[Item]) -> String {
        let mut out = Vec::new();
        write_atom(&mut out, list_title, site, items).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn text_is_escaped_for_xml_and_plain_text_is_not_copied() {
        for plain in [
            "",
            "Plain text, 2026: (ok) [x] #1 / é ü 中 \u{2028}",
            "tab\tand\nlines\r",
        ] {
            assert!(matches!(xml(plain), std::borrow::Cow::Borrowed(p) if p == plain));
        }
        let cases = [
            ("a & b", "a &amp; b"),
            ("<b>", "&lt;b&gt;"),
            ("\"q\" 'a'", "&quot;q&quot; &apos;a&apos;"),
            ("bell\u{7}del\u{7f}", "bell\u{FFFD}del\u{FFFD}"),
            // U+0085 is a control character; U+00A0 shares its lead byte and is not.
            ("next\u{85}line\u{a0}space", "next\u{FFFD}line\u{a0}space"),
        ];
        for (text, escaped) in cases {
            assert_eq!(xml(text), escaped, "{text:?}");
        }
    }

    #[test]
    fn markup_in_data_cannot_break_the_atom_feed() {
        let items = [Item {
            id: "urn:x-corpus-status:a:version:v2".into(),
            date: "2026-03-02".into(),
            title: "a: </title><script>x</script> & \u{1b}[2J".into(),
            text: "t".into(),
            url: "index.html#q=a".into(),
        }];
        let text = atom("List <1>", "", &items);
        let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
        let title = doc
            .descendants()
            .find(|n| {
                n.has_tag_name("title") && n.parent().is_some_and(|p| p.has_tag_name("entry"))
            })
            .and_then(|n| n.text())
            .unwrap();
        assert_eq!(title, "a: </title><script>x</script> & \u{FFFD}[2J");
        assert_eq!(
            atom("List <1>", "", &items),
            text,
            "the same items give the same bytes"
        );
    }

    #[test]
    fn ids_and_links_are_percent_encoded() {
        assert_eq!(enc("10.1145/3533767 x"), "10.1145%2F3533767%20x");
    }
}
