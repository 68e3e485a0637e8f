//! Who leads a trace and what it is about: the orchestrator, the task and the service.

use super::structure::Tree;
use super::{subject, Options};
use crate::otlp::decode::{Pos, Span};
use crate::otlp::mapping::{self, Role};

/// What the trace's header says, read before the walk.
pub(super) struct Lead<'a> {
    /// The orchestrating agent.
    pub(super) orchestrator: String,
    /// The first conversation id met from the roots down, as the task.
    pub(super) task: Option<&'a str>,
    /// The service of the first root, as the system.
    pub(super) service: Option<&'a str>,
}

/// Picks the orchestrator, the task and the service of one trace id.
pub(super) fn lead<'a>(
    all: &'a [(Span, Pos)],
    members: &[u32],
    tree: &Tree,
    opts: &Options,
) -> Lead<'a> {
    let span = |i: usize| &all[members[i] as usize].0;
    let Tree {
        child_count,
        children,
        roots,
        ..
    } = tree;
    let kids = |p: usize| child_count[p] as usize..child_count[p + 1] as usize;

    // The orchestrator: the flag, else the outermost invoked agent that starts first.
    let invoke_subject = |i: usize| -> Option<&str> {
        let s = span(i);
        let op = mapping::role_of(s, opts.convention)?;
        (op.role == Role::Invoke).then(|| subject(s, op)).flatten()
    };
    let mut first_outer: Option<(u64, usize)> = None;
    let mut task: Option<&str> = None;
    let mut stack: Vec<(u32, bool)> = roots.iter().rev().map(|&r| (r, false)).collect();
    while let Some((v, under)) = stack.pop() {
        let v = v as usize;
        if task.is_none() {
            task = span(v).attrs.conversation.as_deref();
        }
        let here = invoke_subject(v).is_some();
        if here && !under && first_outer.is_none_or(|(t, _)| span(v).start < t) {
            first_outer = Some((span(v).start, v));
        }
        for &c in children[kids(v)].iter().rev() {
            stack.push((c, under || here));
        }
    }
    let root_service = roots
        .first()
        .and_then(|&r| span(r as usize).attrs.service.as_deref());
    let orchestrator: String = opts
        .orchestrator
        .clone()
        .or_else(|| first_outer.and_then(|(_, v)| invoke_subject(v).map(str::to_string)))
        .or_else(|| root_service.map(str::to_string))
        .unwrap_or_else(|| "unknown_service".to_string());
    Lead {
        orchestrator,
        task,
        service: root_service,
    }
}
