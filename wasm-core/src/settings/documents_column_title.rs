//! DocumentsColumnTitle (spec 03 §3 "DocumentsColumnTitle", general-documents "Column Titles").
//! The API shows its own default where a title is left blank, so none is required.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// The longest column title.
pub const TITLE_MAX: usize = 100;

crate::settings_struct! {
    pub struct DocumentsColumnTitle {
        "DocPatNameColumnTitle" doc_pat_name_column_title: String,
        "DocViewColumnTitle" doc_view_column_title: String,
        "DocViewWhenColumnTitle" doc_view_when_column_title: String,
        "DocStudyDateColTitle" doc_study_date_col_title: String,
        "DocStudyDescColTitle" doc_study_desc_col_title: String,
        "DocTypeColumnTitle" doc_type_column_title: String,
        "DocNotifTypeColumnTitle" doc_notif_type_column_title: String,
        "DocReadColumnTitle" doc_read_column_title: String,
        "DocAckColumnTitle" doc_ack_column_title: String,
        "OtherDocDateColTitle" other_doc_date_col_title: String,
    }
}

impl Default for DocumentsColumnTitle {
    fn default() -> Self {
        // `api` `settings::defaults()` (spec 01 §2.3 default texts).
        DocumentsColumnTitle {
            doc_pat_name_column_title: "Patient Name".into(),
            doc_view_column_title: "View".into(),
            doc_view_when_column_title: "Date Sent".into(),
            doc_study_date_col_title: "Study Date".into(),
            doc_study_desc_col_title: "Study Description".into(),
            doc_type_column_title: "Letter Type".into(),
            doc_notif_type_column_title: "Sent By".into(),
            doc_read_column_title: "Read".into(),
            doc_ack_column_title: "Acknowledged".into(),
            other_doc_date_col_title: "Date".into(),
        }
    }
}

impl SettingsGroup for DocumentsColumnTitle {
    const NAME: &'static str = "DocumentsColumnTitle";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (field, value) in [
            ("DocPatNameColumnTitle", &self.doc_pat_name_column_title),
            ("DocViewColumnTitle", &self.doc_view_column_title),
            ("DocViewWhenColumnTitle", &self.doc_view_when_column_title),
            ("DocStudyDateColTitle", &self.doc_study_date_col_title),
            ("DocStudyDescColTitle", &self.doc_study_desc_col_title),
            ("DocTypeColumnTitle", &self.doc_type_column_title),
            ("DocNotifTypeColumnTitle", &self.doc_notif_type_column_title),
            ("DocReadColumnTitle", &self.doc_read_column_title),
            ("DocAckColumnTitle", &self.doc_ack_column_title),
            ("OtherDocDateColTitle", &self.other_doc_date_col_title),
        ] {
            text(&mut e, field, value, TITLE_MAX);
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_bounded() {
        let t = DocumentsColumnTitle {
            doc_ack_column_title: "a".repeat(TITLE_MAX + 1),
            doc_view_column_title: String::new(),
            ..Default::default()
        };
        let e = t.validate();
        assert_eq!(
            e.field("DocAckColumnTitle"),
            ["Must be at most 100 characters"]
        );
        assert!(e.field("DocViewColumnTitle").is_empty());
    }
}
