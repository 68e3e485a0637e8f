//! Builds one survey trace from the spans of one OTLP trace id, following
//! the table in `mapping`: structure checks first (duplicate span ids,
//! missing parents, cycles through parent ids, clocks running backwards),
//! then one walk down the span tree that emits events and edges.
//!
//! Every step is linear in the number of spans (plus sorting siblings by
//! start time); the walk uses an explicit stack, so a chain a million spans
//! deep cannot overflow the call stack.
//!
//! The steps, in order: `structure` checks the span tree, `lead` picks the
//! orchestrator, `walk` emits events and edges (with the A2A and approval
//! rules of `remote`), `links` turns span links into message edges, and
//! `write` orders the result and writes its JSON text.

mod lead;
mod links;
mod remote;
mod sequence;
mod structure;
mod walk;
mod write;

use super::decode::{Pos, Span};
use super::mapping;
use crate::EventKind;
use corpus_diagnostics::diag::Severity;
use corpus_diagnostics::rules::Rule;
use std::collections::{BTreeMap, HashMap};

/// Choices the conventions leave open, made by the user.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The orchestrating agent; default: the outermost invoked agent.
    pub orchestrator: Option<String>,
    /// The topology to record; not inferred.
    pub topology: Option<String>,
    /// The span conventions to read.
    pub convention: mapping::Convention,
}

/// A problem found while building, tied to a span (global index) when there is one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    pub span: Option<u32>,
    pub rule: Rule,
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

