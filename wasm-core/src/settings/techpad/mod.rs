//! The techpad settings groups (spec 04 §3 "Techpad general settings", "Other techpad settings
//! groups"): one group per category of `/api/techpadSettings/{category}` (§7), named "Techpad" +
//! category. Where a category's settings object is a list, the group holds that list under the
//! spec's name.

pub mod canned_notes;
pub mod comments_settings;
pub mod diagram_settings;
pub mod exam_actions;
pub mod exam_dynamic_labels;
pub mod exam_tabs_aliases;
pub mod general;
pub mod maglink_events;
pub mod pdf_forms;
pub mod perform_exam_button_aliases;
pub mod resources;
pub mod status_aliases;
pub mod storage;
pub mod tags;
pub mod worklist_sorting;

use crate::settings::checks::text;
use crate::ValidationErrors;

/// Spec 04 §7: category (the path segment) -> settings group name.
pub const TECHPAD_CATEGORIES: &[(&str, &str)] = &[
    ("General", "TechpadGeneral"),
    ("MaglinkEvents", "TechpadMaglinkEvents"),
    ("ExamActions", "TechpadExamActions"),
    ("CommentsSettings", "TechpadCommentsSettings"),
    ("DiagramSettings", "TechpadDiagramSettings"),
    ("WorklistSorting", "TechpadWorklistSorting"),
    (
        "DynamicLabelsPerformExamButtonAliases",
        "TechpadDynamicLabelsPerformExamButtonAliases",
    ),
    (
        "DynamicLabelsExamTabsAliases",
        "TechpadDynamicLabelsExamTabsAliases",
    ),
    ("StatusAliases", "TechpadStatusAliases"),
    ("Tags", "TechpadTags"),
    ("Resources", "TechpadResources"),
    ("ExamDynamicLabels", "TechpadExamDynamicLabels"),
    ("CannedNotes", "TechpadCannedNotes"),
];

/// The settings group of a techpad category (compared without case, as the server's routes
/// are); None for an unknown category.
pub fn techpad_group(category: &str) -> Option<&'static str> {
    TECHPAD_CATEGORIES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(category))
        .map(|(_, group)| *group)
}

/// Longest label or alias in the techpad lists.
pub const LABEL_MAX: usize = 100;

crate::settings_struct! {
    /// A Label/Value row (dynamic labels, aliases, tags).
    #[derive(Default)]
    pub struct LabelValue {
        "Label" label: String,
        "Value" value: String,
    }
}

/// Bounds every row of `rows` (list field `list`): Label at most [`LABEL_MAX`], Value at most
/// `value_max`.
pub(crate) fn label_values(
    e: &mut ValidationErrors,
    list: &str,
    rows: &[LabelValue],
    value_max: usize,
) {
    for (i, row) in rows.iter().enumerate() {
        text(e, &format!("{list}.{i}.Label"), &row.label, LABEL_MAX);
        text(e, &format!("{list}.{i}.Value"), &row.value, value_max);
    }
}

/// Appends a row (Value = the name, Label = `label(name)`) for every one of `names` that no row
/// of `rows` holds yet (lists whose names are fixed: the exam tabs, the exam labels).
pub(crate) fn fill_fixed_rows(
    rows: &mut Vec<LabelValue>,
    names: &[&str],
    label: impl Fn(&str) -> String,
) {
    for name in names {
        if !rows.iter().any(|r| r.value == *name) {
            rows.push(LabelValue {
                label: label(name),
                value: (*name).to_owned(),
            });
        }
    }
}

/// 'IsUpdateStudyOnEndExam' -> 'Is Update Study On End Exam' (exam dynamic label names are shown
/// split at capital letters, §2); a run of capitals stays together ('ShowRISHold' -> 'Show RIS
/// Hold').
pub fn split_at_capitals(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 && c.is_uppercase() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push(' ');
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::GROUP_NAMES;

    #[test]
    fn every_category_is_a_group() {
        assert_eq!(TECHPAD_CATEGORIES.len(), 13);
        for (category, group) in TECHPAD_CATEGORIES {
            assert!(GROUP_NAMES.contains(group), "{group}");
            assert_eq!(*group, format!("Techpad{category}"));
        }
        assert_eq!(techpad_group("general"), Some("TechpadGeneral"));
        assert_eq!(techpad_group("CannedNotes"), Some("TechpadCannedNotes"));
        // PDF forms are a list of files, not a settings group (`pdf_forms`, their own calls).
        assert_eq!(techpad_group("PdfForms"), None);
    }

    #[test]
    fn names_split_at_capitals() {
        assert_eq!(split_at_capitals("PerformExam"), "Perform Exam");
        assert_eq!(split_at_capitals("ShowRISHold"), "Show RIS Hold");
        assert_eq!(split_at_capitals("exam"), "exam");
        assert_eq!(split_at_capitals(""), "");
        assert_eq!(split_at_capitals("Step2Done"), "Step2 Done");
    }

    #[test]
    fn label_value_rows_are_bounded() {
        let mut e = ValidationErrors::new();
        let rows = [LabelValue {
            label: "l".repeat(LABEL_MAX + 1),
            value: "ok".into(),
        }];
        label_values(&mut e, "Tags", &rows, 10);
        assert_eq!(e.field("Tags.0.Label"), ["Must be at most 100 characters"]);
        assert!(e.field("Tags.0.Value").is_empty());
    }
}
