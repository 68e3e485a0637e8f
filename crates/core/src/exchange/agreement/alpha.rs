//! Krippendorff's alpha for any number of raters with missing ratings, and a
//! bootstrap interval over units.
//!
//! The computation follows Krippendorff (2011), "Computing Krippendorff's
//! Alpha-Reliability": a coincidence matrix from every unit with at least two
//! ratings (each pair of ratings within a unit weighted 1 / (m_u − 1)), then
//! alpha = 1 − (n − 1) · Σ o_ck δ_ck / Σ n_c n_k δ_ck. The distance δ is a
//! parameter: nominal (0 when equal, else 1) for single-valued tags, MASI for
//! sets of tags.

use std::collections::BTreeSet;

/// The distance between two ratings, by index into the field's list of distinct values.
pub trait Distance {
    /// δ(a, b) in [0, 1], with δ(a, a) = 0.
    fn between(&self, a: usize, b: usize) -> f64;
}

/// Nominal distance: two ratings agree or they do not.
pub struct Nominal;

impl Distance for Nominal {
    fn between(&self, a: usize, b: usize) -> f64 {
        if a == b {
            0.0
        } else {
            1.0
        }
    }
}

/// MASI distance (Passonneau 2006) between sets of tags: 1 − J · M, where J is
/// the Jaccard overlap and M is 1 for equal sets, 2/3 when one contains the
/// other, 1/3 when they overlap otherwise and 0 when disjoint.
pub struct Masi<'a> {
    /// The distinct sets, indexed as the ratings are.
    pub sets: &'a [BTreeSet<String>],
}

/// The MASI distance of two sets; two empty sets are equal (distance 0).
pub fn masi(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    if a == b {
        return 0.0;
    }
    let inter = a.intersection(b).count();
    let union = a.union(b).count();
    let jaccard = inter as f64 / union as f64;
    let monotonicity = if a.is_subset(b) || b.is_subset(a) {
        2.0 / 3.0
    } else if inter > 0 {
        1.0 / 3.0
    } else {
        0.0
    };
    1.0 - jaccard * monotonicity
}

impl Distance for Masi<'_> {
    fn between(&self, a: usize, b: usize) -> f64 {
        masi(&self.sets[a], &self.sets[b])
    }
}

/// Alpha and the totals behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Alpha {
    /// Units with at least two ratings (the pairable units).
    pub units: usize,
    /// Ratings in those units (n, the pairable values).
    pub values: usize,
    /// Observed disagreement D_o.
    pub observed: Option<f64>,
    /// Disagreement expected by chance D_e.
    pub expected: Option<f64>,
    /// 1 − D_o / D_e; None when fewer than two ratings pair up or D_e = 0.
    pub alpha: Option<f64>,
}

impl Alpha {
    /// Alpha over units, each the list of its ratings (indices into `n_values`
    /// distinct values); a missing rating is simply absent from its unit.
    pub fn of(units: &[Vec<usize>], n_values: usize, d: &dyn Distance) -> Alpha {
        let pairable: Vec<&Vec<usize>> = units.iter().filter(|u| u.len() >= 2).collect();
        Self::of_pairable(&pairable, n_values, d)
    }

    fn of_pairable(units: &[&Vec<usize>], n_values: usize, d: &dyn Distance) -> Alpha {
        // The coincidence matrix, then the value totals n_c.
        let mut o = vec![0.0f64; n_values * n_values];
        let mut n_pairable = 0usize;
        for u in units {
            let w = 1.0 / (u.len() - 1) as f64;
            n_pairable += u.len();
            for (i, &a) in u.iter().enumerate() {
                for (j, &b) in u.iter().enumerate() {
                    if i != j {
                        o[a * n_values + b] += w;
                    }
                }
            }
        }
        let n_c: Vec<f64> = (0..n_values)
            .map(|c| (0..n_values).map(|k| o[c * n_values + k]).sum())
            .collect();
        let n: f64 = n_c.iter().sum();
        if n_pairable < 2 {
            return Alpha {
                units: units.len(),
                values: n_pairable,
                observed: None,
                expected: None,
                alpha: None,
            };
        }
        let (mut sum_o, mut sum_e) = (0.0, 0.0);
        for c in 0..n_values {
            for k in 0..n_values {
                let delta = d.between(c, k);
                if delta != 0.0 {
                    sum_o += o[c * n_values + k] * delta;
                    sum_e += n_c[c] * n_c[k] * delta;
                }
            }
        }
        let observed = sum_o / n;
        let expected = sum_e / (n * (n - 1.0));
        Alpha {
            units: units.len(),
            values: n_pairable,
            observed: Some(observed),
            expected: Some(expected),
            // D_e = 0: every rating is the same value, and alpha is 0 / 0.
            alpha: (expected > 0.0).then(|| 1.0 - observed / expected),
        }
    }
}

