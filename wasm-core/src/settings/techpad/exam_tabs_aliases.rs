//! TechpadDynamicLabelsExamTabsAliases (spec 04 §3 "Dynamic labels", §2): the exam tabs'
//! aliases, Label/Value rows whose tab is fixed and whose alias is edited. The spec does not say
//! which of Label and Value holds the tab, nor the stored rows of a new install: the default is
//! empty and both texts are bounded.

use super::super::SettingsGroup;
use super::{label_values, LabelValue, LABEL_MAX};
use crate::ValidationErrors;

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadDynamicLabelsExamTabsAliases {
        "ExamTabsAliases" exam_tabs_aliases: Vec<LabelValue>,
    }
}

impl SettingsGroup for TechpadDynamicLabelsExamTabsAliases {
    const NAME: &'static str = "TechpadDynamicLabelsExamTabsAliases";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        label_values(
            &mut e,
            "ExamTabsAliases",
            &self.exam_tabs_aliases,
            LABEL_MAX,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_bounded() {
        let s = TechpadDynamicLabelsExamTabsAliases {
            exam_tabs_aliases: vec![LabelValue {
                label: "Demographic".into(),
                value: "a".repeat(LABEL_MAX + 1),
            }],
        };
        assert_eq!(
            s.validate().field("ExamTabsAliases.0.Value"),
            ["Must be at most 100 characters"]
        );
    }
}
