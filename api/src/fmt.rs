//! Server-side text for list rows (spec 01 §9 date formats). Instants are unix milliseconds;
//! `offset_minutes` is minutes east of UTC of the viewer. wasm-core's `dates` module (being
//! written on branch `core`) will own these rules; these helpers are the API's stand-in until then.

use time::{OffsetDateTime, UtcOffset};

fn at(ms: i64, offset_minutes: i32) -> Option<OffsetDateTime> {
    let utc = OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()?;
    let offset = UtcOffset::from_whole_seconds(offset_minutes.clamp(-1080, 1080) * 60).ok()?;
    Some(utc.to_offset(offset))
}

/// ISO 8601 instant in UTC, e.g. `2026-11-22T14:30:00Z`.
pub fn iso_utc(ms: i64) -> String {
    match at(ms, 0) {
        Some(t) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        ),
        None => String::new(),
    }
}

/// 'MM/DD/YYYY' in the viewer's zone.
pub fn date(ms: i64, offset_minutes: i32) -> String {
    at(ms, offset_minutes)
        .map(|t| format!("{:02}/{:02}/{:04}", u8::from(t.month()), t.day(), t.year()))
        .unwrap_or_default()
}

/// 'hh:mm AM' in the viewer's zone.
pub fn time_of_day(ms: i64, offset_minutes: i32) -> String {
    at(ms, offset_minutes)
        .map(|t| {
            let (h, ampm) = match t.hour() {
                0 => (12, "AM"),
                h @ 1..=11 => (h, "AM"),
                12 => (12, "PM"),
                h => (h - 12, "PM"),
            };
            format!("{h:02}:{:02} {ampm}", t.minute())
        })
        .unwrap_or_default()
}

/// 'MM/dd/YYYY hh:mm aa' in the viewer's zone (TableDateTime).
pub fn date_time(ms: i64, offset_minutes: i32) -> String {
    format!("{} {}", date(ms, offset_minutes), time_of_day(ms, offset_minutes))
}

/// The local time 11:59 PM stands for "the whole day" (spec 01 §9): its time is not shown.
pub fn is_whole_day(ms: i64, offset_minutes: i32) -> bool {
    at(ms, offset_minutes).is_some_and(|t| t.hour() == 23 && t.minute() == 59)
}

/// History-table appointment text: date only when the time is hidden or whole-day.
pub fn appointment(ms: i64, hide_time: bool, offset_minutes: i32) -> String {
    if hide_time || is_whole_day(ms, offset_minutes) {
        date(ms, offset_minutes)
    } else {
        date_time(ms, offset_minutes)
    }
}

/// 'YYYY-MM-DD' -> 'MM/DD/YYYY' (dates of birth); anything else -> ''.
pub fn iso_date_to_us(iso: &str) -> String {
    let parts: Vec<&str> = iso.get(..10).unwrap_or("").split('-').collect();
    match parts.as_slice() {
        [y, m, d] if y.len() == 4 && m.len() == 2 && d.len() == 2 => format!("{m}/{d}/{y}"),
        _ => String::new(),
    }
}

/// Parses an ISO 8601 instant ('2026-11-22T05:00:00Z', with or without milliseconds or offset)
/// or a plain date (taken as UTC midnight) into unix milliseconds.
pub fn parse_instant(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Ok(t) = OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339) {
        return i64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok();
    }
    let d = time::Date::parse(text.get(..10)?, time::macros::format_description!("[year]-[month]-[day]")).ok()?;
    if text.len() != 10 {
        return None;
    }
    Some(d.midnight().assume_utc().unix_timestamp() * 1000)
}

/// Unix milliseconds of the start of the viewer's local day containing `ms`.
pub fn local_day_start(ms: i64, offset_minutes: i32) -> i64 {
    match at(ms, offset_minutes) {
        Some(t) => {
            let midnight = t.replace_time(time::Time::MIDNIGHT);
            i64::try_from(midnight.unix_timestamp_nanos() / 1_000_000).unwrap_or(ms)
        }
        None => ms,
    }
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
        assert_eq!(appointment(late, false, 0), "11/22/2026");
        assert_eq!(appointment(T, false, 0), "11/22/2026 02:05 PM");
        assert_eq!(appointment(T, true, 0), "11/22/2026");
    }

    #[test]
    fn parses_and_converts_dates() {
        assert_eq!(parse_instant("2026-11-22T14:05:09Z"), Some(T));
        assert_eq!(parse_instant("2026-11-22T14:05:09.000Z"), Some(T));
        assert_eq!(parse_instant("2026-11-22"), parse_instant("2026-11-22T00:00:00Z"));
        assert_eq!(parse_instant("nope"), None);
        assert_eq!(iso_date_to_us("1975-04-12"), "04/12/1975");
        assert_eq!(iso_date_to_us("bad"), "");
        assert_eq!(local_day_start(T, 0), parse_instant("2026-11-22").unwrap());
        assert_eq!(local_day_start(T, -300), parse_instant("2026-11-22T05:00:00Z").unwrap());
    }
}
