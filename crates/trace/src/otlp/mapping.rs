//! The mapping from OpenTelemetry GenAI spans to the survey's trace events
//! and edges, as one table: [`OPERATIONS`] says what each
//! `gen_ai.operation.name` becomes, [`RULES`] says how every part of a span
//! (parents, links, times, usage, errors) is carried over. The importer looks
//! roles up in [`OPERATIONS`]; `corpus trace import --explain` prints both.
//!
//! Conventions followed: OpenTelemetry semantic conventions for generative AI
//! (agent spans, model spans, execute_tool spans; status Development), the
//! handoff and guardrail spans of the OpenTelemetry instrumentation of the
//! OpenAI Agents SDK, the OpenInference conventions ([`OPENINFERENCE`], with
//! `--from openinference`), and the OTLP/JSON encoding (hex or base64 ids,
//! 64-bit integers as decimal strings).

use super::decode::Span;

/// Attribute keys read from spans and resources.
pub(crate) mod keys {
    /// What the span does: chat, invoke_agent, execute_tool, ...
    pub const OPERATION: &str = "gen_ai.operation.name";
    /// Human-readable agent name.
    pub const AGENT_NAME: &str = "gen_ai.agent.name";
    /// Agent identifier, used when the agent has no name.
    pub const AGENT_ID: &str = "gen_ai.agent.id";
    /// Name of a workflow (a coordinated group of agents).
    pub const WORKFLOW_NAME: &str = "gen_ai.workflow.name";
    /// Name of the tool an execute_tool span runs.
    pub const TOOL_NAME: &str = "gen_ai.tool.name";
    /// Conversation (session) the trace belongs to.
    pub const CONVERSATION: &str = "gen_ai.conversation.id";
    /// Prompt tokens.
    pub const INPUT_TOKENS: &str = "gen_ai.usage.input_tokens";
    /// Completion tokens.
    pub const OUTPUT_TOKENS: &str = "gen_ai.usage.output_tokens";
    /// Class of error the operation ended with.
    pub const ERROR_TYPE: &str = "error.type";
    /// Resource attribute naming the application.
    pub const SERVICE_NAME: &str = "service.name";
    /// Prompt tokens, under the name older instrumentations still write.
    pub const PROMPT_TOKENS_OLD: &str = "gen_ai.usage.prompt_tokens";
    /// Completion tokens, likewise.
    pub const COMPLETION_TOKENS_OLD: &str = "gen_ai.usage.completion_tokens";
    /// The model a call asks for: marks a model call whatever its operation name.
    pub const REQUEST_MODEL: &str = "gen_ai.request.model";
    /// The agent handing the conversation over.
    pub const HANDOFF_FROM: &str = "gen_ai.handoff.from_agent";
    /// The same, as some instrumentations spell it.
    pub const HANDOFF_FROM_NAME: &str = "gen_ai.handoff.from_agent.name";
    /// The agent receiving it.
    pub const HANDOFF_TO: &str = "gen_ai.handoff.to_agent";
    /// The same, as some instrumentations spell it.
    pub const HANDOFF_TO_NAME: &str = "gen_ai.handoff.to_agent.name";
    /// Name of a guardrail.
    pub const GUARDRAIL_NAME: &str = "gen_ai.guardrail.name";
    /// Whether the guardrail tripped.
    pub const GUARDRAIL_TRIGGERED: &str = "gen_ai.guardrail.triggered";
    /// OpenInference: what a span is (AGENT, TOOL, LLM, CHAIN, GUARDRAIL, ...).
    pub const OI_KIND: &str = "openinference.span.kind";
    /// OpenInference: the agent's name.
    pub const OI_AGENT_NAME: &str = "agent.name";
    /// OpenInference: the node of the agent graph a span stands for.
    pub const OI_NODE_ID: &str = "graph.node.id";
    /// OpenInference: the node that handed over to this one.
    pub const OI_NODE_PARENT: &str = "graph.node.parent_id";
    /// OpenInference: the tool's name.
    pub const OI_TOOL_NAME: &str = "tool.name";
    /// OpenInference: prompt tokens.
    pub const OI_PROMPT_TOKENS: &str = "llm.token_count.prompt";
    /// OpenInference: completion tokens.
    pub const OI_COMPLETION_TOKENS: &str = "llm.token_count.completion";
    /// Whether control returns after a transfer (`return_to_caller`) or passes on (`pass_control`).
    pub const TRANSFER_MODE: &str = "gen_ai.transfer.mode";
    /// The agent, human or workflow a transfer goes to.
    pub const TRANSFER_TARGET: &str = "gen_ai.transfer.target.name";
    /// What the target is: agent, human or workflow.
    pub const TRANSFER_TARGET_TYPE: &str = "gen_ai.transfer.target.type";
    /// Traceloop (OpenLLMetry): what a span is; not read, only recognised.
    pub const TRACELOOP_KIND: &str = "traceloop.span.kind";
    /// The A2A operation (`SendMessage`, ...): marks an A2A client or server span.
    pub const A2A_METHOD: &str = "a2a.method.name";
    /// Span-name prefix of the A2A client spans older a2a-python releases write (module path, no attributes).
    pub const A2A_CLIENT_PREFIX: &str = "a2a.client.";
    /// Span-name prefix of their server spans.
    pub const A2A_SERVER_PREFIX: &str = "a2a.server.";
    /// Name of the span event that records a decision about a tool call before it runs.
    pub const DECISION: &str = "gen_ai.tool.call.decision";
    /// Its outcome: `allow`, `deny` or `require_approval`.
    pub const DECISION_OUTCOME: &str = "gen_ai.tool.call.decision.outcome";
    /// The tool call a decision gates.
    pub const TOOL_CALL_ID: &str = "gen_ai.tool.call.id";
    /// Logfire: the template a span's name and message come from; names what the span is.
    pub const LOGFIRE_TEMPLATE: &str = "logfire.msg_template";
    /// Logfire: the agent, tool or guardrail of an OpenAI Agents span.
    pub const LOGFIRE_NAME: &str = "name";
    /// Logfire: the agent handing the conversation over.
    pub const LOGFIRE_FROM: &str = "from_agent";
    /// Logfire: the agent receiving it.
    pub const LOGFIRE_TO: &str = "to_agent";
    /// Logfire: whether a guardrail tripped.
    pub const LOGFIRE_TRIGGERED: &str = "triggered";
}

