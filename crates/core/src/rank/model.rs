//! The ranking model itself: words and word pairs weighted by TF-IDF, and a
//! logistic regression over them fitted by plain gradient descent. Every
//! step runs in a fixed order over sorted maps, so the same decisions give
//! the same weights, bit for bit, on every machine.

use std::collections::{BTreeMap, BTreeSet};

/// Words that say nothing about a paper's topic.
const STOPWORDS: &[&str] = &[
    "a", "about", "across", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be",
    "been", "between", "both", "but", "by", "can", "do", "does", "each", "for", "from", "has",
    "have", "how", "in", "into", "is", "it", "its", "more", "most", "new", "no", "nor", "not",
    "of", "on", "one", "only", "or", "other", "our", "over", "such", "than", "that", "the",
    "their", "them", "then", "there", "these", "they", "this", "those", "through", "to", "two",
    "under", "up", "us", "using", "via", "was", "we", "were", "what", "when", "where", "which",
    "while", "who", "with", "within", "without", "yet",
];

/// The features of a text: lowercase words (stopwords, single letters and
/// numbers left out) and each pair of neighbouring kept words, written
/// "credit assignment".
pub fn features(text: &str) -> Vec<String> {
    let words: Vec<String> = crate::text::ids::normalize_title(text)
        .split(' ')
        .filter(|w| w.chars().count() > 1 && !w.chars().all(|c| c.is_ascii_digit()))
        .filter(|w| STOPWORDS.binary_search(w).is_err())
        .map(str::to_string)
        .collect();
    let pairs = words.windows(2).map(|p| format!("{} {}", p[0], p[1]));
    let mut out = words.clone();
    out.extend(pairs);
    out
}

/// A sparse vector: (feature index, value), indices ascending.
pub type Sparse = Vec<(usize, f64)>;

/// The vocabulary and inverse document frequencies learnt from a training set.
#[derive(Debug, Clone)]
pub struct Vectorizer {
    /// Feature → index.
    index: BTreeMap<String, usize>,
    /// Index → feature.
    names: Vec<String>,
    /// Smoothed inverse document frequency per index.
    idf: Vec<f64>,
}

impl Vectorizer {
    /// Learns the vocabulary of `docs`: features found in at least `min_df` of them.
    pub fn fit(docs: &[Vec<String>], min_df: usize) -> Vectorizer {
        let mut df: BTreeMap<&str, usize> = BTreeMap::new();
        for d in docs {
            for f in d.iter().map(String::as_str).collect::<BTreeSet<_>>() {
                *df.entry(f).or_default() += 1;
            }
        }
        let n = docs.len() as f64;
        let kept: Vec<(&str, usize)> = df.into_iter().filter(|(_, c)| *c >= min_df).collect();
        Vectorizer {
            index: kept
                .iter()
                .enumerate()
                .map(|(i, (f, _))| (f.to_string(), i))
                .collect(),
            names: kept.iter().map(|(f, _)| f.to_string()).collect(),
            idf: kept
                .iter()
                .map(|(_, c)| ((1.0 + n) / (1.0 + *c as f64)).ln() + 1.0)
                .collect(),
        }
    }

    /// Number of features.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no feature was kept.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The feature at an index.
    pub fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// TF-IDF of a text's features (term frequency damped by a logarithm),
    /// scaled to unit length; features outside the vocabulary are dropped.
    pub fn transform(&self, feats: &[String]) -> Sparse {
        let mut tf: BTreeMap<usize, f64> = BTreeMap::new();
        for f in feats {
            if let Some(&i) = self.index.get(f) {
                *tf.entry(i).or_default() += 1.0;
            }
        }
        let mut v: Sparse = tf
            .into_iter()
            .map(|(i, c)| (i, (1.0 + f64::ln(c)) * self.idf[i]))
            .collect();
        let norm = v.iter().map(|(_, x)| x * x).sum::<f64>().sqrt();
        if norm > 0.0 {
            v.iter_mut().for_each(|(_, x)| *x /= norm);
        }
        v
    }
}

