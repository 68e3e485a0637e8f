//! The walk down the span tree that emits events and edges, following the
//! table in `mapping`, with an explicit stack.

use super::remote::{answers, edge_into, first_invoked};
use super::sequence::Frontier;
use super::structure::Tree;
use super::{reporter, subject, Ev, Mapped, Names, Problem, NONE};
use crate::otlp::decode::{Pos, Span};
use crate::otlp::mapping::{self, Role};
use crate::{EdgeKind, EventKind};
use corpus_diagnostics::diag::Severity;
use corpus_diagnostics::rules::Rule;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, VecDeque};

/// What a span's children inherit.
#[derive(Clone, Copy)]
struct Ctx {
    /// The acting agent.
    agent: u32,
    /// Entry event of the nearest mapped ancestor.
    parent_entry: u32,
    /// Local index of the nearest mapped ancestor (or NONE).
    rep: u32,
    /// Index of the agent scope (for pending returns and step counts).
    scope: u32,
    /// Index (in the frontier stack) of the sequence the span's events join.
    frontier: u32,
    /// The message of the A2A client span the span is inside (no server span between), or NONE.
    request: u32,
}

struct Scope {
    /// Returns not yet aggregated, earliest first: (time, event).
    pending: BinaryHeap<Reverse<(u64, u32)>>,
    model_calls: u32,
    unmapped: u32,
    /// The return event to annotate with the counts, if the scope is a delegation.
    ret: u32,
    /// The scope was entered by a handoff: control does not go back.
    pass: bool,
    /// The scope's agent handed the conversation over.
    handed_over: bool,
    /// The latest model call: (end, span id).
    last_model: Option<(u64, u64)>,
    /// What the agent entered by a handoff continues from (the work done
    /// before the handoff besides the decision).
    seeded: Vec<u32>,
}

impl Scope {
    fn new(ret: u32, pass: bool) -> Scope {
        Scope {
            pending: BinaryHeap::new(),
            model_calls: 0,
            unmapped: 0,
            ret,
            pass,
            handed_over: false,
            last_model: None,
            seeded: Vec::new(),
        }
    }
}

enum Step {
    Enter(u32, Ctx),
    /// The span, its context, its children's context, and the epoch its entry took in the sequence.
    Leave(u32, Ctx, Ctx, u32),
}

/// What the walk emitted, in local indices.
pub(super) struct Walked {
    /// Agent and tool names.
    pub(super) names: Names,
    /// The orchestrator's name.
    pub(super) orch: u32,
    /// Events, in the order they were emitted.
    pub(super) events: Vec<Ev>,
    /// Edges between events: (source, destination, type).
    pub(super) edges: Vec<(u32, u32, EdgeKind)>,
    /// The events that stand for each span.
    pub(super) mapped: Vec<Mapped>,
    /// The nearest mapped span at or above each span, or NONE.
    pub(super) rep: Vec<u32>,
    /// Spans that map to no event, by operation (or span name).
    pub(super) unmapped: BTreeMap<String, usize>,
    /// Input tokens, summed over the spans that report usage.
    pub(super) tokens_in: u128,
    /// Output tokens, likewise.
    pub(super) tokens_out: u128,
    /// Tool runs.
    pub(super) tool_calls: usize,
}

