//! The report formats of a run: diagnostics (human, GitHub), JSON lines, Markdown, a summary.

use super::{LinkFormat, LinkResult, Status};
use crate::layout::Layout;
use crate::load::Corpus;
use crate::model::taxonomy::Taxonomy;
use crate::text::markdown::{escape_markdown, link_target};
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use std::collections::BTreeMap;

/// The diagnostics of a run: failures as errors, redirects and failures not
/// yet past `--fail-after` as warnings, one per place the URL is written,
/// with the severities the taxonomy declares.
pub fn diagnostics(results: &[LinkResult], tax: &Taxonomy) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for r in results {
        let (rule, severity) = match r.status {
            Status::Ok | Status::Skipped => continue,
            Status::Redirected => (Rule::LinkRedirected, Severity::Warning),
            Status::Broken => (Rule::LinkBroken, Severity::Error),
            Status::Timeout => (Rule::LinkTimeout, Severity::Error),
            Status::Error => (Rule::LinkError, Severity::Error),
            Status::Refused => (Rule::LinkPrivateRedirect, Severity::Error),
        };
        let severity = if r.fails { severity } else { Severity::Warning };
        for p in &r.places {
            let mut d =
                Diagnostic::new(rule, severity, &p.file, format!("{}: {}", r.url, r.message))
                    .at_line(p.line);
            if r.permanent {
                if let Some(to) = &r.location {
                    d = d.help(format!("replace it with {to}"));
                }
            }
            out.push(d);
        }
    }
    tax.apply_severities(&mut out);
    corpus_diagnostics::diag::sort(&mut out);
    out
}

/// One line counting results by status.
pub fn summary(results: &[LinkResult]) -> String {
    let mut counts: BTreeMap<Status, usize> = BTreeMap::new();
    for r in results {
        *counts.entry(r.status).or_insert(0) += 1;
    }
    let parts: Vec<String> = [
        Status::Ok,
        Status::Redirected,
        Status::Broken,
        Status::Timeout,
        Status::Error,
        Status::Refused,
        Status::Skipped,
    ]
    .iter()
    .map(|s| format!("{} {}", counts.get(s).copied().unwrap_or(0), s.as_str()))
    .collect();
    let failing = results.iter().filter(|r| r.fails).count();
    format!(
        "{} links: {}; {failing} failing",
        results.len(),
        parts.join(", ")
    )
}

/// The kind of a failure, the same for every link that failed the same way:
/// the HTTP status an answer gave, else the first words of what happened
/// ("connection failed", "timed out", "TLS error", "redirect loop").
pub fn kind(r: &LinkResult) -> String {
    let head = r
        .message
        .split([':', '('])
        .next()
        .unwrap_or_default()
        .trim();
    match r.http_status {
        Some(code) if r.status == Status::Broken => format!("{}: HTTP {code}", r.status.as_str()),
        _ => format!("{}: {head}", r.status.as_str()),
    }
}

/// Most URLs a group names before "and N more".
const GROUP_NAMES: usize = 3;

/// The failing links grouped by [`kind`], largest group first: one line a
/// kind, with its count and the first few URLs. Empty when nothing failed.
pub fn grouped(results: &[LinkResult]) -> String {
    let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for r in results.iter().filter(|r| r.status.is_failure()) {
        groups.entry(kind(r)).or_default().push(&r.url);
    }
    if groups.is_empty() {
        return String::new();
    }
    let mut groups: Vec<(String, Vec<&str>)> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    let mut out = String::from("failures by kind:\n");
    for (k, urls) in groups {
        let mut named = urls[..urls.len().min(GROUP_NAMES)].join(", ");
        if urls.len() > GROUP_NAMES {
            named.push_str(&format!(" and {} more", urls.len() - GROUP_NAMES));
        }
        let n = urls.len();
        let links = if n == 1 { "link" } else { "links" };
        out.push_str(&format!("  {k} ({n} {links}): {named}\n"));
    }
    out
}

/// The JSON format: one object per URL, one per line.
pub fn json_lines(results: &[LinkResult]) -> String {
    results
        .iter()
        .map(|r| serde_json::to_string(r).unwrap_or_default() + "\n")
        .collect()
}

/// A table cell of data or server text: shown literally, no markup, no `|`.
fn md_cell(s: &str) -> String {
    escape_markdown(s)
}

/// A URL's cell: a link when it is an http(s) URL (the text escaped, the
/// target made safe), else the escaped text alone.
fn url_cell(url: &str) -> String {
    match link_target(url) {
        Some(target) => format!("[{}]({target})", escape_markdown(url)),
        None => escape_markdown(url),
    }
}

