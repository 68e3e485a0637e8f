//! SVG charts for the corpus statistics and README: horizontal bar charts and heat maps.
//!
//! Every public function is pure: data in, one complete standalone SVG 1.1 document out. Nothing
//! is printed, nothing is read from disk, and no input (empty slices, zero counts, `u64::MAX`,
//! labels full of markup or control characters) makes a function panic.
//!
//! How odd input is shown rather than rejected:
//!
//! * Empty data draws the title and "No data" on a small card.
//! * Labels are cut to 34 characters (column labels 24, titles 64) with an ellipsis, and runs of
//!   whitespace or control characters become one space.
//! * In a heat map, cells missing from a ragged `cells` count as zero and extra ones are ignored,
//!   so the grid always matches `rows` x `cols`.
//! * In the screening flow, remaining counts stop at zero instead of wrapping, and a `retained`
//!   that differs from what the stages leave is shown in red in the last box rather than hidden.
//!
//! Why it is built the way it is:
//!
//! * Drawing goes through `plotters` with only its SVG backend. Without the `ttf`/`ab_glyph`
//!   features plotters uses a built-in size estimate instead of reading font files, and its SVG
//!   backend writes plain `<text>` elements that the viewer lays out with its own fonts, so no
//!   font is shipped, downloaded or looked up on the machine. The backend writes integer pixel
//!   coordinates, no ids and elements in drawing order, so output is byte-identical between runs.
//! * Layout is done here in pixel coordinates rather than with plotters' `ChartBuilder`: its
//!   segmented (category) axes add a spare category, and we need exact control over the label
//!   column, truncation and where counts sit. The flow diagram has no plotters equivalent at all,
//!   so it is laid out by hand from the same primitives; one writer keeps escaping and styling
//!   identical across all three charts.
//! * Plotters escapes `& < > " '` but passes other characters through, and XML 1.0 forbids most
//!   control characters, so every caller-supplied string goes through `clean` first.
//! * Widths of text are estimated at 0.6 em a character (no font metrics are available), which
//!   errs on the wide side for typical sans-serif fonts so labels do not collide with bars.
//! * Each chart sits on an opaque white card with a grey border and dark text, so it reads the
//!   same on GitHub's light and dark themes.

use plotters::backend::SVGBackend;
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind, IntoDrawingArea};
use plotters::element::{PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{
    Color, FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, ShapeStyle, TextStyle,
};

/// One bar: a label and a count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bar {
    /// Text shown to the left of the bar.
    pub label: String,
    /// Count that sets the bar's length and is printed at its end.
    pub value: u64,
}

/// Default card width; heat maps with many columns grow beyond it rather than squash cells.
const WIDTH: i64 = 680;
const PAD: i64 = 16;
/// Labels longer than this many characters are cut and end in an ellipsis.
const LABEL_MAX: usize = 34;
const COL_LABEL_MAX: usize = 24;
const TITLE_MAX: usize = 64;
const AXIS_MAX: usize = 40;

const FONT: &str = "Helvetica, Arial, sans-serif";

// Plotters' SVG backend writes `font-size` as the requested size divided by 1.24; these values
// divide to exact integers (16, 14, 12, 11 px) so the attribute is not a long float.
const TITLE_SIZE: f64 = 19.84;
const TEXT_SIZE: f64 = 14.88;
const SMALL_SIZE: f64 = 13.64;

const BG: RGBColor = RGBColor(0xFF, 0xFF, 0xFF);
const BORDER: RGBColor = RGBColor(0xD0, 0xD7, 0xDE);
const FG: RGBColor = RGBColor(0x1F, 0x23, 0x28);
const MUTED: RGBColor = RGBColor(0x59, 0x63, 0x6E);
const FAINT: RGBColor = RGBColor(0x8C, 0x95, 0x9F);
const BAR_FILL: RGBColor = RGBColor(0x09, 0x69, 0xDA);
const ZERO_FILL: RGBColor = RGBColor(0xF6, 0xF8, 0xFA);
const ZERO_EDGE: RGBColor = RGBColor(0xD8, 0xDE, 0xE4);
const HEAT_LOW: RGBColor = RGBColor(0xDD, 0xF4, 0xFF);
const HEAT_HIGH: RGBColor = RGBColor(0x0A, 0x30, 0x69);
const WHITE_TEXT: RGBColor = RGBColor(0xFF, 0xFF, 0xFF);
/// Neutral fill of heat-map cells kept out of the colour scale.
const APART_FILL: RGBColor = RGBColor(0xEA, 0xEE, 0xF2);

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Horizontal bar chart, one bar per item in the given order, count printed at the end of each bar.
pub fn bar_chart(title: &str, bars: &[Bar]) -> String {
    bar_chart_apart(title, bars, &[])
}

