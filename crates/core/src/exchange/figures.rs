//! The survey's figure memberships read from the artifact's figure files
//! (`corpus survey figures`): each `<text>` of an SVG figure is placed under
//! the level whose header text it lines up with (same x below a column
//! header, same y right of a row header), its labels are resolved to entry
//! keys, and the result is compared with, or written into, the figures of
//! `corpus/survey.yaml`. The memberships are derived, never typed in.

use crate::model::survey::{Figure, FigureLayout, Survey};
use crate::model::Entry;
use std::collections::BTreeMap;

/// How far apart two coordinates may be and still line up (SVG user units):
/// the figures place a column's texts at the same x, a row's at the same y.
pub const ALIGN: f64 = 1.0;

/// One `<text>` element: its anchor position and its whole text.
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    /// The `x` attribute.
    pub x: f64,
    /// The `y` attribute.
    pub y: f64,
    /// Its text, the text of its `<tspan>`s included, whitespace collapsed.
    pub text: String,
}

/// The `<text>` elements of an SVG file that carry an x and a y, in
/// document order.
pub fn texts(svg: &str) -> Result<Vec<Text>, String> {
    let doc = roxmltree::Document::parse(svg).map_err(|e| format!("not an SVG file: {e}"))?;
    let mut out = Vec::new();
    for node in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let coord = |name: &str| {
            node.attribute(name)
                .and_then(|v| v.trim().parse::<f64>().ok())
        };
        let (Some(x), Some(y)) = (coord("x"), coord("y")) else {
            continue;
        };
        let raw: String = node
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.is_empty() && x.is_finite() && y.is_finite() {
            out.push(Text { x, y, text });
        }
    }
    Ok(out)
}

/// The labels one text names: its comma-separated parts with parenthesised
/// remarks such as "(sparse)" left out.
pub fn labels(text: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split(',')
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect()
}

/// The labels placed under each level of `fig` (by level value, in the
/// figure's order), read from the figure file's texts.
pub fn place(fig: &Figure, texts: &[Text]) -> Result<Vec<(String, Vec<String>)>, String> {
    let layout = fig
        .layout
        .ok_or_else(|| format!("figure `{}` names no layout (columns or rows)", fig.id))?;
    let mut headers = Vec::new();
    for level in &fig.levels {
        let Some(h) = &level.header else {
            return Err(format!(
                "level `{}` of figure `{}` names no header text",
                level.value, fig.id
            ));
        };
        let found: Vec<&Text> = texts.iter().filter(|t| &t.text == h).collect();
        match found.as_slice() {
            [one] => headers.push((level.value.clone(), *one)),
            [] => return Err(format!("figure `{}` has no text `{h}`", fig.id)),
            _ => {
                return Err(format!(
                    "figure `{}` has {} texts `{h}`; a header must be one",
                    fig.id,
                    found.len()
                ))
            }
        }
    }
    let mut out: Vec<(String, Vec<String>)> = headers
        .iter()
        .map(|(v, _)| (v.clone(), Vec::new()))
        .collect();
    for t in texts {
        if headers.iter().any(|(_, h)| std::ptr::eq(*h, t)) {
            continue;
        }
        // (across, along): the header and the text share `across`; the
        // text lies after the header along the other axis.
        let axes = |p: &Text| match layout {
            FigureLayout::Columns => (p.x, p.y),
            FigureLayout::Rows => (p.y, p.x),
        };
        let (ta, tl) = axes(t);
        let nearest = headers
            .iter()
            .enumerate()
            .filter_map(|(i, (_, h))| {
                let (ha, hl) = axes(h);
                ((ta - ha).abs() <= ALIGN && tl > hl).then_some((i, tl - hl))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, _)) = nearest {
            out[i].1.extend(labels(&t.text));
        }
    }
    Ok(out)
}

/// Resolves figure labels to entry keys: the survey's `figure_labels`
/// first, then an entry's short name, its title before the colon, its key.
pub struct Resolver<'a> {
    survey: &'a Survey,
    entries: Vec<&'a Entry>,
}

fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl<'a> Resolver<'a> {
    /// A resolver over the survey's labels and names and these entries.
    pub fn new(survey: &'a Survey, entries: Vec<&'a Entry>) -> Resolver<'a> {
        Resolver { survey, entries }
    }

    /// The keys a label names (empty: a label that names no entry), or why
    /// it cannot be resolved.
    pub fn keys(&self, label: &str) -> Result<Vec<String>, String> {
        let l = norm(label);
        if let Some(fl) = self
            .survey
            .figure_labels
            .iter()
            .find(|f| norm(&f.label) == l)
        {
            return Ok(fl.keys.clone());
        }
        if let Some(n) = self.survey.names.iter().find(|n| norm(&n.name) == l) {
            return Ok(vec![n.key.clone()]);
        }
        let by_title: Vec<&str> = self
            .entries
            .iter()
            .filter(|e| e.title.split_once(':').is_some_and(|(t, _)| norm(t) == l))
            .map(|e| e.key.as_str())
            .collect();
        match by_title.as_slice() {
            [one] => return Ok(vec![one.to_string()]),
            [] => {}
            many => {
                return Err(format!(
                    "the label `{label}` starts the titles of {}; name its entry in figure_labels",
                    many.join(", ")
                ))
            }
        }
        if let Some(e) = self.entries.iter().find(|e| norm(&e.key) == l) {
            return Ok(vec![e.key.clone()]);
        }
        Err(format!(
            "the label `{label}` is no entry's short name, title or key; add it to figure_labels in corpus/survey.yaml (with `keys: []` when it names no entry)"
        ))
    }
}

