//! The host exceptions of `corpus/links.yaml`, and the ages they and `--max-age` are written in.

use serde::Deserialize;
use std::time::Duration;

/// Hosts that answer scripts differently from browsers (corpus/links.yaml).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostsConfig {
    /// The exceptions, one per host.
    #[serde(default)]
    pub hosts: Vec<HostRule>,
}

/// One host exception.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostRule {
    /// The host name as in the URL (`www.` included when the URL has it).
    pub host: String,
    /// Statuses taken as "the page is there" for this host (e.g. 403 from a bot wall).
    #[serde(default)]
    pub accept: Vec<u16>,
    /// Check at most this often (e.g. 30d); between, a link that last passed is skipped.
    #[serde(default)]
    pub every: Option<String>,
    /// Why the exception exists.
    pub reason: String,
}

impl HostsConfig {
    /// Parses the YAML text, or says what is wrong.
    pub fn from_yaml(text: &str) -> Result<HostsConfig, String> {
        let cfg: HostsConfig = serde_yaml::from_str(text).map_err(|e| {
            let x = crate::yaml::error::explain(&e, text);
            let at = x.line.map(|l| format!("line {l}: ")).unwrap_or_default();
            format!("{at}{} (help: {})", x.message, x.help)
        })?;
        let mut seen = std::collections::BTreeSet::new();
        for h in &cfg.hosts {
            if !seen.insert(h.host.to_ascii_lowercase()) {
                return Err(format!("host `{}` is listed twice", h.host));
            }
            if h.reason.trim().is_empty() {
                return Err(format!("host `{}` gives no reason", h.host));
            }
            if h.accept.is_empty() && h.every.is_none() {
                return Err(format!(
                    "host `{}` neither accepts a status nor sets `every`",
                    h.host
                ));
            }
            if let Some(e) = &h.every {
                parse_age(e).map_err(|m| format!("host `{}`: every: {m}", h.host))?;
            }
        }
        Ok(cfg)
    }

    pub(super) fn rule(&self, host: &str) -> Option<&HostRule> {
        self.hosts
            .iter()
            .find(|h| h.host.eq_ignore_ascii_case(host))
    }
}

/// Parses an age such as `90s`, `30m`, `36h`, `7d` or a plain number of seconds.
pub fn parse_age(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (num, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not an age such as 36h or 7d"))?;
    let mult = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return Err(format!("`{s}`: the unit must be s, m, h, d or w")),
    };
    Ok(Duration::from_secs(n.saturating_mul(mult)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_have_units() {
        assert_eq!(parse_age("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_age("36h"), Ok(Duration::from_secs(36 * 3600)));
        assert_eq!(parse_age("7d"), Ok(Duration::from_secs(7 * 86_400)));
        assert!(parse_age("7y").is_err());
        assert!(parse_age("h").is_err());
    }

    #[test]
    fn host_config_needs_reasons_and_no_repeats() {
        assert!(HostsConfig::from_yaml(
            "hosts:\n  - host: a.org\n    accept: [403]\n    reason: bot wall\n"
        )
        .is_ok());
        assert!(HostsConfig::from_yaml(
            "hosts:\n  - host: a.org\n    accept: [403]\n    reason: ''\n"
        )
        .is_err());
        assert!(HostsConfig::from_yaml("hosts:\n  - host: a.org\n    reason: r\n").is_err());
        assert!(HostsConfig::from_yaml("hosts:\n  - host: a.org\n    every: 30d\n    reason: r\n  - host: A.org\n    every: 1d\n    reason: r\n").is_err());
        assert!(HostsConfig::from_yaml(
            "hosts:\n  - host: a.org\n    every: soon\n    reason: r\n"
        )
        .is_err());
        assert!(HostsConfig::from_yaml(
            "hosts:\n  - host: a.org\n    every: 1d\n    reason: r\n    extra: 1\n"
        )
        .is_err());
    }
}
