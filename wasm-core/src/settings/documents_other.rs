//! DocumentsOther (spec 03 §3 "DocumentsOther", general-documents "Other Settings": the view
//! date format and the View / Acknowledge button texts). UnreadTabLabel is read by the API from
//! this group too. The API shows its own default where a text is left blank.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

crate::settings_struct! {
    pub struct DocumentsOther {
        /// A date pattern such as 'EEEE, MMMM d, y'.
        "DocViewDateFormat" doc_view_date_format: String,
        "DocViewBtnText" doc_view_btn_text: String,
        "DocAckBtnText" doc_ack_btn_text: String,
        "UnreadTabLabel" unread_tab_label: String,
    }
}

impl Default for DocumentsOther {
    fn default() -> Self {
        // `api` `settings::defaults()`.
        DocumentsOther {
            doc_view_date_format: "EEEE, MMMM d, y".into(),
            doc_view_btn_text: "View".into(),
            doc_ack_btn_text: "Acknowledge".into(),
            unread_tab_label: "Unread Letters".into(),
        }
    }
}

impl SettingsGroup for DocumentsOther {
    const NAME: &'static str = "DocumentsOther";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        text(&mut e, "DocViewDateFormat", &self.doc_view_date_format, 64);
        text(&mut e, "DocViewBtnText", &self.doc_view_btn_text, 100);
        text(&mut e, "DocAckBtnText", &self.doc_ack_btn_text, 100);
        text(&mut e, "UnreadTabLabel", &self.unread_tab_label, 100);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_bounded() {
        let o = DocumentsOther {
            doc_view_date_format: "d".repeat(65),
            ..Default::default()
        };
        assert_eq!(
            o.validate().field("DocViewDateFormat"),
            ["Must be at most 64 characters"]
        );
    }
}
