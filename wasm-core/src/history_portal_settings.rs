//! History Portal settings (spec 03 "History Portal Settings", §4 toggle rules, §5 ranges):
//! the master/channel toggle machines of the two notification blocks and the form's validation.

use crate::model::{HistoryPortalSettingsForm, NotificationToggles};
use crate::ValidationErrors;

/// Which notification block: history portal (survey) notices or 'I am Here' notices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    HistoryPortal,
    IamHere,
}

impl Block {
    pub fn parse(name: &str) -> Option<Block> {
        match name {
            "HistoryPortal" => Some(Block::HistoryPortal),
            "IamHere" => Some(Block::IamHere),
            _ => None,
        }
    }
}

/// One switch flipped (`field`: Master, Email or Sms) and what the block becomes:
/// - master on with neither channel: history portal -> email on, SMS off; I am Here -> both on;
/// - both channels off -> master off;
/// - master off -> both channels off.
pub fn toggle(
    block: Block,
    state: NotificationToggles,
    field: &str,
    on: bool,
) -> NotificationToggles {
    let mut next = state;
    match field {
        "Master" => {
            next.master = on;
            if on && !next.email && !next.sms {
                next.email = true;
                next.sms = block == Block::IamHere;
            }
            if !on {
                next.email = false;
                next.sms = false;
            }
        }
        "Email" | "Sms" => {
            if field == "Email" {
                next.email = on;
            } else {
                next.sms = on;
            }
            if !next.email && !next.sms {
                next.master = false;
            }
        }
        _ => {}
    }
    next
}

pub const FORM_INVALID: &str = "Form is invalid";

fn range(
    errors: &mut ValidationErrors,
    field: &str,
    value: Option<f64>,
    min: i32,
    max: i32,
    whole: bool,
) {
    match value {
        None => {
            errors.add(field, "Required");
        }
        Some(v) if !v.is_finite() || (whole && v.fract() != 0.0) => {
            errors.add(field, "Must be a whole number");
        }
        Some(v) if v < f64::from(min) || v > f64::from(max) => {
            errors.add(field, format!("Must be between {min} and {max}"));
        }
        _ => {}
    }
}

/// '2, 3' -> ok; empty, '2,,3', '1.5', '-1' -> 'Must be comma-separated whole numbers (for example 2, 3)'.
pub fn is_comma_separated_whole_numbers(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && t.split(',').all(|p| {
            let p = p.trim();
            !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit())
        })
}

/// The form's rules (spec 03 §5 "History portal"): business hours 0-24, notification windows and
/// 'I am Here' hours 0-99, ready-for-exam tries -1-99, 'Expires X hrs before' at most 99, the
/// reminder days comma-separated whole numbers, at least one business day.
pub fn validate(form: &HistoryPortalSettingsForm) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    range(
        &mut e,
        "HistoryPortalSurveyReminderStartTime",
        form.reminder_start,
        0,
        24,
        false,
    );
    range(
        &mut e,
        "HistoryPortalSurveyReminderEndTime",
        form.reminder_end,
        0,
        24,
        false,
    );
    if let (Some(s), Some(end)) = (form.reminder_start, form.reminder_end) {
        if e.field("HistoryPortalSurveyReminderStartTime").is_empty()
            && e.field("HistoryPortalSurveyReminderEndTime").is_empty()
            && end <= s
        {
            e.add(
                "HistoryPortalSurveyReminderEndTime",
                "End must be after start",
            );
        }
    }
    range(
        &mut e,
        "HrsAppointmentTimeValue",
        form.hrs_appointment_time_value,
        0,
        99,
        false,
    );
    range(
        &mut e,
        "HistoryPortalRemindUntilXHoursBeforeAppt",
        form.remind_until_hours,
        0,
        99,
        false,
    );
    range(
        &mut e,
        "HistoryPortalSendIAmHereXHoursBeforeAppointment",
        form.iam_here_hours_before,
        0,
        99,
        false,
    );
    range(
        &mut e,
        "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment",
        form.iam_here_hours_after,
        0,
        99,
        false,
    );
    range(
        &mut e,
        "HistoryPortalMaxReadyForExamEmail",
        form.max_ready_for_exam,
        -1,
        99,
        true,
    );
    if !is_comma_separated_whole_numbers(&form.remind_days) {
        e.add(
            "HistoryPortalRemindXDaysBeforeAppt",
            "Must be comma-separated whole numbers (for example 2, 3)",
        );
    }
    if !matches!(form.hrs_appointment_time_type.as_str(), "Before" | "After") {
        e.add("HrsAppointmentTimeType", "Choose Before or After");
    }
    if !form.business_days.iter().any(|d| *d) {
        e.add(
            "HistoryPortalBusinessDays",
            "Choose at least one business day",
        );
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comma_separated_numbers() {
        for ok in ["2", "2, 3", " 1,2,3 ", "0"] {
            assert!(is_comma_separated_whole_numbers(ok), "{ok}");
        }
        for bad in ["", "2,,3", "1.5", "-1", "a", "2;3", ","] {
            assert!(!is_comma_separated_whole_numbers(bad), "{bad}");
        }
    }
}
