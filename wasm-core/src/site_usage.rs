//! Site Usage Report rules (spec 03 §4 "Site usage", §9 "Site usage dates"): the default week,
//! the range in the address, the per-day and peak-hour figures from hourly counts, the trend.
//! The API counts events per UTC hour; days and hours of day are the viewer's (offsetMinutes).

use crate::dates::{civil_from_days, days_from_civil, weekday_from_days, Parsed};
use crate::model::{UsageChart, UsageDay, UsageRange, UsageSummary};

/// spec 03 §3 event types.
pub const URL_HIT: i64 = 0;
pub const DOCUMENT_LOADED: i64 = 13;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;
/// The longest range the summary counts (a year and a day).
pub const MAX_RANGE_DAYS: i64 = 367;

/// The local day number (days since 1970-01-01) of instant `ms`.
pub fn local_day(ms: i64, offset_minutes: i32) -> i64 {
    (ms + i64::from(offset_minutes) * 60_000).div_euclid(DAY_MS)
}

/// YYYY-MM-DD of a day number.
pub fn iso_day(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A day number from YYYY-MM-DD.
pub fn parse_iso_day(text: &str) -> Option<i64> {
    match crate::dates::parse_iso(text.trim())? {
        Parsed::Date(d) => Some(days_from_civil(d.year, d.month, d.day)),
        Parsed::Instant(_) => None,
    }
}

/// spec 03 §9: the details page's `date` query is DD/MM/YYYY.
pub fn details_date_param(days: i64) -> String {
    crate::dates::format_date(
        &iso_day(days),
        crate::dates::DateFormat::SiteUsageQuery,
        0,
        "",
    )
}

/// A day number from the details page's DD/MM/YYYY.
pub fn parse_details_date(text: &str) -> Option<i64> {
    let mut parts = text.trim().split('/');
    let d: u32 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let y: i64 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=9999).contains(&y) {
        return None;
    }
    if d == 0 || d > crate::dates::days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// An ISO instant with the viewer's offset (`2026-11-15T00:00:00.000-05:00`).
pub fn iso_instant(ms: i64, offset_minutes: i32) -> String {
    let local = ms + i64::from(offset_minutes) * 60_000;
    let days = local.div_euclid(DAY_MS);
    let rest = local.rem_euclid(DAY_MS);
    let (y, m, d) = civil_from_days(days);
    let sign = if offset_minutes < 0 { '-' } else { '+' };
    let off = offset_minutes.unsigned_abs();
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}{sign}{:02}:{:02}",
        rest / HOUR_MS,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
        off / 60,
        off % 60
    )
}

/// The range from day `from` to day `to` (inclusive) in the viewer's zone: from's start to to's
/// end of day (23:59:59.999).
pub fn range_of_days(from: i64, to: i64, offset_minutes: i32) -> UsageRange {
    let off = i64::from(offset_minutes) * 60_000;
    UsageRange {
        date_from: iso_day(from),
        date_to: iso_day(to),
        start_date: iso_instant(from * DAY_MS - off, offset_minutes),
        end_date: iso_instant((to + 1) * DAY_MS - off - 1, offset_minutes),
    }
}

/// spec 03 §4, §9: the week before the current one, Sunday to Saturday end of day.
pub fn default_week(now_ms: i64, offset_minutes: i32) -> UsageRange {
    let today = local_day(now_ms, offset_minutes);
    // weekday_from_days: 0 = Monday .. 6 = Sunday.
    let since_sunday = (weekday_from_days(today) as i64 + 1) % 7;
    let this_sunday = today - since_sunday;
    range_of_days(this_sunday - 7, this_sunday - 1, offset_minutes)
}

/// The summary's range from the address (`dateFrom`, `dateTo` as YYYY-MM-DD): the default week
/// when either is missing or wrong, or when they are reversed or span more than a year.
pub fn usage_range(date_from: &str, date_to: &str, now_ms: i64, offset_minutes: i32) -> UsageRange {
    match (parse_iso_day(date_from), parse_iso_day(date_to)) {
        (Some(from), Some(to)) if from <= to && to - from < MAX_RANGE_DAYS => {
            range_of_days(from, to, offset_minutes)
        }
        _ => default_week(now_ms, offset_minutes),
    }
}

/// The details page's day (DD/MM/YYYY; today when wrong): its start and the next day's start.
pub fn details_range(date: &str, now_ms: i64, offset_minutes: i32) -> UsageRange {
    let day = parse_details_date(date).unwrap_or_else(|| local_day(now_ms, offset_minutes));
    let mut r = range_of_days(day, day, offset_minutes);
    r.end_date = iso_instant(
        (day + 1) * DAY_MS - i64::from(offset_minutes) * 60_000,
        offset_minutes,
    );
    r
}

/// Up, Down or None.
pub fn trend(current: i64, previous: i64) -> &'static str {
    match current.cmp(&previous) {
        std::cmp::Ordering::Greater => "Up",
        std::cmp::Ordering::Less => "Down",
        std::cmp::Ordering::Equal => "None",
    }
}

/// The change in percent, rounded (0 when there was nothing before).
pub fn percentage(current: i64, previous: i64) -> i64 {
    if previous == 0 {
        return 0;
    }
    ((current - previous) as f64 * 100.0 / previous as f64).round() as i64
}

/// "10:00 AM - 11:00 AM" for hour of day 10.
pub fn hour_label(hour: u32) -> String {
    let h12 = |h: u32| {
        let ampm = if h % 24 < 12 { "AM" } else { "PM" };
        let n = match h % 12 {
            0 => 12,
            n => n,
        };
        format!("{n}:00 {ampm}")
    };
    format!("{} - {}", h12(hour), h12(hour + 1))
}

