//! libyaml's scanner and parser problems, each explained with the line
//! where the fix goes.

use super::lines::{char_at, indent, key_of, line_above, line_of, quoted};
use super::raw::Raw;
use super::{Explained, LAYOUT_HELP};

/// The nesting depth serde_yaml accepts before "recursion limit exceeded".
const MAX_DEPTH: usize = 128;

/// Whether the text holds an alias (`*name` where a value starts), outside comments.
fn has_alias(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.split(" #").next().unwrap_or("");
        l.char_indices().any(|(i, c)| {
            c == '*'
                && l[..i]
                    .chars()
                    .next_back()
                    .is_none_or(|p| p.is_whitespace() || "[{,:-".contains(p))
                && l[i + 1..].starts_with(|n: char| !n.is_whitespace())
        })
    })
}

/// libyaml's scanner and parser problems.
pub(super) fn syntax(r: &Raw, text: &str) -> Option<Explained> {
    let p = r.problem;
    let at = r.at;
    let here = at.and_then(|pos| char_at(text, pos));
    let (line_no, col) = at.unwrap_or((0, 0));
    let line = line_of(text, line_no);
    if here == Some('\t') || p.contains("tab character") {
        return Some(
            Explained::new(
                format!("line {line_no} is indented with a tab, and YAML indents with spaces only"),
                "replace the tab with spaces (two for each level)",
            )
            .at(at),
        );
    }
    if line.contains('\u{feff}') {
        return Some(
            Explained::new(
                format!("line {line_no} holds a byte-order mark (U+FEFF), an invisible character YAML allows only at the very start of a file"),
                "delete it (it often comes from pasting text or joining two files)",
            )
            .at(at),
        );
    }
    let x = match p {
        _ if p.starts_with("control characters are not allowed") => control_character(text)?,
        "found unexpected end of stream" | "found unexpected document indicator"
            if r.context.contains("quoted scalar") =>
        {
            let start = r.context_at;
            let quote = start.and_then(|pos| char_at(text, pos)).unwrap_or('\'');
            let (l, _) = start.unwrap_or((line_no, col));
            let inside = if quote == '"' {
                "write a `\"` inside the value as `\\\"`"
            } else {
                "write a `'` inside the value as `''`"
            };
            Explained::new(
                format!("the quoted value that starts on line {l} is never closed: no closing {quote} follows it"),
                format!("end the value with {quote} on the same line; {inside}"),
            )
            .at(start)
        }
        "mapping values are not allowed in this context" => mapping_value(text, at?),
        "did not find expected key" => expected_key(text, at?),
        "could not find expected ':'" => {
            let (l, _) = r.context_at.unwrap_or((line_no, col));
            let bad = line_of(text, l);
            let above = line_above(text, l).map(|(_, s)| s.trim_end()).unwrap_or("");
            let help = if above.ends_with('|') || above.ends_with('>') || above.ends_with("|-") || above.ends_with(">-") {
                "indent the lines of a `|` or `>` block by two spaces under its field".to_string()
            } else if let Some((k, v)) = bad.trim().split_once(':') {
                format!("put a space after the colon: `{}: {}`", k.trim(), v.trim())
            } else {
                format!("write `field: value`, with a colon and a space after the field name; {LAYOUT_HELP}")
            };
            Explained::new(
                format!("line {l} is neither `field: value` nor a list item: the field name lacks `: ` after it"),
                help,
            )
            .at_line(Some(l))
        }
        "block sequence entries are not allowed in this context" => {
            let key = key_of(line).unwrap_or("field");
            Explained::new(
                format!("a list item (`- …`) cannot follow `{key}:` on the same line"),
                format!("put each item on its own line, indented under the field (`{key}:` then `  - item`); if the dash belongs to the text, quote the value"),
            )
            .at(at)
        }
        "did not find expected ',' or ']'" | "did not find expected ',' or '}'" => {
            let (open, close, what) = if p.ends_with("']'") {
                ('[', ']', "list")
            } else {
                ('{', '}', "mapping")
            };
            let l = r.context_at.map_or(line_no, |(l, _)| l);
            Explained::new(
                format!("the {what} opened with `{open}` on line {l} is not closed, or two of its items lack a `,` between them"),
                format!("close it with `{close}` on the same line, separate items with `, `, and quote an item that holds `,`, `[`, `]`, `{{` or `}}`"),
            )
            .at(r.context_at.or(at))
        }
        "did not find expected node content" if line_no > text.lines().count() => Explained::new(
            "the file ends inside a `[` or `{` that is never closed",
            "close every `[` with `]` and every `{` with `}` on the line where it opens",
        )
        .at_line(Some(text.lines().count().max(1))),
        "did not find expected node content" => Explained::new(
            format!("line {line_no} has an empty or broken item inside brackets"),
            "write items as `[a, b]` or `{a: x, b: y}`, with no stray `,`, `[`, `]`, `{` or `}`; quote an item that holds one of them",
        )
        .at(at),
        "found unknown escape character" => {
            let esc: String = line.chars().skip(col.saturating_sub(1)).take(2).collect();
            Explained::new(
                format!("`{esc}` is not an escape sequence YAML knows inside double quotes"),
                "write a backslash as `\\\\`, or put the value in single quotes, where a backslash is an ordinary character",
            )
            .at(at)
        }
        "did not find expected hexadecimal number" | "found invalid Unicode character escape code" => Explained::new(
            format!("line {line_no} has a `\\x`, `\\u` or `\\U` escape that is not a valid character code"),
            "write the character itself, or a valid code such as `\\u00e9`",
        )
        .at(at),
        "unknown anchor" => {
            let name: String = line
                .chars()
                .skip(col)
                .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
                .collect();
            Explained::new(
                format!("`*{name}` refers to an anchor `&{name}` that the file does not define before it"),
                format!("a value starting with `*` is read as an alias; if it is text, quote it: `'*{name}'`"),
            )
            .at(at)
        }
        "did not find expected alphabetic or numeric character"
            if r.context.contains("anchor") || r.context.contains("alias") =>
        {
            let key = key_of(line).unwrap_or("field");
            let value = line.split_once(':').map_or("", |(_, v)| v.trim());
            Explained::new(
                format!("a value starting with `&` or `*` is read as an anchor or alias, and needs a name after that character (line {line_no})"),
                format!("quote the value if the character is text: `{key}: {}`", quoted(value)),
            )
            .at(r.context_at.or(at))
        }
        // serde_yaml counts depth, not aliases: without an alias in the file
        // the limit was reached by nesting alone, and says so.
        "recursion limit exceeded" if !has_alias(text) => Explained::new(
            format!("the values nest deeper than {MAX_DEPTH} levels of mappings and lists (line {line_no}), more than a YAML reader here accepts"),
            "a data file needs only a few levels: write the nested values as fields of their own, or as text",
        )
        .at(at),
        "recursion limit exceeded" | "repetition limit exceeded" => Explained::new(
            "anchors and aliases (`&name`, `*name`) nest too deep or repeat too often to be expanded",
            "data files need no anchors or aliases: write the values out",
        )
        .at(at),
        "found undefined tag handle" | "did not find expected tag URI" => Explained::new(
            format!("line {line_no} has a YAML tag (`!…`) the tool cannot read"),
            "remove the tag, or quote the value if the `!` belongs to the text",
        )
        .at(at),
        "found character that cannot start any token" => {
            let c = here.unwrap_or('?');
            let key = key_of(line);
            let help = match key {
                Some(k) => {
                    let value = line.split_once(':').map_or("", |(_, v)| v.trim());
                    format!("quote the value: `{k}: {}`", quoted(value))
                }
                None => "quote the value".to_string(),
            };
            Explained::new(
                format!("a value cannot start with `{c}` unless it is quoted (YAML reserves the character)"),
                help,
            )
            .at(at)
        }
        "did not find expected '-' indicator" => Explained::new(
            format!("line {line_no} breaks the list above it: a list holds only `- item` lines, all at one indentation"),
            "start the line with `- ` at the indentation of the items above, or move it out of the list to the beginning of the line",
        )
        .at(at),
        "did not find expected comment or line break" if r.context.contains("block scalar") => {
            Explained::new(
                format!("line {line_no} has text after the `|` or `>` that starts a block value"),
                "put the block's text on the lines below, indented by two spaces under the field",
            )
            .at(r.context_at.or(at))
        }
        _ => return None,
    };
    Some(x)
}

