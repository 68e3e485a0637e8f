//! The template engine: Tera 2 with the project's filters (`md`, `anchor`)
//! and HTML escaping, the templates a command parses (only those it renders
//! and those they name), and a Tera error as a place in a template and a
//! message.

use crate::text::markdown::{anchor, escape_markdown};

/// Builds a Tera instance over the templates a command renders (`wanted`)
/// and those they name, with the project's filters.
///
/// Parsing a template is most of what a build of a small corpus costs, so a
/// template nothing here renders (the site page, for one) is not parsed.
pub fn tera(templates: &[(String, String)], wanted: &[&str]) -> Result<tera::Tera, tera::Error> {
    let mut t = new_tera();
    t.autoescape_on(Vec::<&str>::new());
    let used = referenced(templates, wanted);
    t.add_raw_templates(
        templates
            .iter()
            .zip(&used)
            .filter(|(_, &u)| u)
            .map(|((n, s), _)| (n.as_str(), s.as_str())),
    )?;
    Ok(t)
}

/// An empty Tera with the project's filters, which must be registered
/// before a template is added (Tera 2 refuses a template naming a filter it
/// does not know), and the project's HTML escaping.
pub fn new_tera() -> tera::Tera {
    let mut t = tera::Tera::default();
    t.register_filter("md", md_filter);
    t.register_filter("anchor", anchor_filter);
    t.set_escape_fn(escape_html);
    t
}

/// Which templates are `wanted`, define a component, or are named, directly
/// or not, by one of those.
///
/// A template names another by its file name (`include`, `extends`), so
/// any occurrence of the name counts: a name in a comment or a string costs
/// a parse, never a missing template. A component may be used from any
/// template, so every template that defines one (it has to close it with
/// `endcomponent`) is parsed.
fn referenced(templates: &[(String, String)], wanted: &[&str]) -> Vec<bool> {
    let mut used: Vec<bool> = templates
        .iter()
        .map(|(n, text)| wanted.contains(&n.as_str()) || text.contains("endcomponent"))
        .collect();
    let mut todo: Vec<usize> = (0..templates.len()).filter(|&i| used[i]).collect();
    while let Some(i) = todo.pop() {
        let text = &templates[i].1;
        for (j, (name, _)) in templates.iter().enumerate() {
            if !used[j] && text.contains(name.as_str()) {
                used[j] = true;
                todo.push(j);
            }
        }
    }
    used
}

/// Any value as Markdown-safe text: a string as it is, anything else as JSON.
fn md_filter(v: &tera::Value, _: tera::Kwargs, _: &tera::State) -> String {
    match v.as_str() {
        Some(s) => escape_markdown(s),
        None => escape_markdown(&serde_json::to_string(v).unwrap_or_default()),
    }
}

/// A heading's GitHub anchor; a value that is no string has none.
fn anchor_filter(v: &tera::Value, _: tera::Kwargs, _: &tera::State) -> String {
    anchor(v.as_str().unwrap_or_default())
}

/// HTML escaping of the site page's data: the five characters that can
/// start or end markup, and `/` (as the page has always been written).
fn escape_html(input: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let bytes = input.as_bytes();
    let mut from = 0;
    for (i, b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'"' => b"&quot;",
            b'\'' => b"&#x27;",
            b'/' => b"&#x2F;",
            _ => continue,
        };
        out.write_all(&bytes[from..i])?;
        out.write_all(esc)?;
        from = i + 1;
    }
    out.write_all(&bytes[from..])
}

/// What a Tera error says, and where it points when it points into a
/// template: Tera 2 keeps the template's name, line and column apart from
/// the message, so they reach the diagnostic as its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// The template the error points into, when it names one.
    pub template: Option<String>,
    /// 1-based line and column in that template.
    pub at: Option<(usize, usize)>,
    /// The message, with its chain of causes, on one line.
    pub message: String,
}

impl TemplateError {
    /// The parts of a Tera error.
    pub fn of(e: &tera::Error) -> Self {
        let (template, at, mut message) = match e.kind() {
            tera::ErrorKind::SyntaxError(r) | tera::ErrorKind::RenderingError(r) => (
                Some(r.filename().to_string()).filter(|n| !n.is_empty()),
                Some((r.span().start_line, r.span().start_col + 1)),
                r.message().to_string(),
            ),
            kind => {
                let text = kind.to_string();
                match first_report(&text) {
                    Some((name, line, column, message)) => {
                        (Some(name), Some((line, column)), message)
                    }
                    None => (None, None, text),
                }
            }
        };
        let mut src = std::error::Error::source(e);
        while let Some(s) = src {
            message.push_str(": ");
            message.push_str(&s.to_string());
            src = s.source();
        }
        TemplateError {
            template,
            at,
            message: message.split_whitespace().collect::<Vec<_>>().join(" "),
        }
    }
}

