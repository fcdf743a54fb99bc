//! TechpadDynamicLabelsPerformExamButtonAliases (spec 04 §3 "Dynamic labels", §2, §5): the
//! perform-exam button aliases, Label/Value rows added and removed freely. Labels "should be
//! unique" is a note on the page, not enforced (§5); the texts are bounded.

use super::super::SettingsGroup;
use super::{label_values, LabelValue, LABEL_MAX};
use crate::ValidationErrors;

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadDynamicLabelsPerformExamButtonAliases {
        "DynamicLabels" dynamic_labels: Vec<LabelValue>,
    }
}

impl SettingsGroup for TechpadDynamicLabelsPerformExamButtonAliases {
    const NAME: &'static str = "TechpadDynamicLabelsPerformExamButtonAliases";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        label_values(&mut e, "DynamicLabels", &self.dynamic_labels, LABEL_MAX);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_labels_are_allowed_long_ones_are_not() {
        let row = |l: &str| LabelValue {
            label: l.into(),
            value: "Mammo".into(),
        };
        let mut s = TechpadDynamicLabelsPerformExamButtonAliases {
            dynamic_labels: vec![row("Start"), row("Start")],
        };
        assert!(s.validate().is_valid());
        s.dynamic_labels[1].value = "v".repeat(LABEL_MAX + 1);
        assert_eq!(
            s.validate().field("DynamicLabels.1.Value"),
            ["Must be at most 100 characters"]
        );
    }
}