/// A current attribute name and an older (or alternative) one that
/// instrumentations on older convention versions still write.
pub(crate) struct Renamed {
    /// The name read first.
    pub current: &'static str,
    /// The name read when the current one is absent.
    pub older: &'static str,
    /// Who still writes the older name.
    pub written_by: &'static str,
}

/// Every pair of names read for one value, stated once: the decoder reads
/// `older` only when `current` is absent, and `--explain` lists the table.
pub(crate) const RENAMED: &[Renamed] = &[
    Renamed {
        current: keys::INPUT_TOKENS,
        older: keys::PROMPT_TOKENS_OLD,
        written_by: "GenAI conventions before v1.27.0",
    },
    Renamed {
        current: keys::OUTPUT_TOKENS,
        older: keys::COMPLETION_TOKENS_OLD,
        written_by: "GenAI conventions before v1.27.0",
    },
    Renamed {
        current: keys::HANDOFF_FROM,
        older: keys::HANDOFF_FROM_NAME,
        written_by: "some OpenAI Agents SDK instrumentations",
    },
    Renamed {
        current: keys::HANDOFF_TO,
        older: keys::HANDOFF_TO_NAME,
        written_by: "some OpenAI Agents SDK instrumentations",
    },
    Renamed {
        current: keys::AGENT_NAME,
        older: keys::WORKFLOW_NAME,
        written_by: "invoke_workflow spans before semantic-conventions-genai v0.1.0",
    },
    Renamed {
        current: keys::OI_AGENT_NAME,
        older: keys::OI_NODE_ID,
        written_by: "OpenInference instrumentations that name only the graph node",
    },
    Renamed {
        current: keys::A2A_METHOD,
        older: "span name a2a.client.* / a2a.server.*",
        written_by:
            "a2a-python's own tracing (trace_class), before the a2a.client / a2a.server spans",
    },
];

/// Whether `key` is the older name of a pair in [`RENAMED`].
pub(crate) fn is_older_name(key: &str) -> bool {
    RENAMED.iter().any(|r| r.older == key)
}

