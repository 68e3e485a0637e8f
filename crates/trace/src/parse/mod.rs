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
//!
//! `document` walks the file, `item` types plain items as they are read,
//! `builder` assembles the trace and `index` maps ids to indices; this module
//! runs them, on one thread or two.

mod builder;
mod document;
mod index;
mod item;

use super::finding::Finding;
use super::{EdgeKind, EventKind, Trace};
use builder::Builder;
use document::TopSeed;
use serde::de::DeserializeSeed;
use serde_json::Value;
use std::borrow::Cow;

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
    load_with(bytes, bytes.len() >= PIPELINE_MIN_BYTES)
}

/// Parses and schema-checks `bytes`, on one thread or two.
fn load_with(bytes: &[u8], piped: bool) -> Result<Loaded, JsonError> {
    let mut builder = Builder::new();
    if !piped {
        let skeleton = parse(&mut Feed::Direct(&mut builder), bytes)?;
        return builder.finish(skeleton).map_err(engine_error);
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
        builder.finish(parsed?).map_err(engine_error)
    })
}

/// The schema engine could not be built: the shipped schema is broken.
fn engine_error(message: String) -> JsonError {
    JsonError {
        message: format!("internal error: the trace schema does not compile: {message}"),
        line: 0,
        column: 0,
        help: None,
    }
}

/// Files smaller than this are checked on the parsing thread: a thread costs more than it saves.
const PIPELINE_MIN_BYTES: usize = 1 << 20;

/// Batches in flight between the parsing and the checking thread.
const PIPELINE_DEPTH: usize = 4;

/// Items sent to the checking thread at once.
const BATCH_ITEMS: usize = 256;

/// Parses the document, feeding the arrays' items to the builder; returns the skeleton.
fn parse<'de>(feed: &mut Feed<'_, 'de>, bytes: &'de [u8]) -> Result<Value, JsonError> {
    // Checking the whole file's UTF-8 at once is far cheaper than string by
    // string; a file that fails it is read from bytes, so its error (and
    // position) is the one serde_json gives there.
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_from(feed, serde_json::Deserializer::from_str(text)),
        Err(_) => parse_from(feed, serde_json::Deserializer::from_slice(bytes)),
    }
}

fn parse_from<'de, R: serde_json::de::Read<'de>>(
    feed: &mut Feed<'_, 'de>,
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
enum Feed<'a, 'de> {
    Direct(&'a mut Builder),
    Piped {
        tx: std::sync::mpsc::SyncSender<Op<'de>>,
        /// Set when the checking thread has gone; it only goes by panicking,
        /// which `load` re-raises after the parse.
        failed: bool,
    },
}

impl<'de> Feed<'_, 'de> {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Events,
    Edges,
}

/// Arrays are replaced in the root skeleton by at most this many nulls; the
/// root schema's array keywords only look at the length up to this (checked
/// by a test in `schema`).
pub(crate) const PLACEHOLDER_ITEMS: usize = 16;

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
        // Several batches, and a final partial one.
        let text = big_trace(3 * BATCH_ITEMS + 17);
        let one = load_with(text.as_bytes(), false).expect("json");
        let two = load_with(text.as_bytes(), true).expect("json");
        assert_eq!(one.trace, two.trace);
        assert_eq!(format!("{:?}", one.findings), format!("{:?}", two.findings));
        assert_eq!(one.items_valid, two.items_valid);
        assert!(!one.findings.is_empty() && !one.trace.duplicate_ids.is_empty());
        // The replaced events leave four edges dangling, plus the one to "nowhere".
        assert_eq!(one.trace.unresolved.len(), 5);
        // A syntax error after many items is the same error either way.
        let cut = &text[..text.len() - 40];
        let e1 = load_with(cut.as_bytes(), false).expect_err("truncated");
        let e2 = load_with(cut.as_bytes(), true).expect_err("truncated");
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