/// A bar chart whose `apart` rows (such as "not applicable") are listed below
/// a rule with their counts only: they do not set the scale, so a large NA
/// count cannot dwarf the values of the taxonomy.
pub fn bar_chart_apart(title: &str, bars: &[Bar], apart: &[Bar]) -> String {
    const ROW: i64 = 26;
    const BAR_H: i64 = 18;

    let title = clean(title, TITLE_MAX);
    let labels: Vec<String> = bars
        .iter()
        .chain(apart)
        .map(|b| clean(&b.label, LABEL_MAX))
        .collect();
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0);

    let label_chars = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let label_w = text_width(label_chars.clamp(4, LABEL_MAX), 12);
    let value_w = text_width(digits(max), 12) + 8;
    let bar_x = PAD + label_w + 10;
    // Long labels plus huge counts could leave no room for bars; widen the card instead.
    let span = (WIDTH - PAD - value_w - bar_x).max(120);
    let width = bar_x + span + value_w + PAD;
    let top = PAD + 30;
    let apart_h = if apart.is_empty() {
        0
    } else {
        10 + (apart.len() as i64).saturating_mul(ROW)
    };
    let height = top + (bars.len().max(1) as i64).saturating_mul(ROW) + apart_h + PAD;

    render(width, height, |area| {
        card(area, width, height)?;
        title_text(area, &title)?;
        if bars.is_empty() && apart.is_empty() {
            return no_data(area);
        }
        let rows_end = top + (bars.len() as i64).saturating_mul(ROW);
        line(area, (bar_x, top - 2), (bar_x, rows_end + 2), BORDER)?;
        if !apart.is_empty() {
            let rule_y = rows_end + 5;
            line(area, (PAD, rule_y), (width - PAD, rule_y), BORDER)?;
            for (i, (bar, label)) in apart.iter().zip(&labels[bars.len()..]).enumerate() {
                let mid = rule_y + 5 + (i as i64).saturating_mul(ROW) + ROW / 2;
                text(area, label, bar_x - 8, mid, TEXT_SIZE, MUTED, HPos::Right)?;
                let note = format!("{} (not drawn to scale)", bar.value);
                text(area, &note, bar_x + 6, mid, TEXT_SIZE, MUTED, HPos::Left)?;
            }
        }
        for (i, (bar, label)) in bars.iter().zip(&labels).enumerate() {
            let mid = top + (i as i64).saturating_mul(ROW) + ROW / 2;
            text(area, label, bar_x - 8, mid, TEXT_SIZE, FG, HPos::Right)?;
            let mut len = scale(bar.value, max, span);
            // Keep tiny non-zero counts visible next to a large maximum.
            if bar.value > 0 {
                len = len.max(2);
            }
            if len > 0 {
                let corners = [
                    (bar_x + 1, mid - BAR_H / 2),
                    (bar_x + 1 + len, mid + BAR_H / 2),
                ];
                rect(area, corners, BAR_FILL.filled())?;
            }
            let count = bar.value.to_string();
            text(
                area,
                &count,
                bar_x + len + 6,
                mid,
                TEXT_SIZE,
                FG,
                HPos::Left,
            )?;
        }
        Ok(())
    })
}