/// Bits of [`crate::otlp::decode::GenAi::marks`]: which conventions a span's attributes follow.
pub(crate) mod marks {
    /// `gen_ai.operation.name` is set.
    pub const GENAI: u8 = 1;
    /// `openinference.span.kind` is set.
    pub const OPENINFERENCE: u8 = 2;
    /// `traceloop.span.kind` is set.
    pub const TRACELOOP: u8 = 4;
    /// `gen_ai.request.model` is set.
    pub const MODEL: u8 = 8;
    /// `a2a.method.name` is set.
    pub const A2A: u8 = 16;
    /// The span kind is CLIENT.
    pub const CLIENT: u8 = 32;
    /// The span kind is SERVER.
    pub const SERVER: u8 = 64;
}

/// What a span of a given operation becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// An agent (or workflow) is invoked: delegation and return, or the agent's own scope.
    Invoke,
    /// An agent is created: spawn.
    Create,
    /// A tool runs: tool call and tool result.
    Tool,
    /// A model call: aggregate when it follows returned delegations, else a step.
    Model,
    /// Planning or task decomposition: a decision.
    Plan,
    /// The conversation passes to another agent: a decision that does not come back.
    Handoff,
    /// A guardrail checks content: a safety event.
    Guardrail,
    /// Control goes to a person: a human intervention.
    Human,
    /// An A2A request leaves its process: a message to the remote agent.
    A2aClient,
    /// An A2A request is served: the remote agent acts and replies.
    A2aServer,
}

/// The span conventions an import reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Convention {
    /// OpenTelemetry GenAI semantic conventions (`gen_ai.operation.name`).
    #[default]
    GenAi,
    /// OpenInference semantic conventions (`openinference.span.kind`).
    OpenInference,
}

impl Convention {
    /// The convention's name, as messages and `--explain` give it.
    pub fn name(self) -> &'static str {
        match self {
            Convention::GenAi => "OpenTelemetry GenAI",
            Convention::OpenInference => "OpenInference",
        }
    }

    /// The `--from` value that reads it.
    pub fn flag(self) -> &'static str {
        match self {
            Convention::GenAi => "otlp",
            Convention::OpenInference => "openinference",
        }
    }
}

/// One row of the operation table.
pub(crate) struct Operation {
    /// The `gen_ai.operation.name` value.
    pub name: &'static str,
    /// What it becomes.
    pub role: Role,
    /// The agent the span is about, by attribute, in order of preference.
    pub subject: &'static [&'static str],
    /// The events and edges it yields, for `--explain`.
    pub yields: &'static str,
}

/// `gen_ai.operation.name` → survey events. Operations not listed (embeddings,
/// retrieval, ...) and spans without the attribute map to no event.
pub(crate) const OPERATIONS: &[Operation] = &[
    Operation {
        name: "invoke_agent",
        role: Role::Invoke,
        subject: &[keys::AGENT_NAME, keys::AGENT_ID],
        yields: "when the invoked agent is not the enclosing agent: orchestrator_decision by the enclosing agent at the span's start (to = invoked agent), return by the invoked agent at its end (from = invoked, to = enclosing); edges: decision -> each child's first event (causal), each child's last event -> return (causal), or decision -> return (causal) when nothing inside maps; when it is the enclosing agent (the orchestrator's own run): no event, it names the acting agent of everything inside",
    },
    Operation {
        name: "invoke_workflow",
        role: Role::Invoke,
        subject: &[keys::AGENT_NAME, keys::WORKFLOW_NAME],
        yields: "as invoke_agent, with the workflow (gen_ai.agent.name, else gen_ai.workflow.name) as the agent",
    },
    Operation {
        name: "create_agent",
        role: Role::Create,
        subject: &[keys::AGENT_NAME, keys::AGENT_ID],
        yields: "spawn by the enclosing agent at the span's start (to = created agent); spawn edge to the created agent's first event",
    },
    Operation {
        name: "execute_tool",
        role: Role::Tool,
        subject: &[keys::TOOL_NAME],
        yields: "tool_call by the enclosing agent at the span's start (tool = gen_ai.tool.name), tool_result by the tool at its end (trusted: false, error when the span failed); tool_dependency edge call -> result",
    },
    Operation {
        name: "chat",
        role: Role::Model,
        subject: &[],
        yields: "aggregate by the enclosing agent at the span's start when delegations it made have returned since its last aggregate (aggregate edge from each such return); otherwise one step of the enclosing agent, counted on its return event (model_calls), no event of its own",
    },
    Operation {
        name: "text_completion",
        role: Role::Model,
        subject: &[],
        yields: "as chat",
    },
    Operation {
        name: "generate_content",
        role: Role::Model,
        subject: &[],
        yields: "as chat",
    },
    Operation {
        name: "plan",
        role: Role::Plan,
        subject: &[],
        yields: "orchestrator_decision by the enclosing agent at the span's start",
    },
    Operation {
        name: "agent_handoff",
        role: Role::Handoff,
        subject: &[keys::HANDOFF_TO],
        yields: HANDOFF,
    },
    Operation {
        name: "handoff",
        role: Role::Handoff,
        subject: &[keys::HANDOFF_TO],
        yields: "as agent_handoff",
    },
    Operation {
        name: "guardrail_check",
        role: Role::Guardrail,
        subject: &[keys::GUARDRAIL_NAME],
        yields: GUARDRAIL,
    },
];

