//! Strings that spans share: operation, agent, tool and service names repeat
//! across a million spans, so each distinct one is kept once and every span
//! holds a counted reference to it instead of a copy of its own.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::Arc;

/// A string held once and shared by the spans that carry it: one pointer
/// wide (an `Option<Atom>` too), where a boxed string takes two.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub(crate) struct Atom(Arc<Box<str>>);

impl Atom {
    fn new(s: &str) -> Atom {
        Atom(Arc::new(s.into()))
    }
}

impl std::ops::Deref for Atom {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Atom {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Atom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self.0, f)
    }
}

impl std::fmt::Display for Atom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Distinct strings remembered at most per decode: ids and free text that
/// never repeat would only fill the table (they are still shared no worse
/// than copied).
const MAX_ATOMS: usize = 1 << 14;

/// Strings longer than this are not looked up: names are short.
const MAX_LEN: usize = 128;

thread_local! {
    static ATOMS: RefCell<HashSet<Atom>> = RefCell::new(HashSet::new());
}

/// The shared copy of `s`.
pub(crate) fn atom(s: &str) -> Atom {
    if s.len() > MAX_LEN {
        return Atom::new(s);
    }
    ATOMS.with(|set| {
        let mut set = set.borrow_mut();
        if let Some(a) = set.get(s) {
            return a.clone();
        }
        let a = Atom::new(s);
        if set.len() < MAX_ATOMS {
            set.insert(a.clone());
        }
        a
    })
}

/// Forgets the remembered strings (the spans keep theirs): called when a
/// decode ends, so nothing outlives the import that read it.
pub(crate) fn forget() {
    ATOMS.with(|set| *set.borrow_mut() = HashSet::new());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_strings_share_one_copy() {
        let a = atom("chat");
        let b = atom("chat");
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_eq!(std::mem::size_of::<Option<Atom>>(), 8);
        assert_eq!(&*atom("invoke_agent"), "invoke_agent");
        let long = "x".repeat(MAX_LEN + 1);
        assert!(!Arc::ptr_eq(&atom(&long).0, &atom(&long).0));
        forget();
    }
}