/// `: ` where YAML cannot start a field: inside a value, or on an indented line.
fn mapping_value(text: &str, at: (usize, usize)) -> Explained {
    let (l, _) = at;
    let line = line_of(text, l);
    if indent(line) > 0 {
        let key = key_of(line).unwrap_or("this line");
        let above = line_above(text, l)
            .and_then(|(_, s)| key_of(s))
            .unwrap_or("the field above");
        return Explained::new(
            format!("`{key}` on line {l} is indented under `{above}`, which already has a value, so it cannot start a field there"),
            format!("start `{key}:` at the beginning of the line like the other fields; if the line continues the value above, quote that value"),
        )
        .at(Some((l, indent(line) + 1)));
    }
    match line.split_once(": ") {
        Some((key, value)) if !key.contains(' ') => Explained::new(
            format!("the value of `{key}` holds a colon followed by a space (`: `), which YAML reads as a second `field:` on one line"),
            format!("quote the value: `{key}: {}`", quoted(value.trim())),
        )
        .at(Some(at)),
        _ => Explained::new(
            format!("line {l} holds `: ` where no field can start"),
            format!("quote the value if the colon belongs to the text; {LAYOUT_HELP}"),
        )
        .at(Some(at)),
    }
}

/// A line where the parser expected the next `field:` of a mapping.
fn expected_key(text: &str, at: (usize, usize)) -> Explained {
    if let Some(x) = runaway_quote(text, at) {
        return x;
    }
    let (l, c) = at;
    let line = line_of(text, l);
    let lead = indent(line);
    if c > lead + 1 {
        // Something follows the end of a value on its line.
        let key = key_of(line).unwrap_or("the field");
        let value = line.split_once(':').map_or("", |(_, v)| v.trim_start());
        let help = match value.chars().next() {
            Some('\'') => {
                "inside single quotes write a `'` as `''`; nothing may follow the closing quote"
            }
            Some('"') => {
                "inside double quotes write a `\"` as `\\\"`; nothing may follow the closing quote"
            }
            Some('[' | '{') => {
                "remove the extra closing bracket; nothing may follow the one that closes the value"
            }
            _ => "quote the whole value",
        };
        return Explained::new(
            format!("something follows the end of the value of `{key}` on line {l}"),
            help,
        )
        .at(Some(at));
    }
    let above = line_above(text, l);
    if line.trim_start().starts_with('-') {
        if let Some((_, prev)) = above.filter(|(_, s)| s.trim_start().starts_with("- ")) {
            return Explained::new(
                format!(
                    "this list item is indented by {lead} space(s), but the item above it by {}: items of one list line up",
                    indent(prev)
                ),
                format!("indent it by {} spaces, like the item above", indent(prev)),
            )
            .at(Some(at));
        }
        let after = above
            .and_then(|(_, s)| key_of(s))
            .unwrap_or("the field above");
        return Explained::new(
            format!("line {l} is a list item (`- …`), but `{after}` above it holds no list"),
            "put list items on their own lines under a field that ends with `:`, indented by two spaces (`urls:` then `  - https://…`), or remove the line",
        )
        .at(Some(at));
    }
    Explained::new(
        format!("line {l} is indented by {lead} space(s), which lines up with no field or list around it"),
        format!("indent it like the lines it belongs with; {LAYOUT_HELP}"),
    )
    .at(Some(at))
}

