//! A page template cut at its top-level loops over row lists, so that a
//! large list's rows are rendered a chunk at a time from a small context
//! instead of all of them being taken into the template's context at once.
//!
//! Only templates whose meaning the cut keeps are cut: every tag is a
//! `for`, `if`, `elif`, `else`, `endif` or `endfor` (no `set`, macro,
//! include or raw text that a piece would lose), the loop stands at the top
//! level with no `else`, `break` or `continue`, its list is named nowhere
//! else but in `if LIST` tests (the pieces get a boolean in its place), and
//! the body asks its loop only for `index`, `index0`, `first`, `last` or
//! `length`, which are rewritten to count across the chunks. Any other
//! template is rendered whole, as before.

/// The chunk of rows a loop's piece iterates over.
pub(crate) const ROWS: &str = "corpus_rows__";
/// How many rows came before the chunk.
pub(crate) const OFFSET: &str = "corpus_row_offset__";
/// Whether the chunk holds the list's first row.
pub(crate) const FIRST: &str = "corpus_rows_first__";
/// Whether the chunk holds the list's last row.
pub(crate) const LAST: &str = "corpus_rows_last__";
/// How many rows the whole list has.
pub(crate) const LENGTH: &str = "corpus_rows_length__";

/// One piece of a cut template, in page order.
#[derive(Debug, PartialEq)]
pub(crate) enum Piece {
    /// Template text rendered once, with the page's context.
    Text(String),
    /// A loop over the named list: a template looping over [`ROWS`],
    /// rendered once per chunk.
    Rows { list: String, template: String },
}

impl Piece {
    /// The piece's template text.
    pub(crate) fn template(&self) -> &str {
        match self {
            Piece::Text(t) | Piece::Rows { template: t, .. } => t,
        }
    }
}

/// A `{{ }}`, `{% %}` or `{# #}` of the template: where it stands and what
/// it holds between its delimiters and whitespace controls.
struct Tag<'t> {
    start: usize,
    end: usize,
    /// `%` for a statement, `{` for an expression, `#` for a comment.
    kind: u8,
    inner: &'t str,
    /// Where `inner` starts in the template.
    inner_at: usize,
    trim_before: bool,
    trim_after: bool,
}

/// Every tag of `t` in order, or None when one is not closed.
fn tags(t: &str) -> Option<Vec<Tag<'_>>> {
    let b = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] != b'{' || !matches!(b[i + 1], b'{' | b'%' | b'#') {
            i += 1;
            continue;
        }
        let kind = b[i + 1];
        let close = match kind {
            b'{' => b'}',
            k => k,
        };
        let mut j = i + 2;
        let mut quote = None;
        let end = loop {
            let c = *b.get(j)?;
            match quote {
                // A comment holds no strings.
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if kind != b'#' && matches!(c, b'"' | b'\'' | b'`') => quote = Some(c),
                None if c == close && b.get(j + 1) == Some(&b'}') => break j + 2,
                None => {}
            }
            j += 1;
        };
        let mut inner = &t[i + 2..end - 2];
        let trim_before = inner.starts_with('-');
        if trim_before {
            inner = &inner[1..];
        }
        let trim_after = inner.ends_with('-');
        if trim_after {
            inner = &inner[..inner.len() - 1];
        }
        let lead = inner.len() - inner.trim_start().len();
        out.push(Tag {
            start: i,
            end,
            kind,
            inner: inner.trim(),
            inner_at: i + 2 + usize::from(trim_before) + lead,
            trim_before,
            trim_after,
        });
        i = end;
    }
    Some(out)
}

/// The words of a tag's text outside its string literals.
fn words(inner: &str) -> Vec<(usize, &str)> {
    let b = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if matches!(c, b'"' | b'\'' | b'`') {
            i = inner[i + 1..]
                .find(c as char)
                .map_or(b.len(), |n| i + 1 + n + 1);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let from = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.')) {
                i += 1;
            }
            out.push((from, &inner[from..i]));
        } else {
            i += 1;
        }
    }
    out
}

/// A top-level loop found in the template.
struct Loop<'t> {
    list: &'t str,
    /// The name each row takes in the body.
    var: &'t str,
    open: usize,
    close: usize,
}

