//! A PRISMA 2020 flow diagram for an updated review: the previous review's
//! studies, then per new round the identification, screening and inclusion
//! boxes, then the total.
//!
//! Phase names sit at the left as in the PRISMA template; a line on the
//! right collects the previous studies and each round's new studies into the
//! total, so no connector crosses a phase name.
//!
//! A count is `Option<u64>`: `None` is drawn as "not reported", so a figure
//! the data does not hold is never shown as a number. The layout stacks the
//! rounds vertically (the PRISMA template puts one search per column, and a
//! living list can have many rounds).

use super::draw::{card, line, px, rect, render, text, title_text, Area, DrawResult};
use super::measure::{clean, text_width};
use super::style::{APART_FILL, BG, FG, MUTED, PAD, SMALL_SIZE, TEXT_SIZE, TITLE_MAX, ZERO_FILL};
use plotters::element::Polygon;
use plotters::style::text_anchor::HPos;
use plotters::style::{Color, RGBColor};

/// One round after the previous review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowRound {
    /// The round's name as readers know it.
    pub label: String,
    /// Records the round's searches identified.
    pub identified: Option<u64>,
    /// Records screened.
    pub screened: Option<u64>,
    /// Records excluded, per stage (label, count), in flow order.
    pub excluded: Vec<(String, Option<u64>)>,
    /// Studies the round added to the review.
    pub included: u64,
}

/// The whole diagram's counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow {
    /// Studies included in the previous version of the review.
    pub previous: u64,
    /// Lines under the previous count (what it is made of).
    pub previous_lines: Vec<String>,
    /// The new rounds, oldest first.
    pub rounds: Vec<FlowRound>,
}

const NOT_REPORTED: &str = "not reported";
const WIDTH: i64 = 720;
const LABEL_X: i64 = PAD + 4;
const BUS_X: i64 = WIDTH - PAD - 8;
const MAIN_X: i64 = 130;
const MAIN_W: i64 = 300;
const SIDE_X: i64 = 460;
const SIDE_W: i64 = BUS_X - 18 - SIDE_X;
const LINE_H: i64 = 16;
const GAP: i64 = 22;
const BAND_H: i64 = 26;
/// Characters of 12 px text that fit a box of `w` pixels with its padding.
fn fits(w: i64) -> usize {
    usize::try_from((w - 16) / text_width(1, 12).max(1)).unwrap_or(1)
}
const ARROW: RGBColor = RGBColor(0x59, 0x63, 0x6E);

/// "1 study", "2 studies".
pub fn studies(n: u64) -> String {
    format!("{n} {}", if n == 1 { "study" } else { "studies" })
}

/// "(n = 12)" or "(n = not reported)".
pub fn n(c: Option<u64>) -> String {
    format!(
        "(n = {})",
        c.map_or(NOT_REPORTED.to_string(), |v| v.to_string())
    )
}

/// The sum, or not reported when any part is.
fn total(parts: &[(String, Option<u64>)]) -> Option<u64> {
    parts
        .iter()
        .try_fold(0u64, |acc, (_, c)| c.map(|c| acc.saturating_add(c)))
}

/// Studies in the review after every round.
pub fn total_studies(flow: &Flow) -> u64 {
    flow.rounds
        .iter()
        .fold(flow.previous, |acc, r| acc.saturating_add(r.included))
}

