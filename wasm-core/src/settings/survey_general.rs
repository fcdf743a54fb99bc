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
/// A mapping row naming a column the store does not hold (spec 04 §5 "Inactive columns cannot
/// be chosen"; the page shows them with [`NOT_FOUND_SUFFIX`]).
pub const COLUMN_INACTIVE: &str = "This column is not found";
pub const NOT_FOUND_SUFFIX: &str = " (Not found)";

/// The alternate identifier columns a location may map to its MRN
/// (`CheckForAvailableAlternateIdentifierColumns` reports which of them the store holds).
pub const ALTERNATE_IDENTIFIER_COLUMNS: &[&str] =
    &["MRN2", "MRN3", "OtherPatientId", "InsuranceMemberId"];
/// The sides a procedure may ask for (GetAllProcedures' Sides: Code, Name).
pub const SIDES: &[(&str, &str)] = &[("L", "Left"), ("R", "Right"), ("B", "Bilateral")];

/// The summary PDF options (spec 04 §2: shown only with GenerateSummaryReport).
pub const PDF_FIELDS: &[&str] = &[
    "SummaryPdfHeaderText",
    "IsAddPageNumberToSummaryPdf",
    "PdfPageNumberFontSize",
    "PdfPageNumberAlignment",
    "IsAddHeaderToAllPagesToSummaryPdf",
];
pub const STANDALONE_FIELDS: &[&str] = &[
    "StandaloneRiskDefaultLocation",
    "StandaloneRiskDefaultProcedure",
    "StandaloneRiskDefaultSide",
];

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
        /// The side of the default procedure (a `Sides` code), only for a procedure that asks
        /// for one (spec 04 §2).
        "StandaloneRiskDefaultSide" standalone_risk_default_side: String,
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
            standalone_risk_default_side: String::new(),
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

    /// Spec 04 §2 "Fields appear or disappear": the standalone defaults only with
    /// StandaloneRiskEnabled, the PDF options only with GenerateSummaryReport (the page number's
    /// font and alignment only with page numbers on), the margins only with
    /// GenerateSummaryFormReport, the per-location list only with IsSurveyPerLocationEnabled, the
    /// PIN lifetime only while PINs expire.
    fn hidden(&self) -> Vec<&'static str> {
        let mut hidden = Vec::new();
        if !self.standalone_risk_enabled {
            hidden.extend(STANDALONE_FIELDS);
        }
        if !self.generate_summary_report {
            hidden.extend(PDF_FIELDS);
        } else if !self.is_add_page_number_to_summary_pdf {
            hidden.extend(["PdfPageNumberFontSize", "PdfPageNumberAlignment"]);
        }
        if !self.generate_summary_form_report {
            hidden.extend(["SummaryFormPdfTopMargin", "SummaryFormPdfBottomMargin"]);
        }
        if !self.is_survey_per_location_enabled {
            hidden.push("SurveyPerLocation");
        }
        if self.is_never_expire_pin {
            hidden.push("PinExpirationSeconds");
        }
        hidden
    }

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        let hidden = self.hidden();
        digit_text(&mut e, "SurveyAdminPin", &self.survey_admin_pin, 6);
        if !hidden.contains(&"PinExpirationSeconds") {
            digits(
                &mut e,
                "PinExpirationSeconds",
                self.pin_expiration_seconds,
                None,
            );
        }
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
        if !hidden.contains(&"PdfPageNumberFontSize") {
            whole(
                &mut e,
                "PdfPageNumberFontSize",
                self.pdf_page_number_font_size,
                Some(1),
                Some(72),
                VALUE_CAN_NOT_BE_DECIMAL,
            );
        }
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
            if hidden.contains(&field) {
                continue;
            }
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
        let side = self.standalone_risk_default_side.trim();
        if !side.is_empty() && !SIDES.iter().any(|(code, _)| *code == side) {
            let codes: Vec<&str> = SIDES.iter().map(|(code, _)| *code).collect();
            one_of(&mut e, "StandaloneRiskDefaultSide", side, &codes);
        }
        let per_location = if hidden.contains(&"SurveyPerLocation") {
            &[][..]
        } else {
            &self.survey_per_location[..]
        };
        for (i, row) in per_location.iter().enumerate() {
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

/// Mapping rows that name a column the store does not hold (spec 04 §5 "Inactive columns
/// cannot be chosen"). `columns` is `CheckForAvailableAlternateIdentifierColumns`' answer: column
/// name -> the found column's name, empty when not found.
pub fn inactive_mapping_errors(
    rows: &[LocationMrnColumn],
    columns: &std::collections::BTreeMap<String, String>,
) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    for (i, row) in rows.iter().enumerate() {
        let column = row.column.trim();
        if !column.is_empty() && columns.get(column).is_none_or(|found| found.is_empty()) {
            e.add(
                &format!("LocationToMrnColumnMapping.{i}.Column"),
                COLUMN_INACTIVE,
            );
        }
    }
    e
}

