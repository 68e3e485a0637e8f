//! String-to-index maps that keep each string once: ids and interned agent names.

use crate::model::IdTable;
use std::hash::BuildHasher;

/// Maps strings to small indices without storing each string twice.
///
/// Open addressing over indices into a caller-owned list of strings: a slot
/// is 8 bytes (index and 32 bits of the key's hash) instead of a second copy
/// of every key, which matters with a million event ids. The hash bits let a
/// probe skip non-matching slots without touching their strings, which are
/// scattered in memory and dominate the cost otherwise. Keys are hashed with
/// a randomly keyed SipHash, so crafted ids cannot force collisions.
#[derive(Debug, Default)]
pub(crate) struct StrIndex {
    /// `(hash >> 32) << 32 | index`, or `EMPTY`.
    slots: Vec<u64>,
    len: usize,
    hasher: std::collections::hash_map::RandomState,
}

const EMPTY: u64 = u64::MAX;

impl StrIndex {
    fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(key)
    }

    /// Index of `key`, looking up names through `name_of`.
    pub fn get<'a>(&self, key: &str, name_of: impl Fn(u32) -> &'a str) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let hash = self.hash(key);
        let tag = hash >> 32;
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == EMPTY {
                return None;
            }
            let index = slot as u32;
            if slot >> 32 == tag && name_of(index) == key {
                return Some(index);
            }
            i = (i + 1) & mask;
        }
    }

    /// Records `value` for `key`, which the caller knows is absent.
    pub fn insert_new<'a>(&mut self, key: &str, value: u32, name_of: impl Fn(u32) -> &'a str) {
        if (self.len + 1) * 2 > self.slots.len() {
            let size = (self.slots.len() * 2).max(16);
            let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
            for slot in old.into_iter().filter(|&v| v != EMPTY) {
                let v = slot as u32;
                self.place(self.hash(name_of(v)), v);
            }
        }
        self.place(self.hash(key), value);
        self.len += 1;
    }

    fn place(&mut self, hash: u64, value: u32) {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        while self.slots[i] != EMPTY {
            i = (i + 1) & mask;
        }
        // A value of u32::MAX with an all-ones tag would read as EMPTY; indices stop below it.
        self.slots[i] = (hash >> 32) << 32 | u64::from(value);
    }

    pub(super) fn clear(&mut self) {
        self.slots.clear();
        self.len = 0;
    }
}

/// Interned agent names.
#[derive(Debug, Default)]
pub(super) struct Interner {
    /// The names in one buffer, not a heap block each: a big trace names
    /// agents by the hundred thousand.
    pub(super) names: IdTable,
    index: StrIndex,
}

impl Interner {
    pub(super) fn intern(&mut self, name: &str) -> u32 {
        let names = &self.names;
        if let Some(i) = self.index.get(name, |i| names.get(i)) {
            return i;
        }
        let i = self.names.len() as u32;
        if !self.names.push(name) {
            // Past 4 GiB of names (never within the size limits): the name
            // stays unknown rather than aliasing another.
            return u32::MAX;
        }
        let names = &self.names;
        self.index.insert_new(name, i, |i| names.get(i));
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_index_finds_what_it_stored_and_grows() {
        let names: Vec<String> = (0..1000).map(|i| format!("n{i}")).collect();
        let mut idx = StrIndex::default();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(idx.get(n, |j| &names[j as usize]), None);
            idx.insert_new(n, i as u32, |j| &names[j as usize]);
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(idx.get(n, |j| &names[j as usize]), Some(i as u32));
        }
        assert_eq!(idx.get("absent", |j| &names[j as usize]), None);
    }
}
