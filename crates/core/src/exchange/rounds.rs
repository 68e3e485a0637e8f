//! The rounds of the entries and records derived from the artifact's
//! history (`corpus survey rounds`): a row belongs to the round whose
//! commit first added it to the artifact's CSV file, and when two rounds
//! share a commit, to the one whose note its notes column carries.

use crate::model::locators::RoundSource;
use std::collections::BTreeMap;

/// The artifact's file of retained entries, keyed by `key`.
pub const PAPERS: (&str, &str) = ("papers/papers.csv", "key");
/// The artifact's exclusion log, keyed by `record_id`.
pub const EXCLUDED: (&str, &str) = ("papers/excluded.csv", "record_id");

/// Where a row first appeared: the commit and the row's notes there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstSeen {
    /// The commit that first holds the row.
    pub commit: String,
    /// Its `notes` cell in that commit (empty when the file has none).
    pub notes: String,
}

/// The first commit of each row id over the versions of one CSV file
/// (oldest first, as `(commit, text)`), keyed by the `id` column.
pub fn first_seen(
    versions: &[(String, String)],
    id: &str,
) -> Result<BTreeMap<String, FirstSeen>, String> {
    let mut out = BTreeMap::new();
    for (commit, text) in versions {
        let mut rd = csv::Reader::from_reader(text.as_bytes());
        let headers = rd.headers().map_err(|e| format!("{commit}: {e}"))?.clone();
        let col = |name: &str| headers.iter().position(|h| h == name);
        let Some(key) = col(id) else {
            return Err(format!("{commit}: the file has no `{id}` column"));
        };
        let notes = col("notes");
        for row in rd.records() {
            let row = row.map_err(|e| format!("{commit}: {e}"))?;
            let Some(k) = row.get(key).filter(|k| !k.is_empty()) else {
                continue;
            };
            out.entry(k.to_string()).or_insert_with(|| FirstSeen {
                commit: commit.clone(),
                notes: notes.and_then(|n| row.get(n)).unwrap_or("").to_string(),
            });
        }
    }
    Ok(out)
}

/// The round a row first seen at `seen` belongs to: of the rounds naming
/// its commit, the one whose note its notes carry, else the one with none.
pub fn round_of<'a>(seen: &FirstSeen, rounds: &'a [RoundSource]) -> Option<&'a str> {
    let at: Vec<&RoundSource> = rounds.iter().filter(|r| r.commit == seen.commit).collect();
    at.iter()
        .find(|r| r.note.as_deref().is_some_and(|n| seen.notes.contains(n)))
        .or_else(|| at.iter().find(|r| r.note.is_none()))
        .map(|r| r.round.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(id: &str, commit: &str, note: Option<&str>) -> RoundSource {
        RoundSource {
            round: id.into(),
            commit: commit.into(),
            file: PAPERS.0.into(),
            place: "rows".into(),
            note: note.map(str::to_string),
        }
    }

    fn versions() -> Vec<(String, String)> {
        vec![
            (
                "c1".into(),
                "key,notes\na,first\nb,added during the audit\n".into(),
            ),
            (
                "c2".into(),
                "key,notes\na,first\nb,added in the refresh\nc,\n".into(),
            ),
        ]
    }

    #[test]
    fn a_row_keeps_its_first_commit_and_the_notes_it_had_there() {
        let seen = first_seen(&versions(), "key").unwrap();
        assert_eq!(seen["b"].commit, "c1");
        assert_eq!(seen["b"].notes, "added during the audit");
        assert_eq!(seen["c"].commit, "c2");
    }

    #[test]
    fn two_rounds_of_one_commit_are_told_apart_by_their_note() {
        let rounds = [
            round("screening", "c1", None),
            round("audit", "c1", Some("during the audit")),
            round("refresh", "c2", None),
        ];
        let seen = first_seen(&versions(), "key").unwrap();
        assert_eq!(round_of(&seen["a"], &rounds), Some("screening"));
        assert_eq!(round_of(&seen["b"], &rounds), Some("audit"));
        assert_eq!(round_of(&seen["c"], &rounds), Some("refresh"));
        let unknown = FirstSeen {
            commit: "c9".into(),
            notes: String::new(),
        };
        assert_eq!(round_of(&unknown, &rounds), None);
    }

    #[test]
    fn a_file_without_the_id_column_is_an_error() {
        let v = vec![("c1".to_string(), "name\nx\n".to_string())];
        assert!(first_seen(&v, "key")
            .unwrap_err()
            .contains("no `key` column"));
    }
}
