//! The emailed survey link (spec 01 §2.5, §4 "Survey start: after three identity problems
//! (completed, link expired, locked out) an error shows and the user is redirected to the
//! patient login", §8; spec 02 §8 'Identity Verification Warning'): what the survey screen does
//! with the survey identity the API answers. The API decides the facts (with `survey::expiry`
//! for the link's expiry); this decides what the patient sees.

use crate::model::SurveyIdentity;
use crate::survey::start::{StartDecision, StartKind, COMPLETE_TITLE};

pub const COMPLETE_MESSAGE: &str = "You have already completed this survey. Thank you.";
pub const LINK_EXPIRED_TITLE: &str = "Survey Link Expired";
pub const LINK_EXPIRED_MESSAGE: &str =
    "This survey link has expired. Please contact the clinic if you still need to fill in your medical history.";
pub const LOCKED_OUT_TITLE: &str = "Identity Verification Warning";
/// Where OK goes after any of the three.
pub const PATIENT_LOGIN: &str = "/patient/login";

/// The locked-out warning's message: how long the lockout still lasts, when known (constants
/// and a template, translated through crate::labels and crate::message_templates).
pub const LOCKED_OUT_LATER: &str = "Your portal account is locked after too many failed sign-in attempts, so this survey link cannot be used now. Please try again later or contact the clinic.";
pub const LOCKED_OUT_ONE_MINUTE: &str = "Your portal account is locked after too many failed sign-in attempts, so this survey link cannot be used now. Please try again in 1 minute or contact the clinic.";
pub const LOCKED_OUT_MINUTES: &str = "Your portal account is locked after too many failed sign-in attempts, so this survey link cannot be used now. Please try again in {n} minutes or contact the clinic.";

pub fn locked_out_message(minutes: u32) -> String {
    match minutes {
        0 => LOCKED_OUT_LATER.to_owned(),
        1 => LOCKED_OUT_ONE_MINUTE.to_owned(),
        n => crate::message_templates::fill(LOCKED_OUT_MINUTES, &[("n", &n.to_string())]),
    }
}

/// Start, or Refused with the title and message to show before going to the patient login.
///
/// Precedence: locked out first (while the identity is locked nothing about its surveys is
/// shown), then completed (a finished survey stays 'Survey Complete' after its date has
/// passed), then expired. An answer that names no survey to start is treated as an expired
/// link, never as a start.
pub fn identity_outcome(identity: &SurveyIdentity) -> StartDecision {
    let refused =
        |title: &str, message: String| StartDecision::plain(StartKind::Refused, title, &message);
    if identity.is_user_locked_out {
        return refused(
            LOCKED_OUT_TITLE,
            locked_out_message(identity.locked_out_minutes),
        );
    }
    if identity.is_survey_completed {
        return refused(COMPLETE_TITLE, COMPLETE_MESSAGE.to_owned());
    }
    let startable = identity.survey_data_id.is_some_and(|id| id > 0)
        && identity.token.as_deref().is_some_and(|t| !t.is_empty());
    if identity.is_email_token_expired || !startable {
        return refused(LINK_EXPIRED_TITLE, LINK_EXPIRED_MESSAGE.to_owned());
    }
    StartDecision::plain(StartKind::Start, "", "")
}