/// A percentile bootstrap interval of alpha over resampled units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower bound (the 2.5th percentile of the resampled alphas).
    pub low: f64,
    /// Upper bound (the 97.5th percentile).
    pub high: f64,
    /// Resamples whose alpha was defined (the others had D_e = 0).
    pub defined: usize,
}

/// SplitMix64: a small, fixed, well-known generator, so that a seed gives the
/// same interval on every platform and release.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (n > 0), without modulo bias.
    fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }
}

/// The 95% percentile interval of alpha over `resamples` draws of the pairable
/// units with replacement; None when no resample gives a defined alpha.
pub fn bootstrap(
    units: &[Vec<usize>],
    n_values: usize,
    d: &dyn Distance,
    resamples: usize,
    seed: u64,
) -> Option<Interval> {
    let pairable: Vec<&Vec<usize>> = units.iter().filter(|u| u.len() >= 2).collect();
    if pairable.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = SplitMix64(seed);
    let mut alphas = Vec::with_capacity(resamples);
    let mut draw = Vec::with_capacity(pairable.len());
    for _ in 0..resamples {
        draw.clear();
        for _ in 0..pairable.len() {
            draw.push(pairable[rng.below(pairable.len())]);
        }
        if let Some(a) = Alpha::of_pairable(&draw, n_values, d).alpha {
            alphas.push(a);
        }
    }
    if alphas.is_empty() {
        return None;
    }
    alphas.sort_by(f64::total_cmp);
    Some(Interval {
        low: percentile(&alphas, 0.025),
        high: percentile(&alphas, 0.975),
        defined: alphas.len(),
    })
}