const HANDOFF: &str = "orchestrator_decision by the agent handing over (gen_ai.handoff.from_agent, else the enclosing agent; to = gen_ai.handoff.to_agent) at the end of its latest model call that ended before the span (the call that decided; its span is kept as model_span_id), else at the span's start; the receiving agent's next invoke span is entered by this decision (causal edge decision -> its first event) and yields no decision or return of its own: control does not come back; the receiving agent also continues from the handing agent's work before the handoff span that nothing followed yet (causal edges to its first event), and a decision placed at a model call's end precedes the sibling spans that began after that call and before the handoff span (a tool run asked for in the same model answer). Its own end yields a return with no `to` (the run's answer) unless it hands over in turn";

const GUARDRAIL: &str = "safety_event by the enclosing agent at the span's end (guardrail = gen_ai.guardrail.name, triggered = gen_ai.guardrail.triggered); it sits on the dependency path of what comes after it, so it counts as a check in the untrusted-flow metric";

/// A model call that names no operation: the span name `call_llm`, or a `gen_ai.request.model` attribute.
pub(crate) const MODEL_CALL: Operation = Operation {
    name: "call_llm",
    role: Role::Model,
    subject: &[],
    yields: "as chat, for spans with no gen_ai.operation.name that are named call_llm or carry gen_ai.request.model",
};

/// An execute_tool span that transfers to an agent or workflow and gets control back.
pub(crate) const TRANSFER_RETURN: Operation = Operation {
    name: "execute_tool (gen_ai.transfer.mode = return_to_caller)",
    role: Role::Invoke,
    subject: &[keys::TRANSFER_TARGET],
    yields:
        "as invoke_agent of gen_ai.transfer.target.name (delegation and return), not as a tool run",
};

/// An execute_tool span that passes control to an agent or workflow.
pub(crate) const TRANSFER_PASS: Operation = Operation {
    name: "execute_tool (gen_ai.transfer.mode = pass_control)",
    role: Role::Handoff,
    subject: &[keys::TRANSFER_TARGET],
    yields: "as agent_handoff to gen_ai.transfer.target.name, decided by gen_ai.agent.name (else the enclosing agent)",
};

/// An execute_tool span that transfers to a person.
pub(crate) const TRANSFER_HUMAN: Operation = Operation {
    name: "execute_tool (gen_ai.transfer.target.type = human)",
    role: Role::Human,
    subject: &[keys::TRANSFER_TARGET],
    yields: "human_intervention by the person (gen_ai.transfer.target.name, else `human`) at the span's end",
};

/// An A2A client span: `a2a.method.name` on a CLIENT span, or an older a2a-python span named `a2a.client.*`.
pub(crate) const A2A_CLIENT: Operation = Operation {
    name: "a2a.client",
    role: Role::A2aClient,
    subject: &[keys::AGENT_NAME],
    yields: "message by the enclosing agent at the span's start (to = gen_ai.agent.name, the remote agent of the Agent Card); A2A client spans inside it (transport calls) map to nothing",
};

/// An A2A server span: `a2a.method.name` on a SERVER span, or an older a2a-python span named `a2a.server.*`.
pub(crate) const A2A_SERVER: Operation = Operation {
    name: "a2a.server",
    role: Role::A2aServer,
    subject: &[keys::AGENT_NAME],
    yields: "below an A2A client span (through its parent, in the same trace or another resource, or through a span link from a root span of another trace): the remote agent (gen_ai.agent.name, else the client's `to`) acts for everything inside; message edge from the client's message to each first event inside; message by the remote agent at the span's end (the reply, to = the client's agent), fed by the last events inside, or by a message edge from the request when nothing inside maps. With no client span: it only names the acting agent",
};

