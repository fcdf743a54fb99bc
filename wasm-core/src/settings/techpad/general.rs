//! TechpadGeneral (spec 04 §3 "Techpad general settings", §4, §5, §9): worklist, tabs, documents,
//! barcode, chat, session and sign-in switches of the tablet app.
//!
//! The spec's field list holds a placeholder `{hash}` between SessionWarnTimeout and
//! ShowBothTotalTimeAndLastStatusTimeInWorklist: an unknown field, left out.

use super::super::checks::*;
use super::super::SettingsGroup;
use crate::ValidationErrors;

/// Spec 04 §3: barcode types (name, value).
pub const BARCODE_TYPES: &[(&str, i32)] = &[
    ("CODE128", 28),
    ("CODE128A", 29),
    ("CODE128B", 30),
    ("CODE39", 10),
    ("CODE39Extended", 11),
];
/// Spec 04 §3: worklist tabs (name, value); the default is Demographic (§9).
pub const WORKLIST_TABS: &[(&str, i32)] = &[
    ("Exam", 1),
    ("Demographic", 3),
    ("History", 4),
    ("Diagram", 6),
    ("Comments", 7),
    ("Documents", 8),
    ("FollowUps", 9),
    ("Risk", 11),
];
pub const DEFAULT_WORKLIST_TAB: i32 = 3;
/// Spec 04 §4, §9: where a completed item may go back to; the first is the default.
pub const STATUSES_ALLOWED_FROM_COMPLETED: &[&str] = &["ExamWaiting", "ExamIncomplete"];
/// Spec 04 §4: the chat service url row is an error when the chat menu is on and it is empty.
/// The family tree tab toggle (the Tyrer-Cuzick tab, drawn from the family tree): usable only
/// with FamilyTree on (spec 04 §4).
pub const FAMILY_TREE_TAB_TOGGLE: &str = "IsShowTyrerCuzikTab";
pub const CHAT_SERVICE_URL_REQUIRED: &str = "Chat service url is required when the chat menu is on";

