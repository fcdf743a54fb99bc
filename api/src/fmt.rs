//! Server-side text for list rows, through wasm-core's date rules (spec 01 §9) so the server and
//! the browser format alike. Instants are stored as unix milliseconds; `offset_minutes` is minutes
//! east of UTC of the viewer.

use wasm_core::dates::{
    days_from_civil, format_appointment, format_date, format_with, parse_iso, to_local, DateFormat,
    Parsed,
};

const DAY_MS: i64 = 86_400_000;

/// ISO 8601 instant in UTC, e.g. `2026-11-22T14:30:00Z`.
pub fn iso_utc(ms: i64) -> String {
    wasm_core::dates::iso_utc_ms(ms)
}

/// 'MM/dd/YYYY' in the viewer's zone.
pub fn date(ms: i64, offset_minutes: i32) -> String {
    format_date(&iso_utc(ms), DateFormat::TableDate, offset_minutes, "")
}

/// 'hh:mm aa' in the viewer's zone.
pub fn time_of_day(ms: i64, offset_minutes: i32) -> String {
    to_local(&iso_utc(ms), offset_minutes)
        .map(|t| format_with(&t, "hh:mm aa", ""))
        .unwrap_or_default()
}

/// 'MM/dd/YYYY hh:mm aa' in the viewer's zone (TableDateTime).
pub fn date_time(ms: i64, offset_minutes: i32) -> String {
    format_date(&iso_utc(ms), DateFormat::TableDateTime, offset_minutes, "")
}

/// The local time 11:59 PM stands for "the whole day" (spec 01 §9): its time is not shown.
pub fn is_whole_day(ms: i64, offset_minutes: i32) -> bool {
    to_local(&iso_utc(ms), offset_minutes).is_some_and(|t| t.hour == 23 && t.minute == 59)
}

/// History-table appointment text (wasm-core `format_appointment`).
pub fn appointment(ms: i64, hide_time: bool, offset_minutes: i32) -> String {
    format_appointment(&iso_utc(ms), hide_time, offset_minutes)
}

/// 'YYYY-MM-DD' -> 'MM/DD/YYYY' (dates of birth); anything else -> ''.
pub fn iso_date_to_us(iso: &str) -> String {
    match parse_iso(iso) {
        Some(Parsed::Date(_)) => format_date(iso, DateFormat::SDate, 0, ""),
        _ => String::new(),
    }
}

/// An ISO 8601 instant, or a plain date (taken as UTC midnight), as unix milliseconds.
pub fn parse_instant(text: &str) -> Option<i64> {
    match parse_iso(text)? {
        Parsed::Instant(seconds) => seconds.checked_mul(1000),
        Parsed::Date(d) => days_from_civil(d.year, d.month, d.day).checked_mul(DAY_MS),
    }
}

/// Unix milliseconds of the start of the viewer's local day containing `ms`.
pub fn local_day_start(ms: i64, offset_minutes: i32) -> i64 {
    let shift = i64::from(offset_minutes) * 60_000;
    (ms + shift).div_euclid(DAY_MS) * DAY_MS - shift
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-22T14:05:09Z
    const T: i64 = 1_795_356_309_000;

    #[test]
    fn formats_in_the_viewers_zone() {
        assert_eq!(iso_utc(T), "2026-11-22T14:05:09Z");
        assert_eq!(date(T, 0), "11/22/2026");
        assert_eq!(time_of_day(T, 0), "02:05 PM");
        assert_eq!(time_of_day(T, -300), "09:05 AM");
        assert_eq!(date(T, -900), "11/21/2026");
        assert_eq!(date_time(T, 60), "11/22/2026 03:05 PM");
    }

    #[test]
    fn whole_day_hides_time() {
        let late = parse_instant("2026-11-22T23:59:00Z").unwrap();
        assert!(is_whole_day(late, 0));
        assert_eq!(appointment(late, false, 0), "11/22/2026");
        assert_eq!(appointment(T, false, 0), "11/22/2026 02:05 PM");
        assert_eq!(appointment(T, true, 0), "11/22/2026");
    }

    #[test]
    fn parses_and_converts_dates() {
        assert_eq!(parse_instant("2026-11-22T14:05:09Z"), Some(T));
        assert_eq!(parse_instant("2026-11-22T14:05:09.000Z"), Some(T));
        assert_eq!(
            parse_instant("2026-11-22"),
            parse_instant("2026-11-22T00:00:00Z")
        );
        assert_eq!(parse_instant("nope"), None);
        assert_eq!(iso_date_to_us("1975-04-12"), "04/12/1975");
        assert_eq!(iso_date_to_us("bad"), "");
        assert_eq!(local_day_start(T, 0), parse_instant("2026-11-22").unwrap());
        assert_eq!(
            local_day_start(T, -300),
            parse_instant("2026-11-22T05:00:00Z").unwrap()
        );
        assert_eq!(
            local_day_start(T, -900),
            parse_instant("2026-11-21T15:00:00Z").unwrap()
        );
    }
}
