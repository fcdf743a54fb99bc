//! SurveyMaglinkIntegrations (spec 04 §3 "Survey maglink settings"): an interface queue (switch,
//! path, message type) for Survey Start and for Survey Submit. The path and type inputs are
//! disabled while their switch is off (§4); the spec gives no rule beyond that, so both texts
//! are only bounded. [`interface_queue`] is shared with the techpad Maglink events.

use super::checks::*;
use super::SettingsGroup;
use crate::survey_integration::MAGLINK_MESSAGE_TYPES;
use crate::ValidationErrors;

/// Longest interface queue path (a share or queue format name).
pub const QUEUE_PATH_MAX: usize = 512;
/// Longest interface queue message type.
pub const QUEUE_MESSAGE_TYPE_MAX: usize = 128;

/// The bounds of one interface queue's path and message type.
pub fn interface_queue(
    e: &mut ValidationErrors,
    path_field: &str,
    path: &str,
    type_field: &str,
    message_type: &str,
) {
    text(e, path_field, path, QUEUE_PATH_MAX);
    text(e, type_field, message_type, QUEUE_MESSAGE_TYPE_MAX);
}

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct SurveyMaglinkIntegrations {
        "IsInterfaceQueueEnabledForSurveyStart" is_interface_queue_enabled_for_survey_start: bool,
        "InterfaceQueuePathForSurveyStart" interface_queue_path_for_survey_start: String,
        "InterfaceQueueMessageTypeForSurveyStart" interface_queue_message_type_for_survey_start: String,
        "IsInterfaceQueueEnabledForSurveySubmit" is_interface_queue_enabled_for_survey_submit: bool,
        "InterfaceQueuePathForSurveySubmit" interface_queue_path_for_survey_submit: String,
        "InterfaceQueueMessageTypeForSurveySubmit" interface_queue_message_type_for_survey_submit: String,
    }
}

impl SettingsGroup for SurveyMaglinkIntegrations {
    const NAME: &'static str = "SurveyMaglinkIntegrations";

    /// Spec 04 §2: a queue's path and message type follow its checkbox (disabled when off).
    fn disabled(&self) -> Vec<String> {
        let mut off = Vec::new();
        for (on, path, kind) in [
            (
                self.is_interface_queue_enabled_for_survey_start,
                "InterfaceQueuePathForSurveyStart",
                "InterfaceQueueMessageTypeForSurveyStart",
            ),
            (
                self.is_interface_queue_enabled_for_survey_submit,
                "InterfaceQueuePathForSurveySubmit",
                "InterfaceQueueMessageTypeForSurveySubmit",
            ),
        ] {
            if !on {
                off.extend([path.to_owned(), kind.to_owned()]);
            }
        }
        off
    }

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        interface_queue(
            &mut e,
            "InterfaceQueuePathForSurveyStart",
            &self.interface_queue_path_for_survey_start,
            "InterfaceQueueMessageTypeForSurveyStart",
            &self.interface_queue_message_type_for_survey_start,
        );
        interface_queue(
            &mut e,
            "InterfaceQueuePathForSurveySubmit",
            &self.interface_queue_path_for_survey_submit,
            "InterfaceQueueMessageTypeForSurveySubmit",
            &self.interface_queue_message_type_for_survey_submit,
        );
        // Issue 17: the portal writes the types it knows; an enabled queue says which.
        for (on, field, kind) in [
            (
                self.is_interface_queue_enabled_for_survey_start,
                "InterfaceQueueMessageTypeForSurveyStart",
                &self.interface_queue_message_type_for_survey_start,
            ),
            (
                self.is_interface_queue_enabled_for_survey_submit,
                "InterfaceQueueMessageTypeForSurveySubmit",
                &self.interface_queue_message_type_for_survey_submit,
            ),
        ] {
            if on && !kind.is_empty() && e.field(field).is_empty() {
                one_of(&mut e, field, kind, MAGLINK_MESSAGE_TYPES);
            }
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_types_are_bounded() {
        let s = SurveyMaglinkIntegrations {
            is_interface_queue_enabled_for_survey_start: true,
            interface_queue_path_for_survey_start: "p".repeat(QUEUE_PATH_MAX + 1),
            interface_queue_message_type_for_survey_submit: "t".repeat(QUEUE_MESSAGE_TYPE_MAX + 1),
            ..Default::default()
        };
        let e = s.validate();
        assert_eq!(
            e.field("InterfaceQueuePathForSurveyStart"),
            ["Must be at most 512 characters"]
        );
        assert_eq!(
            e.field("InterfaceQueueMessageTypeForSurveySubmit"),
            ["Must be at most 128 characters"]
        );
        assert!(e
            .field("InterfaceQueueMessageTypeForSurveyStart")
            .is_empty());
    }

    #[test]
    fn an_enabled_queue_writes_a_known_type_and_a_disabled_one_is_off() {
        let mut s = SurveyMaglinkIntegrations {
            is_interface_queue_enabled_for_survey_start: true,
            interface_queue_message_type_for_survey_start: "XML".into(),
            interface_queue_message_type_for_survey_submit: "XML".into(),
            ..Default::default()
        };
        assert_eq!(
            s.validate()
                .field("InterfaceQueueMessageTypeForSurveyStart"),
            ["Choose one of: HL7 ORU^R01, JSON"]
        );
        assert!(s
            .validate()
            .field("InterfaceQueueMessageTypeForSurveySubmit")
            .is_empty());
        assert_eq!(
            s.disabled(),
            [
                "InterfaceQueuePathForSurveySubmit",
                "InterfaceQueueMessageTypeForSurveySubmit"
            ]
        );
        s.interface_queue_message_type_for_survey_start = "JSON".into();
        assert!(s.validate().is_valid());
    }

    #[test]
    fn an_enabled_queue_may_be_saved_before_its_path_is_known() {
        let s = SurveyMaglinkIntegrations {
            is_interface_queue_enabled_for_survey_submit: true,
            ..Default::default()
        };
        assert!(s.validate().is_valid());
    }
}
