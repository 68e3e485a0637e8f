//! A 128-bit digest of a sequence of byte strings, for the build
//! fingerprint: two SipHash states fed the same length-prefixed parts from
//! different starting points, so an accidental collision is out of reach.
//!
//! It is not a cryptographic hash, and need not be: the fingerprint is a
//! local cache that is never committed (a fresh clone has none and takes the
//! full path), and it is only ever compared with what the same machine wrote.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;

/// A running digest.
#[derive(Clone)]
pub struct Digest {
    a: DefaultHasher,
    b: DefaultHasher,
}

impl Default for Digest {
    fn default() -> Self {
        let a = DefaultHasher::new();
        let mut b = DefaultHasher::new();
        b.write(b"corpus fingerprint, second half");
        Digest { a, b }
    }
}

impl Digest {
    /// A fresh digest.
    pub fn new() -> Digest {
        Digest::default()
    }

    /// Adds one part; parts are length-prefixed, so ("ab", "c") and ("a", "bc") differ.
    pub fn add(&mut self, bytes: &[u8]) -> &mut Digest {
        for h in [&mut self.a, &mut self.b] {
            h.write_u64(bytes.len() as u64);
            h.write(bytes);
        }
        self
    }

    /// The digest so far.
    pub fn value(&self) -> u128 {
        (u128::from(self.a.finish()) << 64) | u128::from(self.b.finish())
    }

    /// The digest of one byte string.
    pub fn of(bytes: &[u8]) -> u128 {
        Digest::new().add(bytes).value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_delimited_and_order_matters() {
        let d = |parts: &[&str]| {
            let mut d = Digest::new();
            for p in parts {
                d.add(p.as_bytes());
            }
            d.value()
        };
        assert_eq!(d(&["ab", "c"]), d(&["ab", "c"]));
        assert_ne!(d(&["ab", "c"]), d(&["a", "bc"]));
        assert_ne!(d(&["a", "b"]), d(&["b", "a"]));
        assert_ne!(d(&[]), d(&[""]));
        assert_ne!(Digest::of(b"x"), Digest::of(b"y"));
    }
}
