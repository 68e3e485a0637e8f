//! Caller text made safe for the layout, and the sizes the layout derives from text and counts.

/// Makes caller text safe and tidy: drops characters XML 1.0 forbids, collapses whitespace and
/// cuts to `max` characters with an ellipsis so one long label cannot stretch the layout.
pub(super) fn clean(raw: &str, max: usize) -> String {
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
pub(super) fn text_width(chars: usize, px: i64) -> i64 {
    (chars as i64).saturating_mul(px).saturating_mul(3) / 5
}

pub(super) fn digits(n: u64) -> usize {
    n.to_string().len()
}

/// Length of a bar for `value` when `max` fills `span` pixels; integer maths keeps it exact.
pub(super) fn scale(value: u64, max: u64, span: i64) -> i64 {
    if max == 0 {
        return 0;
    }
    let span = u128::try_from(span.max(0)).unwrap_or(0);
    i64::try_from(u128::from(value) * span / u128::from(max)).unwrap_or(0)
}
