//! History Portal list rules (spec 01 §2.6, §9): the five tabs, the appointment date picker
//! (day, week, month, year, range; default today) turned into the UTC instants the datatable
//! request sends, and the filters of a list kept in the address (table state `Filters`).

use crate::dates::{civil_from_days, days_from_civil, weekday_from_days};
use crate::model::{AppointmentRange, HistoryTab, SurveyActionInput, SurveyActions};

/// The tabs, in order: list id (address prefix and route), title, status group sent to the
/// server, whether the status column (and with it the status filter) shows, whether the row
/// actions (Today) show.
pub const TABS: [(&str, &str, &str, bool, bool); 5] = [
    ("all", "All History Surveys List", "All", true, false),
    ("assigned", "Assigned Surveys", "Assigned", false, false),
    (
        "progress",
        "In Progress Surveys",
        "InProgress",
        false,
        false,
    ),
    ("completed", "Completed Surveys", "Completed", true, false),
    ("today", "Today's Appointments", "Today", false, true),
];

pub fn history_tab(list_id: &str) -> Option<HistoryTab> {
    TABS.iter()
        .find(|t| t.0 == list_id)
        .map(|&(id, title, group, status, actions)| HistoryTab {
            list_id: id.to_owned(),
            title: title.to_owned(),
            status_group: group.to_owned(),
            shows_status: status,
            shows_actions: actions,
        })
}

pub const DATE_MODES: [&str; 5] = ["day", "week", "month", "year", "range"];

