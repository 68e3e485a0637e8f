//! Strings that spans share: operation, agent, tool and service names repeat
//! across a million spans, so each distinct one is kept once and every span
//! holds a counted reference to it instead of a copy of its own.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::Arc;

/// A string held once and shared by the spans that carry it.
pub(crate) type Atom = Arc<str>;

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
        return Atom::from(s);
    }
    ATOMS.with(|set| {
        let mut set = set.borrow_mut();
        if let Some(a) = set.get(s) {
            return a.clone();
        }
        let a = Atom::from(s);
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
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(&*atom("invoke_agent"), "invoke_agent");
        let long = "x".repeat(MAX_LEN + 1);
        assert!(!Arc::ptr_eq(&atom(&long), &atom(&long)));
        forget();
    }
}