/// The memberships a figure's file shows: the entries under each level, in
/// the figure's order, without repeats; every label that could not be
/// resolved is an error.
pub fn derive(
    fig: &Figure,
    svg: &str,
    resolver: &Resolver,
) -> Result<Vec<(String, Vec<String>)>, Vec<String>> {
    let texts = texts(svg).map_err(|e| vec![e])?;
    let placed = place(fig, &texts).map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    let mut out = Vec::new();
    for (value, labels) in placed {
        let mut keys: Vec<String> = Vec::new();
        for label in labels {
            match resolver.keys(&label) {
                Ok(ks) => keys.extend(
                    ks.into_iter()
                        .filter(|k| !keys.contains(k))
                        .collect::<Vec<_>>(),
                ),
                Err(e) => errors.push(format!("figure `{}`, level `{value}`: {e}", fig.id)),
            }
        }
        out.push((value, keys));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The differences between a figure as kept and as derived from its file
/// (at `commit`), one sentence each; empty: they agree.
pub fn differences(fig: &Figure, derived: &[(String, Vec<String>)], commit: &str) -> Vec<String> {
    let mut out = Vec::new();
    if fig.commit.as_deref() != Some(commit) {
        out.push(format!(
            "figure `{}`: recorded commit {} but its file was last changed in {commit}",
            fig.id,
            fig.commit.as_deref().unwrap_or("(none)")
        ));
    }
    let kept: BTreeMap<&str, &Vec<String>> = fig
        .levels
        .iter()
        .map(|l| (l.value.as_str(), &l.entries))
        .collect();
    for (value, keys) in derived {
        let have = kept
            .get(value.as_str())
            .map(|v| v.as_slice())
            .unwrap_or(&[]);
        if have != keys.as_slice() {
            out.push(format!(
                "figure `{}`, level `{value}`: kept [{}], the file shows [{}]",
                fig.id,
                have.join(", "),
                keys.join(", ")
            ));
        }
    }
    out
}

/// The figure with the derived memberships and commit put in.
pub fn updated(fig: &Figure, derived: &[(String, Vec<String>)], commit: &str) -> Figure {
    let mut f = fig.clone();
    f.commit = Some(commit.to_string());
    for level in &mut f.levels {
        if let Some((_, keys)) = derived.iter().find(|(v, _)| *v == level.value) {
            level.entries = keys.clone();
        }
    }
    f
}

fn scalar(s: &str) -> String {
    // serde_yaml quotes a string exactly when YAML would read it otherwise.
    serde_yaml::to_string(s)
        .map(|t| t.trim_end().to_string())
        .unwrap_or_else(|_| format!("{s:?}"))
}

/// The `figures:` section of the survey file, written out in its canonical
/// layout (flow lists of keys, one level per item).
pub fn section(figures: &[Figure]) -> String {
    let mut out = String::from("figures:\n");
    for f in figures {
        out += &format!(
            "  - id: {}\n    title: {}\n",
            scalar(&f.id),
            scalar(&f.title)
        );
        let field = serde_yaml::to_string(&f.field).unwrap_or_default();
        out += &format!("    field: {}\n", field.trim_end());
        if let Some(file) = &f.file {
            out += &format!("    file: {}\n", scalar(file));
        }
        if let Some(c) = &f.commit {
            out += &format!("    commit: {}\n", scalar(c));
        }
        if let Some(l) = f.layout {
            let l = serde_yaml::to_string(&l).unwrap_or_default();
            out += &format!("    layout: {}\n", l.trim_end());
        }
        out += "    levels:\n";
        for l in &f.levels {
            out += &format!("      - value: {}\n", scalar(&l.value));
            if let Some(h) = &l.header {
                out += &format!("        header: {}\n", scalar(h));
            }
            if !l.entries.is_empty() {
                let keys: Vec<String> = l.entries.iter().map(|k| scalar(k)).collect();
                out += &format!("        entries: [{}]\n", keys.join(", "));
            }
            if let Some(n) = &l.note {
                out += &format!("        note: {}\n", scalar(n));
            }
        }
    }
    out
}

/// The survey file's text with its `figures:` section replaced by
/// `figures`; everything else, comments included, is kept as it was. The
/// result is parsed again and must hold exactly those figures.
pub fn rewrite(text: &str, figures: &[Figure]) -> Result<String, String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let start = lines
        .iter()
        .position(|l| l.trim_end() == "figures:")
        .ok_or("the survey file has no top-level `figures:` section to write into")?;
    let top = |l: &str| !l.starts_with([' ', '\t', '#', '\n', '\r']) && !l.trim().is_empty();
    let mut end = lines[start + 1..]
        .iter()
        .position(|l| top(l))
        .map_or(lines.len(), |i| start + 1 + i);
    // Comments and blank lines just before the next key belong to it.
    while end > start + 1 && {
        let t = lines[end - 1].trim();
        t.is_empty() || t.starts_with('#')
    } {
        end -= 1;
    }
    let mut out: String = lines[..start].concat();
    out += &section(figures);
    out += &lines[end..].concat();
    let again = crate::model::survey::parse(&out).map_err(|_| {
        "the survey file would no longer parse after writing its figures".to_string()
    })?;
    if again.figures != figures {
        return Err("the survey file would not hold the derived figures after writing".into());
    }
    Ok(out)
}

#[cfg(test)]
#[path = "figures_tests.rs"]
mod tests;
