//! Streaming load of a trace file into a [`Trace`], with schema checks.
//!
//! A trace is mostly its `events` and `edges` arrays. Building one
//! `serde_json::Value` for the whole file would cost several times the file
//! size, so the top-level object is walked with a serde visitor instead: each
//! event or edge is parsed into a small `Value`, checked against its item
//! schema, turned into the compact typed form and dropped. The rest of the
//! document (a handful of small fields, with the two arrays replaced by
//! placeholders) is checked against the root schema at the end; see
//! `schema` for why that split is exact.

use super::finding::Finding;
use super::model::{End, IdTable, Unresolved};
use super::schema::{self, Validators};
use super::{Edge, EdgeKind, Event, EventKind, Slot, Trace};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::hash::BuildHasher;

/// A file that is not JSON (or not JSON serde_json will read).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JsonError {
    pub message: String,
    pub line: usize,
    pub column: usize,
    pub help: Option<String>,
}

/// The result of loading a syntactically valid file.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// Everything that could be typed; only complete when `findings` is empty.
    pub trace: Trace,
    /// Schema problems.
    pub findings: Vec<Finding>,
    /// Whether every event and edge passed its item schema.
    pub items_valid: bool,
}

/// Parses and schema-checks `bytes`.
pub(crate) fn load(bytes: &[u8]) -> Result<Loaded, JsonError> {
    let validators = match schema::validators() {
        Ok(v) => v,
        Err(message) => {
            return Err(JsonError {
                message: format!("internal error: the trace schema does not compile: {message}"),
                line: 0,
                column: 0,
                help: None,
            })
        }
    };
    load_with(validators, bytes, bytes.len() >= PIPELINE_MIN_BYTES)
}

/// Parses and schema-checks `bytes`, on one thread or two.
fn load_with(
    validators: &'static Validators,
    bytes: &[u8],
    piped: bool,
) -> Result<Loaded, JsonError> {
    let mut builder = Builder::new(validators);
    if !piped {
        let skeleton = parse(&mut Feed::Direct(&mut builder), bytes)?;
        return Ok(builder.finish(skeleton));
    }
    // Reading JSON into values and checking them cost about the same, so on a
    // large file a second thread checks and types the items while this one
    // parses the next ones; the bounded channel keeps memory flat.
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Op<'_>>(PIPELINE_DEPTH);
        let worker = scope.spawn(move || {
            for op in rx {
                builder.apply(op);
            }
            builder
        });
        let parsed = parse(&mut Feed::Piped { tx, failed: false }, bytes);
        let builder = match worker.join() {
            Ok(b) => b,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        Ok(builder.finish(parsed?))
    })
}

/// Files smaller than this are checked on the parsing thread: a thread costs more than it saves.
const PIPELINE_MIN_BYTES: usize = 1 << 20;

/// Batches in flight between the parsing and the checking thread.
const PIPELINE_DEPTH: usize = 4;

/// Items sent to the checking thread at once.
const BATCH_ITEMS: usize = 256;

/// Parses the document, feeding the arrays' items to the builder; returns the skeleton.
fn parse<'de>(feed: &mut Feed<'_, '_, 'de>, bytes: &'de [u8]) -> Result<Value, JsonError> {
    // Checking the whole file's UTF-8 at once is far cheaper than string by
    // string; a file that fails it is read from bytes, so its error (and
    // position) is the one serde_json gives there.
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_from(feed, serde_json::Deserializer::from_str(text)),
        Err(_) => parse_from(feed, serde_json::Deserializer::from_slice(bytes)),
    }
}

fn parse_from<'de, R: serde_json::de::Read<'de>>(
    feed: &mut Feed<'_, '_, 'de>,
    mut de: serde_json::Deserializer<R>,
) -> Result<Value, JsonError> {
    TopSeed { b: &mut *feed }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| json_error(&e))
}

/// One step of building a trace, in document order.
enum Op<'de> {
    Reset(Which),
    NotAnArray(Which),
    /// Items of one array, the first of them at the given index.
    Items(Which, usize, Vec<Item<'de>>),
    EventsDone,
}