/// A quote left open on an earlier line, which YAML lets run on until the
/// next quote of its kind: the parser then stumbles far below the mistake.
fn runaway_quote(text: &str, (l, c): (usize, usize)) -> Option<Explained> {
    let before: String = line_of(text, l).chars().take(c.saturating_sub(1)).collect();
    ['"', '\''].into_iter().find_map(|q| {
        if before.matches(q).count() % 2 == 0 {
            return None;
        }
        let (k, opened) = (1..l)
            .rev()
            .map(|k| (k, line_of(text, k)))
            .find(|(_, s)| s.matches(q).count() % 2 == 1)?;
        let col = opened.chars().count() - opened.chars().rev().position(|ch| ch == q)?;
        Some(
            Explained::new(
                format!("the quoted value that starts on line {k} is not closed on its line, so it runs on to the next {q} on line {l}"),
                format!("end the value with {q} on line {k}; inside the value, write {}", if q == '"' { "a `\"` as `\\\"`" } else { "a `'` as `''`" }),
            )
            .at(Some((k, col))),
        )
    })
}

/// A raw control character, which libyaml reports by byte offset only.
fn control_character(text: &str) -> Option<Explained> {
    let (l, line) = text
        .lines()
        .enumerate()
        .find(|(_, s)| s.chars().any(|c| c.is_control() && c != '\t' && c != '\r'))?;
    let (col, c) = line
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() && *c != '\t' && *c != '\r')?;
    Some(
        Explained::new(
            format!(
                "line {} holds the control character U+{:04X}, which YAML does not allow in a file",
                l + 1,
                u32::from(c)
            ),
            "delete it (it is invisible in most editors and usually comes from pasting)",
        )
        .at(Some((l + 1, col + 1))),
    )
}
