//! "Did you mean": the allowed word closest to a typo.

/// Edit distance between two short strings.
fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The allowed value closest to what was written, when close enough to be a typo.
pub fn closest<'a>(got: &str, allowed: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = got.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for cand in allowed {
        let cl = cand.to_lowercase();
        let d = if cl == lower {
            0
        } else if cl.starts_with(&lower) && lower.len() >= 3
            || lower.starts_with(&cl) && cl.len() >= 3
        {
            1
        } else {
            levenshtein(&lower, &cl)
        };
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    let limit = (got.chars().count() / 3).max(2);
    best.filter(|(d, _)| *d <= limit).map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_suggests_only_plausible_typos() {
        let allowed = ["shared", "individual", "role", "NA"];
        assert_eq!(closest("shard", allowed), Some("shared"));
        assert_eq!(closest("na", allowed), Some("NA"));
        assert_eq!(closest("xyzzy-quux", allowed), None);
    }
}