/// One array item as read: already typed when it plainly meets its item
/// schema (most do), else the JSON value for the schema engine.
enum Item<'de> {
    Event(RawEvent<'de>),
    Edge(RawEdge<'de>),
    Value(Value),
}

/// An event's fields, strings borrowed from the file where they hold no escapes.
struct RawEvent<'de> {
    id: Cow<'de, str>,
    t: f64,
    kind: EventKind,
    agent: Cow<'de, str>,
    from: Option<Cow<'de, str>>,
    to: Option<Cow<'de, str>>,
    trusted: Option<bool>,
}

/// An edge's fields.
struct RawEdge<'de> {
    src: Cow<'de, str>,
    dst: Cow<'de, str>,
    kind: EdgeKind,
}

/// Where the parser's steps go: straight into the builder, or to the checking thread.
enum Feed<'a, 'v, 'de> {
    Direct(&'a mut Builder<'v>),
    Piped {
        tx: std::sync::mpsc::SyncSender<Op<'de>>,
        /// Set when the checking thread has gone; it only goes by panicking,
        /// which `load` re-raises after the parse.
        failed: bool,
    },
}

impl<'de> Feed<'_, '_, 'de> {
    fn send(&mut self, op: Op<'de>) {
        match self {
            Feed::Direct(b) => b.apply(op),
            Feed::Piped { tx, failed } => {
                if !*failed && tx.send(op).is_err() {
                    *failed = true;
                }
            }
        }
    }
}

fn json_error(e: &serde_json::Error) -> JsonError {
    let text = e.to_string();
    // serde_json appends " at line L column C"; the diagnostic carries those separately.
    let message = match text.rfind(" at line ") {
        Some(i) if e.line() > 0 => text[..i].to_string(),
        _ => text,
    };
    let help = if message.contains("recursion limit") {
        Some("values may nest at most 127 levels deep; flatten the deeply nested value".to_string())
    } else if e.is_eof() {
        Some("the file ends early; it may have been truncated".to_string())
    } else {
        Some("fix the JSON syntax at this position".to_string())
    };
    let message = if message.contains("recursion limit") {
        "the JSON is nested too deeply to read (recursion limit exceeded)".to_string()
    } else {
        format!("invalid JSON: {message}")
    };
    JsonError {
        message,
        line: e.line(),
        column: e.column(),
        help,
    }
}

/// Maps strings to small indices without storing each string twice.
///
/// Open addressing over indices into a caller-owned list of strings: a slot
/// is 8 bytes (index and 32 bits of the key's hash) instead of a second copy
/// of every key, which matters with a million event ids. The hash bits let a
/// probe skip non-matching slots without touching their strings, which are
/// scattered in memory and dominate the cost otherwise. Keys are hashed with
/// a randomly keyed SipHash, so crafted ids cannot force collisions.
#[derive(Debug, Default)]
pub(crate) struct StrIndex {
    /// `(hash >> 32) << 32 | index`, or `EMPTY`.
    slots: Vec<u64>,
    len: usize,
    hasher: std::collections::hash_map::RandomState,
}

const EMPTY: u64 = u64::MAX;

impl StrIndex {
    fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(key)
    }

    /// Index of `key`, looking up names through `name_of`.
    pub fn get<'a>(&self, key: &str, name_of: impl Fn(u32) -> &'a str) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let hash = self.hash(key);
        let tag = hash >> 32;
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == EMPTY {
                return None;
            }
            let index = slot as u32;
            if slot >> 32 == tag && name_of(index) == key {
                return Some(index);
            }
            i = (i + 1) & mask;
        }
    }

    /// Records `value` for `key`, which the caller knows is absent.
    pub fn insert_new<'a>(&mut self, key: &str, value: u32, name_of: impl Fn(u32) -> &'a str) {
        if (self.len + 1) * 2 > self.slots.len() {
            let size = (self.slots.len() * 2).max(16);
            let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
            for slot in old.into_iter().filter(|&v| v != EMPTY) {
                let v = slot as u32;
                self.place(self.hash(name_of(v)), v);
            }
        }
        self.place(self.hash(key), value);
        self.len += 1;
    }

    fn place(&mut self, hash: u64, value: u32) {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        while self.slots[i] != EMPTY {
            i = (i + 1) & mask;
        }
        // A value of u32::MAX with an all-ones tag would read as EMPTY; indices stop below it.
        self.slots[i] = (hash >> 32) << 32 | u64::from(value);
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.len = 0;
    }
}