/// How a `gen_ai.tool.call.decision` span event maps, for `--explain`.
pub(crate) const DECISION_RULE: &str = "on any span: an allow or deny decision that follows a require_approval decision for the same call (gen_ai.tool.call.id, else gen_ai.tool.name) is a person's answer: human_intervention by the agent whose call it gates (the span's agent: the calling agent on an execute_tool span) at the event's time (kept within the span), after the span's first event and before its last; decisions without a preceding require_approval (a policy's) and require_approval itself map to no event";

/// `openinference.span.kind` → survey events (with `--from openinference`).
pub(crate) const OPENINFERENCE: &[Operation] = &[
    Operation {
        name: "AGENT",
        role: Role::Invoke,
        subject: &[keys::OI_AGENT_NAME],
        yields: "as invoke_agent, the agent named by agent.name (else graph.node.id); an AGENT span whose graph.node.parent_id names another agent takes up the handoff from it, and when no handoff span was recorded the decision is that agent's latest model call that ended before the span (a handoff decision at that call's end)",
    },
    Operation {
        name: "TOOL",
        role: Role::Tool,
        subject: &[keys::OI_TOOL_NAME],
        yields: "as execute_tool, the tool named by tool.name (else the span name)",
    },
    Operation {
        name: "handoff to",
        role: Role::Handoff,
        subject: &[],
        yields: "a TOOL span named `handoff to NAME`: as agent_handoff, to = NAME",
    },
    Operation {
        name: "LLM",
        role: Role::Model,
        subject: &[],
        yields: "as chat; tokens from llm.token_count.prompt and llm.token_count.completion",
    },
    Operation {
        name: "GUARDRAIL",
        role: Role::Guardrail,
        subject: &[],
        yields: "as guardrail_check, the guardrail named by the span name",
    },
];

/// The spans Logfire's OpenAI Agents SDK integration (pydantic/logfire,
/// `logfire.instrument_openai_agents()`) writes, by `logfire.msg_template`
/// (the span's name too). They carry the SDK's own attribute names, not the
/// GenAI ones; its model calls carry `gen_ai.operation.name` or
/// `gen_ai.request.model` and map as model calls, and its `Turn` and `Task`
/// spans map to nothing (they are seen through).
pub(crate) const LOGFIRE: &[Operation] = &[
    Operation {
        name: "Agent run: {name!r}",
        role: Role::Invoke,
        subject: &[keys::AGENT_NAME],
        yields: "as invoke_agent, the agent named by the `name` attribute",
    },
    Operation {
        name: "Function: {name}",
        role: Role::Tool,
        subject: &[keys::TOOL_NAME],
        yields: "as execute_tool, the tool named by `name`; a span Logfire marks as an error (status ERROR, from logfire.level_num) gives a failed tool_result",
    },
    Operation {
        name: "Handoff: {from_agent} → {to_agent}",
        role: Role::Handoff,
        subject: &[keys::HANDOFF_TO],
        yields: "as agent_handoff, from `from_agent` to `to_agent`",
    },
    Operation {
        name: "Guardrail {name!r} {triggered=}",
        role: Role::Guardrail,
        subject: &[keys::GUARDRAIL_NAME],
        yields: "as guardrail_check, the guardrail named by `name`, tripped when `triggered` is true",
    },
];

/// The values of `openinference.span.kind` a span may carry.
pub(crate) const OI_KINDS: &[&str] = &[
    "AGENT",
    "TOOL",
    "LLM",
    "CHAIN",
    "GUARDRAIL",
    "RETRIEVER",
    "EMBEDDING",
    "RERANKER",
    "EVALUATOR",
    "PROMPT",
    "UNKNOWN",
];

