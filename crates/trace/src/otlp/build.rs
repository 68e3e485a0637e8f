//! Builds one survey trace from the spans of one OTLP trace id, following
//! the table in `mapping`: structure checks first (duplicate span ids,
//! missing parents, cycles through parent ids, clocks running backwards),
//! then one walk down the span tree that emits events and edges.
//!
//! Every step is linear in the number of spans (plus sorting siblings by
//! start time); the walk uses an explicit stack, so a chain a million spans
//! deep cannot overflow the call stack.

use super::decode::{Pos, Span};
use super::mapping::{self, Role};
use crate::{EdgeKind, EventKind};
use corpus_diagnostics::diag::Severity;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

/// Choices the conventions leave open, made by the user.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The orchestrating agent; default: the outermost invoked agent.
    pub orchestrator: Option<String>,
    /// The topology to record; not inferred.
    pub topology: Option<String>,
}

/// A problem found while building, tied to a span (global index) when there is one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    pub span: Option<u32>,
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    pub help: &'static str,
}

/// One built trace.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Built {
    pub trace_id: String,
    pub text: String,
    pub events: usize,
    pub edges: usize,
    /// Spans that map to no event, by operation (or span name).
    pub unmapped: BTreeMap<String, usize>,
    /// Links to spans of other traces, not carried over.
    pub cross_trace_links: usize,
    /// Events that carry the error of a failed span.
    pub errors: usize,
}

const NONE: u32 = u32::MAX;

struct Ev {
    /// Local index of the span it stands for.
    local: u32,
    span: u64,
    suffix: &'static str,
    t: u64,
    kind: EventKind,
    agent: u32,
    from: Option<u32>,
    to: Option<u32>,
    tool: Option<u32>,
    trusted: Option<bool>,
    error: Option<Box<str>>,
    model_calls: u32,
    unmapped: u32,
}

#[derive(Serialize)]
struct OutEvent<'a> {
    id: String,
    t: f64,
    #[serde(rename = "type")]
    kind: &'static str,
    agent: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trusted: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_calls: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unmapped_spans: Option<u32>,
    span_id: String,
}

#[derive(Serialize)]
struct OutEdge<'a> {
    src: &'a str,
    dst: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// The agent a span is about: the table's attributes in order, else the
/// span name after the operation ("invoke_agent Writer" -> "Writer").
fn subject<'a>(span: &'a Span, op: &mapping::Operation) -> Option<&'a str> {
    for key in op.subject {
        let v = match *key {
            mapping::keys::AGENT_NAME => span.attrs.agent_name.as_deref(),
            mapping::keys::AGENT_ID => span.attrs.agent_id.as_deref(),
            mapping::keys::WORKFLOW_NAME => span.attrs.workflow.as_deref(),
            mapping::keys::TOOL_NAME => span.attrs.tool.as_deref(),
            _ => None,
        };
        if let Some(v) = v.filter(|v| !v.trim().is_empty()) {
            return Some(v);
        }
    }
    span.name
        .strip_prefix(op.name)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Interned agent and tool names.
#[derive(Default)]
struct Names {
    index: HashMap<Box<str>, u32>,
    names: Vec<Box<str>>,
}

impl Names {
    fn get(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.into());
        self.index.insert(name.into(), i);
        i
    }
}

/// Per-span facts the walk fills in (local indices).
#[derive(Clone, Copy)]
struct Mapped {
    entry: u32,
    exit: u32,
}

/// What a span's children inherit.
#[derive(Clone, Copy)]
struct Ctx {
    /// The acting agent.
    agent: u32,
    /// Entry event of the nearest mapped ancestor.
    parent_entry: u32,
    /// Exit event (at its end) of the nearest ancestor that closes: a delegation or a tool run.
    closer: u32,
    /// Local index of that closing ancestor (or NONE).
    closer_span: u32,
    /// Local index of the nearest mapped ancestor (or NONE).
    rep: u32,
    /// Index of the agent scope (for pending returns and step counts).
    scope: u32,
}

