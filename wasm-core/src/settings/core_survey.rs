//! CoreSurvey: the survey fields of the setup wizard (spec 02 §3 "Setup configuration
//! settings > Survey", stored here by `api` `configuration::group_of`) and the staff admin PIN
//! length (spec 01 AdminPinLength, read here by `api` `routes::users`). The API reads
//! SURVEY_SELECT_PATIENT_MODE, SURVEY_ADMIN_PIN, SurveyPerLocation and
//! SearchForPatientUsingAlternateUserIdentifier from this group (`routes::survey_start`), each
//! before its SurveyGeneral counterpart.
//!
//! The rules are the setup wizard's (`crate::setup::validate_setup`) as field messages: a PIN
//! when staff select the patient, complete mapping rows when searching by the alternate
//! identifier, a path and a message type for an enabled interface queue, complete
//! survey-per-location rows.

use super::checks::*;
use super::survey_general::{COLUMN_REQUIRED, LOCATION_REQUIRED};
use super::SettingsGroup;
use crate::model::{KeyValue, LocationMrnColumn};
use crate::ValidationErrors;

pub const ADMIN_PIN_REQUIRED: &str = "Admin PIN is required when staff select the patient";
pub const SURVEY_REQUIRED: &str = "Survey is required";
/// The longest admin PIN (the API clamps AdminPinLength to 1..=12).
pub const ADMIN_PIN_MAX: i32 = 12;

crate::settings_struct! {
    pub struct CoreSurvey {
        "SURVEY_SELECT_PATIENT_MODE" survey_select_patient_mode: bool,
        "SURVEY_ADMIN_PIN" survey_admin_pin: String,
        "SearchForPatientUsingAlternateUserIdentifier" search_for_patient_using_alternate_user_identifier: bool,
        "LocationToMrnColumnMapping" location_to_mrn_column_mapping: Vec<LocationMrnColumn>,
        "IsInterfaceQueueEnabledForSurveyStart" is_interface_queue_enabled_for_survey_start: bool,
        "SurveyStartInterfaceQueuePath" survey_start_interface_queue_path: String,
        "SurveyStartInterfaceQueueMessageType" survey_start_interface_queue_message_type: String,
        "IsInterfaceQueueEnabledForSurveySubmit" is_interface_queue_enabled_for_survey_submit: bool,
        "SurveySubmitInterfaceQueuePath" survey_submit_interface_queue_path: String,
        "SurveySubmitInterfaceQueueMessageType" survey_submit_interface_queue_message_type: String,
        /// Key = location number, Value = survey id.
        "SurveyPerLocation" survey_per_location: Vec<KeyValue>,
        /// The staff admin PIN's length (digits).
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "AdminPinLength" admin_pin_length: f64,
    }
}

impl Default for CoreSurvey {
    fn default() -> Self {
        CoreSurvey {
            survey_select_patient_mode: false,
            survey_admin_pin: String::new(),
            search_for_patient_using_alternate_user_identifier: false,
            location_to_mrn_column_mapping: Vec::new(),
            is_interface_queue_enabled_for_survey_start: false,
            survey_start_interface_queue_path: String::new(),
            survey_start_interface_queue_message_type: String::new(),
            is_interface_queue_enabled_for_survey_submit: false,
            survey_submit_interface_queue_path: String::new(),
            survey_submit_interface_queue_message_type: String::new(),
            survey_per_location: Vec::new(),
            // `api` `routes::users::DEFAULT_ADMIN_PIN_LENGTH`.
            admin_pin_length: 4.0,
        }
    }
}

fn queue(
    e: &mut ValidationErrors,
    enabled: bool,
    (path_field, path): (&str, &str),
    (type_field, message_type): (&str, &str),
) {
    for (field, value, max) in [(path_field, path, 1000), (type_field, message_type, 128)] {
        if enabled {
            required_text(e, field, value, max, None);
        } else {
            text(e, field, value, max);
        }
    }
}

/// A row cell: `required` is its message when it must not be blank; at most 128 characters.
fn cell(e: &mut ValidationErrors, field: &str, value: &str, required: Option<&str>) {
    match required {
        Some(message) if value.trim().is_empty() => e.add(field, message),
        _ => {
            text(e, field, value, 128);
        }
    }
}

