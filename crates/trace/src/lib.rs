//! Orchestration traces: the temporal event graphs of the survey (orchestrator
//! decisions, spawns, messages, tool calls and results, returns, aggregations,
//! human interventions and safety events, with rewards and costs).
//!
//! This module checks trace files ([`validate_bytes`], [`validate_file`]) and
//! replays them into [`Metrics`]. Checking is three layers: JSON syntax, the
//! JSON Schema in `traces/trace.schema.json` (compiled into the binary), then
//! the graph rules a schema cannot express (see `graph`). Every problem is a
//! [`Diagnostic`] naming the file, the JSON pointer and, where possible, the
//! line and column.
//!
//! Memory is kept near the size of the input: events are validated one at a
//! time while the file is streamed, then kept in a compact typed form
//! ([`Trace`]) rather than as a `serde_json::Value` tree.

// A diagnostic travels in `Err` only when a trace input cannot be read, so
// its size costs nothing worth boxing for.
#![allow(clippy::result_large_err)]

mod graph;
mod locate;
mod metrics;
pub mod otlp;
mod parse;
mod schema;

use corpus_diagnostics::diag::{Diagnostic, Severity};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use metrics::{metrics, metrics_table, Metrics, UntrustedPair, OVERFLOW_RULE, TEAM_FAMILY};

/// Largest trace file read by default (256 MiB); larger files are refused unread.
pub const DEFAULT_MAX_BYTES: u64 = 256 * 1024 * 1024;

/// The ten event types of the trace format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventKind {
    /// The orchestrator decides what to do next (delegation, o2).
    OrchestratorDecision,
    /// An agent is created (o1).
    Spawn,
    /// An agent is stopped (o5).
    Despawn,
    /// One agent talks to another (o3).
    Message,
    /// An agent calls a tool.
    ToolCall,
    /// A tool answers.
    ToolResult,
    /// A worker hands its result back.
    Return,
    /// Results are combined (o4).
    Aggregate,
    /// A person steps in.
    HumanIntervention,
    /// A guard, filter or monitor acts on content.
    SafetyEvent,
}

impl EventKind {
    /// All event types, in the order of the format's enum.
    pub const ALL: [EventKind; 10] = [
        EventKind::OrchestratorDecision,
        EventKind::Spawn,
        EventKind::Despawn,
        EventKind::Message,
        EventKind::ToolCall,
        EventKind::ToolResult,
        EventKind::Return,
        EventKind::Aggregate,
        EventKind::HumanIntervention,
        EventKind::SafetyEvent,
    ];

    /// The name used in trace files.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::OrchestratorDecision => "orchestrator_decision",
            EventKind::Spawn => "spawn",
            EventKind::Despawn => "despawn",
            EventKind::Message => "message",
            EventKind::ToolCall => "tool_call",
            EventKind::ToolResult => "tool_result",
            EventKind::Return => "return",
            EventKind::Aggregate => "aggregate",
            EventKind::HumanIntervention => "human_intervention",
            EventKind::SafetyEvent => "safety_event",
        }
    }

    /// The type named `name` in a trace file, if it is one.
    pub fn from_name(name: &str) -> Option<Self> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// The eight edge types of the trace format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EdgeKind {
    /// Mere succession in time; not a dependency.
    Temporal,
    /// The source caused the destination.
    Causal,
    /// The source spawned the agent acting at the destination.
    Spawn,
    /// A message from source to destination.
    Message,
    /// The destination uses a tool interaction of the source.
    ToolDependency,
    /// A result handed back.
    Return,
    /// The source is combined into the destination.
    Aggregate,
    /// Content passes through a safety check.
    SafetyFlow,
}

impl EdgeKind {
    /// All edge types, in the order of the format's enum.
    pub const ALL: [EdgeKind; 8] = [
        EdgeKind::Temporal,
        EdgeKind::Causal,
        EdgeKind::Spawn,
        EdgeKind::Message,
        EdgeKind::ToolDependency,
        EdgeKind::Return,
        EdgeKind::Aggregate,
        EdgeKind::SafetyFlow,
    ];