struct Scope {
    /// Returns not yet aggregated, earliest first: (time, event).
    pending: BinaryHeap<Reverse<(u64, u32)>>,
    model_calls: u32,
    unmapped: u32,
    /// The return event to annotate with the counts, if the scope is a delegation.
    ret: u32,
}

enum Step {
    Enter(u32, Ctx),
    Leave(u32, Ctx, Ctx),
}

/// Builds the trace of one trace id. `members` are global indices into `all`.
/// Returns `None` when an error keeps the trace from being written; problems
/// (errors and warnings) are appended either way.
pub(crate) fn build(
    all: &[(Span, Pos)],
    members: &[u32],
    opts: &Options,
    problems: &mut Vec<Problem>,
) -> Option<Built> {
    let n = members.len();
    let span = |i: usize| &all[members[i] as usize].0;
    let global = |i: usize| Some(members[i]);
    let mut fatal = false;
    let mut problem = |i: Option<u32>, rule, severity, message: String, help| {
        problems.push(Problem {
            span: i,
            rule,
            severity,
            message,
            help,
        })
    };

    // Ids: unique within the trace.
    let mut by_id: HashMap<u64, usize> = HashMap::with_capacity(n);
    for i in 0..n {
        let s = span(i);
        if s.id == 0 {
            fatal = true; // reported when decoded
            continue;
        }
        if let Some(&first) = by_id.get(&s.id) {
            fatal = true;
            let at = all[members[first] as usize].1.pointer();
            problem(
                global(i),
                "otlp-duplicate-span",
                Severity::Error,
                format!("span id {:016x} is already used by the span at {at}", s.id),
                "every span of a trace needs its own spanId; the trace was not imported",
            );
        } else {
            by_id.insert(s.id, i);
        }
        if s.start == 0 || s.end == 0 {
            fatal = true; // reported when decoded
        }
    }

    // Parents: a missing parent makes the span a root.
    let mut parent: Vec<u32> = vec![NONE; n];
    for (i, slot) in parent.iter_mut().enumerate() {
        let Some(p) = span(i).parent else { continue };
        match by_id.get(&p) {
            Some(&pi) if pi != i => *slot = pi as u32,
            Some(_) => {
                fatal = true;
                problem(
                    global(i),
                    "otlp-parent-cycle",
                    Severity::Error,
                    format!("span {:016x} is its own parent", span(i).id),
                    "a span's parentSpanId must name another span; the trace was not imported",
                );
            }
            None => problem(
                global(i),
                "otlp-missing-parent",
                Severity::Warning,
                format!(
                    "span {:016x} names parent {p:016x}, which is not in the input; it is imported as a root",
                    span(i).id
                ),
                "export the whole trace (a sampler or a split file may have dropped the parent)",
            ),
        }
    }

    // Children, ordered by start time; a walk from the roots reaches every span
    // unless parent ids run in a cycle.
    let mut child_count = vec![0u32; n + 1];
    for &p in &parent {
        if p != NONE {
            child_count[p as usize + 1] += 1;
        }
    }
    for i in 0..n {
        child_count[i + 1] += child_count[i];
    }
    let mut fill = child_count.clone();
    let mut children = vec![0u32; child_count[n] as usize];
    for (i, &p) in parent.iter().enumerate() {
        if p != NONE {
            children[fill[p as usize] as usize] = i as u32;
            fill[p as usize] += 1;
        }
    }
    let kids = |p: usize| child_count[p] as usize..child_count[p + 1] as usize;
    for p in 0..n {
        children[kids(p)].sort_by_key(|&c| (span(c as usize).start, c));
    }
    let mut roots: Vec<u32> = (0..n as u32)
        .filter(|&i| parent[i as usize] == NONE)
        .collect();
    roots.sort_by_key(|&r| (span(r as usize).start, r));

    let mut reached = vec![false; n];
    let mut stack: Vec<u32> = roots.clone();
    while let Some(v) = stack.pop() {
        reached[v as usize] = true;
        stack.extend_from_slice(&children[kids(v as usize)]);
    }
    let mut in_cycle_reported = vec![false; n];
    for start in 0..n {
        if reached[start] || in_cycle_reported[start] {
            continue;
        }
        fatal = true;
        // Walk up the parents until a span repeats: that loop is the cycle.
        let mut seen: HashMap<usize, usize> = HashMap::new();
        let mut path = Vec::new();
        let mut v = start;
        while !seen.contains_key(&v) && !in_cycle_reported[v] {
            seen.insert(v, path.len());
            path.push(v);
            if parent[v] == NONE {
                break;
            }
            v = parent[v] as usize;
        }
        for &p in &path {
            in_cycle_reported[p] = true;
        }
        if let Some(&from) = seen.get(&v) {
            let cycle = &path[from..];
            let mut ids: Vec<String> = cycle
                .iter()
                .take(8)
                .map(|&c| format!("{:016x}", span(c).id))
                .collect();
            if cycle.len() > 8 {
                ids.push(format!("… ({} more)", cycle.len() - 8));
            }
            ids.push(format!("{:016x}", span(cycle[0]).id));
            problem(
                global(cycle[0]),
                "otlp-parent-cycle",
                Severity::Error,
                format!("parent ids run in a cycle: {}", ids.join(" -> ")),
                "parentSpanId must point up a tree; the trace was not imported",
            );
        }
    }

    // Clocks: a span ends after it starts and starts no earlier than its parent.
    for i in 0..n {
        let s = span(i);
        if s.start == 0 || s.end == 0 {
            continue;
        }
        if s.end < s.start {
            fatal = true;
            problem(
                global(i),
                "otlp-clock",
                Severity::Error,
                format!(
                    "span {:016x} ends {} ns before it starts",
                    s.id,
                    s.start - s.end
                ),
                "the clock ran backwards; the trace was not imported",
            );
        }
        let p = parent[i];
        if p != NONE && reached[i] {
            let ps = span(p as usize);
            if ps.start > 0 && s.start < ps.start {
                fatal = true;
                problem(
                    global(i),
                    "otlp-clock",
                    Severity::Error,
                    format!(
                        "span {:016x} starts {} ns before its parent {:016x}",
                        s.id,
                        ps.start - s.start,
                        ps.id
                    ),
                    "the clocks of parent and child disagree; the trace was not imported",
                );
            }
        }
    }
    if fatal || n == 0 {
        return None;
    }

    let t0 = (0..n).map(|i| span(i).start).min().unwrap_or(0);
    let t_end = (0..n).map(|i| span(i).end).max().unwrap_or(0);

    // The orchestrator: the flag, else the outermost invoked agent that starts first.
    let invoke_subject = |i: usize| -> Option<&str> {
        let s = span(i);
        let op = mapping::operation(s.attrs.operation.as_deref()?)?;
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

    let mut names = Names::default();
    let orch = names.get(&orchestrator);
    let mut events: Vec<Ev> = Vec::new();
    let mut edges: Vec<(u32, u32, EdgeKind)> = Vec::new();
    let mut mapped: Vec<Mapped> = vec![
        Mapped {
            entry: NONE,
            exit: NONE
        };
        n
    ];
    let mut rep: Vec<u32> = vec![NONE; n];
    let mut scopes: Vec<Scope> = vec![Scope {
        pending: BinaryHeap::new(),
        model_calls: 0,
        unmapped: 0,
        ret: NONE,
    }];
    let mut unmapped: BTreeMap<String, usize> = BTreeMap::new();
    let mut has_inner = vec![false; n];
    let mut usage_below = vec![false; n];
    // Sums of 64-bit counts: in 128 bits they cannot wrap (or panic).
    let (mut tokens_in, mut tokens_out) = (0u128, 0u128);
    let mut tool_calls = 0usize;

    fn push(events: &mut Vec<Ev>, ev: Ev) -> u32 {
        events.push(ev);
        events.len() as u32 - 1
    }
    let ev = |s: &Span, local: usize, suffix, t, kind, agent| Ev {
        local: local as u32,
        span: s.id,
        suffix,
        t,
        kind,
        agent,
        from: None,
        to: None,
        tool: None,
        trusted: None,
        error: None,
        model_calls: 0,
        unmapped: 0,
    };

    let top = Ctx {
        agent: orch,
        parent_entry: NONE,
        closer: NONE,
        closer_span: NONE,
        rep: NONE,
        scope: 0,
    };
    let mut walk: Vec<Step> = roots.iter().rev().map(|&r| Step::Enter(r, top)).collect();
    while let Some(step) = walk.pop() {
        match step {
            Step::Enter(v, ctx) => {
                let i = v as usize;
                let s = span(i);
                let op = s.attrs.operation.as_deref().and_then(mapping::operation);
                let mut inner = ctx;
                let mut me = Mapped {
                    entry: NONE,
                    exit: NONE,
                };
                let mut label: Option<String> = None;
                match op {
                    Some(op) if op.role == Role::Invoke || op.role == Role::Create => {
                        match subject(s, op) {
                            None => {
                                problem(
                                    global(i),
                                    "otlp-no-agent",
                                    Severity::Warning,
                                    format!(
                                        "{} span {:016x} names no agent; it maps to no event",
                                        op.name, s.id
                                    ),
                                    "set gen_ai.agent.name (or gen_ai.agent.id) on the span",
                                );
                                label = Some(format!("{} without an agent", op.name));
                            }
                            Some(who) => {
                                let who = names.get(who);
                                if op.role == Role::Create {
                                    let mut e =
                                        ev(s, i, "spawn", s.start, EventKind::Spawn, ctx.agent);
                                    e.to = Some(who);
                                    let k = push(&mut events, e);
                                    me = Mapped { entry: k, exit: k };
                                    inner.parent_entry = k;
                                } else if who != ctx.agent {
                                    let mut d = ev(
                                        s,
                                        i,
                                        "delegate",
                                        s.start,
                                        EventKind::OrchestratorDecision,
                                        ctx.agent,
                                    );
                                    d.to = Some(who);
                                    let d = push(&mut events, d);
                                    let mut r = ev(s, i, "return", s.end, EventKind::Return, who);
                                    r.from = Some(who);
                                    r.to = Some(ctx.agent);
                                    r.error = s.error.clone();
                                    let r = push(&mut events, r);
                                    me = Mapped { entry: d, exit: r };
                                    scopes.push(Scope {
                                        pending: BinaryHeap::new(),
                                        model_calls: 0,
                                        unmapped: 0,
                                        ret: r,
                                    });
                                    inner = Ctx {
                                        agent: who,
                                        parent_entry: d,
                                        closer: r,
                                        closer_span: v,
                                        rep: v,
                                        scope: scopes.len() as u32 - 1,
                                    };
                                }
                            }
                        }
                    }
                    Some(op) if op.role == Role::Tool => {
                        let tool = subject(s, op).unwrap_or_else(|| {
                            problem(
                                global(i),
                                "otlp-no-tool",
                                Severity::Warning,
                                format!(
                                    "execute_tool span {:016x} names no tool; it is imported as `unnamed_tool`",
                                    s.id
                                ),
                                "set gen_ai.tool.name on the span",
                            );
                            "unnamed_tool"
                        });
                        let tool = names.get(tool);
                        let mut c = ev(s, i, "call", s.start, EventKind::ToolCall, ctx.agent);
                        c.tool = Some(tool);
                        let c = push(&mut events, c);
                        let mut r = ev(s, i, "result", s.end, EventKind::ToolResult, tool);
                        r.tool = Some(tool);
                        r.trusted = Some(false);
                        r.error = s.error.clone();
                        let r = push(&mut events, r);
                        edges.push((c, r, EdgeKind::ToolDependency));
                        tool_calls += 1;
                        me = Mapped { entry: c, exit: r };
                        inner.parent_entry = c;
                        inner.closer = r;
                        inner.closer_span = v;
                    }
                    Some(op) if op.role == Role::Plan => {
                        let p = ev(
                            s,
                            i,
                            "plan",
                            s.start,
                            EventKind::OrchestratorDecision,
                            ctx.agent,
                        );
                        let p = push(&mut events, p);
                        me = Mapped { entry: p, exit: p };
                        inner.parent_entry = p;
                    }
                    Some(op) => {
                        // A model call: aggregate what has returned, else a step.
                        let scope = &mut scopes[ctx.scope as usize];
                        let mut ready = Vec::new();
                        while let Some(&Reverse((t, r))) = scope.pending.peek() {
                            if t > s.start {
                                break;
                            }
                            scope.pending.pop();
                            ready.push(r);
                        }
                        if ready.is_empty() {
                            scope.model_calls += 1;
                            label = Some(format!("{} (model step)", op.name));
                        } else {
                            let a = ev(s, i, "aggregate", s.start, EventKind::Aggregate, ctx.agent);
                            let a = push(&mut events, a);
                            for r in ready {
                                edges.push((r, a, EdgeKind::Aggregate));
                            }
                            me = Mapped { entry: a, exit: a };
                            inner.parent_entry = a;
                        }
                    }
                    None => {
                        label = Some(match s.attrs.operation.as_deref() {
                            Some(o) => o.to_string(),
                            None => format!("span \"{}\"", s.name),
                        });
                    }
                }
                if let Some(label) = label {
                    *unmapped.entry(label).or_insert(0) += 1;
                    scopes[ctx.scope as usize].unmapped += 1;
                }
                if me.entry != NONE {
                    if ctx.parent_entry != NONE {
                        edges.push((ctx.parent_entry, me.entry, EdgeKind::Causal));
                    }
                    mapped[i] = me;
                    rep[i] = v;
                    inner.rep = v;
                } else {
                    rep[i] = ctx.rep;
                }
                walk.push(Step::Leave(v, ctx, inner));
                for &c in children[kids(i)].iter().rev() {
                    walk.push(Step::Enter(c, inner));
                }
            }
            Step::Leave(v, ctx, inner) => {
                let i = v as usize;
                let s = span(i);
                let has_usage = s.attrs.input_tokens.is_some() || s.attrs.output_tokens.is_some();
                if has_usage && !usage_below[i] {
                    tokens_in += u128::from(s.attrs.input_tokens.unwrap_or(0));
                    tokens_out += u128::from(s.attrs.output_tokens.unwrap_or(0));
                }
                if (has_usage || usage_below[i]) && parent[i] != NONE {
                    usage_below[parent[i] as usize] = true;
                }
                let me = mapped[i];
                if me.exit == NONE {
                    continue;
                }
                // The work inside feeds the closing event of the enclosing delegation or tool run.
                if ctx.closer != NONE && events[me.exit as usize].t <= events[ctx.closer as usize].t
                {
                    edges.push((me.exit, ctx.closer, EdgeKind::Causal));
                    has_inner[ctx.closer_span as usize] = true;
                }
                if inner.scope != ctx.scope {
                    // A delegation ends: its return waits for the caller's next aggregate.
                    if !has_inner[i] {
                        edges.push((me.entry, me.exit, EdgeKind::Causal));
                    }
                    let sc = &scopes[inner.scope as usize];
                    let (calls, skipped, ret) = (sc.model_calls, sc.unmapped, sc.ret);
                    events[ret as usize].model_calls = calls;
                    events[ret as usize].unmapped = skipped;
                    let t = events[me.exit as usize].t;
                    scopes[ctx.scope as usize]
                        .pending
                        .push(Reverse((t, me.exit)));
                }
            }
        }
    }

    // Links become message edges between the events that stand for the two spans.
    let mut cross_trace_links = 0usize;
    for i in 0..n {
        let s = span(i);
        for l in &s.links {
            if l.trace != s.trace {
                cross_trace_links += 1;
                continue;
            }
            let Some(&j) = by_id.get(&l.span) else {
                problem(
                    global(i),
                    "otlp-link-dropped",
                    Severity::Warning,
                    format!(
                        "span {:016x} links to span {:016x}, which is not in the input",
                        s.id, l.span
                    ),
                    "export the linked span too, or ignore the warning",
                );
                continue;
            };
            let (ri, rj) = (rep[i], rep[j]);
            let reason = if ri == NONE || rj == NONE {
                Some("one of the spans maps to no event and has no mapped ancestor".to_string())
            } else {
                let dst = mapped[ri as usize].entry;
                let dt = events[dst as usize].t;
                let m = mapped[rj as usize];
                let src = [m.exit, m.entry]
                    .into_iter()
                    .find(|&e| events[e as usize].t <= dt && e != dst);
                match src {
                    Some(src) => {
                        edges.push((src, dst, EdgeKind::Message));
                        None
                    }
                    None if m.entry == dst || m.exit == dst => {
                        Some("both spans stand for the same event".to_string())
                    }
                    None => {
                        Some("the linked span starts after the linking span's event".to_string())
                    }
                }
            };
            if let Some(reason) = reason {
                problem(
                    global(i),
                    "otlp-link-dropped",
                    Severity::Warning,
                    format!(
                        "the link from span {:016x} to span {:016x} carries over as no edge: {reason}",
                        s.id, l.span
                    ),
                    "links become message edges only forward in time between mapped spans",
                );
            }
        }
    }

    // An agent cannot act before the span that creates it.
    let mut created: HashMap<u32, u64> = HashMap::new();
    for e in &events {
        if e.kind == EventKind::Spawn {
            if let Some(to) = e.to {
                let t = created.entry(to).or_insert(e.t);
                *t = (*t).min(e.t);
            }
        }
    }
    let mut early = false;
    for e in &events {
        if let Some(&t) = created.get(&e.agent) {
            if e.t < t {
                early = true;
                problem(
                    global(e.local as usize),
                    "otlp-act-before-create",
                    Severity::Error,
                    format!(
                        "agent \"{}\" acts in span {:016x} {} ns before the create_agent span that creates it",
                        names.names[e.agent as usize],
                        e.span,
                        t - e.t
                    ),
                    "an agent exists from its creation on; fix the times or the agent names (or --orchestrator); the trace was not imported",
                );
            }
        }
    }
    if early {
        return None;
    }

    if events.is_empty() {
        problem(
            global(roots[0] as usize),
            "otlp-no-events",
            Severity::Warning,
            format!(
                "trace {:032x} has {n} span(s) but none maps to a survey event; it was not written",
                span(0).trace
            ),
            "see `corpus trace import --explain` for the operations that map",
        );
        return None;
    }

    // Events in time order (stable), edges renumbered, duplicate edges dropped.
    let mut order: Vec<u32> = (0..events.len() as u32).collect();
    order.sort_by_key(|&e| (events[e as usize].t, e));
    // A spawn edge runs to the spawned agent's first event after the spawn.
    let mut open_spawn: HashMap<u32, u32> = HashMap::new();
    for &e in &order {
        let ev = &events[e as usize];
        if let Some(s) = open_spawn.remove(&ev.agent) {
            edges.push((s, e, EdgeKind::Spawn));
        }
        if ev.kind == EventKind::Spawn {
            if let Some(to) = ev.to {
                open_spawn.entry(to).or_insert(e);
            }
        }
    }
    let mut new_index = vec![0u32; events.len()];
    for (k, &e) in order.iter().enumerate() {
        new_index[e as usize] = k as u32;
    }
    let mut edge_list: Vec<(u32, u32, EdgeKind)> = edges
        .into_iter()
        .filter(|(a, b, _)| a != b)
        .map(|(a, b, k)| (new_index[a as usize], new_index[b as usize], k))
        .collect();
    edge_list.sort_by_key(|&(a, b, k)| (b, a, k));
    edge_list.dedup();
    edge_list.sort_by_key(|&(a, b, k)| (a, b, k));

    let name = |i: u32| &*names.names[i as usize];
    let ids: Vec<String> = order
        .iter()
        .map(|&e| {
            let ev = &events[e as usize];
            format!("{:016x}:{}", ev.span, ev.suffix)
        })
        .collect();
    let secs = |t: u64| (t - t0) as f64 / 1e9;
    let mut text = String::with_capacity(events.len() * 160 + 512);
    let trace_id = format!("{:032x}", span(0).trace);
    let task_id = task.map_or_else(|| trace_id.clone(), str::to_string);
    text.push_str("{\n");
    let field = |text: &mut String, k: &str, v: &str| {
        text.push_str(&format!(
            "  {}: {},\n",
            serde_json::to_string(k).unwrap_or_default(),
            serde_json::to_string(v).unwrap_or_default()
        ));
    };
    field(&mut text, "trace_id", &trace_id);
    field(&mut text, "task_id", &task_id);
    if let Some(sys) = root_service {
        field(&mut text, "system", sys);
    }
    if let Some(t) = &opts.topology {
        field(&mut text, "topology", t);
    }
    text.push_str("  \"events\": [\n");
    for (k, &e) in order.iter().enumerate() {
        let ev = &events[e as usize];
        let out = OutEvent {
            id: ids[k].clone(),
            t: secs(ev.t),
            kind: ev.kind.as_str(),
            agent: name(ev.agent),
            role: (ev.agent == orch && ev.kind != EventKind::ToolResult).then_some("orchestrator"),
            from: ev.from.map(name),
            to: ev.to.map(name),
            tool: ev.tool.map(name),
            trusted: ev.trusted,
            error: ev.error.as_deref(),
            model_calls: (ev.kind == EventKind::Return).then_some(ev.model_calls),
            unmapped_spans: (ev.unmapped > 0).then_some(ev.unmapped),
            span_id: format!("{:016x}", ev.span),
        };
        text.push_str("    ");
        text.push_str(&serde_json::to_string(&out).unwrap_or_default());
        text.push_str(if k + 1 < order.len() { ",\n" } else { "\n" });
    }
    text.push_str("  ],\n  \"edges\": [\n");
    for (k, &(a, b, kind)) in edge_list.iter().enumerate() {
        let out = OutEdge {
            src: &ids[a as usize],
            dst: &ids[b as usize],
            kind: kind.as_str(),
        };
        text.push_str("    ");
        text.push_str(&serde_json::to_string(&out).unwrap_or_default());
        text.push_str(if k + 1 < edge_list.len() { ",\n" } else { "\n" });
    }
    text.push_str("  ],\n  \"rewards\": {},\n");
    // Written by hand: serde_json holds no integer above 64 bits, and a
    // token sum may exceed that; a JSON number has no such limit.
    let wall = serde_json::to_string(&((t_end - t0) as f64 / 1e9)).unwrap_or_default();
    text.push_str(&format!(
        "  \"costs\": {{\"input_tokens\":{tokens_in},\"output_tokens\":{tokens_out},\"tokens\":{},\"tool_calls\":{tool_calls},\"wall_clock_s\":{wall}}}\n}}\n",
        tokens_in + tokens_out
    ));
    Some(Built {
        trace_id,
        text,
        events: events.len(),
        edges: edge_list.len(),
        unmapped,
        cross_trace_links,
        errors: events.iter().filter(|e| e.error.is_some()).count(),
    })
}