/// The q-quantile of sorted values, interpolated linearly between ranks.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Units from rows of ratings (one row per rater, `None` = missing),
    /// values mapped to indices in order of first appearance.
    fn units_of<T: PartialEq + Copy>(rows: &[Vec<Option<T>>]) -> (Vec<Vec<usize>>, usize) {
        let mut values: Vec<T> = Vec::new();
        let mut units = vec![Vec::new(); rows[0].len()];
        for row in rows {
            for (u, r) in row.iter().enumerate() {
                if let Some(v) = r {
                    let i = values.iter().position(|x| x == v).unwrap_or_else(|| {
                        values.push(*v);
                        values.len() - 1
                    });
                    units[u].push(i);
                }
            }
        }
        (units, values.len())
    }

    fn nominal(rows: &[Vec<Option<u32>>]) -> f64 {
        let (units, n) = units_of(rows);
        Alpha::of(&units, n, &Nominal).alpha.expect("defined")
    }

    fn row(s: &str) -> Vec<Option<u32>> {
        s.split_whitespace().map(|c| c.parse().ok()).collect()
    }

    fn round3(x: f64) -> f64 {
        (x * 1000.0).round() / 1000.0
    }

    #[test]
    fn krippendorff_2011_binary_two_observers() {
        // Section A of the paper: 10 units, alpha = 0.095.
        let a = nominal(&[row("0 1 0 0 0 0 0 0 1 0"), row("1 1 1 0 0 1 0 0 0 0")]);
        assert_eq!(round3(a), 0.095);
    }

    #[test]
    fn krippendorff_2011_nominal_two_observers() {
        // Section B: values a..e written as 1..5, 12 units, alpha = 0.692.
        let a = nominal(&[
            row("1 1 2 2 4 3 3 3 5 4 4 1"),
            row("2 1 2 2 2 3 3 3 5 4 4 4"),
        ]);
        assert_eq!(round3(a), 0.692);
    }

    #[test]
    fn krippendorff_2011_nominal_four_observers_with_missing_data() {
        // Section C: 4 observers, 12 units, `.` = not rated; alpha = 0.743.
        let rows = [
            row("1 2 3 3 2 1 4 1 2 . . ."),
            row("1 2 3 3 2 2 4 1 2 5 . 3"),
            row(". 3 3 3 2 3 4 2 2 5 1 ."),
            row("1 2 3 3 2 4 4 1 2 5 1 ."),
        ];
        let (units, n) = units_of(&rows);
        let a = Alpha::of(&units, n, &Nominal);
        // Unit 12 has one rating and drops out: 11 units, 40 pairable values.
        assert_eq!((a.units, a.values), (11, 40));
        assert_eq!(round3(a.alpha.unwrap()), 0.743);
    }

    #[test]
    fn agreement_on_one_value_leaves_alpha_undefined() {
        let a = Alpha::of(&[vec![0, 0], vec![0, 0]], 1, &Nominal);
        assert_eq!(a.alpha, None);
        assert_eq!(a.expected, Some(0.0));
        let none = Alpha::of(&[vec![0], vec![1]], 2, &Nominal);
        assert_eq!((none.units, none.alpha), (0, None));
    }

    #[test]
    fn masi_follows_passonneau() {
        let set = |s: &str| {
            s.split_whitespace()
                .map(String::from)
                .collect::<BTreeSet<_>>()
        };
        assert_eq!(masi(&set("a b"), &set("a b")), 0.0);
        assert_eq!(masi(&set(""), &set("")), 0.0);
        assert_eq!(masi(&set("a"), &set("b")), 1.0);
        assert_eq!(masi(&set(""), &set("a")), 1.0);
        // Subset: J = 1/2, M = 2/3.
        assert!((masi(&set("a"), &set("a b")) - (1.0 - 1.0 / 3.0)).abs() < 1e-12);
        // Overlap: J = 1/3, M = 1/3.
        assert!((masi(&set("a b"), &set("b c")) - (1.0 - 1.0 / 9.0)).abs() < 1e-12);
    }

    #[test]
    fn masi_alpha_equals_nominal_alpha_on_singletons() {
        // With one tag per set, MASI is the nominal distance.
        let rows = [row("1 2 3 3 2 1"), row("1 2 3 3 2 2"), row(". 3 3 3 2 3")];
        let (units, n) = units_of(&rows);
        let sets: Vec<BTreeSet<String>> = (0..n).map(|i| [i.to_string()].into()).collect();
        let m = Alpha::of(&units, n, &Masi { sets: &sets }).alpha;
        assert_eq!(m, Alpha::of(&units, n, &Nominal).alpha);
    }

    #[test]
    fn bootstrap_is_fixed_by_its_seed_and_brackets_alpha() {
        let rows = [
            row("1 2 3 3 2 1 4 1 2 . . ."),
            row("1 2 3 3 2 2 4 1 2 5 . 3"),
            row(". 3 3 3 2 3 4 2 2 5 1 ."),
            row("1 2 3 3 2 4 4 1 2 5 1 ."),
        ];
        let (units, n) = units_of(&rows);
        let a = bootstrap(&units, n, &Nominal, 1000, 29).unwrap();
        assert_eq!(a, bootstrap(&units, n, &Nominal, 1000, 29).unwrap());
        assert_ne!(a, bootstrap(&units, n, &Nominal, 1000, 30).unwrap());
        let alpha = Alpha::of(&units, n, &Nominal).alpha.unwrap();
        assert!(a.low < alpha && alpha < a.high, "{a:?} {alpha}");
        assert!(a.defined <= 1000 && a.defined > 900, "{a:?}");
    }

    #[test]
    fn percentiles_interpolate_between_ranks() {
        let v = [0.0, 1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&v, 0.5), 2.0);
        assert_eq!(percentile(&v, 0.025), 0.1);
        assert_eq!(percentile(&[7.0], 0.975), 7.0);
    }
}
