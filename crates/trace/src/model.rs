//! The typed form of a trace: event and edge kinds, events, edges and the compact [`Trace`].

use std::collections::BTreeMap;

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
    pub(crate) fn key(self) -> &'static str {
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

/// The most tokens a trace may count, in any cost channel: 2^53, the
/// largest whole number a JSON reader holds exactly as a double (metrics,
/// the site's script and most tools read numbers so). Beyond it a count would
/// be shown rounded, so it is refused instead.
pub const MAX_TOKENS: u64 = 1 << 53;

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

#[cfg(test)]
mod tests {
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
}