/// Walks the span tree from the roots, emitting events and edges.
pub(super) fn walk(
    all: &[(Span, Pos)],
    members: &[u32],
    tree: &Tree,
    orchestrator: &str,
    convention: mapping::Convention,
    problems: &mut Vec<Problem>,
) -> Walked {
    let n = members.len();
    let span = |i: usize| &all[members[i] as usize].0;
    let global = |i: usize| Some(members[i]);
    let mut problem = reporter(problems);
    let Tree {
        parent,
        child_count,
        children,
        roots,
        ..
    } = tree;
    let kids = |p: usize| child_count[p] as usize..child_count[p + 1] as usize;

    let mut names = Names::default();
    let orch = names.get(orchestrator);
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
    let mut scopes: Vec<Scope> = vec![Scope::new(NONE, false)];
    // One sequence per mapped span being walked (a stack), plus the top level:
    // an event that starts after a sibling's exit follows it (causal edge), so
    // only spans that overlap in time count as parallel.
    let mut frontiers: Vec<Frontier> = vec![Frontier::default()];
    // Handoff decisions not yet taken up by the receiving agent's span, by agent.
    let mut handoffs: HashMap<u32, VecDeque<u32>> = HashMap::new();
    // Each agent's latest model call: (end, span id).
    let mut last_model: HashMap<u32, (u64, u64)> = HashMap::new();
    let mut unmapped: BTreeMap<String, usize> = BTreeMap::new();
    let mut usage_below = vec![false; n];
    // Sums of 64-bit counts: in 128 bits they cannot wrap (or panic).
    let (mut tokens_in, mut tokens_out) = (0u128, 0u128);
    let mut tool_calls = 0usize;
    // When each tool call was first put to a person (require_approval), by call.
    let mut requested: HashMap<&str, u64> = HashMap::new();
    for i in 0..n {
        for d in &span(i).attrs.x().decisions {
            if &*d.outcome == "require_approval" {
                let t = requested.entry(&d.call).or_insert(d.t);
                *t = (*t).min(d.t);
            }
        }
    }

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
        model_span: 0,
        guardrail: None,
        triggered: None,
    };

    let top = Ctx {
        agent: orch,
        parent_entry: NONE,
        rep: NONE,
        scope: 0,
        frontier: 0,
        request: NONE,
    };
    let mut walk: Vec<Step> = roots.iter().rev().map(|&r| Step::Enter(r, top)).collect();
    while let Some(step) = walk.pop() {
        match step {
            Step::Enter(v, ctx) => {
                let i = v as usize;
                let s = span(i);
                let op = mapping::role_of(s, convention);
                let mut inner = ctx;
                // Entered by a handoff: its entry is the decision, already placed.
                let mut taken_over = false;
                let mut me = Mapped {
                    entry: NONE,
                    exit: NONE,
                };
                let mut label: Option<String> = None;
                // A handoff decided before sibling spans began: it precedes them (until the span's start).
                let mut late = None;
                match op {
                    Some(op) if op.role == Role::Invoke || op.role == Role::Create => {
                        match subject(s, op) {
                            // The run's own span (a root naming no agent) stands for the orchestrator.
                            None if op.role == Role::Invoke && parent[i] == NONE => {
                                label = Some(format!("{} (the run)", op.name));
                            }
                            None => {
                                problem(
                                    global(i),
                                    Rule::OtlpNoAgent,
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
                                let mut handed = if op.role == Role::Invoke {
                                    take_handoff(&mut handoffs, who, &events, s.start)
                                } else {
                                    None
                                };
                                // OpenInference names the agent that handed over on the receiving
                                // span (graph.node.parent_id); with no handoff span recorded, the
                                // decision is that agent's latest model call.
                                let named = s
                                    .attrs
                                    .x()
                                    .oi_parent
                                    .as_deref()
                                    .filter(|_| handed.is_none() && op.role == Role::Invoke);
                                if let Some(from) =
                                    named.map(|f| names.get(f)).filter(|&f| f != who)
                                {
                                    if let Some(&(end, model)) =
                                        last_model.get(&from).filter(|m| m.0 <= s.start)
                                    {
                                        let mut d = ev(
                                            s,
                                            i,
                                            "handoff",
                                            end,
                                            EventKind::OrchestratorDecision,
                                            from,
                                        );
                                        d.to = Some(who);
                                        d.model_span = model;
                                        let d = push(&mut events, d);
                                        // It follows what came before the receiving span.
                                        frontiers[ctx.frontier as usize].enter(end, d, &mut edges);
                                        handed = Some(d);
                                    }
                                }
                                if let Some(d) = handed {
                                    // Control passed: no decision of its own, no return to the caller.
                                    scopes.push(Scope::new(NONE, true));
                                    me = Mapped { entry: d, exit: d };
                                    taken_over = true;
                                    inner = Ctx {
                                        agent: who,
                                        parent_entry: d,
                                        rep: v,
                                        scope: scopes.len() as u32 - 1,
                                        frontier: ctx.frontier,
                                        request: NONE,
                                    };
                                } else if op.role == Role::Create {
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
                                    scopes.push(Scope::new(r, false));
                                    inner = Ctx {
                                        agent: who,
                                        parent_entry: d,
                                        rep: v,
                                        scope: scopes.len() as u32 - 1,
                                        frontier: ctx.frontier,
                                        request: NONE,
                                    };
                                }
                            }
                        }
                    }
                    Some(op) if op.role == Role::Tool => {
                        let tool = subject(s, op).unwrap_or_else(|| {
                            problem(
                                global(i),
                                Rule::OtlpNoTool,
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
                        // The result comes back to the calling agent: a tool is not an agent.
                        let mut r = ev(s, i, "result", s.end, EventKind::ToolResult, ctx.agent);
                        r.tool = Some(tool);
                        r.trusted = Some(false);
                        r.error = s.error.clone();
                        let r = push(&mut events, r);
                        edges.push((c, r, EdgeKind::ToolDependency));
                        tool_calls += 1;
                        me = Mapped { entry: c, exit: r };
                        inner.parent_entry = c;
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
                    Some(op) if op.role == Role::Handoff => match subject(s, op) {
                        None => {
                            problem(
                                global(i),
                                Rule::OtlpNoAgent,
                                Severity::Warning,
                                format!(
                                    "handoff span {:016x} names no receiving agent; it maps to no event",
                                    s.id
                                ),
                                "set gen_ai.handoff.to_agent on the span",
                            );
                            label = Some(format!("{} without an agent", op.name));
                        }
                        Some(to) => {
                            let to = names.get(to);
                            // A transfer names its source agent as the agent the span is about.
                            let source = s
                                .attrs
                                .x()
                                .transfer_mode
                                .as_ref()
                                .and(s.attrs.agent_name.as_deref());
                            let from = s
                                .attrs
                                .x()
                                .handoff_from
                                .as_deref()
                                .or(source)
                                .filter(|f| !f.trim().is_empty())
                                .map_or(ctx.agent, |f| names.get(f));
                            let scope = &mut scopes[ctx.scope as usize];
                            scope.handed_over = true;
                            // The model call that asked for the handoff decided it, when it ended.
                            let decided = scope.last_model.filter(|&(end, _)| end <= s.start);
                            let t = decided.map_or(s.start, |(end, _)| end);
                            late = (t < s.start).then_some(s.start);
                            let mut d =
                                ev(s, i, "handoff", t, EventKind::OrchestratorDecision, from);
                            d.to = Some(to);
                            d.model_span = decided.map_or(0, |(_, id)| id);
                            let d = push(&mut events, d);
                            handoffs.entry(to).or_default().push_back(d);
                            me = Mapped { entry: d, exit: d };
                            inner.parent_entry = d;
                        }
                    },
                    Some(op) if op.role == Role::Human => {
                        let who = names.get(subject(s, op).unwrap_or("human"));
                        let h = ev(s, i, "human", s.end, EventKind::HumanIntervention, who);
                        let h = push(&mut events, h);
                        me = Mapped { entry: h, exit: h };
                        inner.parent_entry = h;
                    }
                    Some(op) if op.role == Role::Guardrail => {
                        let mut g = ev(s, i, "guardrail", s.end, EventKind::SafetyEvent, ctx.agent);
                        g.guardrail = subject(s, op)
                            .or(Some(&*s.name).filter(|n| !n.trim().is_empty()))
                            .map(|n| names.get(n));
                        g.triggered = s.attrs.x().triggered;
                        let g = push(&mut events, g);
                        me = Mapped { entry: g, exit: g };
                        inner.parent_entry = g;
                    }
                    // A transport call inside an A2A request stands for the same request.
                    Some(op) if op.role == Role::A2aClient && ctx.request != NONE => {
                        label = Some(format!("{} (inside an A2A request)", op.name));
                    }
                    Some(op) if op.role == Role::A2aClient => {
                        let mut m = ev(s, i, "request", s.start, EventKind::Message, ctx.agent);
                        m.from = Some(ctx.agent);
                        m.to = subject(s, op).map(|to| names.get(to));
                        let m = push(&mut events, m);
                        me = Mapped { entry: m, exit: m };
                        inner.parent_entry = m;
                        inner.request = m;
                    }
                    Some(op) if op.role == Role::A2aServer && ctx.request != NONE => {
                        // The request crosses into the serving process: the remote agent acts and replies.
                        let request = &events[ctx.request as usize];
                        let (caller, asked) = (request.agent, request.to);
                        let who = subject(s, op)
                            .or_else(|| first_invoked(&span, tree, i, convention))
                            .map(|w| names.get(w))
                            .or(asked)
                            .unwrap_or(ctx.agent);
                        if events[ctx.request as usize].to.is_none() {
                            events[ctx.request as usize].to = Some(who);
                        }
                        let mut r = ev(s, i, "reply", s.end, EventKind::Message, who);
                        r.from = Some(who);
                        r.to = Some(caller);
                        r.error = s.error.clone();
                        let r = push(&mut events, r);
                        me = Mapped {
                            entry: ctx.request,
                            exit: r,
                        };
                        taken_over = true;
                        inner.agent = who;
                        inner.parent_entry = ctx.request;
                        inner.request = NONE;
                    }
                    Some(op) if op.role == Role::A2aServer => {
                        // No client span recorded: it only names the agent acting inside.
                        if let Some(who) =
                            subject(s, op).or_else(|| first_invoked(&span, tree, i, convention))
                        {
                            inner.agent = names.get(who);
                        }
                        label = Some(format!("{} (no client span)", op.name));
                    }
                    Some(op) => {
                        // A model call: aggregate what has returned, else a step.
                        let scope = &mut scopes[ctx.scope as usize];
                        scope.last_model = Some((s.end, s.id));
                        last_model.insert(ctx.agent, (s.end, s.id));
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
                let mut seen = 0;
                if me.entry != NONE {
                    if !taken_over {
                        if ctx.parent_entry != NONE {
                            let kind = edge_into(&events, ctx.parent_entry, me.entry);
                            edges.push((ctx.parent_entry, me.entry, kind));
                        }
                        // What ended before this span began comes before it.
                        let at = events[me.entry as usize].t;
                        let seq = &mut frontiers[ctx.frontier as usize];
                        seen = seq.enter(at, me.entry, &mut edges);
                        if let Some(until) = late {
                            seq.precede(at, me.entry, until, &mut edges);
                        }
                    }
                    let mut next = Frontier::default();
                    if taken_over && inner.scope != ctx.scope && scopes[inner.scope as usize].pass {
                        // The agent taking over continues from what was done before it began.
                        let before = frontiers[ctx.frontier as usize].take_until(s.start, me.entry);
                        scopes[inner.scope as usize].seeded = before.iter().map(|x| x.1).collect();
                        next.extend(before);
                    }
                    frontiers.push(next);
                    inner.frontier = frontiers.len() as u32 - 1;
                    mapped[i] = me;
                    rep[i] = v;
                    inner.rep = v;
                } else {
                    rep[i] = ctx.rep;
                }
                // A person's answer to a tool-call approval request, inside the span.
                for d in &s.attrs.x().decisions {
                    if !answers(&requested, d) {
                        continue;
                    }
                    let t = d.t.clamp(s.start, s.end);
                    let h = ev(
                        s,
                        i,
                        "approval",
                        t,
                        EventKind::HumanIntervention,
                        inner.agent,
                    );
                    let h = push(&mut events, h);
                    if inner.parent_entry != NONE && events[inner.parent_entry as usize].t <= t {
                        edges.push((inner.parent_entry, h, EdgeKind::Causal));
                    }
                    // It takes its place among the children's events by its time.
                    let seq = if me.entry != NONE {
                        inner.frontier
                    } else {
                        ctx.frontier
                    };
                    frontiers[seq as usize].hold(t, h);
                }
                walk.push(Step::Leave(v, ctx, inner, seen));
                for &c in children[kids(i)].iter().rev() {
                    walk.push(Step::Enter(c, inner));
                }
            }
            Step::Leave(v, ctx, inner, seen) => {
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
                let mut me = mapped[i];
                if me.exit == NONE {
                    continue;
                }
                let mut closing = frontiers.pop().unwrap_or_default();
                closing.flush(&mut edges);
                let mut sinks = closing.into_sinks();
                let pass = inner.scope != ctx.scope && scopes[inner.scope as usize].pass;
                if pass {
                    let sc = &scopes[inner.scope as usize];
                    if sc.handed_over {
                        // Control moved on again: this agent's turn ends without an answer.
                        continue;
                    }
                    // The agent holding control answers the run: a return to no one.
                    let mut r = ev(s, i, "return", s.end, EventKind::Return, inner.agent);
                    r.from = Some(inner.agent);
                    r.error = s.error.clone();
                    r.model_calls = sc.model_calls;
                    r.unmapped = sc.unmapped;
                    let r = push(&mut events, r);
                    let mut fed = false;
                    for (t, e, _) in std::mem::take(&mut sinks) {
                        if t <= s.end {
                            edges.push((e, r, EdgeKind::Causal));
                            fed |= !sc.seeded.contains(&e);
                        }
                    }
                    if !fed {
                        edges.push((me.entry, r, EdgeKind::Causal));
                    }
                    me.exit = r;
                    mapped[i].exit = r;
                }
                // The last work inside feeds the closing event of a delegation or tool run.
                let exit_t = events[me.exit as usize].t;
                let mut has_inner = false;
                if me.exit != me.entry && !pass {
                    for (t, e, _) in std::mem::take(&mut sinks) {
                        if t <= exit_t {
                            edges.push((e, me.exit, EdgeKind::Causal));
                            has_inner = true;
                        }
                    }
                    // An A2A reply with nothing recorded inside answers the request directly.
                    if !has_inner && events[me.entry as usize].kind == EventKind::Message {
                        edges.push((me.entry, me.exit, EdgeKind::Message));
                    }
                }
                let seq = &mut frontiers[ctx.frontier as usize];
                seq.leave(exit_t, me.exit, seen);
                // Nothing closes the span: what happened inside is still open after it.
                seq.extend(sinks);
                if inner.scope != ctx.scope && !pass {
                    // A delegation ends: its return waits for the caller's next aggregate.
                    if !has_inner {
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
    // Events still held at the top level follow everything before them.
    for f in &mut frontiers {
        f.flush(&mut edges);
    }
    Walked {
        names,
        orch,
        events,
        edges,
        mapped,
        rep,
        unmapped,
        tokens_in,
        tokens_out,
        tool_calls,
    }
}

/// The earliest pending handoff to `who` decided no later than `start`, taken up.
fn take_handoff(
    handoffs: &mut HashMap<u32, VecDeque<u32>>,
    who: u32,
    events: &[Ev],
    start: u64,
) -> Option<u32> {
    let queue = handoffs.get_mut(&who)?;
    let &d = queue.front()?;
    (events[d as usize].t <= start).then(|| {
        queue.pop_front();
        d
    })
}
