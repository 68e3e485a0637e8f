//! Builds the typed [`Trace`] from the document's items, in order: the
//! schema engine for items the fast path left as values, id and name
//! interning, edge resolution and duplicate ids.

use super::index::{Interner, StrIndex};
use super::{Item, Loaded, Op, RawEdge, RawEvent, Which};
use crate::finding::Finding;
use crate::model::{End, IdTable, Unresolved};
use crate::schema::{self, Validators};
use crate::{Edge, EdgeKind, Event, EventKind, Slot, Trace};
use corpus_diagnostics::rules::Rule;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The trace under construction, fed one step of the document at a time.
pub(super) struct Builder {
    /// Why the schema engine could not be built, once an item or the root needed it.
    engine_error: Option<String>,
    events: Vec<Event>,
    event_ids: IdTable,
    event_findings: Vec<Finding>,
    events_valid: bool,
    /// Whether the `events` array has been read, so edges can be resolved as they come.
    events_done: bool,
    ids: StrIndex,
    duplicate_ids: Vec<(u32, u32)>,
    agents: Interner,
    edges: Vec<Edge>,
    edge_findings: Vec<Finding>,
    edges_valid: bool,
    pending: Vec<Unresolved>,
}

impl Builder {
    pub(super) fn new() -> Self {
        Builder {
            engine_error: None,
            events: Vec::new(),
            event_ids: IdTable::default(),
            event_findings: Vec::new(),
            events_valid: true,
            events_done: false,
            ids: StrIndex::default(),
            duplicate_ids: Vec::new(),
            agents: Interner::default(),
            edges: Vec::new(),
            edge_findings: Vec::new(),
            edges_valid: true,
            pending: Vec::new(),
        }
    }

    /// Applies one step of the document, in order.
    pub(super) fn apply(&mut self, op: Op<'_>) {
        match op {
            Op::Reset(which) => self.reset(which),
            Op::NotAnArray(which) => self.not_an_array(which),
            Op::Items(which, first, items) => {
                for (k, item) in items.into_iter().enumerate() {
                    match item {
                        // Typed only after passing the item schema's keywords.
                        Item::Event(e) => {
                            if !self.push_raw_event(e) {
                                self.unreadable(which, first + k);
                            }
                        }
                        Item::Edge(e) => {
                            if !self.push_raw_edge(e) {
                                self.unreadable(which, first + k);
                            }
                        }
                        Item::Value(v) => self.item(which, first + k, v),
                    }
                }
            }
            Op::EventsDone => {
                self.events_done = true;
                // Edges number about as many as events (each step follows
                // one or two others); sized once here, the vector does not
                // double past that and leave up to half of itself unused at
                // the peak of a big trace.
                let want = self.events.len() + self.events.len() / 4;
                self.edges
                    .reserve_exact(want.saturating_sub(self.edges.len()));
            }
        }
    }

    /// Forgets an earlier array of the same name (a duplicate key: the last one wins, as in serde_json).
    fn reset(&mut self, which: Which) {
        match which {
            Which::Events => {
                // Edges already resolved against the old events go back to names.
                for (k, edge) in self.edges.iter_mut().enumerate() {
                    for end in [End::Src, End::Dst] {
                        let slot = match end {
                            End::Src => &mut edge.src,
                            End::Dst => &mut edge.dst,
                        };
                        if let Some(i) = slot.take() {
                            self.pending.push(Unresolved {
                                edge: k as u32,
                                end,
                                name: self.event_ids.get(i).into(),
                            });
                        }
                    }
                }
                self.events.clear();
                self.event_ids.clear();
                self.event_findings.clear();
                self.events_valid = true;
                self.events_done = false;
                self.ids.clear();
                self.duplicate_ids.clear();
                self.agents = Interner::default();
            }
            Which::Edges => {
                self.edges.clear();
                self.edge_findings.clear();
                self.edges_valid = true;
                self.pending.clear();
            }
        }
    }

    fn not_an_array(&mut self, which: Which) {
        // The root schema reports the wrong type; graph rules must not run.
        match which {
            Which::Events => {
                self.events_valid = false;
                self.events_done = true;
            }
            Which::Edges => self.edges_valid = false,
        }
    }

