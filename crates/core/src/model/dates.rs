//! The one calendar: dates as the data writes them (`YYYY-MM-DD`, checked
//! for real months and days, leap years included), the date of a Unix time,
//! and the clock.

use std::time::SystemTime;

/// Seconds since the Unix epoch now (0 on a clock set before it).
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Today's date in UTC as YYYY-MM-DD.
pub fn today() -> String {
    date_of(unix_now())
}

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

/// The UTC calendar date of a Unix time, as YYYY-MM-DD.
pub fn date_of(unix_secs: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = (unix_secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_unix_times() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(951_782_400), "2000-02-29");
        assert_eq!(date_of(1_796_083_200), "2026-12-01");
    }

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
