//! What changed in the list, read from the data alone: additions by round
//! (each entry's `added_in` and the taxonomy's dated `rounds`), removals
//! and tag changes by release (consecutive releases of
//! `corpus/releases.yaml`, which `corpus release` writes with the tags of
//! every entry, and, unreleased, the newest release against the data now).
//! `build` writes them as `CHANGELOG.md`, grouped by round and release;
//! `site` adds the dated ones to its feeds. Neither the clock nor git is
//! read, so the same data gives the same bytes.

use crate::model::corpus::Corpus;
use crate::model::releases::{tags_of, Release, Tags};
use crate::publish::feeds::{enc, Item};
use crate::text::markdown::{code_span, escape_markdown, link_target};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The first line of a changelog `build` wrote (the loader looks for it in
/// the changelog it reads, `load::CHANGELOG_MARK`).
pub use crate::load::CHANGELOG_MARK as MARK;

/// One change of one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// The entry joined the list in a round (its id).
    Added(String),
    /// The entry left the list.
    Removed,
    /// A tag changed: field, before, after.
    Retagged(String, String, String),
}

/// A change and the entry it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The entry's key.
    pub key: String,
    /// Its title now (None: no longer in the list).
    pub title: Option<String>,
    /// What happened.
    pub what: What,
}

/// A group of changes: a round, a release, or what is not released yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// Its day (None for the unreleased changes).
    pub date: Option<String>,
    /// The release's version, for a release.
    pub version: Option<String>,
    /// What the sentence under the heading says.
    pub intro: Intro,
    /// The changes, by key.
    pub changes: Vec<Change>,
}

/// What the sentence under a section's heading says; the changelog words
/// it, so a section holds data and no Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intro {
    /// The first release, with its number of entries.
    FirstRelease(usize),
    /// A later release: its entries, the previous release's version, and
    /// how many entries were added, removed and retagged since.
    Release {
        /// Entries of the release.
        entries: usize,
        /// The previous release's version.
        previous: String,
        /// Entries added since.
        added: usize,
        /// Entries removed since.
        removed: usize,
        /// Tag changes since.
        retagged: usize,
    },
    /// A round (its id) and how many entries joined in it.
    Round(String, usize),
    /// The changes since the last release (its version and day).
    Unreleased(String, String),
}

impl Intro {
    /// The sentence, in Markdown.
    fn text(&self) -> String {
        match self {
            Intro::FirstRelease(n) => format!("The first release: {n} entries."),
            Intro::Release {
                entries,
                previous,
                added,
                removed,
                retagged,
            } => format!(
                "{entries} entries; since release {}: {added} added (see their rounds), {removed} removed, {retagged} tag change{}.",
                code_span(previous),
                if *retagged == 1 { "" } else { "s" },
            ),
            Intro::Round(id, n) => format!(
                "Round {}: the {n} entr{} of the list that joined in it.",
                code_span(id),
                if *n == 1 { "y" } else { "ies" }
            ),
            Intro::Unreleased(version, date) => format!(
                "Changes since release {} ({date}).",
                code_span(version)
            ),
        }
    }
}

/// The changes between a tag snapshot `old` and the tags `new` gives of a
/// key (None: no such entry): removals and tag changes, by key; additions
/// are the rounds' to tell. Only the keys of `old` are asked about, so the
/// tags of the entries now are made one at a time, never all at once.
fn between<'n>(
    old: &BTreeMap<String, Tags>,
    new: impl Fn(&str) -> Option<Cow<'n, Tags>>,
    title: &dyn Fn(&str) -> Option<String>,
) -> Vec<Change> {
    let mut out = Vec::new();
    for (key, before) in old {
        let Some(after) = new(key) else {
            out.push(Change {
                key: key.clone(),
                title: title(key),
                what: What::Removed,
            });
            continue;
        };
        let fields: std::collections::BTreeSet<&String> =
            before.keys().chain(after.keys()).collect();
        for f in fields {
            let (a, b) = (
                before.get(f).map_or("", String::as_str),
                after.get(f).map_or("", String::as_str),
            );
            if a != b {
                out.push(Change {
                    key: key.clone(),
                    title: title(key),
                    what: What::Retagged(f.clone(), a.to_string(), b.to_string()),
                });
            }
        }
    }
    out
}

