//! When the notifications engine sends what (spec 01 §2.6 timer service, spec 03 HistoryPortal
//! group): reminder windows, business days and hours, the I Am Here window, and the template
//! tokens (survey expiry is `survey::expiry`, shared with the start checks). Native rules for
//! the API's scheduler (no wasm export: the browser never decides these).

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;

/// Business days (Mon..Sun) and reminder hours [start, end) in the clinic's local time.
#[derive(Debug, Clone, PartialEq)]
pub struct BusinessWindow {
    pub days: [bool; 7],
    pub start_hour: f64,
    pub end_hour: f64,
    /// Minutes east of UTC of the clinic.
    pub offset_minutes: i32,
}

impl BusinessWindow {
    /// Inside a business day and the reminder hours at `now_ms`.
    pub fn contains(&self, now_ms: i64) -> bool {
        let local = now_ms + i64::from(self.offset_minutes) * 60_000;
        let days = local.div_euclid(DAY_MS);
        let weekday = crate::dates::weekday_from_days(days); // 0 = Monday
        let hour = local.rem_euclid(DAY_MS) as f64 / HOUR_MS as f64;
        self.days[weekday] && hour >= self.start_hour && hour < self.end_hour
    }
}

/// '2, 1' -> [2, 1]; anything unreadable is skipped.
pub fn parse_days(text: &str) -> Vec<u32> {
    text.split(',')
        .filter_map(|p| p.trim().parse().ok())
        .collect()
}

/// The reminder due at `now_ms` for an appointment at `appt_ms`: of the configured "X days
/// before", the most recent moment that has passed (smallest X with now >= appt - X days), as
/// long as now is before "until X hours before". Earlier reminders missed (outside the business
/// window) are superseded by the later one, never sent late in a row.
pub fn due_reminder(now_ms: i64, appt_ms: i64, days: &[u32], until_hours: f64) -> Option<u32> {
    let until = appt_ms - (until_hours * HOUR_MS as f64) as i64;
    if now_ms >= until {
        return None;
    }
    days.iter()
        .copied()
        .filter(|x| now_ms >= appt_ms - i64::from(*x) * DAY_MS)
        .min()
}

/// The I Am Here link goes out from X hours before the appointment until it starts.
pub fn iam_here_due(now_ms: i64, appt_ms: i64, hours_before: f64) -> bool {
    now_ms >= appt_ms - (hours_before * HOUR_MS as f64) as i64 && now_ms < appt_ms
}

/// I Am Here expires X hours after the appointment.
pub fn iam_here_expired(now_ms: i64, appt_ms: i64, hours_after: f64) -> bool {
    now_ms > appt_ms + (hours_after * HOUR_MS as f64) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-23 is a Monday. Times in UTC; the clinic is UTC-5.
    const MON_00Z: i64 = 1_795_392_000_000;

    fn window() -> BusinessWindow {
        BusinessWindow {
            days: [true, true, true, true, true, false, false],
            start_hour: 8.0,
            end_hour: 18.0,
            offset_minutes: -300,
        }
    }

    #[test]
    fn monday_is_monday() {
        assert_eq!(crate::dates::weekday_from_days(MON_00Z / DAY_MS), 0);
    }

    #[test]
    fn business_window_table() {
        // (hours after Monday 00:00Z, inside?)
        let cases: &[(i64, bool, &str)] = &[
            (13, true, "Mon 08:00 local: opens"),
            (12, false, "Mon 07:00 local: before hours"),
            (22, true, "Mon 17:00 local"),
            (23, false, "Mon 18:00 local: closed (end exclusive)"),
            (5 * 24 + 13, false, "Sat 08:00 local: not a business day"),
            (6 * 24 + 15, false, "Sun 10:00 local"),
            (4 * 24 + 22, true, "Fri 17:00 local"),
            (
                4,
                false,
                "Sun 23:00 local (Mon 04:00Z): the local day counts",
            ),
        ];
        for (h, inside, name) in cases {
            assert_eq!(window().contains(MON_00Z + h * HOUR_MS), *inside, "{name}");
        }
    }

    #[test]
    fn reminder_table() {
        let appt = MON_00Z + 5 * DAY_MS; // Saturday 00:00Z
        let days = parse_days("2, 1");
        let cases: &[(i64, Option<u32>, &str)] = &[
            (appt - 3 * DAY_MS, None, "3 days before: nothing yet"),
            (
                appt - 2 * DAY_MS,
                Some(2),
                "2 days before: the 2-day reminder",
            ),
            (
                appt - 36 * HOUR_MS,
                Some(2),
                "36 h before: still the 2-day one",
            ),
            (appt - DAY_MS, Some(1), "1 day before: the 1-day reminder"),
            (appt - 12 * HOUR_MS, None, "until 12 h before: stop"),
            (appt + HOUR_MS, None, "after the appointment"),
        ];
        for (now, expected, name) in cases {
            assert_eq!(due_reminder(*now, appt, &days, 12.0), *expected, "{name}");
        }
        assert_eq!(parse_days("3,x, 1 ,"), vec![3, 1]);
        assert_eq!(due_reminder(appt - DAY_MS, appt, &[], 0.0), None);
    }

    #[test]
    fn iam_here_and_expiry_table() {
        let appt = MON_00Z + 15 * HOUR_MS;
        assert!(!iam_here_due(appt - 3 * HOUR_MS, appt, 2.0));
        assert!(iam_here_due(appt - 2 * HOUR_MS, appt, 2.0));
        assert!(iam_here_due(appt - 1, appt, 2.0));
        assert!(!iam_here_due(appt, appt, 2.0));
        assert!(!iam_here_expired(appt + 4 * HOUR_MS, appt, 4.0));
        assert!(iam_here_expired(appt + 4 * HOUR_MS + 1, appt, 4.0));
    }
}
