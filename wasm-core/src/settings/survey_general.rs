//! SurveyGeneral (spec 04 §3 "Survey general settings", §5: admin PIN at most 6, page number
//! font size at least 1, summary form margins numeric with at most 6 characters, PIN expiration
//! numeric; location mapping rows need both Location and Column).

use super::checks::*;
use super::SettingsGroup;
use crate::model::{KeyValue, LocationMrnColumn};
use crate::ValidationErrors;

pub const PAGE_NUMBER_ALIGNMENTS: &[&str] = &["Left", "Center", "Right", "Justify"];
pub const LOCATION_REQUIRED: &str = "Location is required";
pub const COLUMN_REQUIRED: &str = "Column is required";

crate::settings_struct! {
    pub struct SurveyGeneral {
        "HidePatientNameInSurvey" hide_patient_name_in_survey: bool,
        "AutoAdvanceInSurveyEnabled" auto_advance_in_survey_enabled: bool,
        "DisableSmartNumPad" disable_smart_num_pad: bool,
        "DisableNumPadObjectsMobile" disable_num_pad_objects_mobile: bool,
        "DisableNumPadObjectsTablet" disable_num_pad_objects_tablet: bool,
        "DisableNumPadObjectsDesktop" disable_num_pad_objects_desktop: bool,
        "IsNeverExpirePin" is_never_expire_pin: bool,
        "IsAskPathChangeConfirmation" is_ask_path_change_confirmation: bool,
        "IsStoreRiskTriggerDisabledForSurveySubmit" is_store_risk_trigger_disabled_for_survey_submit: bool,
        "IsStoreProcessingUnaffectedRelativesDisabledForSurveySubmit" is_store_processing_unaffected_relatives_disabled_for_survey_submit: bool,
        "IsOverridePatientsEmailAddrValue" is_override_patients_email_addr_value: bool,
        "IsUseLungViewHomeIcon" is_use_lung_view_home_icon: bool,
        "IsDisplayPatientNameAndMrnOnSurveyThankYouScreen" is_display_patient_name_and_mrn_on_survey_thank_you_screen: bool,
        "IsSurveySelectPatientMode" is_survey_select_patient_mode: bool,
        "SurveyAdminPin" survey_admin_pin: String,
        "IsHideFutureDatedStudies" is_hide_future_dated_studies: bool,
        "ShowStartSurveyForLatestStudyOnly" show_start_survey_for_latest_study_only: bool,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "PinExpirationSeconds" pin_expiration_seconds: f64,
        "StandaloneRiskEnabled" standalone_risk_enabled: bool,
        "StandaloneRiskDefaultLocation" standalone_risk_default_location: String,
        "StandaloneRiskDefaultProcedure" standalone_risk_default_procedure: String,
        "GenerateSummaryReport" generate_summary_report: bool,
        "SummaryPdfHeaderText" summary_pdf_header_text: String,
        "IsAddPageNumberToSummaryPdf" is_add_page_number_to_summary_pdf: bool,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "PdfPageNumberFontSize" pdf_page_number_font_size: f64,
        "PdfPageNumberAlignment" pdf_page_number_alignment: String,
        "IsAddHeaderToAllPagesToSummaryPdf" is_add_header_to_all_pages_to_summary_pdf: bool,
        "GenerateSummaryFormReport" generate_summary_form_report: bool,
        "SummaryFormPdfTopMargin" summary_form_pdf_top_margin: String,
        "SummaryFormPdfBottomMargin" summary_form_pdf_bottom_margin: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "NciTcThreshold" nci_tc_threshold: f64,
        "IsNciTcAlwaysLoadTc" is_nci_tc_always_load_tc: bool,
        "IsNciTcAlwaysSkipTc" is_nci_tc_always_skip_tc: bool,
        "DefaultSurvey" default_survey: String,
        "IsSurveyPerLocationEnabled" is_survey_per_location_enabled: bool,
        /// Key = location number, Value = survey id.
        "SurveyPerLocation" survey_per_location: Vec<KeyValue>,
        "SearchForPatientUsingAlternateUserIdentifier" search_for_patient_using_alternate_user_identifier: bool,
        "StartSurveyPatientsSearchResultWithoutSsn" start_survey_patients_search_result_without_ssn: bool,
        "LocationToMrnColumnMapping" location_to_mrn_column_mapping: Vec<LocationMrnColumn>,
        // Read by the API from this group for the kiosk's start settings (spec 01 "Survey
        // settings", `api` `routes::survey_start`).
        "IsDisabledAdvancedPatientsSearch" is_disabled_advanced_patients_search: bool,
        "IsDisabledStartSurveyConfirmation" is_disabled_start_survey_confirmation: bool,
        "IsDisabledFinishedTodaySurveysConfirmation" is_disabled_finished_today_surveys_confirmation: bool,
        "LayoutSurveyTitle" layout_survey_title: String,
        "LuminaryOnePatientDetailsSurveyId" luminary_one_patient_details_survey_id: String,
    }
}