    /// The name used in trace files.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Temporal => "temporal",
            EdgeKind::Causal => "causal",
            EdgeKind::Spawn => "spawn",
            EdgeKind::Message => "message",
            EdgeKind::ToolDependency => "tool_dependency",
            EdgeKind::Return => "return",
            EdgeKind::Aggregate => "aggregate",
            EdgeKind::SafetyFlow => "safety_flow",
        }
    }

    /// The type named `name` in a trace file, if it is one.
    pub fn from_name(name: &str) -> Option<Self> {
        EdgeKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Whether the edge is a dependency (every type but `temporal`).
    pub fn is_dependency(self) -> bool {
        self != EdgeKind::Temporal
    }
}

/// An optional index in 32 bits, `u32::MAX` standing for none: events and
/// edges are kept by the million, and `Option<u32>` would take 8 bytes.
/// No index reaches `u32::MAX`: every item of a trace takes more than one
/// byte of a file that `u32` offsets already address (see `IdTable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot(u32);

impl Slot {
    /// No index.
    pub const NONE: Slot = Slot(u32::MAX);

    /// The index, if there is one.
    pub fn get(self) -> Option<u32> {
        (self.0 != u32::MAX).then_some(self.0)
    }

    /// Whether there is an index.
    pub fn is_some(self) -> bool {
        self.0 != u32::MAX
    }

    /// The index, leaving none behind.
    pub fn take(&mut self) -> Option<u32> {
        std::mem::replace(self, Slot::NONE).get()
    }
}

impl From<Option<u32>> for Slot {
    fn from(i: Option<u32>) -> Slot {
        i.map_or(Slot::NONE, Slot)
    }
}

impl From<u32> for Slot {
    fn from(i: u32) -> Slot {
        debug_assert_ne!(i, u32::MAX, "an index too large for a trace");
        Slot(i)
    }
}

/// One event, with agent names interned (indices into [`Trace::agents`]);
/// its id is [`Trace::event_id`] of its index.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Time of the event.
    pub t: f64,
    /// Event type.
    pub kind: EventKind,
    /// The acting agent.
    pub agent: u32,
    /// `from`, when given.
    pub from: Slot,
    /// `to`, when given (the spawned agent of a spawn).
    pub to: Slot,
    /// `trusted`, when given.
    pub trusted: Option<bool>,
}

/// One edge; an endpoint is `None` when it names no event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// Index of the source event.
    pub src: Slot,
    /// Index of the destination event.
    pub dst: Slot,
    /// Edge type.
    pub kind: EdgeKind,
}

/// Which end of an edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    Src,
    Dst,
}

impl End {
    fn key(self) -> &'static str {
        match self {
            End::Src => "src",
            End::Dst => "dst",
        }
    }
}

/// An edge endpoint naming no event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unresolved {
    pub edge: u32,
    pub end: End,
    pub name: Box<str>,
}

/// A trace that passed JSON and schema checks, in compact typed form.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// `trace_id`.
    pub trace_id: String,
    /// `task_id`.
    pub task_id: String,
    /// `system`, when given.
    pub system: Option<String>,
    /// `topology`, when given.
    pub topology: Option<String>,
    /// Events in file order (index = position in the `events` array).
    pub events: Vec<Event>,
    /// The events' ids, by event index.
    pub(crate) event_ids: IdTable,
    /// Edges in file order (index = position in the `edges` array).
    pub edges: Vec<Edge>,
    /// Interned names of agents (acting agents and `from`/`to` names), by index.
    pub(crate) agents: IdTable,
    /// Reward channels.
    pub rewards: BTreeMap<String, f64>,
    /// Cost channels (tokens, wall_clock_s, ...).
    pub costs: BTreeMap<String, f64>,
    /// Declared benchmark metrics.
    pub metrics: BTreeMap<String, f64>,
    pub(crate) unresolved: Vec<Unresolved>,
    /// (later index, first index) of events reusing an id.
    pub(crate) duplicate_ids: Vec<(u32, u32)>,
}