/// 'YYYY-MM-DD' -> days since 1970-01-01; `None` unless a real calendar date.
pub fn parse_local_date(text: &str) -> Option<i64> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = &t[r];
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())
            .flatten()
    };
    let (y, m, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    if !(1..=12).contains(&m) || y < 1900 {
        return None;
    }
    let (m, d) = (u32::try_from(m).ok()?, u32::try_from(d).ok()?);
    if d == 0 || d > crate::dates::days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

pub fn format_local_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// ISO instant (UTC, milliseconds) of local midnight of `days` for a viewer `offset_minutes`
/// east of UTC.
pub fn local_midnight_iso(days: i64, offset_minutes: i32) -> String {
    let seconds = days * 86_400 - i64::from(offset_minutes) * 60;
    let t = crate::dates::LocalDateTime::from_instant(seconds, 0);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.000Z",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

/// The viewer's local date at instant `now_iso`.
pub fn local_today(now_iso: &str, offset_minutes: i32) -> Option<i64> {
    let t = crate::dates::to_local(now_iso, offset_minutes)?;
    Some(days_from_civil(t.year, t.month, t.day))
}

/// The viewer's local date at instant `now_iso` as YYYY-MM-DD (the date-of-birth checks' "today");
/// empty for an unreadable instant.
pub fn local_date(now_iso: &str, offset_minutes: i32) -> String {
    local_today(now_iso, offset_minutes)
        .map(format_local_date)
        .unwrap_or_default()
}

/// The appointment range a picker state stands for. `from` is the picked day (any day inside
/// the week/month/year for those modes), `to` the last day of a range; an empty or invalid
/// `from` means today (the default), an empty `to` in range mode means `from`, and a range picked
/// backwards is put in order. Unknown modes read as day. `DateFrom`/`DateTo` are the local
/// midnights of the first and last day in UTC (the server includes the whole last day).
pub fn appointment_range(
    mode: &str,
    from: &str,
    to: &str,
    now_iso: &str,
    offset_minutes: i32,
) -> AppointmentRange {
    let offset = offset_minutes.clamp(-1080, 1080);
    let today = local_today(now_iso, offset).unwrap_or(0);
    let first = parse_local_date(from).unwrap_or(today);
    let mode = if DATE_MODES.contains(&mode) {
        mode
    } else {
        "day"
    };
    let (start, end) = match mode {
        "week" => {
            // Weeks run Sunday to Saturday (US calendar); weekday_from_days: 0 = Monday.
            let back = (weekday_from_days(first) as i64 + 1) % 7;
            (first - back, first - back + 6)
        }
        "month" => {
            let (y, m, _) = civil_from_days(first);
            (
                days_from_civil(y, m, 1),
                days_from_civil(y, m, crate::dates::days_in_month(y, m)),
            )
        }
        "year" => {
            let (y, _, _) = civil_from_days(first);
            (days_from_civil(y, 1, 1), days_from_civil(y, 12, 31))
        }
        "range" => {
            let last = parse_local_date(to).unwrap_or(first);
            (first.min(last), first.max(last))
        }
        _ => (first, first),
    };
    AppointmentRange {
        mode: mode.to_owned(),
        from: format_local_date(start),
        to: format_local_date(end),
        date_from: local_midnight_iso(start, offset),
        date_to: local_midnight_iso(end, offset),
        timezone_offset: offset,
    }
}

/// 'MAIN_CAMPUS' -> 'Main Campus' (spec 01 §3 "Location lookup").
pub fn location_display_name(name: &str) -> String {
    name.split(['_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            // Unicode lower case for the rest: a name such as 'MONTRÉAL' or 'SÃO_PAULO' is shown
            // to people in six languages, and ASCII lower case would leave 'MontrÉal'. The
            // Unicode tables cost the gzipped wasm file well under 1 kB.
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first
                    .to_uppercase()
                    .chain(chars.as_str().to_lowercase().chars())
                    .collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub const VIEW_DISABLED_TOOLTIP: &str =
    "Patient did not start the survey. There is no information to view";
pub const LIMIT_REACHED: &str = "Notification limit reached!";

/// Ready For Exam notices left: `max` -1 is unlimited.
pub fn ready_for_exam_limit_reached(count: i64, max: i64) -> bool {
    max >= 0 && count >= max
}

/// The actions of a row (spec 01 §2.6 details modal, §4 Today rules). `max_ready` is
/// HistoryPortalMaxReadyForExamEmail (-1 unlimited); `now_iso` and `offset_minutes` say which
/// day is today for the viewer. "StatusKey is Saved" of the spec reads as: the patient completed
/// the survey (Completed or Finalized by Admin).
pub fn survey_actions(
    row: &SurveyActionInput,
    max_ready: i64,
    now_iso: &str,
    offset_minutes: i32,
) -> SurveyActions {
    use crate::model::SurveyStatus;
    let status = SurveyStatus::parse(&row.status_key);
    let completed = status.is_some_and(SurveyStatus::is_completed);
    let expired = status.is_some_and(SurveyStatus::is_expired);
    // "Completed" in the details modal is the Completed tab's sense: finished one way or
    // another (Completed, Finalized by Admin or any Expired status).
    let finished = status.is_some_and(SurveyStatus::is_complete_status);
    let has_log = row.survey_log_id.is_some();
    let today = local_today(now_iso, offset_minutes);
    let is_today = match (
        row.appointment_date
            .as_deref()
            .and_then(|a| local_today(a, offset_minutes)),
        today,
    ) {
        (Some(day), Some(today)) => day == today,
        _ => false,
    };
    let arrival = row.arrival_status.as_deref().unwrap_or("");
    let count = row.ready_for_exam_count.max(0);
    let reached = ready_for_exam_limit_reached(count, max_ready);
    let ready_enabled = is_today
        && completed
        && (arrival == "PatientArrived" || (arrival == "ReadyForExam" && !reached));
    let limit_message = if max_ready < 0 {
        String::new()
    } else if reached {
        LIMIT_REACHED.to_owned()
    } else if count > 0 {
        format!("Sent {count} of {max_ready} notifications")
    } else {
        String::new()
    };
    SurveyActions {
        can_resend: !finished && !has_log,
        show_view: has_log || finished,
        view_enabled: has_log,
        view_tooltip: if !has_log && finished {
            VIEW_DISABLED_TOOLTIP.to_owned()
        } else {
            String::new()
        },
        start_survey_enabled: is_today && !expired,
        view_survey_enabled: has_log,
        ready_for_exam_enabled: ready_enabled,
        ready_for_exam_label: if count > 0 || arrival == "ReadyForExam" {
            "Resend Ready For Exam".to_owned()
        } else {
            "Ready For Exam".to_owned()
        },
        limit_message,
        row_class: match arrival {
            "PatientArrived" => "patient-arrived".to_owned(),
            "ReadyForExam" => "ready-for-exam".to_owned(),
            _ => String::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn week_starts_on_sunday() {
        // 2026-11-22 is a Sunday, 2026-11-25 a Wednesday.
        let r = appointment_range("week", "2026-11-25", "", "2026-11-22T12:00:00Z", 0);
        assert_eq!(
            (r.from.as_str(), r.to.as_str()),
            ("2026-11-22", "2026-11-28")
        );
        let r = appointment_range("week", "2026-11-22", "", "2026-11-22T12:00:00Z", 0);
        assert_eq!(r.from, "2026-11-22");
    }

    #[test]
    fn default_is_today_in_the_viewers_zone() {
        // 02:00 UTC on the 23rd is still the 22nd in New York (UTC-5).
        let r = appointment_range("day", "", "", "2026-11-23T02:00:00Z", -300);
        assert_eq!(r.from, "2026-11-22");
        assert_eq!(r.date_from, "2026-11-22T05:00:00.000Z");
        assert_eq!(r.date_to, "2026-11-22T05:00:00.000Z");
    }

    #[test]
    fn bad_dates_are_rejected() {
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-01-01",
            "2026-1-01",
            "abcd-ef-gh",
            "",
        ] {
            assert_eq!(parse_local_date(bad), None, "{bad}");
        }
        assert!(parse_local_date("2024-02-29").is_some());
    }
}