impl Default for SurveyGeneral {
    fn default() -> Self {
        SurveyGeneral {
            hide_patient_name_in_survey: false,
            auto_advance_in_survey_enabled: false,
            disable_smart_num_pad: false,
            disable_num_pad_objects_mobile: false,
            disable_num_pad_objects_tablet: false,
            disable_num_pad_objects_desktop: false,
            is_never_expire_pin: false,
            is_ask_path_change_confirmation: false,
            is_store_risk_trigger_disabled_for_survey_submit: false,
            is_store_processing_unaffected_relatives_disabled_for_survey_submit: false,
            is_override_patients_email_addr_value: false,
            is_use_lung_view_home_icon: false,
            is_display_patient_name_and_mrn_on_survey_thank_you_screen: false,
            is_survey_select_patient_mode: false,
            survey_admin_pin: String::new(),
            is_hide_future_dated_studies: false,
            show_start_survey_for_latest_study_only: false,
            // Spec 01 §8: a kiosk PIN is valid 12 hours.
            pin_expiration_seconds: 43_200.0,
            standalone_risk_enabled: false,
            standalone_risk_default_location: String::new(),
            standalone_risk_default_procedure: String::new(),
            generate_summary_report: false,
            summary_pdf_header_text: String::new(),
            is_add_page_number_to_summary_pdf: true,
            pdf_page_number_font_size: 9.0,
            pdf_page_number_alignment: "Center".into(),
            is_add_header_to_all_pages_to_summary_pdf: false,
            generate_summary_form_report: false,
            summary_form_pdf_top_margin: "0".into(),
            summary_form_pdf_bottom_margin: "0".into(),
            nci_tc_threshold: 0.0,
            is_nci_tc_always_load_tc: false,
            is_nci_tc_always_skip_tc: false,
            default_survey: String::new(),
            is_survey_per_location_enabled: true,
            survey_per_location: Vec::new(),
            search_for_patient_using_alternate_user_identifier: false,
            start_survey_patients_search_result_without_ssn: false,
            location_to_mrn_column_mapping: Vec::new(),
            is_disabled_advanced_patients_search: false,
            is_disabled_start_survey_confirmation: false,
            is_disabled_finished_today_surveys_confirmation: false,
            layout_survey_title: String::new(),
            luminary_one_patient_details_survey_id: String::new(),
        }
    }
}

impl SettingsGroup for SurveyGeneral {
    const NAME: &'static str = "SurveyGeneral";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        digit_text(&mut e, "SurveyAdminPin", &self.survey_admin_pin, 6);
        digits(
            &mut e,
            "PinExpirationSeconds",
            self.pin_expiration_seconds,
            None,
        );
        text(
            &mut e,
            "StandaloneRiskDefaultLocation",
            &self.standalone_risk_default_location,
            64,
        );
        text(
            &mut e,
            "StandaloneRiskDefaultProcedure",
            &self.standalone_risk_default_procedure,
            64,
        );
        text(
            &mut e,
            "SummaryPdfHeaderText",
            &self.summary_pdf_header_text,
            500,
        );
        whole(
            &mut e,
            "PdfPageNumberFontSize",
            self.pdf_page_number_font_size,
            Some(1),
            Some(72),
            VALUE_CAN_NOT_BE_DECIMAL,
        );
        one_of(
            &mut e,
            "PdfPageNumberAlignment",
            &self.pdf_page_number_alignment,
            PAGE_NUMBER_ALIGNMENTS,
        );
        for (field, margin) in [
            ("SummaryFormPdfTopMargin", &self.summary_form_pdf_top_margin),
            (
                "SummaryFormPdfBottomMargin",
                &self.summary_form_pdf_bottom_margin,
            ),
        ] {
            if margin
                .trim()
                .parse::<f64>()
                .map_or(true, |m| !m.is_finite())
            {
                e.add(field, ENTER_A_NUMBER);
            } else {
                text(&mut e, field, margin, 6);
            }
        }
        number(
            &mut e,
            "NciTcThreshold",
            self.nci_tc_threshold,
            Some(0),
            Some(100),
        );
        text(&mut e, "DefaultSurvey", &self.default_survey, 128);
        for (i, row) in self.survey_per_location.iter().enumerate() {
            if row.key.trim().is_empty() {
                e.add(&format!("SurveyPerLocation.{i}.Key"), LOCATION_REQUIRED);
            }
            if row.value.trim().is_empty() {
                e.add(
                    &format!("SurveyPerLocation.{i}.Value"),
                    "Survey is required",
                );
            }
        }
        for (i, row) in self.location_to_mrn_column_mapping.iter().enumerate() {
            if row.loc_num.trim().is_empty() {
                e.add(
                    &format!("LocationToMrnColumnMapping.{i}.LocNum"),
                    LOCATION_REQUIRED,
                );
            }
            if row.column.trim().is_empty() {
                e.add(
                    &format!("LocationToMrnColumnMapping.{i}.Column"),
                    COLUMN_REQUIRED,
                );
            }
        }
        text(&mut e, "LayoutSurveyTitle", &self.layout_survey_title, 200);
        text(
            &mut e,
            "LuminaryOnePatientDetailsSurveyId",
            &self.luminary_one_patient_details_survey_id,
            128,
        );
        e
    }
}