impl Trace {
    /// The name of interned agent `i`.
    pub fn agent_name(&self, i: u32) -> &str {
        self.agents.get(i)
    }

    /// How many distinct agents the trace names.
    pub fn agent_count(&self) -> usize {
        self.agents.len()
    }

    /// The id of event `i`.
    pub fn event_id(&self, i: u32) -> &str {
        self.event_ids.get(i)
    }
}

/// Strings kept end to end in one buffer, looked up by their position.
///
/// A million event ids held as separate boxed strings cost a heap block
/// each (32 bytes or more for an id of 7); here they cost their length plus
/// four bytes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct IdTable {
    text: String,
    ends: Vec<u32>,
}

impl IdTable {
    /// String `i`, or "" past the end.
    pub fn get(&self, i: u32) -> &str {
        let i = i as usize;
        let Some(&end) = self.ends.get(i) else {
            return "";
        };
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start as usize..end as usize]
    }

    /// Appends a string; false when the buffer would pass 4 GiB.
    pub fn push(&mut self, s: &str) -> bool {
        let Ok(end) = u32::try_from(self.text.len() + s.len()) else {
            return false;
        };
        self.text.push_str(s);
        self.ends.push(end);
        true
    }

    /// How many strings there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Forgets every string.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }
}

/// A problem before it is located in the file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    pub pointer: String,
    pub message: String,
    pub help: Option<String>,
}

impl Finding {
    fn error(rule: &'static str, pointer: String, message: String) -> Self {
        Finding {
            rule,
            severity: Severity::Error,
            pointer,
            message,
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// Turns findings into diagnostics, locating every pointer in one pass over the text.
fn locate_findings(file: &str, bytes: &[u8], findings: Vec<Finding>) -> Vec<Diagnostic> {
    let pointers: Vec<&str> = findings.iter().map(|f| f.pointer.as_str()).collect();
    let places = locate::locate(bytes, &pointers);
    findings
        .into_iter()
        .zip(places)
        .map(|(f, place)| {
            let d = Diagnostic::new(f.rule, f.severity, file, f.message)
                .field(f.pointer)
                .maybe_help(f.help);
            match place {
                Some((line, column)) => d.at(line, column),
                None => d,
            }
        })
        .collect()
}

/// Diagnostics for input that is not a JSON document we can read at all.
fn refuse_early(file: &str, bytes: &[u8]) -> Option<Diagnostic> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Some(
            Diagnostic::new("trace-empty", Severity::Error, file, "the file is empty")
                .help("a trace is a JSON object; see traces/examples/"),
        );
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return Some(
            Diagnostic::new(
                "trace-json",
                Severity::Error,
                file,
                "the file starts with a UTF-8 byte-order mark, which JSON does not allow",
            )
            .at(1, 1)
            .help("save the file as UTF-8 without a BOM"),
        );
    }
    None
}

fn json_diagnostic(file: &str, e: &parse::JsonError) -> Diagnostic {
    let d = Diagnostic::new("trace-json", Severity::Error, file, e.message.clone());
    let d = if e.line > 0 {
        d.at(e.line, e.column.max(1))
    } else {
        d
    };
    d.maybe_help(e.help.clone())
}

/// Parses one trace: JSON and schema checks; graph rules are not applied.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Trace, Vec<Diagnostic>> {
    if let Some(d) = refuse_early(file, bytes) {
        return Err(vec![d]);
    }
    match parse::load(bytes) {
        Err(e) => Err(vec![json_diagnostic(file, &e)]),
        Ok(loaded) if loaded.findings.is_empty() => Ok(loaded.trace),
        Ok(loaded) => {
            let mut diags = locate_findings(file, bytes, loaded.findings);
            corpus_diagnostics::diag::sort(&mut diags);
            Err(diags)
        }
    }
}

