//! The serde walk of the document: the top-level object, and the `events`
//! and `edges` arrays sent to the builder in batches as they are read.

use super::item::ItemSeed;
use super::{Feed, Op, Which, BATCH_ITEMS, PLACEHOLDER_ITEMS};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::fmt;

/// Items beyond this count are refused, since indices are kept as `u32`.
const MAX_ITEMS: usize = (u32::MAX - 1) as usize;

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
pub(super) struct TopSeed<'a, 'f, 'de> {
    pub(super) b: &'a mut Feed<'f, 'de>,
}

impl<'de> DeserializeSeed<'de> for TopSeed<'_, '_, 'de> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl TopSeed<'_, '_, '_> {
    fn other<E: de::Error>(self, v: Value) -> Result<Value, E> {
        self.b.send(Op::NotAnArray(Which::Events));
        self.b.send(Op::NotAnArray(Which::Edges));
        Ok(v)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_, '_, 'de> {
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

/// The `events` or `edges` array, read one item at a time.
struct ItemsSeed<'a, 'f, 'de> {
    b: &'a mut Feed<'f, 'de>,
    which: Which,
}

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_, '_, 'de> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.b.send(Op::Reset(self.which));
        d.deserialize_any(self)
    }
}

impl ItemsSeed<'_, '_, '_> {
    fn other<E: de::Error>(self, v: Value) -> Result<Value, E> {
        self.b.send(Op::NotAnArray(self.which));
        Ok(v)
    }
}

impl<'de> Visitor<'de> for ItemsSeed<'_, '_, 'de> {
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
