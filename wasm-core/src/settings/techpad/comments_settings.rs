//! TechpadCommentsSettings (spec 04 §3 "Comments settings"): the comment rows of the techpad
//! (Title, the storage Table and Field it is kept in, read-only flag). The rows are also the
//! canned-note categories (`canned_notes`, CommentId = a row's Id). The spec gives no rule;
//! texts are bounded and an Id is a whole number used once; a new row is given the next one.

use super::super::checks::*;
use super::super::SettingsGroup;
use crate::ValidationErrors;

/// Longest comment title.
pub const TITLE_MAX: usize = 100;
/// Longest storage table or field name.
pub const STORAGE_NAME_MAX: usize = 128;
pub const DUPLICATE_ID: &str = "Another comment has this Id";

crate::settings_struct! {
    #[derive(Default)]
    pub struct CommentSetting {
        /// Empty (NaN) for a row not saved yet.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "Id" id: f64,
        /// Shown with the placeholder 'New comment'.
        "Title" title: String,
        "Table" table: String,
        "Field" field: String,
        "IsReadonly" is_readonly: bool,
    }
}

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadCommentsSettings {
        "CommentsSettings" comments_settings: Vec<CommentSetting>,
    }
}

impl SettingsGroup for TechpadCommentsSettings {
    const NAME: &'static str = "TechpadCommentsSettings";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (i, row) in self.comments_settings.iter().enumerate() {
            let at = |field: &str| format!("CommentsSettings.{i}.{field}");
            if row.id.is_finite()
                && digits(&mut e, &at("Id"), row.id, None)
                && self.comments_settings[..i].iter().any(|r| r.id == row.id)
            {
                e.add(&at("Id"), DUPLICATE_ID);
            }
            text(&mut e, &at("Title"), &row.title, TITLE_MAX);
            text(&mut e, &at("Table"), &row.table, STORAGE_NAME_MAX);
            text(&mut e, &at("Field"), &row.field, STORAGE_NAME_MAX);
        }
        e
    }

    /// A row without an Id (a new one) gets the next free whole number, so canned notes can name
    /// it as their category (CommentId) once saved.
    fn normalize(&mut self) {
        let mut next = self
            .comments_settings
            .iter()
            .filter(|r| r.id.is_finite())
            .map(|r| r.id)
            .fold(0.0_f64, f64::max)
            .floor()
            + 1.0;
        for row in &mut self.comments_settings {
            if !row.id.is_finite() {
                row.id = next;
                next += 1.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: f64) -> CommentSetting {
        CommentSetting {
            id,
            title: "Tech notes".into(),
            table: "Study".into(),
            field: "TechComment".into(),
            is_readonly: false,
        }
    }

    #[test]
    fn new_rows_get_the_next_ids() {
        let mut s = TechpadCommentsSettings {
            comments_settings: vec![row(f64::NAN), row(4.0), row(f64::NAN)],
        };
        s.normalize();
        let ids: Vec<f64> = s.comments_settings.iter().map(|r| r.id).collect();
        assert_eq!(ids, [5.0, 4.0, 6.0]);
    }

    #[test]
    fn ids_are_whole_and_used_once_and_texts_bounded() {
        let mut long = row(3.0);
        long.title = "t".repeat(TITLE_MAX + 1);
        let s = TechpadCommentsSettings {
            comments_settings: vec![row(1.0), row(1.0), row(1.5), row(f64::NAN), long],
        };
        let e = s.validate();
        assert!(e.field("CommentsSettings.0.Id").is_empty());
        assert_eq!(e.field("CommentsSettings.1.Id"), [DUPLICATE_ID]);
        assert_eq!(e.field("CommentsSettings.2.Id"), [DIGITS_ONLY]);
        assert!(e.field("CommentsSettings.3.Id").is_empty());
        assert_eq!(
            e.field("CommentsSettings.4.Title"),
            ["Must be at most 100 characters"]
        );
    }
}
