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

/// 'Pin number is wrong. You have N attempts left' (spec 01 §8; translated as a template,
/// crate::message_templates).
pub const PIN_WRONG: &str = "Pin number is wrong. You have {n} attempts left";

pub fn pin_wrong_message(attempts_left: u32) -> String {
    crate::message_templates::fill(PIN_WRONG, &[("n", &attempts_left.to_string())])
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
        /// The label keys a clinic may set to replace Title and Message in the patient's language
        /// (spec 01 §8: 'Survey Expired' is overridable by MedicalHistory_SurveyExpired_Title and
        /// MedicalHistory_SurveyExpired_Message); absent where the text is not overridable.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title_label: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub message_label: Option<String>,
    }
}

pub const EXPIRED_TITLE_LABEL: &str = "MedicalHistory_SurveyExpired_Title";
pub const EXPIRED_MESSAGE_LABEL: &str = "MedicalHistory_SurveyExpired_Message";

impl StartDecision {
    /// A decision with texts that no label overrides.
    pub fn plain(kind: StartKind, title: &str, message: &str) -> StartDecision {
        StartDecision {
            kind,
            title: title.to_owned(),
            message: message.to_owned(),
            title_label: None,
            message_label: None,
        }
    }
}

fn refused(title: &str, message: &str) -> StartDecision {
    StartDecision::plain(StartKind::Refused, title, message)
}

/// 'Survey Expired' with `message`: the title is the clinic's label when set, and so is the
/// message when it is the expired one.
fn refused_expired(message: &str) -> StartDecision {
    StartDecision {
        title_label: Some(EXPIRED_TITLE_LABEL.to_owned()),
        message_label: (message == EXPIRED_MESSAGE).then(|| EXPIRED_MESSAGE_LABEL.to_owned()),
        ..refused(EXPIRED_TITLE, message)
    }
}

/// `view`: the View path (surveyLogId); otherwise a start path. `has_completion`: the survey
/// log has a completion date.
pub fn start_decision(status: SurveyStatus, has_completion: bool, view: bool) -> StartDecision {
    let ok = |kind| StartDecision::plain(kind, "", "");
    if view {
        // Viewing is refused for an expired survey with no completion date (spec 01 §4).
        return if status.is_complete_status() && !status.is_completed() && !has_completion {
            refused_expired(NOTHING_TO_VIEW)
        } else if status == SurveyStatus::Assigned {
            refused("Survey", NOTHING_TO_VIEW)
        } else {
            ok(StartKind::View)
        };
    }
    match status {
        SurveyStatus::Assigned => ok(StartKind::Start),
        SurveyStatus::IntermediateSave => ok(StartKind::Resume),
        SurveyStatus::Completed | SurveyStatus::Reviewed => {
            refused(COMPLETE_TITLE, COMPLETE_MESSAGE)
        }
        SurveyStatus::Expired
        | SurveyStatus::PartiallyCompleteExpired
        | SurveyStatus::IntermediateSaveExpired => refused_expired(EXPIRED_MESSAGE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions() {
        assert_eq!(
            start_decision(SurveyStatus::Assigned, false, false).kind,
            StartKind::Start
        );
        assert_eq!(
            start_decision(SurveyStatus::IntermediateSave, false, false).kind,
            StartKind::Resume
        );
        let d = start_decision(SurveyStatus::IntermediateSaveExpired, false, false);
        assert_eq!(
            (d.kind, d.title.as_str()),
            (StartKind::Refused, "Survey Expired")
        );
        assert_eq!(
            start_decision(SurveyStatus::Completed, true, false).title,
            "Survey Complete"
        );
        assert_eq!(
            start_decision(SurveyStatus::Completed, true, true).kind,
            StartKind::View
        );
        assert_eq!(
            start_decision(SurveyStatus::Expired, false, true).message,
            NOTHING_TO_VIEW
        );
        assert_eq!(
            start_decision(SurveyStatus::IntermediateSaveExpired, true, true).kind,
            StartKind::View
        );
        assert_eq!(
            pin_wrong_message(2),
            "Pin number is wrong. You have 2 attempts left"
        );
    }

    #[test]
    fn only_the_expired_texts_name_their_labels() {
        let d = start_decision(SurveyStatus::Expired, false, false);
        assert_eq!(d.title_label.as_deref(), Some(EXPIRED_TITLE_LABEL));
        assert_eq!(d.message_label.as_deref(), Some(EXPIRED_MESSAGE_LABEL));
        // View of an expired survey: the title is 'Survey Expired', the message is another.
        let d = start_decision(SurveyStatus::Expired, false, true);
        assert_eq!(
            (d.title_label.as_deref(), d.message_label.as_deref()),
            (Some(EXPIRED_TITLE_LABEL), None)
        );
        let d = start_decision(SurveyStatus::Completed, true, false);
        assert_eq!((d.title_label, d.message_label), (None, None));
        let json =
            serde_json::to_value(start_decision(SurveyStatus::Assigned, false, false)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"Kind": "Start", "Title": "", "Message": ""}),
            "no label keys when none apply"
        );
    }
}