/// What a span becomes under a convention, if anything.
pub(crate) fn role_of(span: &Span, convention: Convention) -> Option<&'static Operation> {
    match convention {
        Convention::GenAi if span.attrs.operation.is_none() && a2a_side(span).is_some() => {
            a2a_side(span)
        }
        Convention::GenAi => match span.attrs.operation.as_deref() {
            Some("execute_tool") if span.attrs.x().transfer_mode.is_some() => {
                let a = &span.attrs;
                if a.x().transfer_type.as_deref() == Some("human") {
                    Some(&TRANSFER_HUMAN)
                } else if a.x().transfer_mode.as_deref() == Some("pass_control") {
                    Some(&TRANSFER_PASS)
                } else {
                    Some(&TRANSFER_RETURN)
                }
            }
            Some(op) => operation(op),
            None if span.attrs.logfire != 0 => LOGFIRE.get(usize::from(span.attrs.logfire) - 1),
            None if &*span.name == "call_llm" || span.attrs.marks & marks::MODEL != 0 => {
                Some(&MODEL_CALL)
            }
            None => None,
        },
        Convention::OpenInference => {
            let kind = *OI_KINDS.get(usize::from(span.attrs.oi_kind).checked_sub(1)?)?;
            if kind == "TOOL" && span.name.starts_with("handoff to ") {
                return Some(&OPENINFERENCE[2]);
            }
            OPENINFERENCE
                .iter()
                .find(|o| o.name == kind && o.name != "handoff to")
        }
    }
}

/// The A2A role of a span: `a2a.method.name` with span kind CLIENT or SERVER,
/// or a span name of older a2a-python releases.
fn a2a_side(span: &Span) -> Option<&'static Operation> {
    let m = span.attrs.marks;
    let named = |prefix: &str| span.name.starts_with(prefix);
    if (m & marks::A2A != 0 && m & marks::CLIENT != 0) || named(keys::A2A_CLIENT_PREFIX) {
        Some(&A2A_CLIENT)
    } else if (m & marks::A2A != 0 && m & marks::SERVER != 0) || named(keys::A2A_SERVER_PREFIX) {
        Some(&A2A_SERVER)
    } else {
        None
    }
}

/// The row for an operation name, if it maps.
pub(crate) fn operation(name: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|o| o.name == name)
}

/// How the rest of a span is carried over: (OTLP / GenAI, survey trace).
pub(crate) const RULES: &[(&str, &str)] = &[
    ("trace id (traceId)", "one survey trace per trace id; trace_id = the hex trace id"),
    ("gen_ai.conversation.id", "task_id: the first one met walking the span tree from its earliest root (else the trace id)"),
    ("service.name of the earliest root span's resource", "system"),
    ("enclosing agent", "the agent of the nearest invoke_agent/invoke_workflow ancestor; spans with none act for the orchestrator, and a root invoke span that names no agent is the run itself"),
    ("orchestrator (a choice the conventions leave open)", "--orchestrator NAME, else the agent of the earliest invoke_agent/invoke_workflow span with no agent ancestor, else service.name; its events carry role: orchestrator"),
    ("agent name", "gen_ai.agent.name, else gen_ai.agent.id, else the span name after the operation (\"invoke_agent Writer\" -> Writer)"),
    ("span start / end (startTimeUnixNano, endTimeUnixNano)", "t in seconds after the trace's earliest span start; an event at a span's start takes its start, an event at its end takes its end"),
    ("parent span (parentSpanId)", "causal edges between the events of the nearest mapped ancestor and the span's events (see the operations)"),
    ("span link to a span of the same trace", "message edge from the linked span's last event (or first, when the last is later) to the linking span's first event; spans that map to nothing stand for their nearest mapped ancestor"),
    ("gen_ai.usage.input_tokens + output_tokens", "costs.tokens, summed over spans none of whose descendants report usage (so an agent's total is not added to its model calls' own); also costs.input_tokens and costs.output_tokens"),
    ("execute_tool spans", "costs.tool_calls"),
    ("earliest start to latest end", "costs.wall_clock_s"),
    ("spans of one parent that do not overlap in time", "causal edge from the exit event of each span that ended to the entry event of the next one to start (spans that map to nothing are seen through), so only overlapping spans count as parallel"),
    ("tool_result", "acted by the calling agent (tools are not agents), tool = the tool's name"),
    ("old attribute names", "read when the current name is absent; the table below"),
    ("a span whose parent sits in another trace (an A2A server span that is a root of its trace and links to an A2A client span of the input)", "imported in the client's trace, as a child of the linked span (the trace id is the client's)"),
    ("ids", "hex (OTLP/JSON) or base64 (protobuf's JSON printer); status codes as integers or enum names"),
    ("error.type, or status code ERROR with its message", "error on the tool_result or return event of the span"),
    ("topology", "--topology VALUE (not inferred)"),
    ("rewards", "none: OpenTelemetry spans carry no reward; rewards is {}"),
    ("spans that map to no event", "counted by operation (or span name) in the summary, and on the return event of the enclosing delegation (unmapped_spans)"),
    ("agents are never stopped by a span", "no despawn events"),
];