/// The Markdown format: a summary line and a table of every URL that is not
/// simply ok, for a job summary.
pub fn markdown(results: &[LinkResult]) -> String {
    let mut out = String::from("## Link check\n\n");
    out.push_str(&summary(results));
    out.push_str("\n\n");
    let groups = grouped(results);
    if !groups.is_empty() {
        // Each line a list item, its text escaped as every data cell is.
        for line in groups.lines().skip(1) {
            out.push_str(&format!("- {}\n", md_cell(line.trim())));
        }
        out.push('\n');
    }
    let shown: Vec<&LinkResult> = results
        .iter()
        .filter(|r| !matches!(r.status, Status::Ok | Status::Skipped) || r.fails)
        .collect();
    if shown.is_empty() {
        out.push_str("Every checked link answered.\n");
        return out;
    }
    out.push_str("| status | HTTP | URL | where | details |\n| --- | --- | --- | --- | --- |\n");
    for r in shown {
        let places: Vec<String> = r
            .places
            .iter()
            .map(|p| match p.line {
                Some(l) => format!("{}:{l}", p.file),
                None => p.file.clone(),
            })
            .collect();
        let status = if r.fails {
            format!("**{}**", r.status.as_str())
        } else {
            r.status.as_str().to_string()
        };
        out.push_str(&format!(
            "| {status} | {} | {} | {} | {} |\n",
            r.http_status.map(|s| s.to_string()).unwrap_or_default(),
            url_cell(&r.url),
            md_cell(&places.join(", ")),
            md_cell(&r.message),
        ));
    }
    out
}

/// Renders a run in the chosen format; `diagnostics` are the run's, as
/// [`diagnostics`] gives them (the caller already has them for its exit code).
pub fn render(
    results: &[LinkResult],
    diagnostics: &[Diagnostic],
    format: LinkFormat,
    corpus: &Corpus,
    readme: Option<&str>,
) -> String {
    match format {
        LinkFormat::Json => json_lines(results),
        LinkFormat::Markdown => markdown(results),
        LinkFormat::Github => corpus_diagnostics::report::render(
            diagnostics,
            corpus_diagnostics::report::Format::Github,
            &corpus_diagnostics::report::Sources::new(),
            None,
        ),
        LinkFormat::Human => {
            let mut sources: corpus_diagnostics::report::Sources = corpus
                .files
                .iter()
                .map(|f| (f.rel.as_str(), &*f.text))
                .collect();
            if let Some(t) = readme {
                sources.insert(Layout::README, t);
            }
            let summary = format!("{}{}", grouped(results), summary(results));
            corpus_diagnostics::report::render(
                diagnostics,
                corpus_diagnostics::report::Format::Human,
                &sources,
                Some(&summary),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::links::Place;

    #[test]
    fn markdown_cells_hold_data_and_server_text_as_text() {
        let hostile = "x</a><h1>h</h1>|a|b`code`\n| forged | row |";
        let r = LinkResult {
            url: format!("https://a.org/{hostile}"),
            status: Status::Broken,
            http_status: Some(404),
            location: None,
            permanent: false,
            message: format!("answered 404 at https://a.org/{hostile}"),
            places: vec![Place {
                file: format!("corpus/papers/{hostile}.yaml"),
                line: Some(3),
            }],
            failed_runs: 1,
            fails: true,
        };
        let md = markdown(&[r]);
        let row = md.lines().last().unwrap_or_default();
        assert_eq!(md.lines().filter(|l| l.starts_with('|')).count(), 3, "{md}");
        assert_eq!(row.matches('|').count(), 6, "{row}");
        assert!(!md.contains('<') && !md.contains("`code`"), "{md}");
        let ok = markdown(&[LinkResult {
            url: "https://a.org/p_(1)".into(),
            message: "answered 404".into(),
            ..markdown_probe()
        }]);
        assert!(
            ok.contains("| [https://a.org/p\\_(1)](https://a.org/p_%281%29) |"),
            "{ok}"
        );
    }

    #[test]
    fn failures_of_one_kind_are_grouped_with_their_count() {
        let failed = |url: &str, status: Status, http: Option<u16>, message: &str| LinkResult {
            url: url.into(),
            status,
            http_status: http,
            message: message.into(),
            ..markdown_probe()
        };
        let results = [
            failed(
                "https://a.org",
                Status::Error,
                None,
                "connection failed: host not found",
            ),
            failed(
                "https://b.org",
                Status::Error,
                None,
                "connection failed: refused",
            ),
            failed("https://c.org", Status::Broken, Some(404), "answered 404"),
            failed(
                "https://d.org",
                Status::Error,
                None,
                "connection failed: host not found",
            ),
            failed(
                "https://e.org",
                Status::Error,
                None,
                "connection failed: reset",
            ),
            failed(
                "https://f.org",
                Status::Error,
                None,
                "connection failed: x (at y)",
            ),
            LinkResult {
                status: Status::Ok,
                ..failed("https://g.org", Status::Ok, Some(200), "answered 200")
            },
        ];
        assert_eq!(
            grouped(&results),
            "failures by kind:\n  error: connection failed (5 links): https://a.org, https://b.org, https://d.org and 2 more\n  broken: HTTP 404 (1 link): https://c.org\n"
        );
        assert_eq!(grouped(&results[6..]), "");
    }

    fn markdown_probe() -> LinkResult {
        LinkResult {
            url: String::new(),
            status: Status::Broken,
            http_status: Some(404),
            location: None,
            permanent: false,
            message: String::new(),
            places: Vec::new(),
            failed_runs: 1,
            fails: true,
        }
    }
}
