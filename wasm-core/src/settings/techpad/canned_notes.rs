//! TechpadCannedNotes (spec 04 §3 "Canned notes", §5, §8, §9): ready-made notes, each in a
//! category (CommentId = the Id of a comments-settings row). Every note needs a name and a value;
//! at most 8 notes may share a category, and the notes past the eighth carry the limit error
//! (as does the list). A note without a category is not counted against any.

use super::super::checks::*;
use super::super::SettingsGroup;
use crate::ValidationErrors;

/// Spec 04 §9.
pub const MAX_NOTES_PER_CATEGORY: usize = 8;
pub const NOTE_NAME_REQUIRED: &str = "Name is required";
pub const NOTE_VALUE_REQUIRED: &str = "Value is required";
pub const TOO_MANY_NOTES_IN_CATEGORY: &str = "At most 8 notes can share a category";
/// Longest note name.
pub const NOTE_NAME_MAX: usize = 100;

crate::settings_struct! {
    #[derive(Default)]
    pub struct CannedNote {
        /// Empty (NaN) for a note not saved yet.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "Id" id: f64,
        "Name" name: String,
        "Value" value: String,
        /// The Id of the comments-settings row (category); empty for none.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "CommentId" comment_id: f64,
    }
}

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadCannedNotes {
        "CannedNotes" canned_notes: Vec<CannedNote>,
    }
}

impl SettingsGroup for TechpadCannedNotes {
    const NAME: &'static str = "TechpadCannedNotes";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        let mut over_limit = false;
        for (i, note) in self.canned_notes.iter().enumerate() {
            let at = |field: &str| format!("CannedNotes.{i}.{field}");
            required_text(
                &mut e,
                &at("Name"),
                &note.name,
                NOTE_NAME_MAX,
                Some(NOTE_NAME_REQUIRED),
            );
            required_text(
                &mut e,
                &at("Value"),
                &note.value,
                TEXT_MAX,
                Some(NOTE_VALUE_REQUIRED),
            );
            if note.comment_id.is_finite() {
                let before = self.canned_notes[..i]
                    .iter()
                    .filter(|n| n.comment_id == note.comment_id)
                    .count();
                if before >= MAX_NOTES_PER_CATEGORY {
                    e.add(&at("CommentId"), TOO_MANY_NOTES_IN_CATEGORY);
                    over_limit = true;
                }
            }
        }
        if over_limit {
            e.add("CannedNotes", TOO_MANY_NOTES_IN_CATEGORY);
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(comment_id: f64) -> CannedNote {
        CannedNote {
            id: f64::NAN,
            name: "Normal".into(),
            value: "No changes since the prior exam.".into(),
            comment_id,
        }
    }

    #[test]
    fn every_note_needs_a_name_and_a_value() {
        let mut n = note(1.0);
        n.name = " ".into();
        n.value = String::new();
        let s = TechpadCannedNotes {
            canned_notes: vec![note(1.0), n],
        };
        let e = s.validate();
        assert_eq!(e.field("CannedNotes.1.Name"), [NOTE_NAME_REQUIRED]);
        assert_eq!(e.field("CannedNotes.1.Value"), [NOTE_VALUE_REQUIRED]);
        assert_eq!(e.0.len(), 2);
    }

    #[test]
    fn at_most_eight_notes_per_category() {
        let mut notes: Vec<CannedNote> = (0..8).map(|_| note(1.0)).collect();
        notes.extend((0..8).map(|_| note(2.0)));
        notes.extend((0..10).map(|_| note(f64::NAN)));
        let mut s = TechpadCannedNotes {
            canned_notes: notes,
        };
        assert!(s.validate().is_valid(), "{:?}", s.validate());
        s.canned_notes.push(note(2.0));
        let e = s.validate();
        assert_eq!(e.field("CannedNotes"), [TOO_MANY_NOTES_IN_CATEGORY]);
        assert_eq!(
            e.field("CannedNotes.26.CommentId"),
            [TOO_MANY_NOTES_IN_CATEGORY]
        );
        assert_eq!(e.0.len(), 2);
    }
}