crate::settings_struct! {
    pub struct TechpadGeneral {
        "IsUpdateStudyRISHoldOnEndExam" is_update_study_ris_hold_on_end_exam: bool,
        "IsUpdateStudyT_EndOnEndExam" is_update_study_t_end_on_end_exam: bool,
        "IsShowDemoMenuItem" is_show_demo_menu_item: bool,
        "HideStartAndEndButtons" hide_start_and_end_buttons: bool,
        "HideSkipAndStartButtons" hide_skip_and_start_buttons: bool,
        "IsShowPatientsMenuItem" is_show_patients_menu_item: bool,
        "DisableRequiringStudyFields" disable_requiring_study_fields: bool,
        "EnableWorklistPatientsDataSync" enable_worklist_patients_data_sync: bool,
        "ShowSelectSecondTechnologist" show_select_second_technologist: bool,
        "ShowSelectThirdTechnologist" show_select_third_technologist: bool,
        "ShowSpeedTestTab" show_speed_test_tab: bool,
        "IsIncludePersonalBRCAHistory" is_include_personal_brca_history: bool,
        "IsValidatePersonalBrcaHistory" is_validate_personal_brca_history: bool,
        "IsIncludeFamilyBRCAHistory" is_include_family_brca_history: bool,
        "IsDocumentsCreationAbilityEnabled" is_documents_creation_ability_enabled: bool,
        "IsContactDocumentsCreationAbilityEnabled" is_contact_documents_creation_ability_enabled: bool,
        "IsContactDocumentsDeletionAbilityEnabled" is_contact_documents_deletion_ability_enabled: bool,
        "IsStoreRiskTriggerDisabledForWorklistSave" is_store_risk_trigger_disabled_for_worklist_save: bool,
        "IsLoadDocumentsOnEachTabClick" is_load_documents_on_each_tab_click: bool,
        /// The spec's spelling.
        "IsValidateReqiuredFieldsOnEverySave" is_validate_reqiured_fields_on_every_save: bool,
        "IsValidateHistoryResultField" is_validate_history_result_field: bool,
        "IsShowBarcodeForAccessionNumber" is_show_barcode_for_accession_number: bool,
        /// One of [`BARCODE_TYPES`]' values.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "BarcodeType" barcode_type: f64,
        "IsShowChatMenuItem" is_show_chat_menu_item: bool,
        "ChatServiceUrl" chat_service_url: String,
        "IsAllowedStatusToBeChangedFromCompleted" is_allowed_status_to_be_changed_from_completed: bool,
        /// One of [`STATUSES_ALLOWED_FROM_COMPLETED`].
        "AllowedStatusToBeChangedFromCompleted" allowed_status_to_be_changed_from_completed: String,
        "IsEnabledTechpadDiagramRedirection" is_enabled_techpad_diagram_redirection: bool,
        "TechpadDiagramRedirectURL" techpad_diagram_redirect_url: String,
        "GroupExamTypeWorklistFilter" group_exam_type_worklist_filter: bool,
        "ShowAppointmentTime" show_appointment_time: bool,
        "AuditWorklistApiCall" audit_worklist_api_call: bool,
        "IsDarkModeDiagramDisabled" is_dark_mode_diagram_disabled: bool,
        "FamilyTree" family_tree: bool,
        /// The SurveyName of a family tree survey.
        "FamilyTreeSurveyName" family_tree_survey_name: String,
        "FamilyTreeEnabledCodeList" family_tree_enabled_code_list: String,
        "IsShowTyrerCuzikTab" is_show_tyrer_cuzik_tab: bool,
        "CarryForwardTechpadDiagram" carry_forward_techpad_diagram: bool,
        /// One of [`WORKLIST_TABS`]' values.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "DefaultWorklistTab" default_worklist_tab: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "WorklistPrioritizingAccuracy" worklist_prioritizing_accuracy: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HistoryLoadRetries" history_load_retries: f64,
        /// Minutes.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "SessionExpirationTimeout" session_expiration_timeout: f64,
        /// Minutes.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "SessionWarnTimeout" session_warn_timeout: f64,
        "ShowBothTotalTimeAndLastStatusTimeInWorklist" show_both_total_time_and_last_status_time_in_worklist: bool,
        "ShowDetailTimeInWorklist" show_detail_time_in_worklist: bool,
        "HideDetailStatusTimeInWorklist" hide_detail_status_time_in_worklist: bool,
        "ShowDetailCommentTimeInWorklist" show_detail_comment_time_in_worklist: bool,
        "UseAlternateUserIdentifier" use_alternate_user_identifier: bool,
        "AlternateUserIdentifierField" alternate_user_identifier_field: String,
        "IsUpdateStudyOnMarkAsCompleted" is_update_study_on_mark_as_completed: bool,
        "IsLdapAuthenticationEnabled" is_ldap_authentication_enabled: bool,
        "LdapDomain" ldap_domain: String,
        "IsTechpadDemoMode" is_techpad_demo_mode: bool,
    }
}

