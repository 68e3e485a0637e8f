//! The edges that leave a process or reach a person: the remote agent an
//! A2A server span serves, the message edge into the first event a message
//! causes, and which tool-call decisions are a person's answers.

use super::structure::Tree;
use super::{subject, Ev};
use crate::otlp::decode::{Decision, Span};
use crate::otlp::mapping::{self, Role};
use crate::{EdgeKind, EventKind};
use std::collections::HashMap;

/// The agent of the first invoke span below span `i` (a bounded look
/// ahead): the remote agent of an A2A server span that does not name it.
pub(super) fn first_invoked<'a>(
    span: &impl Fn(usize) -> &'a Span,
    tree: &Tree,
    i: usize,
    convention: mapping::Convention,
) -> Option<&'a str> {
    const LOOK: usize = 256;
    let kids = |p: usize| tree.child_count[p] as usize..tree.child_count[p + 1] as usize;
    let mut stack: Vec<u32> = tree.children[kids(i)].iter().rev().copied().collect();
    let mut seen = 0;
    while let Some(c) = stack.pop() {
        seen += 1;
        if seen > LOOK {
            break;
        }
        let s = span(c as usize);
        if let Some(op) = mapping::role_of(s, convention).filter(|o| o.role == Role::Invoke) {
            if let Some(who) = subject(s, op) {
                return Some(who);
            }
        }
        stack.extend(tree.children[kids(c as usize)].iter().rev());
    }
    None
}

/// Whether a decision answers an approval request put to a person earlier for the same call.
pub(super) fn answers(requested: &HashMap<&str, u64>, d: &Decision) -> bool {
    matches!(&*d.outcome, "allow" | "deny") && requested.get(&*d.call).is_some_and(|&t| t <= d.t)
}

/// The type of the edge from an enclosing span's event into the first event
/// inside: a message edge when it carries a message to the agent acting there.
pub(super) fn edge_into(events: &[Ev], from: u32, to: u32) -> EdgeKind {
    let (f, t) = (&events[from as usize], &events[to as usize]);
    if f.kind == EventKind::Message && f.to == Some(t.agent) {
        EdgeKind::Message
    } else {
        EdgeKind::Causal
    }
}