/// Validate one trace's bytes; `file` is the label used in diagnostics.
pub fn validate_bytes(file: &str, bytes: &[u8]) -> Vec<Diagnostic> {
    validate_and_parse(file, bytes).err().unwrap_or_default()
}

/// Validates a trace and, when it has no problem at all, returns it parsed,
/// so a caller that needs both reads and parses the bytes once.
pub fn validate_and_parse(file: &str, bytes: &[u8]) -> Result<Trace, Vec<Diagnostic>> {
    match check_and_parse(file, bytes) {
        (Some(trace), diags) if diags.is_empty() => Ok(trace),
        (_, diags) => Err(diags),
    }
}

/// Validates a trace in one pass: every problem found, and the parsed trace
/// when none of them fails (warnings alone leave it sound to replay).
pub fn check_and_parse(file: &str, bytes: &[u8]) -> (Option<Trace>, Vec<Diagnostic>) {
    if let Some(d) = refuse_early(file, bytes) {
        return (None, vec![d]);
    }
    let loaded = match parse::load(bytes) {
        Ok(loaded) => loaded,
        Err(e) => return (None, vec![json_diagnostic(file, &e)]),
    };
    let mut findings = loaded.findings;
    // Graph rules on a partial event list would report edges to the events
    // that failed the schema as dangling; skip them until items are valid.
    if loaded.items_valid {
        findings.extend(graph::check(&loaded.trace));
    }
    if findings.is_empty() {
        return (Some(loaded.trace), Vec::new());
    }
    let mut diags = locate_findings(file, bytes, findings);
    corpus_diagnostics::diag::sort(&mut diags);
    let sound = !diags.iter().any(|d| d.fails(false));
    (sound.then_some(loaded.trace), diags)
}

/// Read (refusing files over max_bytes before reading) and validate one file; `-` is standard input.
pub fn validate_file(path: &Path, label: &str, max_bytes: u64) -> Vec<Diagnostic> {
    match read_input(path, label, max_bytes) {
        Ok(bytes) => validate_bytes(label, &bytes),
        Err(d) => vec![d],
    }
}