/// Whether a survey definition asks for relatives (a table stored in `family_history.*`).
pub fn has_family_tree(def: &crate::model::SurveyDefinition) -> bool {
    def.pages.iter().flat_map(|p| &p.questions).any(|q| {
        q.kind == crate::model::QuestionKind::Table && q.storage.starts_with("family_history.")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(g: &SurveyGeneral) -> Vec<(String, Vec<String>)> {
        g.validate().0.into_iter().collect()
    }

    #[test]
    fn spec_limits() {
        let mut g = SurveyGeneral {
            survey_admin_pin: "1234567".into(),
            pin_expiration_seconds: f64::NAN,
            generate_summary_report: true,
            pdf_page_number_font_size: 0.0,
            pdf_page_number_alignment: "Middle".into(),
            generate_summary_form_report: true,
            summary_form_pdf_top_margin: "abc".into(),
            summary_form_pdf_bottom_margin: "1234567".into(),
            ..SurveyGeneral::default()
        };
        let found = errors(&g);
        let fields: Vec<&str> = found.iter().map(|(f, _)| f.as_str()).collect();
        assert!(fields.contains(&"SurveyAdminPin"));
        assert!(fields.contains(&"PinExpirationSeconds"));
        assert!(fields.contains(&"PdfPageNumberFontSize"));
        assert!(fields.contains(&"PdfPageNumberAlignment"));
        assert!(fields.contains(&"SummaryFormPdfTopMargin"));
        assert!(fields.contains(&"SummaryFormPdfBottomMargin"));
        g.survey_admin_pin = "123456".into();
        g.pin_expiration_seconds = 600.0;
        g.pdf_page_number_font_size = 1.0;
        g.pdf_page_number_alignment = "Justify".into();
        g.summary_form_pdf_top_margin = "12.5".into();
        g.summary_form_pdf_bottom_margin = "123456".into();
        assert!(g.validate().is_valid(), "{:?}", errors(&g));
        for a in PAGE_NUMBER_ALIGNMENTS {
            g.pdf_page_number_alignment = (*a).into();
            assert!(g.validate().is_valid());
        }
    }

    #[test]
    fn fields_follow_their_switches() {
        let mut g = SurveyGeneral {
            is_survey_per_location_enabled: false,
            ..SurveyGeneral::default()
        };
        let hidden = g.hidden();
        for f in STANDALONE_FIELDS.iter().chain(PDF_FIELDS) {
            assert!(hidden.contains(f), "{f}");
        }
        assert!(hidden.contains(&"SurveyPerLocation"));
        assert!(!hidden.contains(&"PinExpirationSeconds"));
        g.standalone_risk_enabled = true;
        g.generate_summary_report = true;
        g.is_survey_per_location_enabled = true;
        g.is_never_expire_pin = true;
        let hidden = g.hidden();
        assert!(!hidden.contains(&"StandaloneRiskDefaultProcedure"));
        assert!(!hidden.contains(&"PdfPageNumberAlignment"));
        assert!(!hidden.contains(&"SurveyPerLocation"));
        assert!(hidden.contains(&"PinExpirationSeconds"));
        g.is_add_page_number_to_summary_pdf = false;
        assert!(g.hidden().contains(&"PdfPageNumberFontSize"));
        assert!(!g.hidden().contains(&"SummaryPdfHeaderText"));
        // A hidden field is not checked: an empty PIN lifetime is fine when PINs never expire.
        g.pin_expiration_seconds = f64::NAN;
        assert!(g.validate().is_valid());
    }

    #[test]
    fn mapping_rows() {
        let g = SurveyGeneral {
            location_to_mrn_column_mapping: vec![
                LocationMrnColumn {
                    loc_num: String::new(),
                    column: String::new(),
                },
                LocationMrnColumn {
                    loc_num: "1".into(),
                    column: "MRN2".into(),
                },
            ],
            ..SurveyGeneral::default()
        };
        let e = g.validate();
        assert_eq!(
            e.field("LocationToMrnColumnMapping.0.LocNum"),
            [LOCATION_REQUIRED]
        );
        assert_eq!(
            e.field("LocationToMrnColumnMapping.0.Column"),
            [COLUMN_REQUIRED]
        );
        let mut columns = std::collections::BTreeMap::new();
        columns.insert("MRN2".to_owned(), String::new());
        let e = inactive_mapping_errors(&g.location_to_mrn_column_mapping, &columns);
        assert_eq!(
            e.field("LocationToMrnColumnMapping.1.Column"),
            [COLUMN_INACTIVE]
        );
        columns.insert("MRN2".to_owned(), "MRN2".to_owned());
        assert!(inactive_mapping_errors(&g.location_to_mrn_column_mapping, &columns).is_valid());
    }
}
