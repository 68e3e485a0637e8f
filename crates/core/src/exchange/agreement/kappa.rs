//! Cohen's kappa: the agreement of two raters beyond what chance gives.

use std::collections::BTreeMap;

/// Cohen's kappa for two raters over the same items.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kappa {
    /// Items rated by both.
    pub n: usize,
    /// Items on which they agree.
    pub agree: usize,
    /// p_o = agree / n.
    pub observed: Option<f64>,
    /// p_e = Σ_c (share of c for rater 1) × (share of c for rater 2).
    pub expected: Option<f64>,
    /// (p_o − p_e) / (1 − p_e); None when n = 0 or p_e = 1.
    pub kappa: Option<f64>,
}

impl Kappa {
    /// Computes the figures from (rater 1, rater 2) pairs.
    pub fn of<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Kappa {
        let mut counts: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        let (mut n, mut agree) = (0u64, 0u64);
        for (a, b) in pairs {
            n += 1;
            agree += u64::from(a == b);
            counts.entry(a).or_default().0 += 1;
            counts.entry(b).or_default().1 += 1;
        }
        if n == 0 {
            return Kappa {
                n: 0,
                agree: 0,
                observed: None,
                expected: None,
                kappa: None,
            };
        }
        // Kept in integers until the last division, so that p_e = 1 is
        // detected exactly and perfect agreement gives exactly 1:
        // p_e = S / n², kappa = (agree·n − S) / (n² − S).
        let s: u64 = counts.values().map(|(a, b)| a * b).sum();
        let nn = n * n;
        let kappa = (s < nn).then(|| (agree as f64 * n as f64 - s as f64) / (nn - s) as f64);
        Kappa {
            n: n as usize,
            agree: agree as usize,
            observed: Some(agree as f64 / n as f64),
            expected: Some(s as f64 / nn as f64),
            kappa,
        }
    }
}
