//! The typed fast path: one array item read straight into its typed fields
//! when they plainly meet the item schema, else kept as a `Value` for the
//! schema engine.

use super::{Item, RawEdge, RawEvent, Which};
use crate::schema;
use crate::{EdgeKind, EventKind};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// One item of `events` or `edges`, read without building a `Value` when it
/// is an object whose properties plainly meet the item schema.
pub(super) struct ItemSeed {
    pub(super) which: Which,
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