/// `template` cut at its top-level loops over `lists`; None when it has none
/// or when cutting could change what it renders.
pub(crate) fn cut(template: &str, lists: &[&str]) -> Option<Vec<Piece>> {
    if template.contains("corpus_row") {
        return None;
    }
    let tags = tags(template)?;
    // Open blocks: true for a `for`.
    let mut open: Vec<(bool, usize)> = Vec::new();
    let mut loops: Vec<Loop> = Vec::new();
    for (n, tag) in tags.iter().enumerate() {
        if tag.kind != b'%' {
            continue;
        }
        let first = tag.inner.split_whitespace().next().unwrap_or("");
        match first {
            "for" => open.push((true, n)),
            "if" => open.push((false, n)),
            "elif" => {}
            "else" => {
                if open.last()?.0 {
                    return None;
                }
            }
            "endif" => {
                if open.pop()?.0 {
                    return None;
                }
            }
            "endfor" => {
                let (is_for, at) = open.pop()?;
                if !is_for {
                    return None;
                }
                let parts: Vec<&str> = tags[at].inner.split_whitespace().collect();
                if let ["for", var, "in", list] = parts[..] {
                    if open.is_empty() && lists.contains(&list) && is_name(var) {
                        loops.push(Loop {
                            list,
                            var,
                            open: at,
                            close: n,
                        });
                    }
                }
            }
            _ => return None,
        }
    }
    if !open.is_empty() || loops.is_empty() {
        return None;
    }
    let mut pieces = Vec::new();
    let mut from = 0;
    let mut trim_next = false;
    for l in &loops {
        let (o, c) = (&tags[l.open], &tags[l.close]);
        let mut text = &template[from..o.start];
        if trim_next {
            text = text.trim_start();
        }
        if o.trim_before {
            text = text.trim_end();
        }
        // The list is named outside its loops only in `if LIST` tests.
        if !only_tested(&tags, from, o.start, lists) {
            return None;
        }
        pieces.push(Piece::Text(text.to_string()));
        let body = body(template, &tags[l.open + 1..l.close], o.end, c.start, lists)?;
        pieces.push(Piece::Rows {
            list: l.list.to_string(),
            template: format!(
                "{{%{} for {} in {ROWS} {}%}}{body}{}",
                if o.trim_before { "-" } else { "" },
                l.var,
                if o.trim_after { "-" } else { "" },
                &template[c.start..c.end],
            ),
        });
        from = c.end;
        trim_next = c.trim_after;
    }
    if !only_tested(&tags, from, template.len(), lists) {
        return None;
    }
    let mut text = &template[from..];
    if trim_next {
        text = text.trim_start();
    }
    pieces.push(Piece::Text(text.to_string()));
    Some(pieces)
}