/// Interned agent names.
#[derive(Debug, Default)]
struct Interner {
    /// The names in one buffer, not a heap block each: a big trace names
    /// agents by the hundred thousand.
    names: IdTable,
    index: StrIndex,
}

impl Interner {
    fn intern(&mut self, name: &str) -> u32 {
        let names = &self.names;
        if let Some(i) = self.index.get(name, |i| names.get(i)) {
            return i;
        }
        let i = self.names.len() as u32;
        if !self.names.push(name) {
            // Past 4 GiB of names (never within the size limits): the name
            // stays unknown rather than aliasing another.
            return u32::MAX;
        }
        let names = &self.names;
        self.index.insert_new(name, i, |i| names.get(i));
        i
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Events,
    Edges,
}

/// Arrays are replaced in the root skeleton by at most this many nulls; the
/// root schema's array keywords only look at the length up to this (checked
/// by a test in `schema`).
pub(crate) const PLACEHOLDER_ITEMS: usize = 16;

/// Items beyond this count are refused, since indices are kept as `u32`.
const MAX_ITEMS: usize = (u32::MAX - 1) as usize;

struct Builder<'v> {
    validators: &'v Validators,
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

impl<'v> Builder<'v> {
    fn new(validators: &'v Validators) -> Self {
        Builder {
            validators,
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
    fn apply(&mut self, op: Op<'_>) {
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
        let (validator, prefix, surely_valid) = match which {
            Which::Events => (
                &self.validators.event,
                "events",
                schema::event_surely_valid(&value),
            ),
            Which::Edges => (
                &self.validators.edge,
                "edges",
                schema::edge_surely_valid(&value),
            ),
        };
        if !surely_valid && !validator.is_valid(&value) {
            let findings = schema::findings(validator, &value, &format!("/{prefix}/{n}"));
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
                "trace-schema",
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

    fn finish(mut self, skeleton: Value) -> Loaded {
        let mut findings = schema::findings(&self.validators.root, &skeleton, "");
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
            return self.into_loaded(Map::new(), unresolved, findings);
        };
        // Drop the placeholders before keeping the rest.
        top.remove("events");
        top.remove("edges");
        self.into_loaded(top, unresolved, findings)
    }

    fn into_loaded(
        self,
        top: Map<String, Value>,
        unresolved: Vec<Unresolved>,
        findings: Vec<Finding>,
    ) -> Loaded {
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

/// Reads any JSON value; used where a trace has the wrong shape.
macro_rules! scalar_visits {
    () => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
            self.other(Value::Bool(v))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
            self.other(Value::from(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
            self.other(Value::from(v))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
            self.other(Value::from(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
            self.other(Value::String(v.to_string()))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
            self.other(Value::String(v))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
            self.other(Value::Null)
        }
    };
}

/// The top-level document.
struct TopSeed<'a, 'f, 'v, 'de> {
    b: &'a mut Feed<'f, 'v, 'de>,
}

impl<'de> DeserializeSeed<'de> for TopSeed<'_, '_, '_, 'de> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl TopSeed<'_, '_, '_, '_> {
    fn other<E: de::Error>(self, v: Value) -> Result<Value, E> {
        self.b.send(Op::NotAnArray(Which::Events));
        self.b.send(Op::NotAnArray(Which::Edges));
        Ok(v)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_, '_, '_, 'de> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a trace object")
    }

    scalar_visits!();

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        let v = Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        self.other(v)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut top = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = match key.as_str() {
                "events" => map.next_value_seed(ItemsSeed {
                    b: &mut *self.b,
                    which: Which::Events,
                })?,
                "edges" => map.next_value_seed(ItemsSeed {
                    b: &mut *self.b,
                    which: Which::Edges,
                })?,
                _ => map.next_value::<Value>()?,
            };
            top.insert(key, value);
        }
        Ok(Value::Object(top))
    }
}

use serde::Deserialize;

/// The `events` or `edges` array, read one item at a time.
struct ItemsSeed<'a, 'f, 'v, 'de> {
    b: &'a mut Feed<'f, 'v, 'de>,
    which: Which,
}

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_, '_, '_, 'de> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.b.send(Op::Reset(self.which));
        d.deserialize_any(self)
    }
}

impl ItemsSeed<'_, '_, '_, '_> {
    fn other<E: de::Error>(self, v: Value) -> Result<Value, E> {
        self.b.send(Op::NotAnArray(self.which));
        Ok(v)
    }
}

impl<'de> Visitor<'de> for ItemsSeed<'_, '_, '_, 'de> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }

    scalar_visits!();

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        let v = Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        self.other(v)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut n = 0usize;
        let mut batch = Vec::with_capacity(BATCH_ITEMS);
        while let Some(item) = seq.next_element_seed(ItemSeed { which: self.which })? {
            if n >= MAX_ITEMS {
                return Err(de::Error::custom("too many items in one array"));
            }
            batch.push(item);
            n += 1;
            if batch.len() == BATCH_ITEMS {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_ITEMS));
                self.b.send(Op::Items(self.which, n - BATCH_ITEMS, full));
            }
        }
        if !batch.is_empty() {
            let first = n - batch.len();
            self.b.send(Op::Items(self.which, first, batch));
        }
        if self.which == Which::Events {
            self.b.send(Op::EventsDone);
        }
        Ok(Value::Array(vec![Value::Null; n.min(PLACEHOLDER_ITEMS)]))
    }
}

