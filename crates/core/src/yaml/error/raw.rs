//! serde_yaml's error message taken apart: the problem, its position and libyaml's context.

use regex::Regex;
use std::sync::OnceLock;

/// The parts of serde_yaml's message: the problem, the position it names,
/// and the context libyaml gives ("while scanning a quoted scalar") with its own position.
pub(super) struct Raw<'a> {
    pub(super) problem: &'a str,
    pub(super) at: Option<(usize, usize)>,
    pub(super) context: &'a str,
    pub(super) context_at: Option<(usize, usize)>,
}

pub(super) fn raw<'a>(msg: &'a str, e: &serde_yaml::Error) -> Raw<'a> {
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
