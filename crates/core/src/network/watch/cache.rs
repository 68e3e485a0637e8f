//! The answers cache of `corpus watch` (`.cache/corpus-watch.json`, never
//! committed): what arXiv and OpenAlex last answered for each id and DOI,
//! and when, so `--max-age` skips fresh answers and `--offline` works from
//! them alone.

use crate::network::arxiv::Record;
use crate::network::openalex::Work;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The format version this tool writes and reads.
pub const VERSION: u32 = 1;

/// What arXiv answered for one id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArxivAnswer {
    /// Unix time of the answer.
    pub fetched: u64,
    /// The record, when arXiv has one.
    pub record: Option<Record>,
    /// arXiv's message when it refused the id.
    pub refused: Option<String>,
}

/// What OpenAlex answered for one DOI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkAnswer {
    /// Unix time of the answer.
    pub fetched: u64,
    /// The work, when OpenAlex knows the DOI.
    pub work: Option<Work>,
}

/// The whole cache.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    /// Format version.
    pub version: u32,
    /// By bare arXiv id.
    pub arxiv: BTreeMap<String, ArxivAnswer>,
    /// By normalized DOI.
    pub openalex: BTreeMap<String, WorkAnswer>,
}

impl Cache {
    /// Parses cache text; another format version is refused.
    pub fn from_json(text: &str) -> Result<Cache, String> {
        let c: Cache = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if c.version != VERSION {
            return Err(format!(
                "format version {} (this tool reads {VERSION})",
                c.version
            ));
        }
        Ok(c)
    }

    /// The cache as written: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut c = self.clone();
        c.version = VERSION;
        let mut s = serde_json::to_string_pretty(&c).unwrap_or_default();
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_round_trips_and_refuses_another_version() {
        let mut c = Cache::default();
        c.arxiv.insert(
            "2204.08348".into(),
            ArxivAnswer {
                fetched: 7,
                record: None,
                refused: Some("incorrect id format".into()),
            },
        );
        let text = c.to_json();
        assert_eq!(Cache::from_json(&text).unwrap().arxiv, c.arxiv);
        assert!(Cache::from_json(&text.replace("\"version\": 1", "\"version\": 9")).is_err());
        assert!(Cache::from_json("[]").is_err());
    }
}