impl SettingsGroup for CoreSurvey {
    const NAME: &'static str = "CoreSurvey";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        if self.survey_select_patient_mode && self.survey_admin_pin.trim().is_empty() {
            e.add("SURVEY_ADMIN_PIN", ADMIN_PIN_REQUIRED);
        } else {
            // The API trims the PIN.
            let pin_ok = digit_text(
                &mut e,
                "SURVEY_ADMIN_PIN",
                self.survey_admin_pin.trim(),
                ADMIN_PIN_MAX as usize,
            );
            if pin_ok {
                text(&mut e, "SURVEY_ADMIN_PIN", &self.survey_admin_pin, 64);
            }
        }
        // The mapping rows matter only when searching by the alternate identifier.
        let alt = self.search_for_patient_using_alternate_user_identifier;
        for (i, row) in self.location_to_mrn_column_mapping.iter().enumerate() {
            cell(
                &mut e,
                &format!("LocationToMrnColumnMapping.{i}.LocNum"),
                &row.loc_num,
                alt.then_some(LOCATION_REQUIRED),
            );
            cell(
                &mut e,
                &format!("LocationToMrnColumnMapping.{i}.Column"),
                &row.column,
                alt.then_some(COLUMN_REQUIRED),
            );
        }
        queue(
            &mut e,
            self.is_interface_queue_enabled_for_survey_start,
            (
                "SurveyStartInterfaceQueuePath",
                &self.survey_start_interface_queue_path,
            ),
            (
                "SurveyStartInterfaceQueueMessageType",
                &self.survey_start_interface_queue_message_type,
            ),
        );
        queue(
            &mut e,
            self.is_interface_queue_enabled_for_survey_submit,
            (
                "SurveySubmitInterfaceQueuePath",
                &self.survey_submit_interface_queue_path,
            ),
            (
                "SurveySubmitInterfaceQueueMessageType",
                &self.survey_submit_interface_queue_message_type,
            ),
        );
        for (i, row) in self.survey_per_location.iter().enumerate() {
            cell(
                &mut e,
                &format!("SurveyPerLocation.{i}.Key"),
                &row.key,
                Some(LOCATION_REQUIRED),
            );
            cell(
                &mut e,
                &format!("SurveyPerLocation.{i}.Value"),
                &row.value,
                Some(SURVEY_REQUIRED),
            );
        }
        if required_digits(
            &mut e,
            "AdminPinLength",
            self.admin_pin_length,
            Some(ADMIN_PIN_MAX),
        ) {
            whole(
                &mut e,
                "AdminPinLength",
                self.admin_pin_length,
                Some(1),
                Some(ADMIN_PIN_MAX),
                VALUE_CAN_NOT_BE_DECIMAL,
            );
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setup_wizard_rules_as_field_messages() {
        let s = CoreSurvey {
            survey_select_patient_mode: true,
            search_for_patient_using_alternate_user_identifier: true,
            location_to_mrn_column_mapping: vec![LocationMrnColumn {
                loc_num: "102".into(),
                column: " ".into(),
            }],
            is_interface_queue_enabled_for_survey_start: true,
            survey_per_location: vec![KeyValue {
                key: String::new(),
                value: "PES-010".into(),
            }],
            admin_pin_length: 0.0,
            ..Default::default()
        };
        let e = s.validate();
        assert_eq!(e.field("SURVEY_ADMIN_PIN"), [ADMIN_PIN_REQUIRED]);
        assert_eq!(
            e.field("LocationToMrnColumnMapping.0.Column"),
            [COLUMN_REQUIRED]
        );
        assert_eq!(e.field("SurveyStartInterfaceQueuePath"), [FIELD_REQUIRED]);
        assert!(e.field("SurveySubmitInterfaceQueuePath").is_empty());
        assert_eq!(e.field("SurveyPerLocation.0.Key"), [LOCATION_REQUIRED]);
        assert_eq!(e.field("AdminPinLength"), ["Must be between 1 and 12"]);
    }

    #[test]
    fn the_demo_document_is_valid() {
        // `api` `demo::surveys::demo_settings`.
        let demo: CoreSurvey = serde_json::from_value(serde_json::json!({
            "SURVEY_SELECT_PATIENT_MODE": true,
            "SURVEY_ADMIN_PIN": "2468",
            "SurveyPerLocation": [{"Key": "102", "Value": "PES-010"}]
        }))
        .unwrap();
        assert!(demo.validate().is_valid());
        assert_eq!(demo.admin_pin_length, 4.0);
        let pin = CoreSurvey {
            survey_admin_pin: "24a8".into(),
            ..demo
        };
        assert_eq!(pin.validate().field("SURVEY_ADMIN_PIN"), [DIGITS_ONLY]);
    }
}
