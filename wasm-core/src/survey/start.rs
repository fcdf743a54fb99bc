//! Whether a survey can be taken or viewed, and the message when not (spec 01 §4 survey
//! lifecycle, §8 messages). The API decides with this and sends the result to the runner.

use crate::model::SurveyStatus;
use crate::wire;

pub const EXPIRED_TITLE: &str = "Survey Expired";
pub const EXPIRED_MESSAGE: &str = "Could not start the survey, survey already expired. Please contact system administrator if you want to reschedule the survey.";
pub const COMPLETE_TITLE: &str = "Survey Complete";
pub const COMPLETE_MESSAGE: &str = "This survey has already been submitted.";
pub const NOTHING_TO_VIEW: &str = "You did not start the survey. There is no information to view";
pub const NO_SURVEYS: &str = "No surveys available. Please contact administrator.";
pub const PIN_EXPIRED: &str = "Pin number is expired";

/// 'Pin number is wrong. You have N attempts left' (spec 01 §8).
pub fn pin_wrong_message(attempts_left: u32) -> String {
    format!("Pin number is wrong. You have {attempts_left} attempts left")
}

wire! {
    #[derive(Copy, Eq)]
    pub enum StartKind {
        /// Not started yet: begin on the first page.
        Start,
        /// IntermediateSave: go on where the patient stopped.
        Resume,
        /// Read-only.
        View,
        /// Refused; Title and Message say why.
        Refused,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct StartDecision {
        pub kind: StartKind,
        pub title: String,
        pub message: String,
    }
}

fn refused(title: &str, message: &str) -> StartDecision {
    StartDecision { kind: StartKind::Refused, title: title.to_owned(), message: message.to_owned() }
}

/// `view`: the View path (surveyLogId); otherwise a start path. `has_completion`: the survey
/// log has a completion date.
pub fn start_decision(status: SurveyStatus, has_completion: bool, view: bool) -> StartDecision {
    let ok = |kind| StartDecision { kind, title: String::new(), message: String::new() };
    if view {
        // Viewing is refused for an expired survey with no completion date (spec 01 §4).
        return if status.is_complete_status() && !status.is_completed() && !has_completion {
            refused(EXPIRED_TITLE, NOTHING_TO_VIEW)
        } else if status == SurveyStatus::Assigned {
            refused("Survey", NOTHING_TO_VIEW)
        } else {
            ok(StartKind::View)
        };
    }
    match status {
        SurveyStatus::Assigned => ok(StartKind::Start),
        SurveyStatus::IntermediateSave => ok(StartKind::Resume),
        SurveyStatus::Completed | SurveyStatus::Reviewed => refused(COMPLETE_TITLE, COMPLETE_MESSAGE),
        SurveyStatus::Expired | SurveyStatus::PartiallyCompleteExpired | SurveyStatus::IntermediateSaveExpired => {
            refused(EXPIRED_TITLE, EXPIRED_MESSAGE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions() {
        assert_eq!(start_decision(SurveyStatus::Assigned, false, false).kind, StartKind::Start);
        assert_eq!(start_decision(SurveyStatus::IntermediateSave, false, false).kind, StartKind::Resume);
        let d = start_decision(SurveyStatus::IntermediateSaveExpired, false, false);
        assert_eq!((d.kind, d.title.as_str()), (StartKind::Refused, "Survey Expired"));
        assert_eq!(start_decision(SurveyStatus::Completed, true, false).title, "Survey Complete");
        assert_eq!(start_decision(SurveyStatus::Completed, true, true).kind, StartKind::View);
        assert_eq!(start_decision(SurveyStatus::Expired, false, true).message, NOTHING_TO_VIEW);
        assert_eq!(start_decision(SurveyStatus::IntermediateSaveExpired, true, true).kind, StartKind::View);
        assert_eq!(pin_wrong_message(2), "Pin number is wrong. You have 2 attempts left");
    }
}