impl Default for TechpadGeneral {
    fn default() -> Self {
        TechpadGeneral {
            is_update_study_ris_hold_on_end_exam: false,
            is_update_study_t_end_on_end_exam: false,
            is_show_demo_menu_item: false,
            hide_start_and_end_buttons: false,
            hide_skip_and_start_buttons: false,
            is_show_patients_menu_item: false,
            disable_requiring_study_fields: false,
            enable_worklist_patients_data_sync: false,
            show_select_second_technologist: false,
            show_select_third_technologist: false,
            show_speed_test_tab: false,
            is_include_personal_brca_history: false,
            is_validate_personal_brca_history: false,
            is_include_family_brca_history: false,
            is_documents_creation_ability_enabled: false,
            is_contact_documents_creation_ability_enabled: false,
            is_contact_documents_deletion_ability_enabled: false,
            is_store_risk_trigger_disabled_for_worklist_save: false,
            is_load_documents_on_each_tab_click: false,
            is_validate_reqiured_fields_on_every_save: false,
            is_validate_history_result_field: false,
            is_show_barcode_for_accession_number: false,
            // CODE128, the first type listed.
            barcode_type: 28.0,
            is_show_chat_menu_item: false,
            chat_service_url: String::new(),
            is_allowed_status_to_be_changed_from_completed: false,
            allowed_status_to_be_changed_from_completed: STATUSES_ALLOWED_FROM_COMPLETED[0].into(),
            is_enabled_techpad_diagram_redirection: false,
            techpad_diagram_redirect_url: String::new(),
            group_exam_type_worklist_filter: false,
            show_appointment_time: false,
            audit_worklist_api_call: false,
            is_dark_mode_diagram_disabled: false,
            family_tree: false,
            family_tree_survey_name: String::new(),
            family_tree_enabled_code_list: String::new(),
            is_show_tyrer_cuzik_tab: false,
            carry_forward_techpad_diagram: false,
            default_worklist_tab: f64::from(DEFAULT_WORKLIST_TAB),
            worklist_prioritizing_accuracy: 1.0,
            history_load_retries: 3.0,
            session_expiration_timeout: 20.0,
            session_warn_timeout: 2.0,
            show_both_total_time_and_last_status_time_in_worklist: false,
            show_detail_time_in_worklist: false,
            hide_detail_status_time_in_worklist: false,
            show_detail_comment_time_in_worklist: false,
            use_alternate_user_identifier: false,
            alternate_user_identifier_field: String::new(),
            is_update_study_on_mark_as_completed: false,
            is_ldap_authentication_enabled: false,
            ldap_domain: String::new(),
            is_techpad_demo_mode: false,
        }
    }
}

/// A whole number that is one of `choices`' values ("Choose one of: <names>").
fn choice(e: &mut ValidationErrors, field: &str, v: f64, choices: &[(&str, i32)]) -> bool {
    if choices.iter().any(|(_, c)| f64::from(*c) == v) {
        return true;
    }
    let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
    e.add(field, format!("Choose one of: {}", names.join(", ")));
    false
}