/// The `topology` values the trace schema allows, in its order.
pub fn topologies() -> Vec<String> {
    let schema: serde_json::Value = serde_json::from_str(schema::SCHEMA_TEXT).unwrap_or_default();
    schema["properties"]["topology"]["enum"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The path that stands for standard input.
pub const STDIN: &str = "-";

/// Reads a trace input: standard input for `-`, else the file (see [`read_limited`]).
pub fn read_input(path: &Path, label: &str, max_bytes: u64) -> Result<Vec<u8>, Diagnostic> {
    if path.as_os_str() != STDIN {
        return read_limited(path, label, max_bytes);
    }
    corpus_io::reader::read_stdin(max_bytes).map_err(|e| match e {
        corpus_io::reader::ReadError::TooLarge { .. } => Diagnostic::new(
            "trace-too-large",
            Severity::Error,
            label,
            format!("standard input is over the limit of {max_bytes} bytes"),
        )
        .help("split the input, or raise the size limit with --max-trace-size"),
        e => Diagnostic::new(
            "trace-unreadable",
            Severity::Error,
            label,
            format!("cannot read standard input: {e}"),
        ),
    })
}

/// Reads a whole file unless it is larger than `max_bytes`, through the
/// one reader (so a FIFO or device is refused rather than waited on).
pub fn read_limited(path: &Path, label: &str, max_bytes: u64) -> Result<Vec<u8>, Diagnostic> {
    use corpus_io::reader::ReadError;
    corpus_io::reader::read_bytes(path, max_bytes).map_err(|e| match e {
        ReadError::TooLarge { size, .. } => {
            let size = size.map_or_else(
                || "larger than it claimed".to_string(),
                |n| format!("{n} bytes"),
            );
            Diagnostic::new(
                "trace-too-large",
                Severity::Error,
                label,
                format!("the file is {size}, over the limit of {max_bytes} bytes; it was not read"),
            )
            .help("split the trace, or raise the size limit if the machine has the memory")
        }
        e => Diagnostic::new(
            "trace-unreadable",
            Severity::Error,
            label,
            format!("cannot read the file: {e}"),
        )
        .help("check that the path is a readable file"),
    })
}

/// Expand FILE|DIR arguments into the .json files to check (directories walked recursively with walkdir, sorted).
///
/// Files named explicitly are kept whatever their extension; a missing path
/// or a directory that cannot be walked is an error (the run cannot go on).
pub fn collect_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == STDIN {
            out.push(path.clone());
            continue;
        }
        let meta =
            std::fs::metadata(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        if !meta.is_dir() {
            out.push(path.clone());
            continue;
        }
        let found = corpus_io::reader::files_below(path, "json")
            .map_err(|e| format!("{}: cannot walk: {e}", path.display()))?;
        // A folder with nothing to validate must not pass as "0 files, all valid".
        if found.is_empty() {
            return Err(format!(
                "{}: no .json trace files in this folder",
                path.display()
            ));
        }
        out.extend(found);
    }
    Ok(out)
}

/// Escapes one JSON pointer token (RFC 6901).
pub(crate) fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Small traces built in code, so rule tests read as the rule they test.

    use serde_json::{json, Value};

    /// xorshift64*: a deterministic, dependency-free source for the robustness tests.
    pub struct Rng(pub u64);

    impl Rng {
        /// The next number.
        pub fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        /// A number below `n` (0 when `n` is 0).
        pub fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// A valid two-agent trace; tests mutate it to break one rule at a time.
    pub fn base() -> Value {
        json!({
            "trace_id": "t-base",
            "task_id": "task-base",
            "topology": "centralized",
            "events": [
                {"id": "a", "t": 0, "type": "orchestrator_decision", "agent": "lead"},
                {"id": "b", "t": 1, "type": "spawn", "agent": "lead", "to": "worker"},
                {"id": "c", "t": 2, "type": "message", "agent": "lead", "from": "lead", "to": "worker"},
                {"id": "d", "t": 3, "type": "tool_call", "agent": "worker", "tool": "search"},
                {"id": "e", "t": 4, "type": "tool_result", "agent": "search", "trusted": false},
                {"id": "f", "t": 5, "type": "return", "agent": "worker", "from": "worker", "to": "lead"},
                {"id": "g", "t": 6, "type": "aggregate", "agent": "lead"}
            ],
            "edges": [
                {"src": "a", "dst": "b", "type": "spawn"},
                {"src": "b", "dst": "c", "type": "causal"},
                {"src": "c", "dst": "d", "type": "message"},
                {"src": "d", "dst": "e", "type": "tool_dependency"},
                {"src": "e", "dst": "f", "type": "causal"},
                {"src": "f", "dst": "g", "type": "aggregate"}
            ],
            "rewards": {"team": 1.0},
            "costs": {"tokens": 100, "wall_clock_s": 6, "tool_calls": 1, "messages": 1}
        })
    }

    /// Validates a JSON value and returns (rule, pointer) of every diagnostic.
    pub fn problems(v: &Value) -> Vec<(String, String)> {
        let text = serde_json::to_string_pretty(v).expect("serializable");
        super::validate_bytes("t.json", text.as_bytes())
            .into_iter()
            .map(|d| (d.rule, d.field.unwrap_or_default()))
            .collect()
    }

    /// Whether any diagnostic has this rule.
    pub fn has(v: &Value, rule: &str) -> bool {
        problems(v).iter().any(|(r, _)| r == rule)
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

    #[test]
    fn events_and_edges_stay_packed() {
        // Kept by the million: a wider layout shows in the peak memory of big traces.
        assert!(std::mem::size_of::<Event>() <= 24);
        assert!(std::mem::size_of::<Edge>() <= 12);
        let mut s = Slot::from(7);
        assert_eq!((s.get(), s.is_some()), (Some(7), true));
        assert_eq!((s.take(), s), (Some(7), Slot::NONE));
        assert_eq!(Slot::from(None).get(), None);
        assert_eq!(Slot::from(Some(0)).get(), Some(0));
    }

    #[test]
    fn base_trace_is_clean() {
        assert_eq!(problems(&base()), Vec::<(String, String)>::new());
    }

    #[test]
    fn empty_and_whitespace_files_are_refused() {
        for bytes in [&b""[..], b"  \n\t "] {
            let d = validate_bytes("x.json", bytes);
            assert_eq!(d.len(), 1);
            assert_eq!(d[0].rule, "trace-empty");
        }
    }

    #[test]
    fn malformed_json_has_line_and_column() {
        let d = validate_bytes("x.json", b"{\n  \"trace_id\": \"a\",\n  oops\n}");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, "trace-json");
        assert_eq!(d[0].line, Some(3));
        assert!(d[0].column.is_some());
    }

    #[test]
    fn trailing_garbage_is_refused() {
        let mut text = serde_json::to_string(&base()).unwrap();
        text.push_str(" {}");
        let d = validate_bytes("x.json", text.as_bytes());
        assert_eq!(d[0].rule, "trace-json");
    }

    #[test]
    fn deep_nesting_is_a_clean_diagnostic() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let d = validate_bytes("x.json", deep.as_bytes());
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, "trace-json");
        assert!(d[0].message.contains("nested"), "{}", d[0].message);
        let mut v = base();
        let inner = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        let text = serde_json::to_string(&v).unwrap();
        let text = text.replacen("\"tool\":\"search\"", &format!("\"x\":{inner}"), 1);
        let d = validate_bytes("x.json", text.as_bytes());
        assert_eq!(d[0].rule, "trace-json");
        v["events"][0]["deep"] = serde_json::json!([[[[1]]]]);
        assert!(problems(&v).is_empty());
    }

    #[test]
    fn bom_is_refused() {
        let d = validate_bytes("x.json", b"\xEF\xBB\xBF{}");
        assert_eq!(d[0].rule, "trace-json");
    }

    #[test]
    fn non_object_documents_fail_the_schema() {
        for text in ["[]", "5", "\"x\"", "null", "[1,2]", "true"] {
            let d = validate_bytes("x.json", text.as_bytes());
            assert!(!d.is_empty(), "{text}");
            assert!(d.iter().all(|d| d.rule == "trace-schema"), "{text}: {d:?}");
        }
    }

    #[test]
    fn invalid_utf8_is_refused() {
        let d = validate_bytes("x.json", b"{\"trace_id\": \"\xff\"}");
        assert_eq!(d[0].rule, "trace-json");
    }

    #[test]
    fn file_over_the_limit_is_not_read() {
        let dir = std::env::temp_dir().join(format!("trace-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.json");
        std::fs::write(&path, serde_json::to_string(&base()).unwrap()).unwrap();
        let d = validate_file(&path, "big.json", 10);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, "trace-too-large");
        assert!(validate_file(&path, "big.json", DEFAULT_MAX_BYTES).is_empty());
        let huge = dir.join("huge.json");
        std::fs::File::create(&huge)
            .unwrap()
            .set_len(2 << 30)
            .unwrap();
        let d = validate_file(&huge, "huge.json", DEFAULT_MAX_BYTES);
        assert_eq!(d[0].rule, "trace-too-large");
        assert!(
            d[0].message.contains("2147483648 bytes"),
            "{}",
            d[0].message
        );
        let d = validate_file(&dir.join("missing.json"), "missing.json", DEFAULT_MAX_BYTES);
        assert_eq!(d[0].rule, "trace-unreadable");
        let d = validate_file(&dir, "dir", DEFAULT_MAX_BYTES);
        assert_eq!(d[0].rule, "trace-unreadable");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn special_files_are_refused_unread() {
        let d = validate_file(Path::new("/dev/zero"), "zero", 1024);
        assert_eq!(d[0].rule, "trace-unreadable");
        assert!(d[0].message.contains("a device"), "{}", d[0].message);
    }

    #[test]
    fn collect_inputs_walks_sorted_and_keeps_named_files() {
        let dir = std::env::temp_dir().join(format!("trace-collect-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for name in ["b.json", "a.json", "sub/c.json", "notes.txt"] {
            std::fs::write(dir.join(name), "{}").unwrap();
        }
        let got = collect_inputs(&[dir.clone(), dir.join("notes.txt")]).unwrap();
        let names: Vec<_> = got
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.json", "b.json", "sub/c.json", "notes.txt"]);
        assert!(collect_inputs(&[dir.join("nope")]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn parse_rejects_schema_errors_but_keeps_graph_errors() {
        let mut v = base();
        v["events"][1]["type"] = "launch".into();
        let text = serde_json::to_string(&v).unwrap();
        let err = parse("x.json", text.as_bytes()).unwrap_err();
        assert_eq!(err[0].rule, "trace-schema");
        assert_eq!(err[0].field.as_deref(), Some("/events/1/type"));

        let mut v = base();
        v["edges"][0]["dst"] = "nowhere".into();
        let text = serde_json::to_string(&v).unwrap();
        let trace = parse("x.json", text.as_bytes()).unwrap();
        assert_eq!(trace.edges[0].dst.get(), None);
    }

    #[test]
    fn schema_errors_point_at_line_and_column() {
        let text = "{\n  \"trace_id\": \"t\",\n  \"task_id\": \"k\",\n  \"events\": [\n    {\"id\": \"a\", \"t\": -1, \"type\": \"spawn\", \"agent\": \"x\", \"to\": \"y\"}\n  ],\n  \"edges\": [],\n  \"rewards\": {},\n  \"costs\": {\"tokens\": 1, \"wall_clock_s\": 1}\n}\n";
        let d = validate_bytes("x.json", text.as_bytes());
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].field.as_deref(), Some("/events/0/t"));
        assert_eq!((d[0].line, d[0].column), (Some(5), Some(22)));
    }

    #[test]
    fn all_problems_are_reported() {
        let mut v = base();
        v["edges"][0]["dst"] = "nowhere".into();
        v["edges"][1]["src"] = "c".into();
        v["costs"]["messages"] = 5.into();
        let rules: Vec<String> = problems(&v).into_iter().map(|(r, _)| r).collect();
        assert!(rules.contains(&"trace-dangling-edge".to_string()));
        assert!(rules.contains(&"trace-self-loop".to_string()));
        assert!(rules.contains(&"trace-cost-mismatch".to_string()));
    }
}

#[cfg(test)]
mod robustness {
    //! Random damage to valid traces must give diagnostics, never a panic,
    //! and metrics must survive every trace that parses.

    use super::testutil::{base, Rng};
    use super::*;
    use serde_json::{json, Value};

    fn iterations() -> usize {
        std::env::var("TRACE_FUZZ_ITERS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1500)
    }

    fn seeds() -> Vec<Value> {
        let mut out = vec![base()];
        for text in [
            include_str!("../../../traces/examples/centralized.json"),
            include_str!("../../../traces/examples/swarm.json"),
            include_str!("../../../traces/examples/debate.json"),
        ] {
            out.push(serde_json::from_str(text).unwrap());
        }
        out
    }

    fn exercise(bytes: &[u8]) {
        let _ = validate_bytes("fuzz.json", bytes);
        if let Ok(trace) = parse("fuzz.json", bytes) {
            let families = [("team".to_string(), "R1".to_string())].into();
            let m = metrics(&trace, &families);
            let _ = metrics_table(&m);
            let _ = serde_json::to_string(&m).unwrap();
        }
    }

    #[test]
    fn byte_damage_never_panics() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let texts: Vec<Vec<u8>> = seeds()
            .iter()
            .map(|v| serde_json::to_vec_pretty(v).unwrap())
            .collect();
        const BYTES: &[u8] = b"{}[]\",:-0123456789.eE \n\\truefalsnul\xc3\xa9\xff";
        for _ in 0..iterations() {
            let mut t = texts[rng.below(texts.len())].clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(t.len());
                match rng.below(4) {
                    0 => {
                        let end = (at + rng.below(20)).min(t.len());
                        t.drain(at..end);
                    }
                    1 => t.insert(at, BYTES[rng.below(BYTES.len())]),
                    2 => {
                        if let Some(b) = t.get_mut(at) {
                            *b = BYTES[rng.below(BYTES.len())];
                        }
                    }
                    _ => {
                        let end = (at + rng.below(40)).min(t.len());
                        let chunk = t[at..end].to_vec();
                        let to = rng.below(t.len());
                        t.splice(to..to, chunk);
                    }
                }
            }
            exercise(&t);
        }
    }

    fn random_value(rng: &mut Rng, names: &[String]) -> Value {
        match rng.below(9) {
            0 => Value::Null,
            1 => json!(rng.below(2) == 0),
            2 => json!(rng.below(10)),
            3 => json!(-(rng.below(5) as i64)),
            4 => json!(rng.below(100) as f64 / 7.0),
            5 => json!(""),
            6 => json!([1, {"a": []}]),
            7 => json!({"x": 1}),
            _ => json!(names[rng.below(names.len())]),
        }
    }

    #[test]
    fn structural_damage_never_panics() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let seeds = seeds();
        let keys = [
            "id", "t", "type", "agent", "from", "to", "trusted", "src", "dst",
        ];
        for _ in 0..iterations() {
            let mut v = seeds[rng.below(seeds.len())].clone();
            let mut names: Vec<String> = v["events"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|e| ["id", "agent"].map(|k| e[k].as_str().unwrap_or("").to_string()))
                .collect();
            names.extend(EventKind::ALL.iter().map(|k| k.as_str().to_string()));
            names.extend(EdgeKind::ALL.iter().map(|k| k.as_str().to_string()));
            for _ in 0..1 + rng.below(5) {
                let which = if rng.below(2) == 0 { "events" } else { "edges" };
                let len = v[which].as_array().map_or(0, Vec::len);
                match rng.below(6) {
                    0 if len > 0 => {
                        let i = rng.below(len);
                        let k = keys[rng.below(keys.len())];
                        let value = random_value(&mut rng, &names);
                        if let Some(o) = v[which].get_mut(i).and_then(Value::as_object_mut) {
                            o.insert(k.to_string(), value);
                        }
                    }
                    1 if len > 0 => {
                        let i = rng.below(len);
                        let k = keys[rng.below(keys.len())];
                        if let Some(o) = v[which][i].as_object_mut() {
                            o.remove(k);
                        }
                    }
                    2 if len > 0 => {
                        let i = rng.below(len);
                        let item = v[which][i].clone();
                        if let Some(a) = v[which].as_array_mut() {
                            a.push(item);
                        }
                    }
                    3 => {
                        let (s, d) = (rng.below(names.len()), rng.below(names.len()));
                        let ty = EdgeKind::ALL[rng.below(8)].as_str();
                        if let Some(a) = v["edges"].as_array_mut() {
                            a.push(json!({"src": names[s], "dst": names[d], "type": ty}));
                        }
                    }
                    4 => {
                        let k = ["costs", "rewards", "trace_id", "events", "edges"][rng.below(5)];
                        v[k] = random_value(&mut rng, &names);
                    }
                    _ if len > 1 => {
                        let (i, j) = (rng.below(len), rng.below(len));
                        if let Some(a) = v[which].as_array_mut() {
                            a.swap(i, j);
                        }
                    }
                    _ => {}
                }
            }
            exercise(&serde_json::to_vec(&v).unwrap());
        }
    }
}