    fn item(&mut self, which: Which, n: usize, value: Value) {
        let surely_valid = match which {
            Which::Events => schema::event_surely_valid(&value),
            Which::Edges => schema::edge_surely_valid(&value),
        };
        let findings = if surely_valid {
            None
        } else {
            self.engine().map(|v| {
                let (validator, prefix) = match which {
                    Which::Events => (&v.event, "events"),
                    Which::Edges => (&v.edge, "edges"),
                };
                if validator.is_valid(&value) {
                    Vec::new()
                } else {
                    schema::findings(validator, &value, &format!("/{prefix}/{n}"))
                }
            })
        };
        // No engine: the load fails as a whole in `finish`, so this item's fate is moot.
        let findings = match findings {
            Some(f) if f.is_empty() => None,
            Some(f) => Some(f),
            None if surely_valid => None,
            None => Some(Vec::new()),
        };
        if let Some(findings) = findings {
            match which {
                Which::Events => {
                    self.events_valid = false;
                    self.event_findings.extend(findings);
                }
                Which::Edges => {
                    self.edges_valid = false;
                    self.edge_findings.extend(findings);
                }
            }
            return;
        }
        let ok = match which {
            Which::Events => self.push_event(value),
            Which::Edges => self.push_edge(value),
        };
        if !ok {
            self.unreadable(which, n);
        }
    }

    /// Records an item that passed its schema but could not be typed.
    fn unreadable(&mut self, which: Which, n: usize) {
        let prefix = match which {
            Which::Events => "events",
            Which::Edges => "edges",
        };
        {
            // Only reachable if the schema and the typed form drift apart, or past 4 GiB of ids.
            let finding = Finding::error(
                Rule::TraceSchema,
                format!("/{prefix}/{n}"),
                "the item passed the schema but could not be read".to_string(),
            );
            match which {
                Which::Events => {
                    self.events_valid = false;
                    self.event_findings.push(finding);
                }
                Which::Edges => {
                    self.edges_valid = false;
                    self.edge_findings.push(finding);
                }
            }
        }
    }

    fn push_event(&mut self, value: Value) -> bool {
        let Value::Object(mut map) = value else {
            return false;
        };
        let (Some(Value::String(id)), Some(t), Some(kind), Some(Value::String(agent))) = (
            map.remove("id"),
            map.get("t").and_then(Value::as_f64),
            map.get("type")
                .and_then(Value::as_str)
                .and_then(EventKind::from_name),
            map.remove("agent"),
        ) else {
            return false;
        };
        let mut name = |key: &str| match map.remove(key) {
            Some(Value::String(s)) => Some(Cow::Owned(s)),
            _ => None,
        };
        let (from, to) = (name("from"), name("to"));
        let trusted = map.get("trusted").and_then(Value::as_bool);
        self.push_raw_event(RawEvent {
            id: Cow::Owned(id),
            t,
            kind,
            agent: Cow::Owned(agent),
            from,
            to,
            trusted,
        })
    }

    fn push_raw_event(&mut self, e: RawEvent<'_>) -> bool {
        let index = self.events.len() as u32;
        if !self.event_ids.push(&e.id) {
            return false;
        }
        let event = Event {
            t: e.t,
            kind: e.kind,
            agent: self.agents.intern(&e.agent),
            from: e.from.map(|s| self.agents.intern(&s)).into(),
            to: e.to.map(|s| self.agents.intern(&s)).into(),
            trusted: e.trusted,
        };
        let ids = &self.event_ids;
        match self.ids.get(&e.id, |i| ids.get(i)) {
            Some(first) => self.duplicate_ids.push((index, first)),
            None => self.ids.insert_new(&e.id, index, |i| ids.get(i)),
        }
        self.events.push(event);
        true
    }

    fn push_edge(&mut self, value: Value) -> bool {
        let Value::Object(mut map) = value else {
            return false;
        };
        let (Some(Value::String(src)), Some(Value::String(dst)), Some(kind)) = (
            map.remove("src"),
            map.remove("dst"),
            map.get("type")
                .and_then(Value::as_str)
                .and_then(EdgeKind::from_name),
        ) else {
            return false;
        };
        self.push_raw_edge(RawEdge {
            src: Cow::Owned(src),
            dst: Cow::Owned(dst),
            kind,
        })
    }

    fn push_raw_edge(&mut self, e: RawEdge<'_>) -> bool {
        let mut edge = Edge {
            src: Slot::NONE,
            dst: Slot::NONE,
            kind: e.kind,
        };
        for (end, name) in [(End::Src, e.src), (End::Dst, e.dst)] {
            let ids = &self.event_ids;
            let found = if self.events_done {
                self.ids.get(&name, |i| ids.get(i))
            } else {
                None
            };
            match (found, end) {
                (Some(i), End::Src) => edge.src = i.into(),
                (Some(i), End::Dst) => edge.dst = i.into(),
                // Positions in `edges` equal array indices whenever every item is valid,
                // the only case in which they are reported.
                (None, _) => self.pending.push(Unresolved {
                    edge: self.edges.len() as u32,
                    end,
                    name: name.into_owned().into_boxed_str(),
                }),
            }
        }
        self.edges.push(edge);
        true
    }

