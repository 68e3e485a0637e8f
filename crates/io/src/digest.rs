//! A keyed 128-bit digest of a sequence of byte strings, for the build
//! record: SipHash-1-3 with a 128-bit output, keyed with this user's secret
//! (see `store`).
//!
//! Keyed, because the record is a claim that certain inputs were checked
//! and found clean: only a process that knows the secret can write a key a
//! later run will believe, and without the key nobody can aim inputs at a
//! recorded digest. It is not a general-purpose cryptographic hash and need
//! not be one: SipHash is a pseudo-random function under a secret key.

use siphasher::sip128::{Hasher128, SipHasher13};
use std::hash::Hasher;

/// A secret 128-bit key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Key(pub [u8; 16]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never printed, not even in a panic message.
        f.write_str("Key(..)")
    }
}

/// A running digest.
#[derive(Clone)]
pub struct Digest {
    h: SipHasher13,
}

impl Digest {
    /// A fresh digest under `key`.
    pub fn new(key: &Key) -> Digest {
        Digest {
            h: SipHasher13::new_with_key(&key.0),
        }
    }

    /// Adds one part; parts are length-prefixed, so ("ab", "c") and ("a", "bc") differ.
    pub fn add(&mut self, bytes: &[u8]) -> &mut Digest {
        self.h.write_u64(bytes.len() as u64);
        self.h.write(bytes);
        self
    }

    /// The digest so far.
    pub fn value(&self) -> u128 {
        self.h.finish128().as_u128()
    }

    /// The digest of one byte string under `key`.
    pub fn of(key: &Key, bytes: &[u8]) -> u128 {
        Digest::new(key).add(bytes).value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_delimited_and_order_matters() {
        let k = Key([7; 16]);
        let d = |parts: &[&str]| {
            let mut d = Digest::new(&k);
            for p in parts {
                d.add(p.as_bytes());
            }
            d.value()
        };
        assert_eq!(d(&["ab", "c"]), d(&["ab", "c"]));
        assert_ne!(d(&["ab", "c"]), d(&["a", "bc"]));
        assert_ne!(d(&["a", "b"]), d(&["b", "a"]));
        assert_ne!(d(&[]), d(&[""]));
        assert_ne!(Digest::of(&k, b"x"), Digest::of(&k, b"y"));
    }

    #[test]
    fn another_key_gives_another_digest() {
        assert_ne!(
            Digest::of(&Key([1; 16]), b"same bytes"),
            Digest::of(&Key([2; 16]), b"same bytes")
        );
    }

    #[test]
    fn the_key_is_never_printed() {
        assert_eq!(format!("{:?}", Key([42; 16])), "Key(..)");
    }
}
