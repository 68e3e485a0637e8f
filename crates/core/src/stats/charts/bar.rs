//! Horizontal bar charts, with rows apart from the scale.

use super::draw::{card, line, no_data, rect, render, text, title_text};
use super::measure::{clean, digits, scale, text_width};
use super::style::{BAR_FILL, BORDER, FG, LABEL_MAX, MUTED, PAD, TEXT_SIZE, TITLE_MAX, WIDTH};
use super::Bar;
use plotters::style::text_anchor::HPos;
use plotters::style::Color;

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
