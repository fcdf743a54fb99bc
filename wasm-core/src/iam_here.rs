//! I Am Here (spec 01 §2.10): which mode the server answers for an appointment, and what the
//! page shows for a mode.

use crate::model::IamHereMode;

/// The appointment facts the mode depends on. `expire_hours`: how long after the appointment's
/// start the link still checks in (HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment).
pub fn iam_here_mode(
    disabled: bool,
    found: bool,
    status: &str,
    starts_at_ms: i64,
    now_ms: i64,
    expire_hours: i64,
) -> IamHereMode {
    if disabled || !found {
        return IamHereMode::IamHereError;
    }
    match status {
        "Canceled" => IamHereMode::CanceledAppointment,
        "Rescheduled" => IamHereMode::RescheduledAppointment,
        _ if now_ms > starts_at_ms + expire_hours.max(0) * 3_600_000 => {
            IamHereMode::AppointmentExpired
        }
        _ => IamHereMode::IamHere,
    }
}

/// Modes IamHere and RescheduledAppointment show the appointment date; IamHereError shows a
/// warning icon and the server's message instead of the details.
pub fn shows_appointment_date(mode: IamHereMode) -> bool {
    matches!(
        mode,
        IamHereMode::IamHere | IamHereMode::RescheduledAppointment
    )
}

pub fn shows_warning(mode: IamHereMode) -> bool {
    matches!(mode, IamHereMode::IamHereError)
}

/// Whether the patient's Appointments page offers "I Am Here" for an appointment: check-in is
/// on, the appointment is not canceled, the patient has not arrived yet, and now lies between
/// `before_hours` before its start (HistoryPortalSendIAmHereXHoursBeforeAppointment) and the
/// link's expiry `expire_hours` after it (HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment).
pub fn iam_here_open(
    disabled: bool,
    status: &str,
    arrived: bool,
    starts_at_ms: i64,
    now_ms: i64,
    before_hours: i64,
    expire_hours: i64,
) -> bool {
    !disabled
        && !arrived
        && status != "Canceled"
        && now_ms >= starts_at_ms - before_hours.max(0) * 3_600_000
        && now_ms <= starts_at_ms + expire_hours.max(0) * 3_600_000
}

#[cfg(test)]
mod open_tests {
    use super::*;

    const H: i64 = 3_600_000;

    #[test]
    fn open_from_hours_before_until_the_link_expires() {
        let start = 100 * H;
        assert!(!iam_here_open(
            false,
            "Scheduled",
            false,
            start,
            start - 3 * H,
            2,
            2
        ));
        assert!(iam_here_open(
            false,
            "Scheduled",
            false,
            start,
            start - 2 * H,
            2,
            2
        ));
        assert!(iam_here_open(
            false,
            "Rescheduled",
            false,
            start,
            start + 2 * H,
            2,
            2
        ));
        assert!(!iam_here_open(
            false,
            "Scheduled",
            false,
            start,
            start + 2 * H + 1,
            2,
            2
        ));
        assert!(!iam_here_open(
            false,
            "Rescheduled",
            false,
            start,
            start + 50 * H,
            2,
            2
        ));
    }

    #[test]
    fn closed_when_off_canceled_or_arrived() {
        let start = 100 * H;
        assert!(!iam_here_open(true, "Scheduled", false, start, start, 2, 2));
        assert!(!iam_here_open(false, "Canceled", false, start, start, 2, 2));
        assert!(!iam_here_open(false, "Scheduled", true, start, start, 2, 2));
    }
}
