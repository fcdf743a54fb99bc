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