/// The tags of every entry now.
pub fn snapshot(corpus: &Corpus) -> BTreeMap<String, Tags> {
    corpus
        .entries
        .iter()
        .map(|le| (le.entry.key.clone(), tags_of(&le.entry)))
        .collect()
}

/// Every section, newest first: the unreleased changes (when a release
/// exists and the data moved since), then releases and rounds by day (a
/// release before a round of the same day).
pub fn sections(corpus: &Corpus) -> Vec<Section> {
    let by_key = corpus.entries_by_key();
    let title = |k: &str| by_key.get(k).map(|e| e.title.clone());
    let releases: &[Release] = corpus.releases.as_ref().map_or(&[], |r| &r.releases);
    let now = |k: &str| by_key.get(k).map(|e| Cow::Owned(tags_of(e)));
    // What moved since the last release, found before any section is worded.
    let unreleased = releases
        .last()
        .map(|last| (last, between(&last.entries, now, &title)));
    let mut dated: Vec<(String, u8, Section)> = Vec::new();
    let empty = BTreeMap::new();
    for (i, r) in releases.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| &releases[p]);
        let changes = prev.map_or_else(Vec::new, |p| {
            between(&p.entries, |k| r.entries.get(k).map(Cow::Borrowed), &title)
        });
        let added = r
            .entries
            .keys()
            .filter(|k| !prev.map_or(&empty, |p| &p.entries).contains_key(*k))
            .count();
        let removed = changes.iter().filter(|c| c.what == What::Removed).count();
        let retagged = changes.len() - removed;
        let intro = match prev {
            None => Intro::FirstRelease(r.entries.len()),
            Some(p) => Intro::Release {
                entries: r.entries.len(),
                previous: p.version.clone(),
                added,
                removed,
                retagged,
            },
        };
        dated.push((
            r.date.clone(),
            1,
            Section {
                heading: format!("Release {} ({})", r.version, r.date),
                date: Some(r.date.clone()),
                version: Some(r.version.clone()),
                intro,
                changes,
            },
        ));
    }
    let tax = &corpus.taxonomy;
    for round in &tax.rounds {
        let changes: Vec<Change> = corpus
            .entries
            .iter()
            .filter(|le| tax.round_of(le.entry.added_in.as_deref()) == Some(round.id.as_str()))
            .map(|le| Change {
                key: le.entry.key.clone(),
                title: Some(le.entry.title.clone()),
                what: What::Added(round.id.clone()),
            })
            .collect();
        if changes.is_empty() {
            continue;
        }
        dated.push((
            round.date.clone(),
            0,
            Section {
                heading: format!("{} ({})", round.label, round.date),
                date: Some(round.date.clone()),
                version: None,
                intro: Intro::Round(round.id.clone(), changes.len()),
                changes,
            },
        ));
    }
    dated.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut out = Vec::new();
    if let Some((last, mut changes)) = unreleased {
        let keys: std::collections::BTreeSet<&str> = by_key.keys().copied().collect();
        let mut added: Vec<Change> = keys
            .into_iter()
            .filter(|k| !last.entries.contains_key(*k))
            .map(|k| Change {
                key: k.to_string(),
                title: title(k),
                what: What::Added(String::new()),
            })
            .collect();
        if !changes.is_empty() || !added.is_empty() {
            added.append(&mut changes);
            out.push(Section {
                heading: "Unreleased".to_string(),
                date: None,
                version: None,
                intro: Intro::Unreleased(last.version.clone(), last.date.clone()),
                changes: added,
            });
        }
    }
    out.extend(dated.into_iter().map(|(_, _, s)| s));
    out
}

/// The entry on the site (a search for its title), or its data file when
/// the list names no repository to derive the site from.
fn entry_link(site: &str, key: &str, title: &str) -> String {
    if site.is_empty() {
        format!("corpus/papers/{key}.yaml")
    } else {
        format!("{site}#q={}", enc(title))
    }
}