/// Text indented by six spaces and wrapped before column 80.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && 6 + line.len() + 1 + word.len() > 79 {
            out.push_str(&format!("      {line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&format!("      {line}\n"));
    out
}

/// The mapping as text, for `corpus trace import --explain`.
pub fn explain() -> String {
    let mut out = String::from(
        "How `corpus trace import --from otlp` maps OpenTelemetry GenAI spans\n\
         to the survey's orchestration trace.\n\
         Input: OTLP JSON (resourceSpans -> scopeSpans -> spans), one document or JSON Lines.\n\n\
         gen_ai.operation.name:\n",
    );
    for o in OPERATIONS {
        let subject = if o.subject.is_empty() {
            String::new()
        } else {
            format!(" [subject: {}]", o.subject.join(", else "))
        };
        out.push_str(&format!("  {}{subject}\n{}", o.name, wrap(o.yields)));
    }
    for o in [
        &TRANSFER_RETURN,
        &TRANSFER_PASS,
        &TRANSFER_HUMAN,
        &A2A_CLIENT,
        &A2A_SERVER,
    ] {
        out.push_str(&format!("  {}\n{}", o.name, wrap(o.yields)));
    }
    out.push_str(&format!(
        "  (none, on a span named call_llm or carrying gen_ai.request.model)\n{}",
        wrap(MODEL_CALL.yields)
    ));
    out.push_str("  (any other value, or none)\n      no event; counted in the summary\n\n");
    out.push_str(&format!(
        "Spans of Logfire's OpenAI Agents SDK integration, by {}\n\
         (when they carry no gen_ai.operation.name):\n",
        keys::LOGFIRE_TEMPLATE
    ));
    for o in LOGFIRE {
        out.push_str(&format!("  {}\n{}", o.name, wrap(o.yields)));
    }
    out.push('\n');
    out.push_str(&format!(
        "Span events:\n  {} [{}]\n{}\n",
        keys::DECISION,
        keys::DECISION_OUTCOME,
        wrap(DECISION_RULE)
    ));
    out.push_str(
        "With --from openinference, openinference.span.kind instead (OpenInference\n\
         semantic conventions; CHAIN, RETRIEVER, EMBEDDING, RERANKER and EVALUATOR\n\
         spans map to no event):\n",
    );
    for o in OPENINFERENCE {
        out.push_str(&format!("  {}\n{}", o.name, wrap(o.yields)));
    }
    out.push_str("\nEverything else:\n");
    for (from, to) in RULES {
        out.push_str(&format!("  {from}\n{}", wrap(to)));
    }
    out.push_str("\nOlder attribute names (read when the current name is absent):\n");
    for r in RENAMED {
        out.push_str(&format!(
            "  {} <- {}\n{}",
            r.current,
            r.older,
            wrap(&format!("still written by {}", r.written_by))
        ));
    }
    out.push_str(
        "\nDiagnostics: a malformed span id or time, a duplicate span id, a cycle through\n\
         parent ids, a clock running backwards (a span ending before it starts, or\n\
         starting before its parent) and an agent acting before the span that creates it\n\
         are errors: that trace is not written and the exit code is 1. A missing parent\n\
         (the span is imported as a root), an attribute of an unknown AnyValue type (it\n\
         is ignored), an agent or tool span without a name, an unusable link and a trace\n\
         with no mapped span are warnings.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_is_listed_once_and_explained() {
        let text = explain();
        for (i, o) in OPERATIONS.iter().enumerate() {
            assert!(
                OPERATIONS[..i].iter().all(|p| p.name != o.name),
                "{} twice",
                o.name
            );
            assert!(text.contains(o.name));
            assert_eq!(operation(o.name).map(|p| p.role), Some(o.role));
        }
        for o in OPENINFERENCE.iter().chain(LOGFIRE) {
            assert!(text.contains(o.name));
        }
        assert!(operation("embeddings").is_none());
        for (from, _) in RULES {
            assert!(text.contains(from));
        }
    }
}