    /// The schema engine, compiled the first time a document needs it: the
    /// fast paths settle every well-formed trace, and compiling the engine
    /// (checking the schema against its meta-schema first) costs more than
    /// replaying all the example traces.
    fn engine(&mut self) -> Option<&'static Validators> {
        match schema::validators() {
            Ok(v) => Some(v),
            Err(message) => {
                self.engine_error.get_or_insert(message);
                None
            }
        }
    }

    /// The trace and its schema findings, or why the schema engine could not be built.
    pub(super) fn finish(mut self, skeleton: Value) -> Result<Loaded, String> {
        let mut findings = if schema::root_surely_valid(&skeleton) {
            Vec::new()
        } else {
            match self.engine() {
                Some(v) => schema::findings(&v.root, &skeleton, ""),
                None => Vec::new(),
            }
        };
        if let Some(message) = self.engine_error.take() {
            return Err(message);
        }
        findings.append(&mut self.event_findings);
        findings.append(&mut self.edge_findings);

        let mut unresolved = Vec::new();
        for p in std::mem::take(&mut self.pending) {
            let ids = &self.event_ids;
            match self.ids.get(&p.name, |i| ids.get(i)) {
                Some(i) => {
                    let edge = &mut self.edges[p.edge as usize];
                    match p.end {
                        End::Src => edge.src = i.into(),
                        End::Dst => edge.dst = i.into(),
                    }
                }
                None => unresolved.push(p),
            }
        }
        unresolved.sort_by_key(|u| (u.edge, u.end == End::Dst));

        let Value::Object(mut top) = skeleton else {
            return Ok(self.into_loaded(Map::new(), unresolved, findings));
        };
        // Drop the placeholders before keeping the rest.
        top.remove("events");
        top.remove("edges");
        Ok(self.into_loaded(top, unresolved, findings))
    }

    fn into_loaded(
        self,
        top: Map<String, Value>,
        unresolved: Vec<Unresolved>,
        mut findings: Vec<Finding>,
    ) -> Loaded {
        token_overflow(&top, &mut findings);
        let string = |key: &str| top.get(key).and_then(Value::as_str).map(str::to_string);
        let numbers = |key: &str| -> BTreeMap<String, f64> {
            top.get(key)
                .and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .filter_map(|(k, v)| v.as_f64().map(|x| (k.clone(), x)))
                        .collect()
                })
                .unwrap_or_default()
        };
        let items_valid = self.events_valid && self.edges_valid;
        Loaded {
            trace: Trace {
                trace_id: string("trace_id").unwrap_or_default(),
                task_id: string("task_id").unwrap_or_default(),
                system: string("system"),
                topology: string("topology"),
                events: self.events,
                event_ids: self.event_ids,
                edges: self.edges,
                agents: self.agents.names,
                rewards: numbers("rewards"),
                costs: numbers("costs"),
                metrics: numbers("metrics"),
                unresolved,
                duplicate_ids: self.duplicate_ids,
            },
            findings,
            items_valid,
        }
    }
}

/// A token count above [`crate::MAX_TOKENS`] (JSON numbers have no limit,
/// but a count shown must be exact): one finding per such cost.
fn token_overflow(top: &Map<String, Value>, findings: &mut Vec<Finding>) {
    let Some(costs) = top.get("costs").and_then(Value::as_object) else {
        return;
    };
    let max = crate::MAX_TOKENS;
    for (key, v) in costs {
        let is_tokens = key == "tokens" || key.ends_with("_tokens");
        // Compared as an integer when JSON wrote one, so no rounding decides.
        let beyond = match v.as_u64() {
            Some(n) => n > max,
            None => v.as_f64().is_some_and(|x| x > max as f64),
        };
        if is_tokens && beyond {
            findings.push(
                Finding::error(
                    Rule::TraceTokenOverflow,
                    format!("/costs/{key}"),
                    format!(
                        "costs.{key} is {v}, more than a trace counts exactly ({max}, the largest whole number a JSON reader holds exactly)"
                    ),
                )
                .help("a count this large cannot be right; write the number of tokens consumed"),
            );
        }
    }
}