/// Heat map: rows x columns grid, each cell shaded by its count and showing
/// the count as text (`cells[r][c]` is row r, column c). The row and column
/// labelled `apart` (such as "not applicable"), if any, are drawn in neutral
/// grey and left out of the colour scale, so their counts cannot wash out
/// the taxonomy's cells.
pub fn heat_map(
    title: &str,
    row_axis: &str,
    col_axis: &str,
    rows: &[String],
    cols: &[String],
    cells: &[Vec<u64>],
    apart: Option<&str>,
) -> String {
    let is_apart = |r: usize, c: usize| {
        apart.is_some_and(|a| {
            rows.get(r).is_some_and(|x| x == a) || cols.get(c).is_some_and(|x| x == a)
        })
    };
    const CELL_H: i64 = 28;
    const GAP: i64 = 2;
    const CELL_MAX_W: i64 = 120;

    let title = clean(title, TITLE_MAX);
    // The row axis name sits above the row labels, so it gets the same width limit.
    let row_axis = clean(row_axis, LABEL_MAX);
    let col_axis = clean(col_axis, AXIS_MAX);
    let row_labels: Vec<String> = rows.iter().map(|r| clean(r, LABEL_MAX)).collect();
    let col_labels: Vec<String> = cols.iter().map(|c| clean(c, COL_LABEL_MAX)).collect();
    let count = |r: usize, c: usize| cells.get(r).and_then(|row| row.get(c)).copied();
    let value = |r: usize, c: usize| count(r, c).unwrap_or(0);
    let max = (0..rows.len())
        .flat_map(|r| (0..cols.len()).map(move |c| (r, c)))
        .filter(|&(r, c)| !is_apart(r, c))
        .filter_map(|(r, c)| count(r, c))
        .max()
        .unwrap_or(0);
    // Cells apart still need room for their own (possibly larger) counts.
    let widest = (0..rows.len())
        .flat_map(|r| (0..cols.len()).map(move |c| (r, c)))
        .filter_map(|(r, c)| count(r, c))
        .max()
        .unwrap_or(0);

    let row_chars = row_labels
        .iter()
        .map(|l| l.chars().count())
        .chain(std::iter::once(row_axis.chars().count().min(LABEL_MAX)))
        .max()
        .unwrap_or(0);
    let label_w = text_width(row_chars.clamp(4, LABEL_MAX), 12);
    let col_chars = col_labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    let col_text_w = text_width(col_chars, 11);
    let ncols = cols.len() as i64;

    let min_cell = (text_width(digits(widest), 12) + 12).max(40);
    let grid_x_off = label_w + 10;
    let room = WIDTH - 2 * PAD - grid_x_off;
    // Fill the card when there are few columns, but never shrink below what the counts need.
    let cell_w = if ncols == 0 {
        min_cell
    } else {
        (room / ncols).clamp(min_cell, CELL_MAX_W.max(min_cell))
    };
    // Column labels too wide for their cell are turned to read upwards instead of overlapping.
    let rotated = col_text_w > cell_w - 6;
    let header_h = if rotated { col_text_w + 10 } else { 22 };

    let grid_w = ncols.saturating_mul(cell_w);
    let width = (2 * PAD + grid_x_off + grid_w).max(WIDTH);
    // Centre the labels-plus-grid block so a narrow grid does not hug the left edge.
    let block_x = ((width - grid_x_off - grid_w) / 2).max(PAD);
    let grid_x = block_x + grid_x_off;
    let axis_y = PAD + 30 + 8;
    let grid_y = axis_y + 12 + header_h;
    let empty = rows.is_empty() || cols.is_empty();
    let height = if empty {
        PAD + 30 + CELL_H + PAD
    } else {
        grid_y + (rows.len() as i64).saturating_mul(CELL_H) + PAD
    };

    render(width, height, |area| {
        card(area, width, height)?;
        title_text(area, &title)?;
        if empty {
            return no_data(area);
        }
        let bold = |px| FontDesc::new(FontFamily::Name(FONT), px, FontStyle::Bold);
        let axis_style = TextStyle::from(bold(SMALL_SIZE)).color(&MUTED);
        let col_axis_style = axis_style.pos(Pos::new(HPos::Center, VPos::Center));
        area.draw(&Text::new(
            col_axis.as_str(),
            (px(grid_x + grid_w / 2), px(axis_y)),
            col_axis_style,
        ))?;
        let row_axis_style = axis_style.pos(Pos::new(HPos::Right, VPos::Center));
        let row_axis_at = (px(grid_x - 8), px(grid_y - 10));
        area.draw(&Text::new(row_axis.as_str(), row_axis_at, row_axis_style))?;

        for (c, label) in col_labels.iter().enumerate() {
            let mid_x = grid_x + (c as i64).saturating_mul(cell_w) + cell_w / 2;
            if rotated {
                let style = TextStyle::from(font(SMALL_SIZE))
                    .color(&FG)
                    .pos(Pos::new(HPos::Left, VPos::Center))
                    .transform(FontTransform::Rotate270);
                area.draw(&Text::new(
                    label.as_str(),
                    (px(mid_x), px(grid_y - 6)),
                    style,
                ))?;
            } else {
                let y = grid_y - 11;
                text(area, label, mid_x, y, SMALL_SIZE, FG, HPos::Center)?;
            }
        }

        for (r, label) in row_labels.iter().enumerate() {
            let top = grid_y + (r as i64).saturating_mul(CELL_H);
            text(
                area,
                label,
                grid_x - 8,
                top + CELL_H / 2,
                TEXT_SIZE,
                FG,
                HPos::Right,
            )?;
            for c in 0..col_labels.len() {
                let v = value(r, c);
                let left = grid_x + (c as i64).saturating_mul(cell_w);
                let corners = [
                    (left + GAP / 2, top + GAP / 2),
                    (left + cell_w - GAP / 2, top + CELL_H - GAP / 2),
                ];
                let (fill, ink) = if is_apart(r, c) && v > 0 {
                    (APART_FILL, FG)
                } else {
                    heat_colors(v, max)
                };
                rect(area, corners, fill.filled())?;
                if v == 0 || is_apart(r, c) {
                    // The outline keeps empty cells visible as part of the grid on a white card.
                    rect(area, corners, ZERO_EDGE.stroke_width(1))?;
                }
                let mid = (left + cell_w / 2, top + CELL_H / 2);
                text(
                    area,
                    &v.to_string(),
                    mid.0,
                    mid.1,
                    TEXT_SIZE,
                    ink,
                    HPos::Center,
                )?;
            }
        }
        Ok(())
    })
}