/// The busiest hour of day (in the viewer's zone) and its count; `None` without events. Ties go
/// to the earlier hour.
fn peak(hours: &[(i64, i64)], offset_minutes: i32) -> Option<(u32, i64)> {
    let mut by_hour = [0_i64; 24];
    for (hour, count) in hours {
        let local = (hour * HOUR_MS + i64::from(offset_minutes) * 60_000).rem_euclid(DAY_MS);
        by_hour[(local / HOUR_MS) as usize] += count;
    }
    let (h, c) = by_hour.iter().enumerate().fold(
        (0, 0),
        |best, (h, c)| if *c > best.1 { (h, *c) } else { best },
    );
    (c > 0).then_some((h as u32, c))
}

/// A card's figures from hourly counts `(UTC hour number, count)` of the range
/// `[start_ms, end_ms)` and of the range of the same length before it.
pub fn summarize(
    current: &[(i64, i64)],
    previous: &[(i64, i64)],
    start_ms: i64,
    end_ms: i64,
    offset_minutes: i32,
) -> UsageSummary {
    let first = local_day(start_ms, offset_minutes);
    let last = local_day((end_ms - 1).max(start_ms), offset_minutes);
    let days = (last - first + 1).clamp(1, MAX_RANGE_DAYS);
    let mut per_day = vec![0_i64; days as usize];
    for (hour, count) in current {
        let d = local_day(hour * HOUR_MS, offset_minutes) - first;
        if (0..days).contains(&d) {
            per_day[d as usize] += count;
        }
    }
    let total: i64 = current.iter().map(|(_, c)| c).sum();
    let before: i64 = previous.iter().map(|(_, c)| c).sum();
    let now_peak = peak(current, offset_minutes);
    let before_peak = peak(previous, offset_minutes).map_or(0, |(_, c)| c);
    let labels: Vec<String> = (0..days)
        .map(|i| {
            let (_, m, d) = civil_from_days(first + i);
            format!("{m:02}/{d:02}")
        })
        .collect();
    UsageSummary {
        total,
        percentage: percentage(total, before),
        trend: trend(total, before).to_owned(),
        peak_hour: now_peak.map(|(h, _)| hour_label(h)).unwrap_or_default(),
        peak_count: now_peak.map_or(0, |(_, c)| c),
        peak_trend: trend(now_peak.map_or(0, |(_, c)| c), before_peak).to_owned(),
        chart: UsageChart {
            labels,
            data: per_day.clone(),
        },
        details: per_day
            .iter()
            .enumerate()
            .map(|(i, c)| UsageDay {
                day: iso_day(first + i as i64),
                count: *c,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-26 is a Thursday.
    const THU_26_NOON_Z: i64 = 1_795_694_400_000;

    #[test]
    fn default_week_is_last_sunday_to_saturday() {
        let r = default_week(THU_26_NOON_Z, 0);
        assert_eq!(
            (r.date_from.as_str(), r.date_to.as_str()),
            ("2026-11-15", "2026-11-21")
        );
        assert_eq!(r.start_date, "2026-11-15T00:00:00.000+00:00");
        assert_eq!(r.end_date, "2026-11-21T23:59:59.999+00:00");
        let ny = default_week(THU_26_NOON_Z, -300);
        assert_eq!(ny.start_date, "2026-11-15T00:00:00.000-05:00");
        // On a Sunday the previous week is the one that just ended.
        let sunday = default_week(THU_26_NOON_Z + 3 * DAY_MS, 0);
        assert_eq!(sunday.date_from, "2026-11-22");
        assert_eq!(sunday.date_to, "2026-11-28");
    }

    #[test]
    fn address_range_and_details_date() {
        let r = usage_range("2026-11-01", "2026-11-03", THU_26_NOON_Z, 60);
        assert_eq!(r.start_date, "2026-11-01T00:00:00.000+01:00");
        assert_eq!(
            usage_range("2026-11-03", "2026-11-01", THU_26_NOON_Z, 0).date_from,
            "2026-11-15"
        );
        assert_eq!(usage_range("x", "", THU_26_NOON_Z, 0).date_to, "2026-11-21");
        let day = parse_details_date("16/11/2026").unwrap();
        assert_eq!(details_date_param(day), "16/11/2026");
        assert_eq!(parse_details_date("31/02/2026"), None);
        let d = details_range("16/11/2026", THU_26_NOON_Z, 0);
        assert_eq!(d.end_date, "2026-11-17T00:00:00.000+00:00");
    }

    #[test]
    fn summary_per_day_peak_and_trend() {
        let h = |day: i64, hour: i64| day * 24 + hour;
        let d15 = parse_iso_day("2026-11-15").unwrap();
        let current = [(h(d15, 10), 3), (h(d15, 11), 1), (h(d15 + 2, 10), 2)];
        let previous = [(h(d15 - 7, 9), 2)];
        let s = summarize(&current, &previous, d15 * DAY_MS, (d15 + 7) * DAY_MS - 1, 0);
        assert_eq!(s.total, 6);
        assert_eq!((s.trend.as_str(), s.percentage), ("Up", 200));
        assert_eq!(s.peak_hour, "10:00 AM - 11:00 AM");
        assert_eq!((s.peak_count, s.peak_trend.as_str()), (5, "Up"));
        assert_eq!(s.chart.data, [4, 0, 2, 0, 0, 0, 0]);
        assert_eq!(s.details[0].day, "2026-11-15");
        assert_eq!(s.chart.labels[6], "11/21");
        assert_eq!(trend(1, 1), "None");
        assert_eq!(hour_label(23), "11:00 PM - 12:00 AM");
    }
}
