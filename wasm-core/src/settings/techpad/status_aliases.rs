//! TechpadStatusAliases (spec 04 §3 "Status config"): the label the worklist shows for each
//! status. The spec names only some statuses (ExamWaiting, ExamIncomplete, completed), so the
//! status is free text: required (it is the row's key), listed once, bounded; the label bounded.

use super::super::checks::*;
use super::super::SettingsGroup;
use super::LABEL_MAX;
use crate::ValidationErrors;

/// Longest status name.
pub const STATUS_MAX: usize = 64;
pub const STATUS_REQUIRED: &str = "Status is required";
pub const DUPLICATE_STATUS: &str = "This status is already listed";

crate::settings_struct! {
    #[derive(Default)]
    pub struct StatusConfig {
        "Status" status: String,
        "Label" label: String,
    }
}

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadStatusAliases {
        "WorklistStatusesConfigs" worklist_statuses_configs: Vec<StatusConfig>,
    }
}

impl SettingsGroup for TechpadStatusAliases {
    const NAME: &'static str = "TechpadStatusAliases";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (i, row) in self.worklist_statuses_configs.iter().enumerate() {
            let status = format!("WorklistStatusesConfigs.{i}.Status");
            if required_text(
                &mut e,
                &status,
                &row.status,
                STATUS_MAX,
                Some(STATUS_REQUIRED),
            ) && self.worklist_statuses_configs[..i]
                .iter()
                .any(|r| r.status == row.status)
            {
                e.add(&status, DUPLICATE_STATUS);
            }
            text(
                &mut e,
                &format!("WorklistStatusesConfigs.{i}.Label"),
                &row.label,
                LABEL_MAX,
            );
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_required_and_listed_once() {
        let row = |s: &str, l: &str| StatusConfig {
            status: s.into(),
            label: l.into(),
        };
        let s = TechpadStatusAliases {
            worklist_statuses_configs: vec![
                row("ExamWaiting", "Waiting"),
                row("ExamWaiting", "Again"),
                row("", "Nothing"),
                row("ExamIncomplete", &"x".repeat(LABEL_MAX + 1)),
            ],
        };
        let e = s.validate();
        assert_eq!(
            e.field("WorklistStatusesConfigs.1.Status"),
            [DUPLICATE_STATUS]
        );
        assert_eq!(
            e.field("WorklistStatusesConfigs.2.Status"),
            [STATUS_REQUIRED]
        );
        assert_eq!(
            e.field("WorklistStatusesConfigs.3.Label"),
            ["Must be at most 100 characters"]
        );
        assert_eq!(e.0.len(), 3);
    }
}
