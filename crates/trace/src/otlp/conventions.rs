//! The conventions `corpus trace import` reads, one row each, for the
//! README's table. What a convention's spans become is stated in `mapping`
//! (its operation tables); a row here names the convention, the versions
//! read and the `--from` value, and lists the span kinds from those tables,
//! so a mapping added there shows up here without a second mention.
//! Adding a convention is one row of [`ROWS`].

use super::mapping::{keys, Convention, LOGFIRE, OPENINFERENCE, OPERATIONS};
use serde::Serialize;

/// One convention read.
pub struct Row {
    /// The convention (or encoding).
    pub convention: &'static str,
    /// Which versions or variants are read.
    pub versions: &'static str,
    /// The conventions whose `--from` value reads it.
    pub from: &'static [Convention],
    /// What is read, in Markdown (code spans for names).
    pub reads: fn() -> String,
}

/// The conventions and encodings read.
pub const ROWS: &[Row] = &[
    Row {
        convention: "OpenTelemetry semantic conventions for generative AI (spans)",
        versions: "status Development; the attribute names of v1.27.0 and later, and the earlier `gen_ai.usage.prompt_tokens` / `completion_tokens` and `gen_ai.handoff.*_agent.name`",
        from: &[Convention::GenAi],
        reads: genai,
    },
    Row {
        convention: "OpenInference semantic conventions",
        versions: "`openinference.span.kind`, `agent.name`, `graph.node.id` / `parent_id`, `tool.name`, `llm.token_count.prompt` / `completion`",
        from: &[Convention::OpenInference],
        reads: openinference,
    },
    Row {
        convention: "Logfire's OpenAI Agents SDK spans (pydantic/logfire, `logfire.instrument_openai_agents()`)",
        versions: "the span templates (`logfire.msg_template`) of its integration, with the SDK's own attribute names `name`, `from_agent`, `to_agent`, `triggered`; its model calls through the GenAI attributes they carry",
        from: &[Convention::GenAi],
        reads: logfire,
    },
    Row {
        convention: "A2A (agent-to-agent calls across processes)",
        versions: "the `a2a.client` / `a2a.server` spans of the GenAI conventions' A2A model, and the span names older a2a-python releases write",
        from: &[Convention::GenAi],
        reads: a2a,
    },
    Row {
        convention: "Tool-call decisions (human approval)",
        versions: "span events as proposed for the GenAI conventions (no stable name yet); decisions written as log records are not read",
        from: &[Convention::GenAi],
        reads: decisions,
    },
    Row {
        convention: "OTLP/JSON (`resourceSpans` → `scopeSpans` → `spans`)",
        versions: "the OTLP JSON encoding (hex ids) and protobuf's JSON printer (base64 ids); enums as integers or names; 64-bit integers as strings or numbers",
        from: &[Convention::GenAi, Convention::OpenInference],
        reads: || "one document per file, or JSON Lines of documents (the Collector's file exporter)".to_string(),
    },
];

/// The GenAI operations and transfers that map to events.
fn genai() -> String {
    let ops: Vec<String> = OPERATIONS.iter().map(|o| format!("`{}`", o.name)).collect();
    format!(
        "`{}`: {}; `execute_tool` with `{}` (`return_to_caller`, `pass_control`) or `{}` = `human`; model calls named `call_llm` or carrying `{}`",
        keys::OPERATION,
        ops.join(", "),
        keys::TRANSFER_MODE,
        keys::TRANSFER_TARGET_TYPE,
        keys::REQUEST_MODEL,
    )
}

/// Logfire's span templates that map to events.
fn logfire() -> String {
    let templates: Vec<String> = LOGFIRE.iter().map(|o| format!("`{}`", o.name)).collect();
    format!(
        "{}: agent runs, tool runs, handoffs and guardrails as their GenAI counterparts",
        templates.join(", ")
    )
}

/// The A2A spans that map to messages between agents.
fn a2a() -> String {
    format!(
        "a CLIENT span with `{}`, or named `{}*`, is a message to the remote agent; its server span (`{}*`), a child or a linked root in another trace, runs the remote agent, and its end is the reply",
        keys::A2A_METHOD,
        keys::A2A_CLIENT_PREFIX,
        keys::A2A_SERVER_PREFIX,
    )
}

/// The decision events that map to human interventions.
fn decisions() -> String {
    format!(
        "`{}` events: an `allow` or `deny` (`{}`) answering a `require_approval` for the same call (`{}`, else `{}`) is a human intervention",
        keys::DECISION,
        keys::DECISION_OUTCOME,
        keys::TOOL_CALL_ID,
        keys::TOOL_NAME,
    )
}

/// The OpenInference span kinds that map to events.
fn openinference() -> String {
    let kinds: Vec<String> = OPENINFERENCE
        .iter()
        .filter(|o| o.name.chars().all(|c| c.is_ascii_uppercase()))
        .map(|o| format!("`{}`", o.name))
        .collect();
    format!(
        "span kinds {}; a `TOOL` span named `handoff to NAME` as a handoff",
        kinds.join(", ")
    )
}

/// A row as the README shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConventionView {
    /// The convention.
    pub convention: String,
    /// The versions read.
    pub versions: String,
    /// The `--from` value.
    pub from: String,
    /// What is read.
    pub reads: String,
}

/// Every row, for the README.
pub fn views() -> Vec<ConventionView> {
    ROWS.iter()
        .map(|r| ConventionView {
            convention: r.convention.to_string(),
            versions: r.versions.to_string(),
            from: r
                .from
                .iter()
                .map(|c| format!("`{}`", c.flag()))
                .collect::<Vec<_>>()
                .join(", "),
            reads: (r.reads)(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mapped_operation_and_span_kind_is_in_the_table() {
        let text: String = views().iter().map(|v| format!("{v:?}")).collect();
        for o in OPERATIONS {
            assert!(text.contains(&format!("`{}`", o.name)), "{}", o.name);
        }
        for o in LOGFIRE {
            assert!(text.contains(&format!("`{}`", o.name)), "{}", o.name);
        }
        for kind in ["AGENT", "TOOL", "LLM", "GUARDRAIL"] {
            assert!(text.contains(&format!("`{kind}`")), "{kind}");
        }
        assert!(Convention::GenAi.flag() == "otlp" && text.contains("`otlp`"));
        assert!(text.contains(&format!("`{}`", Convention::OpenInference.flag())));
        for key in [keys::A2A_METHOD, keys::DECISION, keys::DECISION_OUTCOME] {
            assert!(text.contains(&format!("`{key}`")), "{key}");
        }
        // A cell never holds a pipe: it would split the Markdown row.
        assert!(!text.contains('|'));
    }
}
