//! YAML parser errors in the tool's own words. serde_yaml and libyaml name
//! their internals ("did not find expected key, while parsing a block
//! mapping", "invalid type: integer … as u128"); every problem a contributor
//! can realistically make in a data file is mapped here, once, to a sentence
//! that stands alone, the line (and column) where the fix goes, and a help
//! line. Only a problem this table does not know keeps the parser's words,
//! after a sentence of ours.

use regex::Regex;
use std::sync::OnceLock;

/// What a parser error is about, which decides the rule that reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// The text is not YAML, or not one document.
    Syntax,
    /// A mapping repeats this key.
    DuplicateKey(String),
    /// A value has the wrong type (a number too large, a tag that does not fit).
    Type,
}

/// A parser error explained: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    /// Which rule reports it.
    pub kind: Kind,
    /// What is wrong, in one sentence of ours.
    pub message: String,
    /// How to fix it.
    pub help: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// The field the problem is about, when known.
    pub field: Option<String>,
}

impl Explained {
    fn new(message: impl Into<String>, help: impl Into<String>) -> Self {
        Explained {
            kind: Kind::Syntax,
            message: message.into(),
            help: help.into(),
            line: None,
            column: None,
            field: None,
        }
    }

    fn at(mut self, pos: Option<(usize, usize)>) -> Self {
        if let Some((l, c)) = pos {
            self.line = Some(l);
            self.column = Some(c);
        }
        self
    }

    fn at_line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self.column = None;
        self
    }
}

/// The parts of serde_yaml's message: the problem, the position it names,
/// and the context libyaml gives ("while scanning a quoted scalar") with its own position.
struct Raw<'a> {
    problem: &'a str,
    at: Option<(usize, usize)>,
    context: &'a str,
    context_at: Option<(usize, usize)>,
}

fn raw<'a>(msg: &'a str, e: &serde_yaml::Error) -> Raw<'a> {
    static MARK: OnceLock<Regex> = OnceLock::new();
    let mark = MARK.get_or_init(|| {
        Regex::new(r" at (?:line (\d+) column (\d+)|position \d+)").expect("valid regex")
    });
    let (head, context) = match msg.find(", while ") {
        Some(i) => (&msg[..i], &msg[i + 2..]),
        None => (msg, ""),
    };
    let problem = mark.find(head).map_or(head, |m| &head[..m.start()]);
    let pos = |s: &str| {
        mark.captures(s).and_then(|c| {
            let l = c.get(1)?.as_str().parse().ok()?;
            let col = c.get(2)?.as_str().parse().ok()?;
            Some((l, col))
        })
    };
    let context_at = pos(context);
    let context = mark
        .find(context)
        .map_or(context, |m| &context[..m.start()]);
    Raw {
        problem,
        at: e.location().map(|l| (l.line(), l.column())),
        context,
        context_at,
    }
}

/// Line `n` (1-based) of the text, without its line break.
fn line_of(text: &str, n: usize) -> &str {
    text.lines()
        .nth(n.saturating_sub(1))
        .unwrap_or("")
        .trim_end_matches('\r')
}

/// The character at a 1-based line and column.
fn char_at(text: &str, (l, c): (usize, usize)) -> Option<char> {
    line_of(text, l).chars().nth(c.saturating_sub(1))
}

/// Leading spaces of a line.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The nearest line above `n` that holds something other than a comment, with its number.
fn line_above(text: &str, n: usize) -> Option<(usize, &str)> {
    (1..n)
        .rev()
        .map(|i| (i, line_of(text, i)))
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
}

/// The field a `key: value` line sets, when it is one.
fn key_of(line: &str) -> Option<&str> {
    let t = line.trim_start().trim_start_matches("- ");
    let (k, _) = t.split_once(':')?;
    let k = k.trim();
    (!k.is_empty() && !k.contains(' ')).then_some(k)
}

/// The line of the second `key:` at one indentation from line `from` on
/// (the parser points at the start of the mapping, not at the repeat).
fn second_key_line(text: &str, from: usize, key: &str) -> Option<usize> {
    let mut first_indent = None;
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .filter(|(_, l)| key_of(l) == Some(key) && !l.trim_start().starts_with('#'))
        .filter(|(_, l)| *first_indent.get_or_insert(indent(l)) == indent(l))
        .nth(1)
        .map(|(i, _)| i + 1)
}

/// A value in single quotes, as YAML writes it.
fn quoted(v: &str) -> String {
    format!("'{}'", v.replace('\'', "''"))
}

const LAYOUT_HELP: &str = "fields start at the beginning of a line as `field: value`; list items go on their own lines, indented by two spaces under their field";

