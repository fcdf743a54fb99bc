//! DocumentsAlternateDocumentTypeDescription (spec 03 §3 "Alternate document descriptions",
//! general-documents "Alternate Document Types Descriptions"): what the patient sees instead of
//! the referring physician, notification and recall letter types. Empty = the type's own name.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// The longest description.
pub const DESCRIPTION_MAX: usize = 200;

crate::settings_struct! {
    /// Every field empty or off by default.
    #[derive(Default)]
    pub struct DocumentsAlternateDocumentTypeDescription {
        "AltDocDescRP" alt_doc_desc_rp: String,
        "AltDocDescNotification" alt_doc_desc_notification: String,
        "AltDocDescRecall" alt_doc_desc_recall: String,
    }
}

impl SettingsGroup for DocumentsAlternateDocumentTypeDescription {
    const NAME: &'static str = "DocumentsAlternateDocumentTypeDescription";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        text(
            &mut e,
            "AltDocDescRP",
            &self.alt_doc_desc_rp,
            DESCRIPTION_MAX,
        );
        text(
            &mut e,
            "AltDocDescNotification",
            &self.alt_doc_desc_notification,
            DESCRIPTION_MAX,
        );
        text(
            &mut e,
            "AltDocDescRecall",
            &self.alt_doc_desc_recall,
            DESCRIPTION_MAX,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_bounded() {
        let d = DocumentsAlternateDocumentTypeDescription {
            alt_doc_desc_recall: "r".repeat(DESCRIPTION_MAX + 1),
            ..Default::default()
        };
        assert_eq!(
            d.validate().field("AltDocDescRecall"),
            ["Must be at most 200 characters"]
        );
    }
}