/// The first of the reports Tera 2 joins into one message for the names a
/// template uses and the instance lacks (a filter, test, function,
/// component or template): `error: MESSAGE`, then ` --> NAME:LINE:COLUMN`
/// and the line shown. Gives the name, line, column and message, with the
/// number of further reports.
fn first_report(text: &str) -> Option<(String, usize, usize, String)> {
    let mut lines = text.lines();
    let message = lines.next()?.strip_prefix("error: ")?;
    let place = lines.next()?.trim_start().strip_prefix("--> ")?;
    let mut parts = place.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let name = parts.next()?.to_string();
    let more = text.matches("\n\nerror: ").count();
    let message = match more {
        0 => message.to_string(),
        n => format!("{message} (and {n} more like it)"),
    };
    Some((name, line, column, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rendered_templates_and_what_they_name_are_parsed() {
        let t = |n: &str, s: &str| (n.to_string(), s.to_string());
        let set = [
            t("a.tera", "{% include \"part.tera\" %}"),
            t(
                "part.tera",
                "{% include \"leaf.tera\" %}{{<shout word=\"y\"/>}}",
            ),
            t("leaf.tera", "x"),
            t(
                "parts.tera",
                "{% component shout(word) %}{{ word }}!{% endcomponent shout %}",
            ),
            t("broken.tera", "{% if %}"),
        ];
        assert_eq!(
            referenced(&set, &["a.tera"]),
            [true, true, true, true, false]
        );
        let tera = tera(&set, &["a.tera"]).expect("the broken template is not parsed");
        assert_eq!(tera.render("a.tera", &tera::Context::new()).unwrap(), "xy!");
        assert!(super::tera(&set, &["broken.tera"]).is_err());
    }

    #[test]
    fn md_filter_is_registered() {
        let t = tera(&[("t".into(), "{{ x | md }}".into())], &["t"]).unwrap();
        let mut c = tera::Context::new();
        c.insert("x", "*a*");
        assert_eq!(t.render("t", &c).unwrap(), "\\*a\\*");
    }

    #[test]
    fn an_error_names_the_template_line_and_column_it_points_into() {
        let t = |n: &str, s: &str| (n.to_string(), s.to_string());
        let e = tera(&[t("a.tera", "one\ntwo {% for x in %}\n")], &["a.tera"]).unwrap_err();
        let e = TemplateError::of(&e);
        assert_eq!(e.template.as_deref(), Some("a.tera"));
        assert_eq!(e.at.map(|(line, _)| line), Some(2));
        assert!(!e.message.contains('\n'), "{}", e.message);
        // A rendering error in an included template points into that one.
        let set = [
            t("a.tera", "{% include \"b.tera\" %}"),
            t("b.tera", "\n\n  {{ missing }}"),
        ];
        let e = tera(&set, &["a.tera"])
            .unwrap()
            .render("a.tera", &tera::Context::new())
            .unwrap_err();
        let e = TemplateError::of(&e);
        assert_eq!(
            (e.template.as_deref(), e.at),
            (Some("b.tera"), Some((3, 6)))
        );
        assert!(e.message.contains("missing"), "{}", e.message);
        // So does a name the instance lacks, the first of them.
        let e = tera(
            &[t("a.tera", "{{ x | nope }}\n{{ y | nope2 }}")],
            &["a.tera"],
        )
        .unwrap_err();
        assert_eq!(
            TemplateError::of(&e),
            TemplateError {
                template: Some("a.tera".into()),
                at: Some((1, 8)),
                message: "Unknown filter `nope` (and 1 more like it)".into()
            }
        );
    }

    #[test]
    fn the_page_escapes_as_it_always_has() {
        let mut t = new_tera();
        t.autoescape_on([".html"]);
        t.add_raw_template("p.html", "{{ x }}|{{ x | safe }}")
            .unwrap();
        let mut c = tera::Context::new();
        c.insert("x", "<a href='/x?a=1&b=\"2\"'>é</a>");
        assert_eq!(
            t.render("p.html", &c).unwrap(),
            "&lt;a href=&#x27;&#x2F;x?a=1&amp;b=&quot;2&quot;&#x27;&gt;é&lt;&#x2F;a&gt;|<a href='/x?a=1&b=\"2\"'>é</a>"
        );
    }
}
