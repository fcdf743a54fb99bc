//! TechpadExamDynamicLabels (spec 04 §3 "Dynamic labels", §2): Label/Value rows whose name
//! (Value) is fixed, shown split at capital letters (`techpad::split_at_capitals`), and whose
//! alias (Label) is edited. The spec does not list the names: the defaults are the exam screen's
//! buttons and pickers that the general settings name ([`EXAM_LABEL_NAMES`]), each labelled with
//! its split name; a missing one is filled in (`normalize`). Other stored names are kept.

use super::super::SettingsGroup;
use super::{fill_fixed_rows, label_values, split_at_capitals, LabelValue, LABEL_MAX};
use crate::ValidationErrors;

/// The exam screen's labels (HideStartAndEndButtons, HideSkipAndStartButtons,
/// ShowSelectSecondTechnologist, ShowSelectThirdTechnologist, IsUpdateStudyOnMarkAsCompleted).
pub const EXAM_LABEL_NAMES: &[&str] = &[
    "PerformExam",
    "StartExam",
    "EndExam",
    "SkipExam",
    "MarkAsCompleted",
    "SecondTechnologist",
    "ThirdTechnologist",
];

crate::settings_struct! {
    /// Defaults: one row per [`EXAM_LABEL_NAMES`].
    pub struct TechpadExamDynamicLabels {
        "ExamDynamicLabels" exam_dynamic_labels: Vec<LabelValue>,
    }
}

impl Default for TechpadExamDynamicLabels {
    fn default() -> Self {
        let mut rows = Vec::new();
        fill_fixed_rows(&mut rows, EXAM_LABEL_NAMES, split_at_capitals);
        TechpadExamDynamicLabels {
            exam_dynamic_labels: rows,
        }
    }
}

impl SettingsGroup for TechpadExamDynamicLabels {
    const NAME: &'static str = "TechpadExamDynamicLabels";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        label_values(
            &mut e,
            "ExamDynamicLabels",
            &self.exam_dynamic_labels,
            LABEL_MAX,
        );
        e
    }

    fn normalize(&mut self) {
        fill_fixed_rows(
            &mut self.exam_dynamic_labels,
            EXAM_LABEL_NAMES,
            split_at_capitals,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_bounded_and_missing_names_filled_in() {
        let mut s = TechpadExamDynamicLabels {
            exam_dynamic_labels: vec![LabelValue {
                label: "l".repeat(LABEL_MAX + 1),
                value: "BreastDensity".into(),
            }],
        };
        assert_eq!(
            s.validate().field("ExamDynamicLabels.0.Label"),
            ["Must be at most 100 characters"]
        );
        s.normalize();
        assert_eq!(s.exam_dynamic_labels.len(), 1 + EXAM_LABEL_NAMES.len());
        assert_eq!(s.exam_dynamic_labels[1].label, "Perform Exam");
        assert_eq!(s.exam_dynamic_labels[1].value, "PerformExam");
    }
}