/// One item of `events` or `edges`, read without building a `Value` when it
/// is an object whose properties plainly meet the item schema.
struct ItemSeed {
    which: Which,
}

impl<'de> DeserializeSeed<'de> for ItemSeed {
    type Value = Item<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Item<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl ItemSeed {
    fn other<E: de::Error>(self, v: Value) -> Result<Item<'static>, E> {
        Ok(Item::Value(v))
    }
}

impl<'de> Visitor<'de> for ItemSeed {
    type Value = Item<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Item<'de>, E> {
        self.other(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Item<'de>, E> {
        self.other(Value::from(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Item<'de>, E> {
        self.other(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Item<'de>, E> {
        self.other(Value::from(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Item<'de>, E> {
        self.other(Value::String(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Item<'de>, E> {
        self.other(Value::String(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Item<'de>, E> {
        self.other(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Item<'de>, A::Error> {
        Ok(Item::Value(Value::deserialize(
            de::value::SeqAccessDeserializer::new(seq),
        )?))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item<'de>, A::Error> {
        // In document order, repeats included, so the `Value` can be rebuilt exactly.
        let mut fields: Vec<(Cow<'de, str>, Field<'de>)> = Vec::with_capacity(8);
        while let Some(key) = map.next_key_seed(TextSeed)? {
            let value = map.next_value_seed(FieldSeed)?;
            fields.push((key, value));
        }
        let seen = || fields.iter().map(|(k, v)| (&**k, v.seen()));
        Ok(match self.which {
            Which::Events if schema::event_fields_surely_valid(seen()) => {
                Item::Event(raw_event(fields))
            }
            Which::Edges if schema::edge_fields_surely_valid(seen()) => {
                Item::Edge(raw_edge(fields))
            }
            _ => {
                let mut object = Map::new();
                for (k, v) in fields {
                    object.insert(k.into_owned(), v.into_value());
                }
                Item::Value(Value::Object(object))
            }
        })
    }
}

/// An event's fields, once they have passed the item schema's keywords.
fn raw_event<'de>(fields: Vec<(Cow<'de, str>, Field<'de>)>) -> RawEvent<'de> {
    let mut e = RawEvent {
        id: Cow::Borrowed(""),
        t: 0.0,
        kind: EventKind::Message,
        agent: Cow::Borrowed(""),
        from: None,
        to: None,
        trusted: None,
    };
    for (key, value) in fields {
        match (&*key, value) {
            ("id", Field::Str(s)) => e.id = s,
            ("agent", Field::Str(s)) => e.agent = s,
            ("from", Field::Str(s)) => e.from = Some(s),
            ("to", Field::Str(s)) => e.to = Some(s),
            ("type", Field::Str(s)) => e.kind = EventKind::from_name(&s).unwrap_or(e.kind),
            ("t", Field::Other(v)) => e.t = v.as_f64().unwrap_or(e.t),
            ("trusted", Field::Other(v)) => e.trusted = v.as_bool(),
            _ => {}
        }
    }
    e
}

/// An edge's fields, once they have passed the item schema's keywords.
fn raw_edge<'de>(fields: Vec<(Cow<'de, str>, Field<'de>)>) -> RawEdge<'de> {
    let mut e = RawEdge {
        src: Cow::Borrowed(""),
        dst: Cow::Borrowed(""),
        kind: EdgeKind::Causal,
    };
    for (key, value) in fields {
        match (&*key, value) {
            ("src", Field::Str(s)) => e.src = s,
            ("dst", Field::Str(s)) => e.dst = s,
            ("type", Field::Str(s)) => e.kind = EdgeKind::from_name(&s).unwrap_or(e.kind),
            _ => {}
        }
    }
    e
}

/// A property value of an item: a string kept borrowed when it can be, anything else as a `Value`.
enum Field<'de> {
    Str(Cow<'de, str>),
    Other(Value),
}

impl Field<'_> {
    fn seen(&self) -> schema::Seen<'_> {
        match self {
            Field::Str(s) => schema::Seen::Str(s),
            Field::Other(v) => schema::Seen::Other(v),
        }
    }

    fn into_value(self) -> Value {
        match self {
            Field::Str(s) => Value::String(s.into_owned()),
            Field::Other(v) => v,
        }
    }
}

/// Reads a string (a key), borrowing it from the file when it holds no escapes.
struct TextSeed;

impl<'de> DeserializeSeed<'de> for TextSeed {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for TextSeed {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

/// Reads a property value as a [`Field`], exactly as `Value` would read it otherwise.
struct FieldSeed;

impl<'de> DeserializeSeed<'de> for FieldSeed {
    type Value = Field<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Field<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FieldSeed {
    type Value = Field<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Field<'de>, E> {
        Ok(Field::Other(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Field<'de>, E> {
        Ok(Field::Other(Value::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field<'de>, E> {
        Ok(Field::Other(Value::from(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Field<'de>, E> {
        Ok(Field::Other(Value::from(v)))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Field<'de>, E> {
        Ok(Field::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Field<'de>, E> {
        Ok(Field::Str(Cow::Owned(v.to_string())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Field<'de>, E> {
        Ok(Field::Str(Cow::Owned(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Field<'de>, E> {
        Ok(Field::Other(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Field<'de>, A::Error> {
        Ok(Field::Other(Value::deserialize(
            de::value::SeqAccessDeserializer::new(seq),
        )?))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Field<'de>, A::Error> {
        Ok(Field::Other(Value::deserialize(
            de::value::MapAccessDeserializer::new(map),
        )?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(text: &str) -> Loaded {
        load(text.as_bytes()).expect("json")
    }

    /// A trace of `n` events in a chain, with a bad item, a duplicate id and a dangling edge.
    fn big_trace(n: usize) -> String {
        let mut events: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"id":"e{i}","t":{i},"type":"message","agent":"a{}","from":"a","to":"b","trusted":true}}"#, i % 7))
            .collect();
        events[n / 3] = r#"{"id":"bad","t":"late","type":"teleport","agent":"x"}"#.to_string();
        events[n / 2] = format!(r#"{{"id":"e1","t":{},"type":"return","agent":"y"}}"#, n / 2);
        let mut edges: Vec<String> = (1..n)
            .map(|i| format!(r#"{{"src":"e{}","dst":"e{i}","type":"causal"}}"#, i - 1))
            .collect();
        edges.push(r#"{"src":"e0","dst":"nowhere","type":"causal"}"#.to_string());
        format!(
            r#"{{"trace_id":"t","task_id":"k","events":[{}],"edges":[{}],"rewards":{{}},"costs":{{"tokens":0,"wall_clock_s":0}}}}"#,
            events.join(","),
            edges.join(",")
        )
    }

    #[test]
    fn two_threads_build_what_one_builds() {
        let v = schema::validators().expect("schema compiles");
        // Several batches, and a final partial one.
        let text = big_trace(3 * BATCH_ITEMS + 17);
        let one = load_with(v, text.as_bytes(), false).expect("json");
        let two = load_with(v, text.as_bytes(), true).expect("json");
        assert_eq!(one.trace, two.trace);
        assert_eq!(format!("{:?}", one.findings), format!("{:?}", two.findings));
        assert_eq!(one.items_valid, two.items_valid);
        assert!(!one.findings.is_empty() && !one.trace.duplicate_ids.is_empty());
        // The replaced events leave four edges dangling, plus the one to "nowhere".
        assert_eq!(one.trace.unresolved.len(), 5);
        // A syntax error after many items is the same error either way.
        let cut = &text[..text.len() - 40];
        let e1 = load_with(v, cut.as_bytes(), false).expect_err("truncated");
        let e2 = load_with(v, cut.as_bytes(), true).expect_err("truncated");
        assert_eq!(e1, e2);
    }

    #[test]
    fn large_files_take_the_two_thread_path() {
        let text = big_trace(12_000);
        assert!(text.len() >= PIPELINE_MIN_BYTES, "{} bytes", text.len());
        let l = loaded(&text);
        assert_eq!(l.trace.events.len(), 12_000 - 1);
        assert!(!l.items_valid);
    }

    #[test]
    fn str_index_finds_what_it_stored_and_grows() {
        let names: Vec<String> = (0..1000).map(|i| format!("n{i}")).collect();
        let mut idx = StrIndex::default();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(idx.get(n, |j| &names[j as usize]), None);
            idx.insert_new(n, i as u32, |j| &names[j as usize]);
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(idx.get(n, |j| &names[j as usize]), Some(i as u32));
        }
        assert_eq!(idx.get("absent", |j| &names[j as usize]), None);
    }

    #[test]
    fn edges_before_events_are_resolved() {
        let l = loaded(
            r#"{"trace_id":"t","task_id":"k","edges":[{"src":"a","dst":"b","type":"causal"},{"src":"a","dst":"zz","type":"causal"}],
                "events":[{"id":"a","t":0,"type":"spawn","agent":"x","to":"y"},{"id":"b","t":1,"type":"return","agent":"y"}],
                "rewards":{},"costs":{"tokens":0,"wall_clock_s":0}}"#,
        );
        assert!(l.findings.is_empty(), "{:?}", l.findings);
        assert_eq!(l.trace.edges[0].src.get(), Some(0));
        assert_eq!(l.trace.edges[0].dst.get(), Some(1));
        assert_eq!(l.trace.edges[1].dst.get(), None);
        assert_eq!(l.trace.unresolved.len(), 1);
        assert_eq!(&*l.trace.unresolved[0].name, "zz");
    }

    #[test]
    fn duplicate_events_key_last_wins() {
        let l = loaded(
            r#"{"trace_id":"t","task_id":"k",
                "events":[{"id":"old","t":0,"type":"spawn","agent":"x","to":"y"}],
                "edges":[{"src":"a","dst":"old","type":"causal"}],
                "events":[{"id":"a","t":0,"type":"spawn","agent":"x","to":"y"},{"id":"old","t":1,"type":"return","agent":"y"}],
                "rewards":{},"costs":{"tokens":0,"wall_clock_s":0}}"#,
        );
        assert!(l.findings.is_empty(), "{:?}", l.findings);
        assert_eq!(l.trace.events.len(), 2);
        assert_eq!(l.trace.edges[0].src.get(), Some(0));
        assert_eq!(l.trace.edges[0].dst.get(), Some(1));
    }

    #[test]
    fn items_read_without_values_match_the_schema_engine() {
        let doc = |events: &str, edges: &str| {
            format!(
                r#"{{"trace_id":"t","task_id":"k","events":[{events}],"edges":[{edges}],"rewards":{{}},"costs":{{"tokens":0,"wall_clock_s":0}}}}"#
            )
        };
        // Escaped strings are read owned and still resolve.
        let l = loaded(&doc(
            r#"{"id":"\u0061","t":1,"type":"spawn","agent":"x\n","to":"y","x":{"deep":[1,{"a":null}]}},{"id":"b","t":2,"type":"return","agent":"y","from":"y","to":"x\n"}"#,
            r#"{"src":"a","dst":"\u0062","type":"spawn"}"#,
        ));
        assert!(l.findings.is_empty(), "{:?}", l.findings);
        assert_eq!(l.trace.edges[0].src.get(), Some(0));
        assert_eq!(l.trace.edges[0].dst.get(), Some(1));
        assert_eq!(l.trace.events[1].to.get(), Some(0));
        // A repeated property: the last one counts, as in serde_json's `Value`.
        let l = loaded(&doc(
            r#"{"id":"a","t":-1,"t":2,"type":"spawn","agent":"x"}"#,
            "",
        ));
        assert!(l.findings.is_empty(), "{:?}", l.findings);
        assert_eq!(l.trace.events[0].t, 2.0);
        let l = loaded(&doc(
            r#"{"id":"a","t":2,"t":-1,"type":"spawn","agent":"x"}"#,
            "",
        ));
        let pointers: Vec<_> = l.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(pointers, ["/events/0/t"]);
        let l = loaded(&doc(
            r#"{"id":"a","t":2,"type":"spawn","agent":"x"}"#,
            r#"{"src":"a","src":"a","dst":"a","type":"temporal","type":"bogus"}"#,
        ));
        let pointers: Vec<_> = l.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(pointers, ["/edges/0/type"]);
        // Items that are not objects go to the engine.
        let l = loaded(&doc(
            r#"{"id":"a","t":2,"type":"spawn","agent":"x"},[1],"e",null"#,
            "3",
        ));
        let pointers: Vec<_> = l.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            ["/events/1", "/events/2", "/events/3", "/edges/0"]
        );
    }

    #[test]
    fn invalid_utf8_is_reported_where_it_is() {
        // Not UTF-8 as a whole: read from bytes, the error points at the bad string.
        let e = load(b"{\"trace_id\": \"ok\",\n \"task_id\": \"a\xffb\"}").unwrap_err();
        assert_eq!(e.message, "invalid JSON: invalid unicode code point");
        assert_eq!((e.line, e.column), (2, 15));
        // UTF-8 beyond ASCII is fine.
        let l = loaded(
            r#"{"trace_id":"é","task_id":"k","events":[{"id":"ü","t":1,"type":"spawn","agent":"日本"}],"edges":[],"rewards":{},"costs":{"tokens":0,"wall_clock_s":0}}"#,
        );
        assert!(l.findings.is_empty(), "{:?}", l.findings);
        assert_eq!(l.trace.event_ids.get(0), "ü");
    }

    #[test]
    fn agents_are_interned_once() {
        let l = loaded(
            r#"{"trace_id":"t","task_id":"k","events":[
                {"id":"a","t":0,"type":"spawn","agent":"x","to":"y"},
                {"id":"b","t":1,"type":"message","agent":"y","from":"y","to":"x"}],
                "edges":[],"rewards":{},"costs":{"tokens":0,"wall_clock_s":0}}"#,
        );
        assert_eq!(l.trace.agent_count(), 2);
        assert_eq!(l.trace.events[1].from.get(), Some(1));
        assert_eq!(l.trace.events[1].to.get(), Some(0));
    }

    #[test]
    fn wrong_shapes_fail_the_schema_without_graph_rules() {
        let l = loaded(
            r#"{"trace_id":"t","task_id":"k","events":{"a":1},"edges":5,"rewards":{},"costs":{"tokens":0,"wall_clock_s":0}}"#,
        );
        assert!(!l.items_valid);
        let pointers: Vec<_> = l.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert!(pointers.contains(&"/events"), "{pointers:?}");
        assert!(pointers.contains(&"/edges"), "{pointers:?}");
    }

    #[test]
    fn json_errors_carry_position() {
        let e = load(b"{\"a\": [1, 2,]}").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.column > 0);
        assert!(e.message.starts_with("invalid JSON"));
        let e = load(b"{\"a\": ").unwrap_err();
        assert!(e.help.unwrap().contains("ends early"));
        let e = load(b"{\"a\": 1e999}").unwrap_err();
        assert!(e.message.contains("out of range"), "{}", e.message);
    }
}