/// One event as the walk emits it; ids and times are written at the end.
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
    /// The model call whose answer a handoff decision carries out (span id, 0 for none).
    model_span: u64,
    /// The guardrail of a safety event, and whether it tripped.
    guardrail: Option<u32>,
    triggered: Option<bool>,
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
            mapping::keys::HANDOFF_TO => span.attrs.x().handoff_to.as_deref(),
            mapping::keys::GUARDRAIL_NAME => span.attrs.x().guardrail.as_deref(),
            mapping::keys::TRANSFER_TARGET => span.attrs.x().transfer_target.as_deref(),
            mapping::keys::OI_AGENT_NAME => span.attrs.x().oi_agent.as_deref(),
            mapping::keys::OI_TOOL_NAME => span.attrs.x().oi_tool.as_deref(),
            _ => None,
        };
        if let Some(v) = v.filter(|v| !v.trim().is_empty()) {
            return Some(v);
        }
    }
    // A2A spans are named after the protocol method or a module path, never the agent.
    if matches!(op.role, mapping::Role::A2aClient | mapping::Role::A2aServer) {
        return None;
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

/// Records the problems of one trace as they are found.
fn reporter(
    problems: &mut Vec<Problem>,
) -> impl FnMut(Option<u32>, Rule, Severity, String, &'static str) + '_ {
    move |i, rule, severity, message, help| {
        problems.push(Problem {
            span: i,
            rule,
            severity,
            message,
            help,
        })
    }
}

/// Builds the trace of one trace id, up to writing it ([`Ready::write`]).
/// `members` are global indices into `all`. Returns `None` when an error
/// keeps the trace from being written; problems (errors and warnings) are
/// appended either way.
pub(crate) fn build(
    all: &[(Span, Pos)],
    members: &[u32],
    opts: &Options,
    problems: &mut Vec<Problem>,
) -> Option<Ready> {
    let n = members.len();
    let span = |i: usize| &all[members[i] as usize].0;
    let global = |i: usize| Some(members[i]);
    let tree = structure::check(all, members, problems)?;
    let lead = lead::lead(all, members, &tree, opts);
    let mut walked = walk::walk(
        all,
        members,
        &tree,
        &lead.orchestrator,
        opts.convention,
        problems,
    );
    let cross_trace_links = links::link(all, members, &tree, &mut walked, problems);
    let mut problem = reporter(problems);

    // An agent cannot act before the span that creates it.
    let walk::Walked { events, names, .. } = &walked;
    let mut created: HashMap<u32, u64> = HashMap::new();
    for e in events {
        if e.kind == EventKind::Spawn {
            if let Some(to) = e.to {
                let t = created.entry(to).or_insert(e.t);
                *t = (*t).min(e.t);
            }
        }
    }
    let mut early = false;
    for e in events {
        if let Some(&t) = created.get(&e.agent) {
            if e.t < t {
                early = true;
                problem(
                    global(e.local as usize),
                    Rule::OtlpActBeforeCreate,
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
        if let Some((count, name, key, help)) = other_convention(all, members, opts.convention) {
            problem(
                global(tree.roots[0] as usize),
                Rule::OtlpOtherConvention,
                Severity::Warning,
                format!(
                    "trace {:032x} maps to no event as {} spans, but {count} of its {n} span(s) follow the {name} conventions ({key}); it was not written",
                    span(0).trace,
                    opts.convention.name(),
                ),
                help,
            );
            return None;
        }
        problem(
            global(tree.roots[0] as usize),
            Rule::OtlpNoEvents,
            Severity::Warning,
            format!(
                "trace {:032x} has {n} span(s) but none maps to a survey event; it was not written",
                span(0).trace
            ),
            "see `corpus trace import --explain` for the operations that map",
        );
        return None;
    }

    // Checked, not rounded: a sum a trace cannot hold exactly is refused.
    let total = walked.tokens_in.checked_add(walked.tokens_out);
    if total.is_none_or(|t| t > u128::from(crate::MAX_TOKENS)) {
        problem(
            global(tree.roots[0] as usize),
            Rule::OtlpTokenOverflow,
            Severity::Error,
            format!(
                "trace {:032x} reports {} input and {} output tokens, more in all than a trace counts exactly ({}); it was not written",
                span(0).trace,
                walked.tokens_in,
                walked.tokens_out,
                crate::MAX_TOKENS
            ),
            "the spans' gen_ai.usage counts cannot be right: check the exporter that wrote them",
        );
        return None;
    }

    // The span tree is not needed to write: its memory goes before the text is made.
    drop(tree);
    Some(Ready {
        head: write::Head::new(all, members, &lead),
        walked,
        cross_trace_links,
    })
}

/// A trace walked and checked, to be written: it holds nothing of the
/// spans, so they may be let go first (the text is the largest thing made).
pub(crate) struct Ready {
    head: write::Head,
    walked: walk::Walked,
    cross_trace_links: usize,
}

impl Ready {
    /// Orders the events and edges and writes the trace's JSON text.
    pub(crate) fn write(self, opts: &Options) -> Built {
        write::write(self.head, opts, self.walked, self.cross_trace_links)
    }
}

/// Trace ids that join another trace, with the trace they join: an A2A
/// server span with no parent of its own that links to a span of another
/// trace in the input (the request crossed processes without its context).
/// Chains are followed to the trace at their start.
pub(crate) fn joined_traces(
    all: &[(Span, Pos)],
    convention: mapping::Convention,
) -> HashMap<u128, u128> {
    let mut joins: HashMap<u128, u128> = HashMap::new();
    if convention != mapping::Convention::GenAi {
        return joins;
    }
    let candidates: Vec<&Span> = all
        .iter()
        .map(|(s, _)| s)
        .filter(|s| s.links.iter().any(|l| l.trace != s.trace && l.trace != 0))
        .filter(|s| {
            mapping::role_of(s, convention).is_some_and(|o| o.role == mapping::Role::A2aServer)
        })
        .collect();
    if candidates.is_empty() {
        return joins;
    }
    let ids: std::collections::HashSet<(u128, u64)> =
        all.iter().map(|(s, _)| (s.trace, s.id)).collect();
    let has_parent = |s: &Span| s.parent.is_some_and(|p| ids.contains(&(s.trace, p)));
    for s in candidates {
        if has_parent(s) {
            continue;
        }
        let found = s
            .links
            .iter()
            .find(|l| l.trace != s.trace && ids.contains(&(l.trace, l.span)));
        if let Some(l) = found {
            joins.entry(s.trace).or_insert(l.trace);
        }
    }
    // Follow chains (a -> b -> c) to their start; traces on a cycle join nothing.
    let mut out: HashMap<u128, u128> = HashMap::new();
    for &k in joins.keys() {
        let mut to = k;
        let mut steps = 0;
        while let Some(&next) = joins.get(&to) {
            to = next;
            steps += 1;
            if to == k || steps > joins.len() {
                break;
            }
        }
        if !joins.contains_key(&to) {
            out.insert(k, to);
        }
    }
    out
}

/// The other convention most of a trace's spans follow, when they follow one:
/// (spans, its name, the attribute that shows it, what to do).
fn other_convention(
    all: &[(Span, Pos)],
    members: &[u32],
    reading: mapping::Convention,
) -> Option<(usize, &'static str, &'static str, &'static str)> {
    use mapping::{keys, marks, Convention};
    let count = |bit: u8| {
        members
            .iter()
            .filter(|&&g| all[g as usize].0.attrs.marks & bit != 0)
            .count()
    };
    let candidates = [
        (
            Convention::OpenInference,
            marks::OPENINFERENCE,
            keys::OI_KIND,
            "import the file with --from openinference",
        ),
        (
            Convention::GenAi,
            marks::GENAI,
            keys::OPERATION,
            "import the file with --from otlp",
        ),
    ];
    for (conv, bit, key, help) in candidates {
        let k = count(bit);
        if conv != reading && k > 0 {
            return Some((k, conv.name(), key, help));
        }
    }
    let k = count(marks::TRACELOOP);
    (k > 0).then_some((
        k,
        "Traceloop (OpenLLMetry)",
        keys::TRACELOOP_KIND,
        "no --from reads these conventions; export GenAI or OpenInference spans from the instrumentation if it offers them",
    ))
}
