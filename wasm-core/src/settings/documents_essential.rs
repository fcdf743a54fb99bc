//! DocumentsEssential (spec 03 §3 "DocumentsEssential", "Documents Settings > general-documents:
//! Essential Settings"; §4 "Field visibility": the ack delay shows only with ACKOnView, the
//! compact-view description only with UCSDMode, Show RSeq with document type only with
//! DisableRSeqRDateGrouping; §5 "Documents forms": the ack delay applies only with ACKOnView).
//! ShowDateWhenSentColumn and IsTraceEnabled are read by the API from this group too.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// The longest ack delay the API honours (seconds; it clamps to 0..=3600).
pub const ACK_ON_VIEW_DELAY_MAX: i32 = 3600;
pub const LOCATION_NUMBER_REQUIRED: &str = "Location number is required";

crate::settings_struct! {
    pub struct DocumentsEssential {
        "ShowOtherDocumentsTab" show_other_documents_tab: bool,
        "ShowDoctorLettersToPatients" show_doctor_letters_to_patients: bool,
        "ShowReferringPhysicianLettersWithOtherDocuments" show_referring_physician_letters_with_other_documents: bool,
        "DisableRSeqRDateGrouping" disable_r_seq_r_date_grouping: bool,
        "DocumentsIsShowRSeqWithDocType" documents_is_show_r_seq_with_doc_type: bool,
        "ACKOnView" ack_on_view: bool,
        /// Seconds.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "AckOnViewDelay" ack_on_view_delay: f64,
        /// Location numbers (LocNum, text like the rest of the portal).
        #[serde(deserialize_with = "crate::settings::text::lenient_list")] "DisabledResultsPortalLocations" disabled_results_portal_locations: Vec<String>,
        "CombineDocViewAndReadColumns" combine_doc_view_and_read_columns: bool,
        "ShowReadColumn" show_read_column: bool,
        "ShowAckWhenDisabled" show_ack_when_disabled: bool,
        "ShowPatNameColumn" show_pat_name_column: bool,
        "ShowStudyDescColumn" show_study_desc_column: bool,
        "ShowNotifTypeColumn" show_notif_type_column: bool,
        "ShowAckColumn" show_ack_column: bool,
        "ShowStudyDateColumn" show_study_date_column: bool,
        "ShowDateWhenSentColumn" show_date_when_sent_column: bool,
        "IsTraceEnabled" is_trace_enabled: bool,
        /// The compact view.
        "UCSDMode" ucsd_mode: bool,
        "CompactViewDocumentsDescription" compact_view_documents_description: String,
    }
}

impl Default for DocumentsEssential {
    fn default() -> Self {
        // `api` `settings::defaults()`.
        DocumentsEssential {
            show_other_documents_tab: true,
            show_doctor_letters_to_patients: false,
            show_referring_physician_letters_with_other_documents: false,
            disable_r_seq_r_date_grouping: false,
            documents_is_show_r_seq_with_doc_type: false,
            ack_on_view: false,
            ack_on_view_delay: 5.0,
            disabled_results_portal_locations: Vec::new(),
            combine_doc_view_and_read_columns: false,
            show_read_column: true,
            show_ack_when_disabled: true,
            show_pat_name_column: false,
            show_study_desc_column: true,
            show_notif_type_column: false,
            show_ack_column: true,
            show_study_date_column: true,
            show_date_when_sent_column: true,
            is_trace_enabled: false,
            ucsd_mode: false,
            compact_view_documents_description: String::new(),
        }
    }
}

/// Which dependent fields the Essential Settings form shows (spec 03 §4 "Field visibility").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EssentialVisibility {
    pub ack_on_view_delay: bool,
    pub compact_view_documents_description: bool,
    pub documents_is_show_r_seq_with_doc_type: bool,
}

impl DocumentsEssential {
    pub fn visibility(&self) -> EssentialVisibility {
        EssentialVisibility {
            ack_on_view_delay: self.ack_on_view,
            compact_view_documents_description: self.ucsd_mode,
            documents_is_show_r_seq_with_doc_type: self.disable_r_seq_r_date_grouping,
        }
    }
}

impl SettingsGroup for DocumentsEssential {
    const NAME: &'static str = "DocumentsEssential";

    /// Spec 03 §4 "Field visibility" (from [`DocumentsEssential::visibility`]).
    fn hidden(&self) -> Vec<&'static str> {
        let v = self.visibility();
        let mut hidden = Vec::new();
        if !v.ack_on_view_delay {
            hidden.push("AckOnViewDelay");
        }
        if !v.compact_view_documents_description {
            hidden.push("CompactViewDocumentsDescription");
        }
        if !v.documents_is_show_r_seq_with_doc_type {
            hidden.push("DocumentsIsShowRSeqWithDocType");
        }
        hidden
    }

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        // A hidden field is not checked: the delay applies only with ACKOnView on.
        if self.ack_on_view {
            whole(
                &mut e,
                "AckOnViewDelay",
                self.ack_on_view_delay,
                Some(0),
                Some(ACK_ON_VIEW_DELAY_MAX),
                VALUE_CAN_NOT_BE_DECIMAL,
            );
        }
        for (i, loc) in self.disabled_results_portal_locations.iter().enumerate() {
            let field = format!("DisabledResultsPortalLocations.{i}");
            if loc.trim().is_empty() {
                e.add(&field, LOCATION_NUMBER_REQUIRED);
            } else {
                text(&mut e, &field, loc, 32);
            }
        }
        text(
            &mut e,
            "CompactViewDocumentsDescription",
            &self.compact_view_documents_description,
            TEXT_MAX,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visibility_follows_the_switches() {
        let d = DocumentsEssential::default();
        assert_eq!(
            d.visibility(),
            EssentialVisibility {
                ack_on_view_delay: false,
                compact_view_documents_description: false,
                documents_is_show_r_seq_with_doc_type: false
            }
        );
        let on = DocumentsEssential {
            ack_on_view: true,
            ucsd_mode: true,
            disable_r_seq_r_date_grouping: true,
            ..Default::default()
        };
        assert_eq!(
            on.visibility(),
            EssentialVisibility {
                ack_on_view_delay: true,
                compact_view_documents_description: true,
                documents_is_show_r_seq_with_doc_type: true
            }
        );
    }

    #[test]
    fn ack_delay_checked_only_with_ack_on_view() {
        let off = DocumentsEssential {
            ack_on_view_delay: 1.5,
            ..Default::default()
        };
        assert!(off.validate().is_valid());
        let on = DocumentsEssential {
            ack_on_view: true,
            ..off
        };
        assert_eq!(
            on.validate().field("AckOnViewDelay"),
            [VALUE_CAN_NOT_BE_DECIMAL]
        );
        let locs = DocumentsEssential {
            disabled_results_portal_locations: vec!["102".into(), " ".into()],
            ..Default::default()
        };
        assert_eq!(
            locs.validate().field("DisabledResultsPortalLocations.1"),
            [LOCATION_NUMBER_REQUIRED]
        );
    }
}
