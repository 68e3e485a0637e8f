//! OTLP `AnyValue`s, checked for a known shape as they stream past; nested values are not kept.

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// A decoded `AnyValue`; nested values are checked but not kept.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Any {
    Str(super::Atom),
    Int(i64),
    Double,
    Bool(bool),
    Bytes,
    Array,
    Kvlist,
    Empty,
    /// A shape OTLP does not define: what was wrong.
    Bad(String),
}

impl Any {
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Any::Str(_) => "stringValue",
            Any::Int(_) => "intValue",
            Any::Double => "doubleValue",
            Any::Bool(_) => "boolValue",
            Any::Bytes => "bytesValue",
            Any::Array => "arrayValue",
            Any::Kvlist => "kvlistValue",
            Any::Empty => "an empty value",
            Any::Bad(_) => "an unknown type",
        }
    }
}

impl<'de> Deserialize<'de> for Any {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyVisitor)
    }
}

struct AnyVisitor;

impl<'de> Visitor<'de> for AnyVisitor {
    type Value = Any;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an OTLP AnyValue object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Any, A::Error> {
        let mut out = Any::Empty;
        let mut seen = 0usize;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            seen += 1;
            let value = match &*key {
                "stringValue" => match map.next_value::<Scalar>()? {
                    Scalar::Str(s) => Any::Str(super::atom::atom(&s)),
                    other => Any::Bad(format!("stringValue holds {}", other.describe())),
                },
                "intValue" => match map.next_value::<Scalar>()? {
                    Scalar::Int(i) => Any::Int(i),
                    Scalar::Str(s) => match s.parse::<i64>() {
                        Ok(i) => Any::Int(i),
                        Err(_) => Any::Bad(format!("intValue \"{s}\" is not a 64-bit integer")),
                    },
                    other => Any::Bad(format!("intValue holds {}", other.describe())),
                },
                "doubleValue" => match map.next_value::<Scalar>()? {
                    Scalar::Int(_) | Scalar::Float => Any::Double,
                    Scalar::Str(s) if matches!(&*s, "NaN" | "Infinity" | "-Infinity") => {
                        Any::Double
                    }
                    other => Any::Bad(format!("doubleValue holds {}", other.describe())),
                },
                "boolValue" => match map.next_value::<Scalar>()? {
                    Scalar::Bool(b) => Any::Bool(b),
                    other => Any::Bad(format!("boolValue holds {}", other.describe())),
                },
                "bytesValue" => match map.next_value::<Scalar>()? {
                    Scalar::Str(_) => Any::Bytes,
                    other => Any::Bad(format!("bytesValue holds {}", other.describe())),
                },
                "arrayValue" => match map.next_value::<ArrayValue>()? {
                    ArrayValue(None) => Any::Array,
                    ArrayValue(Some(bad)) => Any::Bad(format!("inside arrayValue: {bad}")),
                },
                "kvlistValue" => match map.next_value::<KvlistValue>()? {
                    KvlistValue(None) => Any::Kvlist,
                    KvlistValue(Some(bad)) => Any::Bad(format!("inside kvlistValue: {bad}")),
                },
                other => {
                    map.next_value::<IgnoredAny>()?;
                    Any::Bad(format!("unknown AnyValue type `{other}`"))
                }
            };
            // Keep the first problem; a second member is itself a problem.
            out = match (out, value) {
                (Any::Bad(b), _) => Any::Bad(b),
                (_, Any::Bad(b)) => Any::Bad(b),
                (_, v) if seen > 1 => {
                    Any::Bad(format!("more than one type set (also {})", v.type_name()))
                }
                (_, v) => v,
            };
        }
        Ok(out)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Any, E> {
        Ok(Any::Empty)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare boolean instead of an AnyValue object".into(),
        ))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare number instead of an AnyValue object".into(),
        ))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare number instead of an AnyValue object".into(),
        ))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare number instead of an AnyValue object".into(),
        ))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Any, E> {
        Ok(Any::Bad(
            "a bare string instead of an AnyValue object".into(),
        ))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Any, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Any::Bad(
            "a bare array instead of an AnyValue object".into(),
        ))
    }
}

/// A JSON scalar, for checking the member of an `AnyValue`.
pub(super) enum Scalar {
    Str(String),
    Int(i64),
    Float,
    Bool(bool),
    Other(&'static str),
}

impl Scalar {
    fn describe(&self) -> String {
        match self {
            Scalar::Str(s) => format!("the string \"{s}\""),
            Scalar::Int(i) => format!("the number {i}"),
            Scalar::Float => "a number".into(),
            Scalar::Bool(_) => "a boolean".into(),
            Scalar::Other(what) => (*what).into(),
        }
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON scalar")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Scalar, E> {
                Ok(Scalar::Str(s.to_string()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Scalar, E> {
                Ok(Scalar::Str(s))
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<Scalar, E> {
                Ok(Scalar::Int(i))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Scalar, E> {
                Ok(i64::try_from(u).map_or(Scalar::Float, Scalar::Int))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Scalar, E> {
                Ok(Scalar::Float)
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Scalar, E> {
                Ok(Scalar::Bool(b))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Scalar, E> {
                Ok(Scalar::Other("null"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other("an array"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other("an object"))
            }
        }
        d.deserialize_any(V)
    }
}

/// `{"values": [AnyValue…]}`: the first problem inside, if any.
struct ArrayValue(Option<String>);

impl<'de> Deserialize<'de> for ArrayValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            #[serde(default)]
            values: Vec<Any>,
        }
        let raw = Raw::deserialize(d)?;
        Ok(ArrayValue(raw.values.into_iter().find_map(|v| match v {
            Any::Bad(b) => Some(b),
            _ => None,
        })))
    }
}

/// `{"values": [{"key", "value"}…]}`: the first problem inside, if any.
struct KvlistValue(Option<String>);

impl<'de> Deserialize<'de> for KvlistValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Kv {
            #[serde(default)]
            value: Option<Any>,
        }
        #[derive(Deserialize)]
        struct Raw {
            #[serde(default)]
            values: Vec<Kv>,
        }
        let raw = Raw::deserialize(d)?;
        Ok(KvlistValue(raw.values.into_iter().find_map(
            |kv| match kv.value {
                Some(Any::Bad(b)) => Some(b),
                _ => None,
            },
        )))
    }
}