impl SettingsGroup for TechpadGeneral {
    const NAME: &'static str = "TechpadGeneral";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        choice(&mut e, "BarcodeType", self.barcode_type, BARCODE_TYPES);
        choice(
            &mut e,
            "DefaultWorklistTab",
            self.default_worklist_tab,
            WORKLIST_TABS,
        );
        if self.is_show_chat_menu_item && self.chat_service_url.trim().is_empty() {
            e.add("ChatServiceUrl", CHAT_SERVICE_URL_REQUIRED);
        } else {
            web_address(&mut e, "ChatServiceUrl", &self.chat_service_url);
        }
        one_of(
            &mut e,
            "AllowedStatusToBeChangedFromCompleted",
            &self.allowed_status_to_be_changed_from_completed,
            STATUSES_ALLOWED_FROM_COMPLETED,
        );
        web_address(
            &mut e,
            "TechpadDiagramRedirectURL",
            &self.techpad_diagram_redirect_url,
        );
        text(
            &mut e,
            "FamilyTreeSurveyName",
            &self.family_tree_survey_name,
            128,
        );
        text(
            &mut e,
            "FamilyTreeEnabledCodeList",
            &self.family_tree_enabled_code_list,
            TEXT_MAX,
        );
        whole(
            &mut e,
            "WorklistPrioritizingAccuracy",
            self.worklist_prioritizing_accuracy,
            Some(1),
            Some(1000),
            VALUE_CAN_NOT_BE_DECIMAL,
        );
        whole(
            &mut e,
            "HistoryLoadRetries",
            self.history_load_retries,
            Some(0),
            Some(100),
            VALUE_CAN_NOT_BE_DECIMAL,
        );
        for (field, minutes) in [
            ("SessionExpirationTimeout", self.session_expiration_timeout),
            ("SessionWarnTimeout", self.session_warn_timeout),
        ] {
            whole(
                &mut e,
                field,
                minutes,
                Some(0),
                Some(1440),
                VALUE_CAN_NOT_BE_DECIMAL,
            );
        }
        text(
            &mut e,
            "AlternateUserIdentifierField",
            &self.alternate_user_identifier_field,
            128,
        );
        text(&mut e, "LdapDomain", &self.ldap_domain, 256);
        e
    }

    /// Spec 04 §4: the family tree tab toggle is disabled while FamilyTree is off.
    fn disabled(&self) -> Vec<String> {
        if self.family_tree {
            Vec::new()
        } else {
            vec![FAMILY_TREE_TAB_TOGGLE.to_owned()]
        }
    }

    /// An empty status allowed from completed is the default one, ExamWaiting (§4).
    fn normalize(&mut self) {
        if self
            .allowed_status_to_be_changed_from_completed
            .trim()
            .is_empty()
        {
            self.allowed_status_to_be_changed_from_completed =
                STATUSES_ALLOWED_FROM_COMPLETED[0].into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_spec() {
        let d = TechpadGeneral::default();
        assert_eq!(d.default_worklist_tab, 3.0);
        assert_eq!(d.allowed_status_to_be_changed_from_completed, "ExamWaiting");
        assert!(d.validate().is_valid());
    }

    #[test]
    fn numbers_have_their_minimums() {
        let g = TechpadGeneral {
            worklist_prioritizing_accuracy: 0.0,
            history_load_retries: -1.0,
            session_expiration_timeout: -1.0,
            session_warn_timeout: 1.5,
            ..Default::default()
        };
        let e = g.validate();
        assert_eq!(
            e.field("WorklistPrioritizingAccuracy"),
            ["Must be between 1 and 1000"]
        );
        assert_eq!(e.field("HistoryLoadRetries"), ["Must be between 0 and 100"]);
        assert_eq!(
            e.field("SessionExpirationTimeout"),
            ["Must be between 0 and 1440"]
        );
        assert_eq!(e.field("SessionWarnTimeout"), [VALUE_CAN_NOT_BE_DECIMAL]);
        let zero = TechpadGeneral {
            history_load_retries: 0.0,
            session_expiration_timeout: 0.0,
            session_warn_timeout: 0.0,
            ..Default::default()
        };
        assert!(zero.validate().is_valid());
    }

    #[test]
    fn barcode_and_tab_are_chosen_from_their_lists() {
        for ok in [28.0, 29.0, 30.0, 10.0, 11.0] {
            let g = TechpadGeneral {
                barcode_type: ok,
                ..Default::default()
            };
            assert!(g.validate().is_valid());
        }
        let g = TechpadGeneral {
            barcode_type: 12.0,
            default_worklist_tab: 2.0,
            ..Default::default()
        };
        let e = g.validate();
        assert_eq!(
            e.field("BarcodeType"),
            ["Choose one of: CODE128, CODE128A, CODE128B, CODE39, CODE39Extended"]
        );
        assert_eq!(
            e.field("DefaultWorklistTab"),
            ["Choose one of: Exam, Demographic, History, Diagram, Comments, Documents, FollowUps, Risk"]
        );
        let nan = TechpadGeneral {
            barcode_type: f64::NAN,
            ..Default::default()
        };
        assert!(!nan.validate().field("BarcodeType").is_empty());
    }

    #[test]
    fn chat_url_is_needed_only_with_the_chat_menu() {
        let mut g = TechpadGeneral {
            is_show_chat_menu_item: true,
            ..Default::default()
        };
        assert_eq!(
            g.validate().field("ChatServiceUrl"),
            [CHAT_SERVICE_URL_REQUIRED]
        );
        g.chat_service_url = "https://chat.example.org".into();
        assert!(g.validate().is_valid());
        g.is_show_chat_menu_item = false;
        g.chat_service_url = String::new();
        assert!(g.validate().is_valid());
    }

    #[test]
    fn status_from_completed_is_waiting_or_incomplete() {
        let mut g = TechpadGeneral {
            is_allowed_status_to_be_changed_from_completed: true,
            allowed_status_to_be_changed_from_completed: "ExamIncomplete".into(),
            ..Default::default()
        };
        assert!(g.validate().is_valid());
        g.allowed_status_to_be_changed_from_completed = "ExamStarted".into();
        assert_eq!(
            g.validate().field("AllowedStatusToBeChangedFromCompleted"),
            ["Choose one of: ExamWaiting, ExamIncomplete"]
        );
        g.allowed_status_to_be_changed_from_completed = String::new();
        g.normalize();
        assert_eq!(g.allowed_status_to_be_changed_from_completed, "ExamWaiting");
    }
}