/// Makes caller text safe and tidy: drops characters XML 1.0 forbids, collapses whitespace and
/// cuts to `max` characters with an ellipsis so one long label cannot stretch the layout.
fn clean(raw: &str, max: usize) -> String {
    let unwanted =
        |c: char| c.is_whitespace() || c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}';
    let words: Vec<&str> = raw.split(unwanted).filter(|w| !w.is_empty()).collect();
    let joined = words.join(" ");
    if joined.chars().count() <= max {
        return joined;
    }
    let mut cut: String = joined.chars().take(max.saturating_sub(1)).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}

/// Estimated pixel width of `chars` characters at `px` font size (0.6 em each).
fn text_width(chars: usize, px: i64) -> i64 {
    (chars as i64).saturating_mul(px).saturating_mul(3) / 5
}

fn digits(n: u64) -> usize {
    n.to_string().len()
}

/// The SVG with a `<title>` and a `<desc>` as its first children, so screen
/// readers and tooltips say what the chart shows.
pub fn described(svg: &str, title: &str, desc: &str) -> String {
    let esc = |t: &str| {
        clean(t, usize::MAX)
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let Some(open) = svg.find("<svg") else {
        return svg.to_string();
    };
    let Some(end) = svg[open..].find('>').map(|i| open + i + 1) else {
        return svg.to_string();
    };
    if svg[..end].ends_with("/>") {
        return svg.to_string(); // an empty document has no children to add
    }
    format!(
        "{}\n<title>{}</title>\n<desc>{}</desc>{}",
        &svg[..end],
        esc(title),
        esc(desc),
        &svg[end..]
    )
}

/// Length of a bar for `value` when `max` fills `span` pixels; integer maths keeps it exact.
fn scale(value: u64, max: u64, span: i64) -> i64 {
    if max == 0 {
        return 0;
    }
    let span = u128::try_from(span.max(0)).unwrap_or(0);
    i64::try_from(u128::from(value) * span / u128::from(max)).unwrap_or(0)
}

/// Cell fill and a text colour that stays readable on it.
fn heat_colors(value: u64, max: u64) -> (RGBColor, RGBColor) {
    if value == 0 || max == 0 {
        return (ZERO_FILL, FAINT);
    }
    // Start non-zero cells 15% along the ramp so a count of one is clearly not a zero.
    let num = 15 * u128::from(max) + 85 * u128::from(value);
    let den = 100 * u128::from(max);
    let mix = |lo: u8, hi: u8| -> u8 {
        let (lo, hi) = (i128::from(lo), i128::from(hi));
        let t = i128::try_from(num).unwrap_or(0);
        let d = i128::try_from(den).unwrap_or(1).max(1);
        u8::try_from(lo + (hi - lo) * t / d).unwrap_or(hi as u8)
    };
    let fill = RGBColor(
        mix(HEAT_LOW.0, HEAT_HIGH.0),
        mix(HEAT_LOW.1, HEAT_HIGH.1),
        mix(HEAT_LOW.2, HEAT_HIGH.2),
    );
    let luma = 299 * u32::from(fill.0) + 587 * u32::from(fill.1) + 114 * u32::from(fill.2);
    let ink = if luma < 150_000 { WHITE_TEXT } else { FG };
    (fill, ink)
}

/// Pixel coordinate for plotters, saturating rather than wrapping on absurd sizes.
fn px(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX })
}