/// A logistic regression: a weight per feature and a bias.
#[derive(Debug, Clone)]
pub struct Logistic {
    /// Weight per feature index.
    pub weights: Vec<f64>,
    /// The bias.
    pub bias: f64,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Gradient-descent steps: enough for the loss to settle on a corpus of a
/// few hundred papers, few enough to stay well under a second.
const STEPS: usize = 400;
/// Step size.
const RATE: f64 = 2.0;
/// L2 penalty, which keeps the weights of rare words small.
const L2: f64 = 1e-3;

impl Logistic {
    /// Fits the weights to `xs` labelled `ys`, each class weighted by the
    /// inverse of its size so that the larger class does not drown the other.
    pub fn fit(xs: &[Sparse], ys: &[bool], dims: usize) -> Logistic {
        let pos = ys.iter().filter(|y| **y).count().max(1) as f64;
        let neg = ys.iter().filter(|y| !**y).count().max(1) as f64;
        let n = xs.len().max(1) as f64;
        let class_weight = |y: bool| if y { n / (2.0 * pos) } else { n / (2.0 * neg) };
        let mut m = Logistic {
            weights: vec![0.0; dims],
            bias: 0.0,
        };
        let mut grad = vec![0.0; dims];
        for _ in 0..STEPS {
            grad.iter_mut().for_each(|g| *g = 0.0);
            let mut grad_b = 0.0;
            for (x, &y) in xs.iter().zip(ys) {
                let err = (m.probability(x) - f64::from(u8::from(y))) * class_weight(y) / n;
                for &(i, v) in x {
                    grad[i] += err * v;
                }
                grad_b += err;
            }
            for (w, g) in m.weights.iter_mut().zip(&grad) {
                *w -= RATE * (g + L2 * *w);
            }
            m.bias -= RATE * grad_b;
        }
        m
    }

    /// The probability that a paper with features `x` is kept.
    pub fn probability(&self, x: &Sparse) -> f64 {
        sigmoid(self.bias + x.iter().map(|&(i, v)| self.weights[i] * v).sum::<f64>())
    }

    /// The features that raise the score most, with what each adds, largest first.
    pub fn reasons(&self, x: &Sparse, n: usize) -> Vec<(usize, f64)> {
        let mut c: Vec<(usize, f64)> = x
            .iter()
            .map(|&(i, v)| (i, self.weights[i] * v))
            .filter(|(_, c)| *c > 0.0)
            .collect();
        c.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        c.truncate(n);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_are_sorted_for_the_binary_search() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn features_are_words_and_pairs() {
        assert_eq!(
            features("Credit Assignment in 2 multi-agent teams"),
            [
                "credit",
                "assignment",
                "multi",
                "agent",
                "teams",
                "credit assignment",
                "assignment multi",
                "multi agent",
                "agent teams"
            ]
        );
    }

    #[test]
    fn the_model_separates_and_explains() {
        let docs: Vec<Vec<String>> = [
            "multi agent reinforcement learning credit",
            "credit assignment for agent teams",
            "prompted debate inference",
            "prompted chat inference only",
        ]
        .iter()
        .map(|t| features(t))
        .collect();
        let v = Vectorizer::fit(&docs, 1);
        let xs: Vec<Sparse> = docs.iter().map(|d| v.transform(d)).collect();
        let m = Logistic::fit(&xs, &[true, true, false, false], v.len());
        let probe = v.transform(&features("credit for agent learning"));
        assert!(m.probability(&probe) > 0.5);
        assert!(m.probability(&v.transform(&features("prompted inference"))) < 0.5);
        let why: Vec<&str> = m
            .reasons(&probe, 2)
            .iter()
            .map(|(i, _)| v.name(*i))
            .collect();
        assert!(why.contains(&"credit"), "{why:?}");
        let again = Logistic::fit(&xs, &[true, true, false, false], v.len());
        assert_eq!(again.weights, m.weights);
    }
}
