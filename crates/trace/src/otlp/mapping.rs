//! The mapping from OpenTelemetry GenAI spans to the survey's trace events
//! and edges, as one table: [`OPERATIONS`] says what each
//! `gen_ai.operation.name` becomes, [`RULES`] says how every part of a span
//! (parents, links, times, usage, errors) is carried over. The importer looks
//! roles up in [`OPERATIONS`]; `corpus trace import --explain` prints both.
//!
//! Conventions followed: OpenTelemetry semantic conventions for generative AI
//! (agent spans, model spans, execute_tool spans; status Development), and
//! the OTLP/JSON encoding (hex ids, 64-bit integers as decimal strings).

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
        subject: &[keys::WORKFLOW_NAME],
        yields: "as invoke_agent, with the workflow (gen_ai.workflow.name) as the agent",
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
];

/// The row for an operation name, if it maps.
pub(crate) fn operation(name: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|o| o.name == name)
}

/// How the rest of a span is carried over: (OTLP / GenAI, survey trace).
pub(crate) const RULES: &[(&str, &str)] = &[
    ("trace id (traceId)", "one survey trace per trace id; trace_id = the hex trace id"),
    ("gen_ai.conversation.id", "task_id: the first one met walking the span tree from its earliest root (else the trace id)"),
    ("service.name of the earliest root span's resource", "system"),
    ("enclosing agent", "the agent of the nearest invoke_agent/invoke_workflow ancestor; spans with none act for the orchestrator"),
    ("orchestrator (a choice the conventions leave open)", "--orchestrator NAME, else the agent of the earliest invoke_agent/invoke_workflow span with no agent ancestor, else service.name; its events carry role: orchestrator"),
    ("agent name", "gen_ai.agent.name, else gen_ai.agent.id, else the span name after the operation (\"invoke_agent Writer\" -> Writer)"),
    ("span start / end (startTimeUnixNano, endTimeUnixNano)", "t in seconds after the trace's earliest span start; an event at a span's start takes its start, an event at its end takes its end"),
    ("parent span (parentSpanId)", "causal edges between the events of the nearest mapped ancestor and the span's events (see the operations)"),
    ("span link to a span of the same trace", "message edge from the linked span's last event (or first, when the last is later) to the linking span's first event; spans that map to nothing stand for their nearest mapped ancestor"),
    ("gen_ai.usage.input_tokens + output_tokens", "costs.tokens, summed over spans none of whose descendants report usage (so an agent's total is not added to its model calls' own); also costs.input_tokens and costs.output_tokens"),
    ("execute_tool spans", "costs.tool_calls"),
    ("earliest start to latest end", "costs.wall_clock_s"),
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
    out.push_str("  (any other value, or none)\n      no event; counted in the summary\n\nEverything else:\n");
    for (from, to) in RULES {
        out.push_str(&format!("  {from}\n{}", wrap(to)));
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
        assert!(operation("embeddings").is_none());
        for (from, _) in RULES {
            assert!(text.contains(from));
        }
    }
}