fn font(size: f64) -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FONT), size, FontStyle::Normal)
}

/// Runs `draw` on a fresh SVG canvas and returns the document.
fn render(width: i64, height: i64, draw: impl FnOnce(&Area) -> DrawResult) -> String {
    let size = (
        u32::try_from(width.max(1)).unwrap_or(u32::MAX),
        u32::try_from(height.max(1)).unwrap_or(u32::MAX),
    );
    let mut svg = String::new();
    let outcome = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&area).and_then(|()| area.present())
    };
    match outcome {
        Ok(()) => svg,
        // A string backend has no I/O to fail, but a half-written document must never escape.
        Err(_) => format!(
            "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\"/>\n",
            w = size.0,
            h = size.1
        ),
    }
}

/// Opaque background so the chart keeps its contrast on dark themes.
fn card(area: &Area, width: i64, height: i64) -> DrawResult {
    rect(area, [(0, 0), (width, height)], BG.filled())?;
    rect(
        area,
        [(0, 0), (width - 1, height - 1)],
        BORDER.stroke_width(1),
    )
}

fn title_text(area: &Area, title: &str) -> DrawResult {
    let style = TextStyle::from(FontDesc::new(
        FontFamily::Name(FONT),
        TITLE_SIZE,
        FontStyle::Bold,
    ))
    .color(&FG)
    .pos(Pos::new(HPos::Left, VPos::Center));
    area.draw(&Text::new(title, (px(PAD), px(PAD + 9)), style))
}

fn no_data(area: &Area) -> DrawResult {
    text(
        area,
        "No data",
        PAD,
        PAD + 30 + 13,
        TEXT_SIZE,
        MUTED,
        HPos::Left,
    )
}

fn text(area: &Area, s: &str, x: i64, y: i64, size: f64, ink: RGBColor, h: HPos) -> DrawResult {
    let style = TextStyle::from(font(size))
        .color(&ink)
        .pos(Pos::new(h, VPos::Center));
    area.draw(&Text::new(s, (px(x), px(y)), style))
}

fn rect(area: &Area, corners: [(i64, i64); 2], style: ShapeStyle) -> DrawResult {
    let [(x0, y0), (x1, y1)] = corners;
    area.draw(&Rectangle::new([(px(x0), px(y0)), (px(x1), px(y1))], style))
}