/// Whether `s` is a plain variable name.
fn is_name(s: &str) -> bool {
    s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        && s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// Whether every tag between `from` and `to` names the lists only as the
/// whole test of an `if` or `elif`.
fn only_tested(tags: &[Tag], from: usize, to: usize, lists: &[&str]) -> bool {
    tags.iter()
        .filter(|t| t.start >= from && t.end <= to && t.kind != b'#')
        .all(|t| {
            let named = words(t.inner).iter().any(|(_, w)| lists.contains(w));
            !named || {
                let parts: Vec<&str> = t.inner.split_whitespace().collect();
                t.kind == b'%'
                    && matches!(parts[..], ["if" | "elif", l] | ["if" | "elif", "not", l] if lists.contains(&l))
            }
        })
}

/// The loop's body with its own loop's variables counted across chunks;
/// None when it names a list or asks its loop for anything else.
fn body(template: &str, tags: &[Tag], from: usize, to: usize, lists: &[&str]) -> Option<String> {
    let mut out = String::new();
    let mut at = from;
    let mut depth = 0usize;
    for tag in tags {
        if tag.kind == b'#' {
            continue;
        }
        let first = tag.inner.split_whitespace().next().unwrap_or("");
        if tag.kind == b'%' && first == "endfor" {
            depth -= 1;
            continue;
        }
        let ws = words(tag.inner);
        if ws.iter().any(|(_, w)| lists.contains(w)) {
            return None;
        }
        if depth == 0 {
            // Rewritten in place: the tag keeps its delimiters and spacing.
            let base = tag.inner_at;
            for (pos, w) in ws {
                let Some(rest) = w.strip_prefix("loop") else {
                    continue;
                };
                let with = match rest {
                    ".index0" => format!("(loop.index0 + {OFFSET})"),
                    ".index" => format!("(loop.index + {OFFSET})"),
                    ".first" => format!("(loop.first and {FIRST})"),
                    ".last" => format!("(loop.last and {LAST})"),
                    ".length" => LENGTH.to_string(),
                    _ if rest.is_empty() || rest.starts_with('.') => return None,
                    _ => continue,
                };
                out.push_str(&template[at..base + pos]);
                out.push_str(&with);
                at = base + pos + w.len();
            }
        }
        if tag.kind == b'%' && first == "for" {
            depth += 1;
        }
    }
    out.push_str(&template[at..to]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(template: &str, rows: &[&str]) -> String {
        let mut tera = tera::Tera::default();
        tera.add_raw_template("t", template).unwrap();
        let mut ctx = tera::Context::new();
        ctx.insert("rows", rows);
        ctx.insert("g", "G");
        tera.render("t", &ctx).unwrap()
    }

    /// The cut template rendered in chunks of `size` rows.
    fn render_cut(template: &str, rows: &[&str], size: usize) -> String {
        let pieces = cut(template, &["rows"]).expect("cut");
        let mut tera = tera::Tera::default();
        let mut ctx = tera::Context::new();
        ctx.insert("rows", &!rows.is_empty());
        ctx.insert("g", "G");
        let mut out = String::new();
        for (n, p) in pieces.iter().enumerate() {
            match p {
                Piece::Text(t) => {
                    tera.add_raw_template(&n.to_string(), t).unwrap();
                    out += &tera.render(&n.to_string(), &ctx).unwrap();
                }
                Piece::Rows { list, template } => {
                    assert_eq!(list, "rows");
                    tera.add_raw_template(&n.to_string(), template).unwrap();
                    for (i, chunk) in rows.chunks(size).enumerate() {
                        let mut c = ctx.clone();
                        c.insert(ROWS, chunk);
                        c.insert(OFFSET, &(i * size));
                        c.insert(FIRST, &(i == 0));
                        c.insert(LAST, &((i + 1) * size >= rows.len()));
                        c.insert(LENGTH, &rows.len());
                        out += &tera.render(&n.to_string(), &c).unwrap();
                    }
                }
            }
        }
        out
    }

    #[test]
    fn a_loop_rendered_in_chunks_renders_as_the_whole_loop() {
        let template = "<t>\n  {%- for r in rows -%}\n{% if loop.index0 is divisible_by(divisor=2) %}{% if not loop.first %}</b>{% endif %}<b>{% endif -%}\n<i n=\"{{ loop.index }}/{{ loop.length }}\" l=\"{{ loop.last }}\">{{ r }}{{ g }}{% for c in [1, 2] %}{{ loop.index0 }}{% endfor %}</i>{# loop.foo #}\n{%- endfor %}  \n{% if rows %}</b>{% endif %}{% for x in [3] %}{{ loop.first }}{% endfor %}\n";
        let rows: Vec<String> = (0..7).map(|i| format!("r{i}")).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        for n in [0, 1, 2, 6, 7] {
            let whole = render(template, &rows[..n]);
            for size in [1, 2, 3, 7, 8] {
                assert_eq!(
                    render_cut(template, &rows[..n], size),
                    whole,
                    "{n} rows, chunks of {size}"
                );
            }
        }
    }

    #[test]
    fn a_template_whose_meaning_a_cut_could_change_is_left_whole() {
        for t in [
            "no loop over the rows {% for r in other %}{% endfor %}",
            "{% if g %}{% for r in rows %}{{ r }}{% endfor %}{% endif %}",
            "{% for r in rows %}{{ r }}{% else %}none{% endfor %}",
            "{% set x = 1 %}{% for r in rows %}{{ x }}{% endfor %}",
            "{% for r in rows %}{% break %}{% endfor %}",
            "{% for r in rows %}{{ loop.foo }}{% endfor %}",
            "{% for r in rows %}{{ loop }}{% endfor %}",
            "{% for r in rows %}{{ rows | length }}{% endfor %}",
            "{% for r in rows %}{% endfor %}{{ rows | length }}",
            "{% for r in rows | reverse %}{% endfor %}",
            "{% for k, v in rows %}{% endfor %}",
            "{% for r in rows %}{{ corpus_rows__ }}{% endfor %}",
            "{% for r in rows %}{% raw %}{% endfor %}{% endraw %}{% endfor %}",
            "{% for r in rows %}",
            "{% for r in rows %}{{ r }",
        ] {
            assert_eq!(cut(t, &["rows"]), None, "{t}");
        }
    }

    #[test]
    fn strings_and_comments_are_not_read_as_template_code() {
        let t = "{# {% set x %} rows #}{% for r in rows %}{{ \"loop.first }}\" }}{{ loop.first }}{% if r != \"loop.last\" and loop.last %}!{% endif %}{% endfor %}{% if not rows %}-{% endif %}";
        let rows = ["a", "b", "c"];
        assert_eq!(render_cut(t, &rows, 2), render(t, &rows));
        assert_eq!(
            render_cut(t, &rows, 2),
            "loop.first }}trueloop.first }}falseloop.first }}false!"
        );
    }
}
