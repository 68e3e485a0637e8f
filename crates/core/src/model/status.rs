//! The status file (`corpus/status.yaml`): what the public metadata
//! services said about each paper, as dated events that are added and never
//! rewritten, plus the latest figures (citations) that change on every look.
//! It is data of the corpus, committed with it, so `git log` shows when a
//! paper changed; it is written in the layout `corpus fmt` gives data files
//! (fields in a fixed order, scalars quoted where YAML 1.1 and 1.2 readers
//! could disagree, block lists, one final newline).

use crate::model::format::scalar;
use serde::{Deserialize, Serialize};

/// What happened to a paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// arXiv shows a version not seen before (the first look records the current one).
    Version,
    /// arXiv's title differs from the one last recorded.
    Title,
    /// arXiv's latest version is a withdrawal.
    Withdrawn,
    /// A published version exists (DOI, venue).
    Published,
    /// The service marks the work retracted.
    Retracted,
}

impl Kind {
    /// The name written in the file and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Version => "version",
            Kind::Title => "title",
            Kind::Withdrawn => "withdrawn",
            Kind::Published => "published",
            Kind::Retracted => "retracted",
        }
    }
}

/// One dated change of one paper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// The entry's key or the record's id.
    pub key: String,
    /// What happened.
    pub event: Kind,
    /// When it happened, as the service dates it (else the day it was seen).
    pub date: String,
    /// The day `corpus watch` first saw it.
    pub observed: String,
    /// The service that said so: `arxiv` or `openalex`.
    pub source: String,
    /// The arXiv version concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// The title at that point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The DOI concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// The venue of a published version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<String>,
    /// The service's own words (a withdrawal's reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Event {
    /// What makes two events the same change: recorded once.
    pub fn identity(&self) -> (String, Kind, Option<u32>, Option<String>, Option<String>) {
        let title = (self.event == Kind::Title)
            .then(|| crate::text::ids::normalize_title(self.title.as_deref().unwrap_or("")));
        (
            self.key.clone(),
            self.event,
            self.version,
            self.doi.clone(),
            title,
        )
    }
}

/// The latest figures of one paper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Latest {
    /// The entry's key or the record's id.
    pub key: String,
    /// The day of the look.
    pub observed: String,
    /// How many works cite the paper (its best-cited DOI), per OpenAlex.
    pub cited_by: u64,
}

/// The whole status file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Status {
    /// Every change, sorted by key, then date.
    #[serde(default)]
    pub events: Vec<Event>,
    /// The latest figures, by key.
    #[serde(default)]
    pub latest: Vec<Latest>,
}

const HEADER: &str = "# Written by `corpus watch`: what arXiv and OpenAlex said about each paper,\n# one dated event per change (events are added, never rewritten).\n";

impl Status {
    /// Parses the file's text.
    pub fn from_yaml(text: &str) -> Result<Status, String> {
        if text.trim().is_empty()
            || text
                .lines()
                .all(|l| l.trim_start().starts_with('#') || l.trim().is_empty())
        {
            return Ok(Status::default());
        }
        let status: Status = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
        for e in &status.events {
            for (what, d) in [("date", &e.date), ("observed", &e.observed)] {
                if crate::model::dates::parse_date(d).is_none() {
                    return Err(format!(
                        "event of `{}`: {what} `{d}` is not a YYYY-MM-DD date",
                        e.key
                    ));
                }
            }
        }
        Ok(status)
    }

    /// Sorts events (key, date, kind) and figures (key), as the file keeps them.
    pub fn sort(&mut self) {
        self.events
            .sort_by(|a, b| (&a.key, &a.date, a.event).cmp(&(&b.key, &b.date, b.event)));
        self.latest.sort_by(|a, b| a.key.cmp(&b.key));
    }

    /// The withdrawal that stands for a paper: one of its latest version
    /// (no later version replaced the withdrawn one).
    pub fn standing_withdrawal(&self, key: &str) -> Option<&Event> {
        let mine = || self.events.iter().filter(|e| e.key == key);
        let last_version = mine().filter_map(|x| x.version).max();
        mine().find(|x| x.event == Kind::Withdrawn && x.version >= last_version)
    }

    /// A retraction recorded for a paper.
    pub fn retraction(&self, key: &str) -> Option<&Event> {
        self.events
            .iter()
            .find(|x| x.key == key && x.event == Kind::Retracted)
    }

    /// The events of one paper, in file order.
    pub fn of<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a Event> + 'a {
        self.events.iter().filter(move |e| e.key == key)
    }

    /// The file's text.
    pub fn to_yaml(&self) -> String {
        let mut out = String::from(HEADER);
        out.push_str("events:\n");
        for e in &self.events {
            out.push_str(&format!("  - key: {}\n", scalar(&e.key)));
            let mut field = |name: &str, value: String| {
                out.push_str(&format!("    {name}: {value}\n"));
            };
            field("event", scalar(e.event.as_str()));
            field("date", scalar(&e.date));
            field("observed", scalar(&e.observed));
            field("source", scalar(&e.source));
            if let Some(v) = e.version {
                field("version", v.to_string());
            }
            for (name, v) in [
                ("title", &e.title),
                ("doi", &e.doi),
                ("venue", &e.venue),
                ("note", &e.note),
            ] {
                if let Some(v) = v {
                    field(name, scalar(v));
                }
            }
        }
        out.push_str("latest:\n");
        for l in &self.latest {
            out.push_str(&format!("  - key: {}\n", scalar(&l.key)));
            out.push_str(&format!("    observed: {}\n", scalar(&l.observed)));
            out.push_str(&format!("    cited_by: {}\n", l.cited_by));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: Kind) -> Event {
        Event {
            key: "relay-credit2025".into(),
            event: kind,
            date: "2022-07-06".into(),
            observed: "2026-12-01".into(),
            source: "arxiv".into(),
            version: Some(3),
            title: Some("No: Time to \"Rest\" Yet".into()),
            doi: None,
            venue: None,
            note: None,
        }
    }

    #[test]
    fn the_file_reads_back_what_it_wrote() {
        let mut s = Status {
            events: vec![event(Kind::Withdrawn), event(Kind::Version)],
            latest: vec![Latest {
                key: "a".into(),
                observed: "2026-12-01".into(),
                cited_by: 962,
            }],
        };
        s.sort();
        assert_eq!(s.events[0].event, Kind::Version);
        let text = s.to_yaml();
        assert!(text.contains("    date: \"2022-07-06\"\n"), "{text}");
        assert_eq!(Status::from_yaml(&text).unwrap(), s);
        assert_eq!(Status::from_yaml(&s.to_yaml()).unwrap().to_yaml(), text);
        assert_eq!(Status::from_yaml(HEADER).unwrap(), Status::default());
    }

    #[test]
    fn a_broken_file_is_refused_with_the_reason() {
        assert!(Status::from_yaml("events: [{key: a}]").is_err());
        let bad_date = Status {
            events: vec![Event {
                date: "soon".into(),
                ..event(Kind::Version)
            }],
            latest: vec![],
        };
        assert!(Status::from_yaml(&bad_date.to_yaml())
            .unwrap_err()
            .contains("`soon`"));
    }
}
