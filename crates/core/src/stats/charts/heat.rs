//! Heat maps: a grid of counts shaded on one colour scale.

use super::draw::{card, font, no_data, px, rect, render, text, title_text};
use super::measure::{clean, digits, text_width};
use super::style::{
    APART_FILL, AXIS_MAX, COL_LABEL_MAX, FAINT, FG, FONT, HEAT_HIGH, HEAT_LOW, LABEL_MAX, MUTED,
    PAD, SMALL_SIZE, TEXT_SIZE, TITLE_MAX, WHITE_TEXT, WIDTH, ZERO_EDGE, ZERO_FILL,
};
use plotters::element::Text;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, TextStyle};

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

/// Cell fill and a text colour that stays readable on it.
pub(super) fn heat_colors(value: u64, max: u64) -> (RGBColor, RGBColor) {
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
