//! The releases file (`corpus/releases.yaml`): one item per release of the
//! list, written by `corpus release` — its version, its day and the tags
//! every entry had then. It is the record removals and tag changes are read
//! from (the changelog and the feeds compare consecutive releases), so they
//! come from the data a reader can see, never from the clock or from git.

use crate::model::filter::{FieldValue, Fields};
use crate::model::format::scalar;
use crate::model::{fields, Entry};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The tags of one entry: field name to value (a list joined with ", ").
pub type Tags = BTreeMap<String, String>;

/// One release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Release {
    /// The version, e.g. 2026.12.0.
    pub version: String,
    /// The day it was made (YYYY-MM-DD).
    pub date: String,
    /// Every entry of the release by key, with its tags.
    #[serde(default)]
    pub entries: BTreeMap<String, Tags>,
}

/// The whole releases file, oldest release first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Releases {
    /// The releases, oldest first.
    #[serde(default)]
    pub releases: Vec<Release>,
}

const HEADER: &str = "# Written by `corpus release`: each release of the list, oldest first, with\n# the tags every entry had then (the changelog compares consecutive releases).\n";

/// Whether a version is one the tool accepts: letters, digits, `.`, `-`,
/// `+`, `_`, starting with a digit or `v` (it names a folder and a git tag).
pub fn version_problem(v: &str) -> Option<String> {
    let ok_chars = v
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_'));
    let starts = v
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c == 'v');
    (v.is_empty() || v.len() > 64 || !ok_chars || !starts || v.contains(".."))
        .then(|| format!("`{v}` is not a version (digits, letters, `.`, `-`, `+`, `_`, starting with a digit or `v`, e.g. 2026.12.0)"))
}

/// The tags of an entry (every field the taxonomy gives values to).
pub fn tags_of(e: &Entry) -> Tags {
    fields::ENTRY
        .iter()
        .filter(|f| f.is_tag())
        .filter_map(|f| {
            let v = match e.field(f.name)? {
                FieldValue::One(s) => s.into_owned(),
                FieldValue::Many(list) => list.join(", "),
            };
            Some((f.name.to_string(), v))
        })
        .collect()
}

impl Releases {
    /// Parses the file's text (a file of comments only holds no release).
    pub fn from_yaml(text: &str) -> Result<Releases, String> {
        if text
            .lines()
            .all(|l| l.trim_start().starts_with('#') || l.trim().is_empty())
        {
            return Ok(Releases::default());
        }
        let r: Releases = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
        let mut seen = std::collections::BTreeSet::new();
        let mut last = "";
        for rel in &r.releases {
            if let Some(p) = version_problem(&rel.version) {
                return Err(p);
            }
            if !seen.insert(rel.version.as_str()) {
                return Err(format!("release {} is listed twice", rel.version));
            }
            if crate::model::dates::parse_date(&rel.date).is_none() {
                return Err(format!(
                    "release {}: date `{}` is not a YYYY-MM-DD date",
                    rel.version, rel.date
                ));
            }
            if rel.date.as_str() < last {
                return Err(format!(
                    "release {} is dated before the release listed above it; releases are kept oldest first",
                    rel.version
                ));
            }
            last = &rel.date;
        }
        Ok(r)
    }

    /// The newest release, when there is one.
    pub fn latest(&self) -> Option<&Release> {
        self.releases.last()
    }

    /// The file's text.
    pub fn to_yaml(&self) -> String {
        let mut out = String::from(HEADER);
        out.push_str("releases:\n");
        for r in &self.releases {
            // Always quoted, so that a version reads back as text (never a
            // number) and a workflow can find the line it is on.
            out.push_str(&format!(
                "  - version: {}\n",
                serde_json::to_string(&r.version).unwrap_or_default()
            ));
            out.push_str(&format!("    date: {}\n", scalar(&r.date)));
            out.push_str("    entries:\n");
            for (key, tags) in &r.entries {
                out.push_str(&format!("      {}:\n", scalar(key)));
                for (f, v) in tags {
                    out.push_str(&format!("        {}: {}\n", scalar(f), scalar(v)));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(v: &str, date: &str) -> Release {
        let mut tags = Tags::new();
        tags.insert("category".into(), "a: b".into());
        tags.insert("subdecisions".into(), "".into());
        Release {
            version: v.into(),
            date: date.into(),
            entries: [("k-1".to_string(), tags)].into_iter().collect(),
        }
    }

    #[test]
    fn the_file_reads_back_what_it_wrote() {
        let r = Releases {
            releases: vec![
                release("2026.1.0", "2026-01-02"),
                release("v2", "2026-02-01"),
            ],
        };
        let text = r.to_yaml();
        assert_eq!(Releases::from_yaml(&text).unwrap(), r);
        assert_eq!(Releases::from_yaml(HEADER).unwrap(), Releases::default());
    }

    #[test]
    fn a_broken_file_is_refused_with_the_reason() {
        let twice = Releases {
            releases: vec![release("1.0", "2026-01-02"), release("1.0", "2026-01-03")],
        };
        assert!(Releases::from_yaml(&twice.to_yaml())
            .unwrap_err()
            .contains("twice"));
        let backwards = Releases {
            releases: vec![release("1.0", "2026-02-02"), release("1.1", "2026-01-03")],
        };
        assert!(Releases::from_yaml(&backwards.to_yaml()).is_err());
        assert!(Releases::from_yaml("releases: [{version: '../x', date: 2026-01-01}]").is_err());
        assert!(version_problem("2026.12.0").is_none());
        assert!(version_problem("v1").is_none());
        assert!(version_problem("../etc").is_some());
        assert!(version_problem("1 0").is_some());
    }
}
