//! serde's errors about values and fields, in the words of a data file.

use super::raw::Raw;
use super::{ErrorKind, Explained};
use regex::Regex;
use std::sync::OnceLock;

/// serde's own errors about values and fields: an integer too large for
/// 64 bits, a value of the wrong kind, a missing or unknown field.
pub(super) fn wrong_type(r: &Raw) -> Option<Explained> {
    static SERDE: OnceLock<Regex> = OnceLock::new();
    let re = SERDE.get_or_init(|| {
        Regex::new(r"^(?:(.*?): )?(invalid type|invalid value|missing field|unknown field|unknown variant)(?:: | `)(.*)$")
            .expect("valid regex")
    });
    let c = re.captures(r.problem)?;
    let path = c.get(1).map(|m| m.as_str()).filter(|p| !p.contains(' '));
    let what_kind = c.get(2)?.as_str();
    let rest = c.get(3)?.as_str();
    // The last part of serde's path is the field (`claims[0].where` -> `where`).
    let field = path
        .and_then(|p| p.rsplit('.').next())
        .map(|f| f.split('[').next().unwrap_or(f))
        .filter(|f| !f.is_empty())
        .map(str::to_string);
    // The path without its last part is where the field sits (`claims[0]`).
    let place = path
        .and_then(|p| match p.rsplit_once('.') {
            Some((parent, _)) => Some(parent),
            None if Some(p) != field.as_deref() => Some(p),
            None => None,
        })
        .map_or_else(String::new, |p| format!(" in `{p}`"));
    let what = field
        .as_deref()
        .map_or_else(|| "the file".to_string(), |f| format!("`{f}`"));
    let expected = |s: &str| {
        s.split_once(", expected ")
            .map(|(found, exp)| (found.to_string(), exp.replace('`', "")))
    };
    let x = match what_kind {
        // serde_yaml reads an integer beyond 64 bits as a u128/i128 and then
        // names that internal type; say what it means instead.
        "invalid type" if rest.contains(" as u128") || rest.contains(" as i128") => {
            let num = rest.split('`').nth(1).unwrap_or("");
            Explained::new(
                format!("{what} holds the number {num}, which is too large to be a value here"),
                "write a real value, e.g. a four-digit year; quote it if it is text",
            )
        }
        "invalid type" | "invalid value" => {
            let (found, exp) =
                expected(rest).unwrap_or((rest.to_string(), "another kind of value".into()));
            let (found, exp) = (plain_kind(&found), plain_kind(&exp));
            Explained::new(
                format!("{what}{place} holds {found} where {exp} is expected"),
                format!("write {exp} there (a `!!` tag, if any, must fit the value)"),
            )
        }
        "missing field" => {
            let name = rest.trim_end_matches('`');
            Explained::new(
                format!("the required field `{name}` is missing{place}"),
                format!("add `{name}: …`"),
            )
        }
        _ => {
            let name = rest.split('`').next().unwrap_or("");
            let allowed = rest
                .split_once("expected ")
                .map(|(_, e)| e.replace("one of ", "").replace('`', ""))
                .unwrap_or_default();
            let noun = if what_kind == "unknown field" {
                "field"
            } else {
                "value"
            };
            Explained::new(
                format!("`{name}` is not a {noun} allowed{place}"),
                format!("use one of: {allowed}"),
            )
        }
    };
    Some(Explained {
        kind: ErrorKind::Type,
        field,
        ..x.at(r.at)
    })
}

/// serde's names of kinds of values (`sequence`, `struct Taxonomy`,
/// ``integer `5` ``) in the words of a data file.
fn plain_kind(s: &str) -> String {
    let s = s.trim();
    let t = s
        .strip_prefix("a ")
        .or_else(|| s.strip_prefix("an "))
        .unwrap_or(s);
    if t.starts_with("struct ") || t.starts_with("map") {
        return "a mapping of fields".into();
    }
    if t.starts_with("sequence") || t.starts_with("tuple") {
        return "a list".into();
    }
    if t.starts_with("unit") || t == "null" {
        return "an empty value".into();
    }
    for (serde, ours) in [
        ("string ", "the text "),
        ("integer ", "the number "),
        ("floating point ", "the number "),
        ("boolean ", ""),
        ("char ", "the character "),
    ] {
        if let Some(v) = t.strip_prefix(serde) {
            return format!("{ours}{}", v.replace('`', ""));
        }
    }
    s.replace('`', "")
}
