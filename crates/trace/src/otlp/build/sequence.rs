//! Order in time among the spans of one parent: an event whose span starts
//! after a sibling's span has ended follows it (a causal edge), so only spans
//! that overlap in time come out as parallel branches.
//!
//! Each mapped span keeps one [`Frontier`] for its children while the walk is
//! inside it. Exits wait in `open` until an entry starts after them; the exits
//! most recently followed (`batch`) also precede later entries, until an exit
//! that itself followed them is followed in turn and stands for them. This
//! keeps the edges near a transitive reduction at the cost of a heap
//! operation per span, with no pairwise comparison of siblings.

use crate::EdgeKind;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Followed exits kept for later entries at most; past this many overlapping
/// predecessors the earliest are let go (a later entry then looks more parallel).
const MAX_BATCH: usize = 64;

/// Entries kept for an event placed late ([`Frontier::precede`]): at most
/// twice this many, the latest.
const RECENT: usize = 32;

/// The exits of one parent's children, waiting for what follows them.
#[derive(Default)]
pub(super) struct Frontier {
    /// Exits nothing follows yet, earliest first: (time, event, epoch their span entered in).
    open: BinaryHeap<Reverse<(u64, u32, u32)>>,
    /// The exits followed last: (time, event).
    batch: Vec<(u64, u32)>,
    /// How many batches there have been.
    epoch: u32,
    /// Events placed by their time rather than by the walk (a span's own
    /// events between its children's), latest first: (time, event).
    held: Vec<(u64, u32)>,
    /// The latest entries, in the order they came: (time, event).
    recent: Vec<(u64, u32)>,
}

impl Frontier {
    /// Adds the edges into an entry event at time `at`; returns the epoch to
    /// hand back to [`Frontier::leave`] with the span's exit.
    pub(super) fn enter(
        &mut self,
        at: u64,
        entry: u32,
        edges: &mut Vec<(u32, u32, EdgeKind)>,
    ) -> u32 {
        while self.held.last().is_some_and(|&(t, _)| t <= at) {
            let (t, e) = self.held.pop().unwrap_or_default();
            let seen = self.step(t, e, edges);
            self.leave(t, e, seen);
        }
        self.step(at, entry, edges)
    }

    /// Holds an event that takes no time until the sequence reaches its time `t`.
    pub(super) fn hold(&mut self, t: u64, event: u32) {
        let at = self.held.partition_point(|&(u, _)| u > t);
        self.held.insert(at, (t, event));
    }

    /// Places the events still held, after everything else.
    pub(super) fn flush(&mut self, edges: &mut Vec<(u32, u32, EdgeKind)>) {
        while let Some((t, e)) = self.held.pop() {
            let seen = self.step(t, e, edges);
            self.leave(t, e, seen);
        }
    }

    fn step(&mut self, at: u64, entry: u32, edges: &mut Vec<(u32, u32, EdgeKind)>) -> u32 {
        if self.recent.len() == 2 * RECENT {
            self.recent.drain(..RECENT);
        }
        self.recent.push((at, entry));
        let mut popped: Vec<(u64, u32)> = Vec::new();
        let mut covers = false;
        while let Some(&Reverse((t, e, seen))) = self.open.peek() {
            if t > at {
                break;
            }
            self.open.pop();
            // An exit whose span entered after the last batch followed that batch: it stands for it.
            covers |= seen == self.epoch;
            popped.push((t, e));
        }
        if !popped.is_empty() {
            if !covers {
                popped.append(&mut self.batch);
            }
            if popped.len() > MAX_BATCH {
                popped.sort_unstable_by(|a, b| b.cmp(a));
                popped.truncate(MAX_BATCH);
            }
            self.batch = popped;
            self.epoch += 1;
        }
        for &(t, e) in &self.batch {
            if t <= at && e != entry {
                edges.push((e, entry, EdgeKind::Causal));
            }
        }
        self.epoch
    }

    /// An event entered at time `t`, earlier than entries already made
    /// before `until` (a handoff decided by a model call that ended before
    /// the sibling spans it also asked for began): it precedes the earliest
    /// of them, so the work it started is not read as parallel to it.
    pub(super) fn precede(
        &self,
        t: u64,
        event: u32,
        until: u64,
        edges: &mut Vec<(u32, u32, EdgeKind)>,
    ) {
        let later = |&&(u, e): &&(u64, u32)| u > t && u < until && e != event;
        let Some(first) = self.recent.iter().filter(later).map(|&(u, _)| u).min() else {
            return;
        };
        for &(u, e) in self.recent.iter().filter(later) {
            if u == first {
                edges.push((event, e, EdgeKind::Causal));
            }
        }
    }

    /// Takes the exits nothing follows yet that ended by `t`, except `keep`:
    /// what an agent entered by a handoff at `t` continues from.
    pub(super) fn take_until(&mut self, t: u64, keep: u32) -> Vec<(u64, u32, u32)> {
        let mut taken = Vec::new();
        let mut kept = Vec::new();
        while let Some(&Reverse(x)) = self.open.peek() {
            if x.0 > t {
                break;
            }
            self.open.pop();
            if x.1 == keep {
                kept.push(x);
            } else {
                taken.push(x);
            }
        }
        self.open.extend(kept.into_iter().map(Reverse));
        taken
    }

    /// A child's exit at time `t`, from a span that entered in epoch `seen`.
    pub(super) fn leave(&mut self, t: u64, exit: u32, seen: u32) {
        self.open.push(Reverse((t, exit, seen)));
    }

    /// The exits nothing followed: the last things done inside the parent.
    pub(super) fn into_sinks(self) -> Vec<(u64, u32, u32)> {
        self.open.into_iter().map(|Reverse(x)| x).collect()
    }

    /// Takes over the sinks of a child that closes on no event of its own.
    pub(super) fn extend(&mut self, sinks: Vec<(u64, u32, u32)>) {
        self.open.extend(sinks.into_iter().map(Reverse));
    }
}
