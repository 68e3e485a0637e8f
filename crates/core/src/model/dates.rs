//! Calendar dates as the data writes them: `YYYY-MM-DD`, checked for real
//! months and days (leap years included).

/// Parses a YYYY-MM-DD calendar date into (year, month, day).
pub fn parse_date(s: &str) -> Option<(i64, u32, u32)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    if !s[0..4]
        .bytes()
        .chain(s[5..7].bytes())
        .chain(s[8..10].bytes())
        .all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let y: i64 = s[0..4].parse().ok()?;
    let m: u32 = s[5..7].parse().ok()?;
    let d: u32 = s[8..10].parse().ok()?;
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (d >= 1 && d <= days).then_some((y, m, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_real_calendar_dates() {
        assert_eq!(parse_date("2026-05-04"), Some((2026, 5, 4)));
        assert_eq!(parse_date("2024-02-29"), Some((2024, 2, 29)));
        assert_eq!(parse_date("2026-02-29"), None);
        assert_eq!(parse_date("2026-13-01"), None);
        assert_eq!(parse_date("26-01-01"), None);
        assert_eq!(parse_date("2026-1a-01"), None);
        assert_eq!(parse_date("2026-é1-01"), None);
    }
}