/// Wraps cleaned text into lines of at most `max` characters, cutting words
/// that are longer; a count "(n = …)" stays on one line.
fn wrap(raw: &str, max: usize) -> Vec<String> {
    // The spaces of a count are held by a character clean() has removed
    // from the text, then given back.
    const HOLD: char = '\u{1}';
    let held = clean(raw, usize::MAX)
        .replace(NOT_REPORTED, &NOT_REPORTED.replace(' ', &HOLD.to_string()))
        .replace("(n = ", &format!("(n{HOLD}={HOLD}"));
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in held.split(' ').filter(|w| !w.is_empty()) {
        let mut word: String = word.replace(HOLD, " ");
        while word.chars().count() > max {
            if !cur.is_empty() {
                lines.push(std::mem::take(&mut cur));
            }
            let head: String = word.chars().take(max).collect();
            word = word.chars().skip(max).collect();
            lines.push(head);
        }
        let len = cur.chars().count();
        if len > 0 && len + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(&word);
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// A box: its paragraphs wrapped to its width.
struct Boxed {
    lines: Vec<String>,
}

impl Boxed {
    fn new(paragraphs: &[String], w: i64) -> Boxed {
        Boxed {
            lines: paragraphs.iter().flat_map(|p| wrap(p, fits(w))).collect(),
        }
    }

    fn height(&self) -> i64 {
        (self.lines.len() as i64).saturating_mul(LINE_H) + 12
    }

    fn draw(&self, area: &Area, x: i64, y: i64, w: i64, fill: RGBColor) -> DrawResult {
        rect(area, [(x, y), (x + w, y + self.height())], fill.filled())?;
        rect(
            area,
            [(x, y), (x + w, y + self.height())],
            FG.stroke_width(1),
        )?;
        for (i, l) in self.lines.iter().enumerate() {
            let mid = y + 6 + (i as i64) * LINE_H + LINE_H / 2;
            text(area, l, x + 8, mid, TEXT_SIZE, FG, HPos::Left)?;
        }
        Ok(())
    }
}

/// A straight arrow (vertical or horizontal) ending in a head at `to`.
fn arrow(area: &Area, from: (i64, i64), to: (i64, i64)) -> DrawResult {
    line(area, from, to, ARROW)?;
    let (dx, dy) = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
    let (x, y) = to;
    let head = if dy != 0 {
        vec![(x, y), (x - 5, y - 8 * dy), (x + 5, y - 8 * dy)]
    } else {
        vec![(x, y), (x - 8 * dx, y - 5), (x - 8 * dx, y + 5)]
    };
    let head: Vec<(i32, i32)> = head.into_iter().map(|(a, b)| (px(a), px(b))).collect();
    area.draw(&Polygon::new(head, ARROW.filled()))
}

/// One row: a phase label at the left, a main box and maybe a side box.
struct Row {
    phase: &'static str,
    main: Boxed,
    side: Option<Boxed>,
}

impl Row {
    fn height(&self) -> i64 {
        let side = self.side.as_ref().map_or(0, Boxed::height);
        self.main.height().max(side)
    }
}

fn round_rows(r: &FlowRound) -> Vec<Row> {
    let stages: Vec<String> = r
        .excluded
        .iter()
        .map(|(label, c)| format!("at {label} {}", n(*c)))
        .collect();
    let mut side = vec![format!("Records excluded {}", n(total(&r.excluded)))];
    // Stage lines add nothing when every one of them is not reported.
    if r.excluded.iter().any(|(_, c)| c.is_some()) {
        side.extend(stages);
    }
    vec![
        Row {
            phase: "Identification",
            main: Boxed::new(
                &[format!(
                    "Records identified from databases and registers {}",
                    n(r.identified)
                )],
                MAIN_W,
            ),
            side: None,
        },
        Row {
            phase: "Screening",
            main: Boxed::new(&[format!("Records screened {}", n(r.screened))], MAIN_W),
            side: Some(Boxed::new(&side, SIDE_W)),
        },
        Row {
            phase: "Included",
            main: Boxed::new(
                &[format!(
                    "New studies included in review (n = {})",
                    r.included
                )],
                MAIN_W,
            ),
            side: None,
        },
    ]
}

/// The flow diagram as a standalone SVG document.
pub fn prisma_flow(title: &str, flow: &Flow) -> String {
    let title = clean(title, TITLE_MAX);
    let mut prev = vec![format!(
        "Studies included in previous version of review (n = {})",
        flow.previous
    )];
    prev.extend(flow.previous_lines.iter().cloned());
    let previous = Boxed::new(&prev, MAIN_W);
    let rounds: Vec<(String, Vec<Row>)> = flow
        .rounds
        .iter()
        .map(|r| (clean(&format!("New round: {}", r.label), 80), round_rows(r)))
        .collect();
    let total_box = Boxed::new(
        &[format!(
            "Total studies included in review (n = {})",
            total_studies(flow)
        )],
        MAIN_W,
    );
    let top = PAD + 34;
    let mut height = top + previous.height() + GAP;
    for (_, rows) in &rounds {
        height += BAND_H + GAP;
        height += rows.iter().map(|r| r.height() + GAP).sum::<i64>();
    }
    height += total_box.height() + PAD;

    render(WIDTH, height, |area| {
        card(area, WIDTH, height)?;
        title_text(area, &title)?;
        let mut y = top;
        let label = |y: i64, h: i64, s: &str| {
            text(area, s, LABEL_X, y + h / 2, SMALL_SIZE, MUTED, HPos::Left)
        };
        label(y, previous.height(), "Previous review")?;
        previous.draw(area, MAIN_X, y, MAIN_W, ZERO_FILL)?;
        // The collecting line starts at the previous studies.
        let bus_top = y + previous.height() / 2;
        line(area, (MAIN_X + MAIN_W, bus_top), (BUS_X, bus_top), ARROW)?;
        y += previous.height() + GAP;
        for (heading, rows) in &rounds {
            rect(
                area,
                [(LABEL_X, y), (BUS_X - 12, y + BAND_H)],
                APART_FILL.filled(),
            )?;
            text(
                area,
                heading,
                LABEL_X + 8,
                y + BAND_H / 2,
                TEXT_SIZE,
                FG,
                HPos::Left,
            )?;
            y += BAND_H + GAP;
            let mut above: Option<i64> = None;
            for row in rows {
                let h = row.height();
                let main_y = y + (h - row.main.height()) / 2;
                label(y, h, row.phase)?;
                if let Some(bottom) = above {
                    arrow(
                        area,
                        (MAIN_X + MAIN_W / 2, bottom),
                        (MAIN_X + MAIN_W / 2, main_y),
                    )?;
                }
                row.main.draw(area, MAIN_X, main_y, MAIN_W, BG)?;
                let mid = main_y + row.main.height() / 2;
                if let Some(side) = &row.side {
                    let side_y = y + (h - side.height()) / 2;
                    side.draw(area, SIDE_X, side_y, SIDE_W, BG)?;
                    arrow(area, (MAIN_X + MAIN_W, mid), (SIDE_X, mid))?;
                } else if row.phase == "Included" {
                    line(area, (MAIN_X + MAIN_W, mid), (BUS_X, mid), ARROW)?;
                }
                above = Some(main_y + row.main.height());
                y += h + GAP;
            }
        }
        let total_mid = y + total_box.height() / 2;
        line(area, (BUS_X, bus_top), (BUS_X, total_mid), ARROW)?;
        arrow(area, (BUS_X, total_mid), (MAIN_X + MAIN_W, total_mid))?;
        label(y, total_box.height(), "Total")?;
        total_box.draw(area, MAIN_X, y, MAIN_W, ZERO_FILL)?;
        Ok(())
    })
}

/// The diagram in words, for `<desc>` and alt text: every box and its count.
pub fn prisma_desc(flow: &Flow) -> String {
    let mut out = format!(
        "PRISMA 2020 flow diagram for an updated review. Previous review: {} included",
        studies(flow.previous)
    );
    if !flow.previous_lines.is_empty() {
        out.push_str(&format!(" ({})", flow.previous_lines.join("; ")));
    }
    out.push('.');
    for r in &flow.rounds {
        let stages: Vec<String> = r
            .excluded
            .iter()
            .map(|(l, c)| {
                format!(
                    "{l} {}",
                    c.map_or(NOT_REPORTED.to_string(), |v| v.to_string())
                )
            })
            .collect();
        let word = |c: Option<u64>| c.map_or(NOT_REPORTED.to_string(), |v| v.to_string());
        out.push_str(&format!(
            " New round {}: records identified {}; records screened {}; records excluded {}{}; new studies included {}.",
            r.label,
            word(r.identified),
            word(r.screened),
            word(total(&r.excluded)),
            if r.excluded.iter().all(|(_, c)| c.is_none()) {
                String::new()
            } else {
                format!(" ({})", stages.join(", "))
            },
            r.included
        ));
    }
    out.push_str(&format!(
        " Total studies included in review: {}.",
        total_studies(flow)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(excluded: Vec<(String, Option<u64>)>, included: u64) -> FlowRound {
        FlowRound {
            label: "Round".into(),
            identified: None,
            screened: None,
            excluded,
            included,
        }
    }

    #[test]
    fn wrapping_keeps_counts_whole_and_cuts_long_words() {
        let lines = wrap("Records excluded (n = not reported)", 20);
        assert_eq!(lines, ["Records excluded", "(n = not reported)"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
        assert!(wrap("a\u{0}b\tc", 10).iter().all(|l| !l.contains('\u{0}')));
    }

    #[test]
    fn a_sum_with_a_part_not_reported_is_not_reported() {
        let some = vec![("a".to_string(), Some(2)), ("b".to_string(), Some(3))];
        assert_eq!(total(&some), Some(5));
        let gap = vec![("a".to_string(), Some(2)), ("b".to_string(), None)];
        assert_eq!(total(&gap), None);
        assert_eq!(n(None), "(n = not reported)");
        let big = vec![
            ("a".to_string(), Some(u64::MAX)),
            ("b".to_string(), Some(1)),
        ];
        assert_eq!(total(&big), Some(u64::MAX));
    }

    #[test]
    fn every_box_is_drawn_and_hostile_text_stays_xml() {
        let flow = Flow {
            previous: u64::MAX,
            previous_lines: vec!["<b>&\u{7}".repeat(40)],
            rounds: vec![
                round(vec![("Abstract <screen>".into(), Some(3))], 2),
                round(vec![("x".into(), None)], u64::MAX),
            ],
        };
        let svg = prisma_flow("Title & <more>", &flow);
        let doc = roxmltree::Document::parse(&svg).expect("XML");
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        assert!(texts.contains(&"at Abstract <screen> (n = 3)"), "{texts:?}");
        assert!(texts.contains(&"Records screened (n = not reported)"));
        // The second round's only stage is not reported: no stage line.
        assert!(!texts.iter().any(|t| t.starts_with("at x")), "{texts:?}");
        assert_eq!(total_studies(&flow), u64::MAX);
        let desc = prisma_desc(&flow);
        assert!(
            desc.contains("records excluded 3 (Abstract <screen> 3)"),
            "{desc}"
        );
    }
}
