//! Medical History rules (spec 01 §2.4, §4 "Survey lifecycle", "Completed tab") and Home's
//! pending actions (spec 01 §2.2).

use crate::dates::parse_iso;
use crate::dates::Parsed;
use crate::message_templates::fill;
use crate::model::{PendingAction, SurveyAction, SurveyButton, SurveyStatus, SurveyTab};

pub const NOTHING_TO_VIEW: &str = "You did not start the survey. There is no information to view";
/// Button texts patients read (translated through labels::PATIENT_MESSAGES).
pub const VIEW: &str = "View";
pub const BEGIN_SURVEY: &str = "Begin Survey";
pub const RESUME_SURVEY: &str = "Resume Survey";
pub const MODIFY: &str = "Modify";
pub const ONE_UNREAD_LETTER: &str = "You have 1 unread letter";
/// Home's lines with a number or a name (templates, crate::message_templates).
pub const UNREAD_LETTERS: &str = "You have {n} unread letters";
pub const BEGIN_NAMED: &str = "Begin {survey}";
pub const RESUME_NAMED: &str = "Resume {survey}";
pub const EXPIRED_TOOLTIP: &str =
    "This survey has expired. Please arrive 15 minutes before your appointment to complete it at the center.";

/// Which tab lists a status; unknown statuses are not listed.
pub fn survey_tab(status_key: &str) -> Option<SurveyTab> {
    Some(match SurveyStatus::parse(status_key)? {
        SurveyStatus::Assigned => SurveyTab::Assigned,
        SurveyStatus::IntermediateSave => SurveyTab::Progress,
        _ => SurveyTab::Completed,
    })
}

/// With no tab in the address: progress when any survey is in progress, else assigned.
pub fn default_tab(status_keys: &[String]) -> SurveyTab {
    if status_keys
        .iter()
        .any(|k| SurveyStatus::parse(k) == Some(SurveyStatus::IntermediateSave))
    {
        SurveyTab::Progress
    } else {
        SurveyTab::Assigned
    }
}

/// The tooltip of an expired status ('' for the others).
pub fn status_tooltip(status_key: &str) -> &'static str {
    match SurveyStatus::parse(status_key) {
        Some(
            SurveyStatus::Expired
            | SurveyStatus::PartiallyCompleteExpired
            | SurveyStatus::IntermediateSaveExpired,
        ) => EXPIRED_TOOLTIP,
        _ => "",
    }
}

fn seconds(iso: Option<&str>) -> Option<i64> {
    match parse_iso(iso?)? {
        Parsed::Instant(s) => Some(s),
        Parsed::Date(d) => Some(crate::dates::days_from_civil(d.year, d.month, d.day) * 86_400),
    }
}

fn start_path(survey_queue_id: i64) -> String {
    format!("/survey?startType=HistoryPortal&surveyQueueId={survey_queue_id}")
}

/// The row's button. Assigned: Begin; in progress: Resume (both start the survey). Finished:
/// an expired survey without a completion date cannot be viewed; a completed (or reviewed)
/// survey, or an intermediate-save-expired one with a completion date, shows View once the
/// appointment has passed (or when there is none), else Modify, which restarts it; the other
/// expired surveys with answers show View. Viewing needs a survey log.
pub fn survey_button(
    status_key: &str,
    date_completed: Option<&str>,
    appointment: Option<&str>,
    now: &str,
    survey_queue_id: i64,
    survey_log_id: Option<i64>,
) -> SurveyButton {
    let button = |action, label: &str, enabled: bool, tooltip: &str, path: String| SurveyButton {
        action,
        label: label.to_owned(),
        enabled,
        tooltip: if enabled {
            String::new()
        } else {
            tooltip.to_owned()
        },
        path: if enabled { path } else { String::new() },
    };
    let view = |log: Option<i64>| match log {
        Some(log) => button(
            SurveyAction::View,
            VIEW,
            true,
            "",
            format!("/survey?startType=View&surveyLogId={log}"),
        ),
        None => button(
            SurveyAction::View,
            VIEW,
            false,
            NOTHING_TO_VIEW,
            String::new(),
        ),
    };
    let completed = seconds(date_completed).is_some();
    match SurveyStatus::parse(status_key) {
        Some(SurveyStatus::Assigned) => button(
            SurveyAction::Begin,
            BEGIN_SURVEY,
            true,
            "",
            start_path(survey_queue_id),
        ),
        Some(SurveyStatus::IntermediateSave) => button(
            SurveyAction::Resume,
            RESUME_SURVEY,
            true,
            "",
            start_path(survey_queue_id),
        ),
        Some(SurveyStatus::Completed | SurveyStatus::Reviewed) => {
            modify_or_view(appointment, now, survey_queue_id, view(survey_log_id))
        }
        Some(SurveyStatus::IntermediateSaveExpired) if completed => {
            modify_or_view(appointment, now, survey_queue_id, view(survey_log_id))
        }
        Some(
            SurveyStatus::Expired
            | SurveyStatus::PartiallyCompleteExpired
            | SurveyStatus::IntermediateSaveExpired,
        ) => {
            if completed {
                view(survey_log_id)
            } else {
                button(
                    SurveyAction::View,
                    VIEW,
                    false,
                    NOTHING_TO_VIEW,
                    String::new(),
                )
            }
        }
        None => button(
            SurveyAction::View,
            VIEW,
            false,
            NOTHING_TO_VIEW,
            String::new(),
        ),
    }
}

fn modify_or_view(
    appointment: Option<&str>,
    now: &str,
    survey_queue_id: i64,
    view: SurveyButton,
) -> SurveyButton {
    let passed = match (seconds(appointment), seconds(Some(now))) {
        (Some(at), Some(now)) => at <= now,
        _ => true,
    };
    if passed {
        view
    } else {
        SurveyButton {
            action: SurveyAction::Modify,
            label: MODIFY.to_owned(),
            enabled: true,
            tooltip: String::new(),
            path: format!("/survey?startType=Modify&surveyQueueId={survey_queue_id}"),
        }
    }
}

/// Home's line for one survey to begin or resume (None for any other status).
pub fn pending_survey_action(
    status_key: &str,
    survey_name: &str,
    survey_queue_id: i64,
    label: &str,
) -> Option<PendingAction> {
    let template = match SurveyStatus::parse(status_key)? {
        SurveyStatus::Assigned => BEGIN_NAMED,
        SurveyStatus::IntermediateSave => RESUME_NAMED,
        _ => return None,
    };
    Some(PendingAction {
        key: format!("survey-{survey_queue_id}"),
        label: if label.trim().is_empty() {
            "pending survey".to_owned()
        } else {
            label.to_owned()
        },
        text: fill(template, &[("survey", survey_name.trim())]),
        path: start_path(survey_queue_id),
    })
}

/// Home's line for unread letters (None when there are none).
pub fn pending_letters_action(unread: u32, label: &str) -> Option<PendingAction> {
    (unread > 0).then(|| PendingAction {
        key: "letters".to_owned(),
        label: if label.trim().is_empty() {
            "unread letter".to_owned()
        } else {
            label.to_owned()
        },
        text: if unread == 1 {
            ONE_UNREAD_LETTER.to_owned()
        } else {
            fill(UNREAD_LETTERS, &[("n", &unread.to_string())])
        },
        path: "/documents/unread".to_owned(),
    })
}