/// Explains a serde_yaml error on `text` (the whole file).
pub fn explain(e: &serde_yaml::Error, text: &str) -> Explained {
    let msg = e.to_string();
    let r = raw(&msg, e);
    if let Some(key) = r
        .problem
        .split("duplicate entry with key \"")
        .nth(1)
        .and_then(|k| k.split('"').next())
    {
        let line = second_key_line(text, r.at.map_or(1, |(l, _)| l), key);
        return Explained {
            kind: Kind::DuplicateKey(key.to_string()),
            field: Some(key.to_string()),
            ..Explained::new(
                format!("field `{key}` appears more than once"),
                "keep one of them: a repeated field would silently lose data",
            )
        }
        .at_line(line.or(r.at.map(|(l, _)| l)));
    }
    if r.problem.contains("more than one document") {
        return more_than_one_document(text);
    }
    if let Some(x) = wrong_type(&r) {
        return x;
    }
    syntax(&r, text).unwrap_or_else(|| {
        let line = r.at.map(|(l, _)| format!(" at line {l}")).unwrap_or_default();
        Explained::new(
            format!(
                "the file is not valid YAML{line} (the parser reports: {})",
                r.problem
            ),
            format!("check the quoting and indentation of that line: {LAYOUT_HELP}; quote a value that holds `: ` or ` #` or starts with a special character"),
        )
        .at(r.at)
    })
}

/// A second document (or a directive) after the first.
fn more_than_one_document(text: &str) -> Explained {
    let marker = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .find(|&(i, l)| {
            (l == "---" && (i > 1 || !text.starts_with("---")))
                || l == "..."
                || (i > 1 && l.starts_with('%'))
        });
    let what = match marker {
        Some((_, "...")) => "a `...` line ends the first and more follows",
        Some((_, l)) if l.starts_with('%') => "a `%` directive line starts another",
        _ => "a `---` line starts another",
    };
    Explained::new(
        format!("the file holds more than one YAML document: {what}"),
        "one entry per file: remove the marker line and move what follows into a file of its own",
    )
    .at_line(marker.map(|(i, _)| i))
}

/// serde's own errors about values and fields: an integer too large for
/// 64 bits, a value of the wrong kind, a missing or unknown field.
fn wrong_type(r: &Raw) -> Option<Explained> {
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
        kind: Kind::Type,
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

/// libyaml's scanner and parser problems.
fn syntax(r: &Raw, text: &str) -> Option<Explained> {
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

/// The file parsed, but to something other than a mapping (a list or a single value).
pub fn not_a_mapping(text: &str, is_list: bool) -> Explained {
    let first = text
        .lines()
        .position(|l| {
            let t = l.trim_start_matches('\u{feff}').trim();
            !t.is_empty() && !t.starts_with('#') && t != "---"
        })
        .map(|i| i + 1);
    let what = if is_list {
        "a list (its lines start with `- `)"
    } else {
        "a single value"
    };
    Explained::new(
        format!("the file holds {what}, but a data file holds a mapping of `field: value` lines"),
        "write one `field: value` per line, starting at the beginning of the line (`corpus new KEY` writes a skeleton)",
    )
    .at_line(first)
}

impl Explained {
    /// Gives a diagnostic the place, field and help of this parser error.
    pub fn place(
        &self,
        mut d: corpus_diagnostics::diag::Diagnostic,
    ) -> corpus_diagnostics::diag::Diagnostic {
        d.line = self.line;
        d.column = self.line.and(self.column);
        if self.field.is_some() {
            d.field = self.field.clone();
        }
        d.help = Some(self.help.clone());
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explain_text(text: &str) -> Explained {
        let e = serde_yaml::from_str::<serde_yaml::Value>(text).expect_err("broken YAML");
        explain(&e, text)
    }

    #[test]
    fn an_unclosed_quote_points_at_its_start() {
        let x = explain_text("a: 1\nb: 'open\nc: 2\n");
        assert_eq!(x.line, Some(2), "{x:?}");
        assert!(x.message.contains("never closed"), "{x:?}");
    }

    #[test]
    fn a_control_character_is_located_by_line() {
        let x = explain_text("a: 1\nb: x\u{1}y\n");
        assert_eq!((x.line, x.column), (Some(2), Some(5)), "{x:?}");
        assert!(x.message.contains("U+0001"), "{x:?}");
    }

    #[test]
    fn an_unknown_problem_keeps_the_parser_words_after_ours() {
        let r = "a: |x\n  b\n";
        let x = explain_text(r);
        assert!(!x.message.starts_with("did not"), "{x:?}");
        assert!(x.line.is_some());
    }
}
