//! The results cache: what each URL answered on earlier runs.

use super::Status;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the cache remembers of one URL.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheEntry {
    /// Unix time of the last check.
    pub last_checked: u64,
    /// Unix time of the last successful check.
    pub last_success: Option<u64>,
    /// Runs in a row on which the URL failed.
    pub consecutive_failures: u32,
    /// Status of the last check.
    pub last_status: Option<Status>,
    /// HTTP status of the last check, when there was one.
    pub last_http_status: Option<u16>,
}

/// The results cache: URL → what was last seen.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    /// Format version of the file.
    pub version: u32,
    /// Per URL.
    pub urls: BTreeMap<String, CacheEntry>,
}

impl Cache {
    /// Parses cache text.
    pub fn from_json(text: &str) -> Result<Cache, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The cache as written: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}
