//! TechpadExamDynamicLabels (spec 04 §3 "Dynamic labels", §2): Label/Value rows whose name is
//! fixed (shown split at capital letters, `techpad::split_at_capitals`) and whose alias is
//! edited. As for the tab aliases the spec does not say which field holds the name; the default
//! is empty and both texts are bounded.

use super::super::SettingsGroup;
use super::{label_values, LabelValue, LABEL_MAX};
use crate::ValidationErrors;

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadExamDynamicLabels {
        "ExamDynamicLabels" exam_dynamic_labels: Vec<LabelValue>,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_bounded() {
        let s = TechpadExamDynamicLabels {
            exam_dynamic_labels: vec![LabelValue {
                label: "l".repeat(LABEL_MAX + 1),
                value: "BreastDensity".into(),
            }],
        };
        assert_eq!(
            s.validate().field("ExamDynamicLabels.0.Label"),
            ["Must be at most 100 characters"]
        );
    }
}