fn line(area: &Area, from: (i64, i64), to: (i64, i64), ink: RGBColor) -> DrawResult {
    let points = vec![(px(from.0), px(from.1)), (px(to.0), px(to.1))];
    area.draw(&PathElement::new(points, ink.stroke_width(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        let doc =
            roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("invalid XML: {e}\n{svg}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        for attr in ["width", "height", "viewBox"] {
            assert!(root.attribute(attr).is_some(), "missing {attr}");
        }
        doc
    }

    /// All text content of the document, one entry per `<text>` element, trimmed.
    fn texts(svg: &str) -> Vec<String> {
        let doc = parse(svg);
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").trim().to_string())
            .collect()
    }

    fn bars(pairs: &[(&str, u64)]) -> Vec<Bar> {
        pairs
            .iter()
            .map(|(label, value)| Bar {
                label: label.to_string(),
                value: *value,
            })
            .collect()
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    const HOSTILE: &str = "<script>&\"x\"</script>'\u{0}\u{1b}\u{7f}\u{FFFF}\n]]><!--";

    #[test]
    fn bar_chart_typical_lists_labels_and_counts_in_order() {
        let svg = bar_chart("Venues", &bars(&[("ICSE", 12), ("FSE", 7), ("ASE", 0)]));
        let t = texts(&svg);
        assert_eq!(t, ["Venues", "ICSE", "12", "FSE", "7", "ASE", "0"]);
    }

    #[test]
    fn bar_chart_empty_and_zero_inputs_are_valid() {
        assert!(texts(&bar_chart("", &[])).contains(&"No data".to_string()));
        parse(&bar_chart("Zeros", &bars(&[("a", 0), ("b", 0)])));
        let huge = bar_chart("Huge", &bars(&[("max", u64::MAX), ("one", 1)]));
        assert!(texts(&huge).contains(&u64::MAX.to_string()));
    }

    #[test]
    fn hostile_and_long_labels_stay_inside_the_document() {
        let long = "x".repeat(10_000);
        let svg = bar_chart(
            HOSTILE,
            &bars(&[(HOSTILE, 3), (&long, 2), ("📚 ünïcödé", 1)]),
        );
        let t = texts(&svg);
        assert!(t.iter().any(|s| s.starts_with("<script>&\"x\"")));
        let cut = t
            .iter()
            .find(|s| s.starts_with("xxx"))
            .expect("long label drawn");
        assert_eq!(cut.chars().count(), LABEL_MAX);
        assert!(cut.ends_with('…'));

        let h = strings(&[HOSTILE, &long]);
        parse(&heat_map(
            HOSTILE,
            HOSTILE,
            HOSTILE,
            &h,
            &h,
            &[vec![1, 2], vec![3, 4]],
            None,
        ));
    }

    #[test]
    fn heat_map_shows_every_count() {
        let rows = strings(&["2019", "2020", "2021"]);
        let cols = strings(&["tool", "study", "benchmark"]);
        let cells = vec![vec![0, 3, 12], vec![5, 0, 1], vec![7, 8, 9]];
        let svg = heat_map("Kinds by year", "year", "kind", &rows, &cols, &cells, None);
        let t = texts(&svg);
        for label in rows
            .iter()
            .chain(&cols)
            .map(String::as_str)
            .chain(["year", "kind"])
        {
            assert!(t.iter().any(|s| s == label), "missing {label}");
        }
        let mut counts: Vec<u64> = t
            .iter()
            .filter_map(|s| s.parse().ok())
            .filter(|n| *n < 100)
            .collect();
        counts.sort_unstable();
        let mut expected: Vec<u64> = cells.concat();
        expected.sort_unstable();
        assert_eq!(counts, expected);
    }

    #[test]
    fn heat_map_zero_cells_are_lighter_than_non_zero() {
        let (zero, _) = heat_colors(0, 10);
        let (one, _) = heat_colors(1, 10);
        let (top, ink) = heat_colors(10, 10);
        let luma = |c: RGBColor| u32::from(c.0) + u32::from(c.1) + u32::from(c.2);
        assert!(luma(zero) > luma(one) && luma(one) > luma(top));
        assert_eq!(ink, WHITE_TEXT);
    }

    #[test]
    fn heat_map_handles_empty_ragged_and_wide_input() {
        parse(&heat_map("", "", "", &[], &[], &[], None));
        parse(&heat_map("t", "r", "c", &strings(&["a"]), &[], &[], None));
        let ragged = heat_map(
            "t",
            "r",
            "c",
            &strings(&["a", "b"]),
            &strings(&["x", "y"]),
            &[vec![4]],
            None,
        );
        assert_eq!(texts(&ragged).iter().filter(|s| *s == "0").count(), 3);
        let cols: Vec<String> = (0..40)
            .map(|i| format!("a rather long column {i}"))
            .collect();
        let row = vec![vec![u64::MAX; 40]];
        parse(&heat_map(
            "wide",
            "r",
            "c",
            &strings(&["only"]),
            &cols,
            &row,
            None,
        ));
    }

    #[test]
    fn output_is_deterministic() {
        let rows = strings(&["a", "b"]);
        let cells = vec![vec![1, 2], vec![3, 0]];
        let b = bars(&[("one", 1), ("two", 2)]);
        assert_eq!(bar_chart("t", &b), bar_chart("t", &b));
        assert_eq!(
            heat_map("t", "r", "c", &rows, &rows, &cells, None),
            heat_map("t", "r", "c", &rows, &rows, &cells, None)
        );
    }

    #[test]
    fn font_sizes_are_whole_pixels() {
        let svg = bar_chart("t", &bars(&[("a", 1)]))
            + &heat_map(
                "t",
                "r",
                "c",
                &strings(&["a"]),
                &strings(&["b"]),
                &[vec![1]],
                None,
            );
        for size in svg.split("font-size=\"").skip(1) {
            let value = size.split('"').next().unwrap_or("");
            assert!(value.parse::<u32>().is_ok(), "font-size {value}");
        }
    }

    /// Widths of the filled bars (`<rect>`s in the bar colour), in drawing order.
    fn bar_widths(svg: &str) -> Vec<i64> {
        let doc = parse(svg);
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#0969DA"))
            .map(|n| n.attribute("width").unwrap_or("0").parse().unwrap())
            .collect()
    }

    #[test]
    fn a_bar_shown_apart_does_not_set_the_scale() {
        let alone = bar_chart("t", &bars(&[("a", 10), ("b", 5)]));
        let with_na = bar_chart_apart("t", &bars(&[("a", 10), ("b", 5)]), &bars(&[("NA", 40)]));
        assert_eq!(bar_widths(&alone), bar_widths(&with_na));
        assert!(texts(&with_na).contains(&"40 (not drawn to scale)".to_string()));
    }

    #[test]
    fn cells_apart_are_grey_and_outside_the_colour_scale() {
        let rows = strings(&["shared", "NA"]);
        let cols = strings(&["agent", "NA"]);
        let cells = vec![vec![9, 0], vec![0, 32]];
        let svg = heat_map("t", "r", "c", &rows, &cols, &cells, Some("NA"));
        let (top, _) = heat_colors(9, 9);
        let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        let fills: Vec<String> = parse(&svg)
            .descendants()
            .filter_map(|n| n.attribute("fill").map(str::to_string))
            .collect();
        assert!(
            fills.contains(&hex(top)),
            "9 is the darkest cell: {fills:?}"
        );
        assert!(fills.contains(&hex(APART_FILL)), "{fills:?}");
        assert!(texts(&svg).contains(&"32".to_string()));
    }

    #[test]
    fn described_charts_open_with_title_and_desc() {
        let svg = described(
            &bar_chart("Entries", &bars(&[("a", 1)])),
            "Entries",
            "a <1> & more",
        );
        let doc = parse(&svg);
        let kids: Vec<_> = doc
            .root_element()
            .children()
            .filter(|n| n.is_element())
            .collect();
        assert_eq!(kids[0].tag_name().name(), "title");
        assert_eq!(kids[0].text(), Some("Entries"));
        assert_eq!(kids[1].tag_name().name(), "desc");
        assert_eq!(kids[1].text(), Some("a <1> & more"));
    }
}