/// One line of the changelog.
fn line(c: &Change, site: &str) -> String {
    let named = match &c.title {
        Some(t) => {
            let url = entry_link(site, &c.key, t);
            let target = if site.is_empty() {
                Some(url)
            } else {
                link_target(&url)
            };
            match target {
                Some(u) => format!("[{}]({u}) ({})", escape_markdown(t), code_span(&c.key)),
                None => format!("{} ({})", escape_markdown(t), code_span(&c.key)),
            }
        }
        None => code_span(&c.key),
    };
    match &c.what {
        What::Added(_) => format!("- Added: {named}"),
        What::Removed => format!("- Removed: {named}"),
        What::Retagged(f, a, b) => format!(
            "- Tag changed: {named}: {} {} → {}",
            code_span(f),
            code_span(a),
            code_span(b)
        ),
    }
}

/// The text of `CHANGELOG.md`; `site` is the site's address ("" for none).
pub fn changelog(corpus: &Corpus, site: &str) -> String {
    let mut out = String::from("# Changelog\n\n");
    out.push_str(MARK);
    out.push_str("\n\nWhat changed in the list, newest first. Additions are grouped by the round that added them (an entry's `added_in`, else the first round); removals and tag changes are read from `corpus/releases.yaml`, where `corpus release` records the tags of every entry at each release. An entry removed since is no longer listed under its round. Each entry links its row on the site.\n");
    for s in sections(corpus) {
        out.push_str(&format!(
            "\n## {}\n\n{}\n",
            escape_markdown(&s.heading),
            s.intro.text()
        ));
        if !s.changes.is_empty() {
            out.push('\n');
        }
        for c in &s.changes {
            out.push_str(&line(c, site));
            out.push('\n');
        }
    }
    out
}

/// The dated changes as feed items (unreleased changes have no day, so
/// they wait for their release); `site` as for [`changelog`].
pub fn feed_items(corpus: &Corpus, site: &str) -> Vec<Item> {
    let page = if site.is_empty() { "index.html" } else { site };
    let tax = &corpus.taxonomy;
    let mut out = Vec::new();
    for s in sections(corpus) {
        let Some(date) = &s.date else { continue };
        for c in &s.changes {
            let url = match &c.title {
                Some(t) => format!("{page}#q={}", enc(t)),
                None => page.to_string(),
            };
            let paper = c.title.as_deref().unwrap_or(&c.key);
            let release = s.version.as_deref().unwrap_or("");
            let (what, id, text) = match &c.what {
                What::Added(round) => (
                    "added".to_string(),
                    format!("added:{}", enc(round)),
                    format!("\"{paper}\" joined the list in {}.", tax.round_label(round)),
                ),
                What::Removed => (
                    format!("removed in release {release}"),
                    format!("removed:{}", enc(release)),
                    format!("`{}` left the list in release {release}.", c.key),
                ),
                What::Retagged(f, a, b) => (
                    format!("{f} changed"),
                    format!("tags:{}:{}", enc(release), enc(f)),
                    format!(
                        "Release {release} changes {f} of \"{paper}\" from \"{a}\" to \"{b}\"."
                    ),
                ),
            };
            out.push(Item {
                id: format!("urn:x-corpus-change:{}:{id}", enc(&c.key)),
                date: date.clone(),
                title: format!("{}: {what}", c.key),
                text,
                url,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(pairs: &[(&str, &str)]) -> Tags {
        pairs
            .iter()
            .map(|(f, v)| (f.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn between_two_snapshots_lists_removals_and_each_changed_tag() {
        let old: BTreeMap<String, Tags> = [
            (
                "a".to_string(),
                tags(&[("category", "x"), ("scenario", "web")]),
            ),
            ("gone".to_string(), tags(&[("category", "x")])),
        ]
        .into_iter()
        .collect();
        let new: BTreeMap<String, Tags> = [
            (
                "a".to_string(),
                tags(&[("category", "y"), ("scenario", "web")]),
            ),
            ("new".to_string(), tags(&[("category", "x")])),
        ]
        .into_iter()
        .collect();
        let got = between(&old, |k| new.get(k).map(Cow::Borrowed), &|k| {
            (k == "a").then(|| "A".to_string())
        });
        assert_eq!(
            got,
            [
                Change {
                    key: "a".into(),
                    title: Some("A".into()),
                    what: What::Retagged("category".into(), "x".into(), "y".into()),
                },
                Change {
                    key: "gone".into(),
                    title: None,
                    what: What::Removed,
                },
            ]
        );
        assert!(between(&new, |k| new.get(k).map(Cow::Borrowed), &|_| None).is_empty());
    }
}
