//! TechpadDynamicLabelsExamTabsAliases (spec 04 §3 "Dynamic labels", §2): the exam tabs'
//! aliases, Label/Value rows whose tab (Value, one of the worklist tabs of `general`) is fixed and
//! whose alias (Label) is edited. Defaults: every tab under its own name; a tab missing from a
//! stored list gets its default row (`normalize`), as the diagram icons do.

use super::super::checks::one_of;
use super::super::SettingsGroup;
use super::general::WORKLIST_TABS;
use super::{fill_fixed_rows, label_values, LabelValue, LABEL_MAX};
use crate::ValidationErrors;

pub const DUPLICATE_TAB: &str = "This tab is already listed";

crate::settings_struct! {
    /// Defaults: one row per worklist tab, its alias the tab's name.
    pub struct TechpadDynamicLabelsExamTabsAliases {
        "ExamTabsAliases" exam_tabs_aliases: Vec<LabelValue>,
    }
}

fn tabs() -> Vec<&'static str> {
    WORKLIST_TABS.iter().map(|(name, _)| *name).collect()
}

impl Default for TechpadDynamicLabelsExamTabsAliases {
    fn default() -> Self {
        let mut rows = Vec::new();
        fill_fixed_rows(&mut rows, &tabs(), |name| name.to_owned());
        TechpadDynamicLabelsExamTabsAliases {
            exam_tabs_aliases: rows,
        }
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
        let tabs = tabs();
        for (i, row) in self.exam_tabs_aliases.iter().enumerate() {
            let field = format!("ExamTabsAliases.{i}.Value");
            if one_of(&mut e, &field, &row.value, &tabs)
                && self.exam_tabs_aliases[..i]
                    .iter()
                    .any(|r| r.value == row.value)
            {
                e.add(&field, DUPLICATE_TAB);
            }
        }
        e
    }

    /// Every tab listed: a missing one gets its default row.
    fn normalize(&mut self) {
        fill_fixed_rows(&mut self.exam_tabs_aliases, &tabs(), |name| name.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tab_is_listed_once_with_a_bounded_alias() {
        let d = TechpadDynamicLabelsExamTabsAliases::default();
        assert_eq!(d.exam_tabs_aliases.len(), 8);
        assert_eq!(d.exam_tabs_aliases[1].value, "Demographic");
        let mut s = TechpadDynamicLabelsExamTabsAliases {
            exam_tabs_aliases: vec![
                LabelValue {
                    label: "a".repeat(LABEL_MAX + 1),
                    value: "Demographic".into(),
                },
                LabelValue {
                    label: "Again".into(),
                    value: "Demographic".into(),
                },
            ],
        };
        let e = s.validate();
        assert_eq!(
            e.field("ExamTabsAliases.0.Label"),
            ["Must be at most 100 characters"]
        );
        assert_eq!(e.field("ExamTabsAliases.1.Value"), [DUPLICATE_TAB]);
        s.exam_tabs_aliases.truncate(1);
        s.exam_tabs_aliases[0].label = "Patient".into();
        s.normalize();
        assert_eq!(s.exam_tabs_aliases.len(), 8);
        assert_eq!(s.exam_tabs_aliases[0].label, "Patient");
        assert_eq!(s.exam_tabs_aliases[1].value, "Exam");
    }
}
