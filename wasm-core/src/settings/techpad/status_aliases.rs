//! TechpadStatusAliases (spec 04 §3 "Status config"): the label the worklist shows for each
//! status. The spec names only some statuses (ExamWaiting, ExamIncomplete, completed); the
//! defaults are [`WORKLIST_STATUSES`], and a status stays free text: required (it is the row's
//! key), listed once, bounded; the label bounded.

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

/// The worklist statuses of the techpad: the ones the spec names (ExamWaiting, ExamIncomplete,
/// completed, §4) with the start and end of an exam between them. The default status rows, the
/// statuses a new resource is offered in (`resources::new_resource`) and the default Status sort
/// group (`worklist_sorting`).
pub const WORKLIST_STATUSES: &[&str] = &[
    "ExamWaiting",
    "ExamStarted",
    "ExamEnded",
    "ExamIncomplete",
    "ExamCompleted",
];

crate::settings_struct! {
    /// Defaults: one row per [`WORKLIST_STATUSES`] labelled with its name split at capitals.
    pub struct TechpadStatusAliases {
        "WorklistStatusesConfigs" worklist_statuses_configs: Vec<StatusConfig>,
    }
}

impl Default for TechpadStatusAliases {
    fn default() -> Self {
        TechpadStatusAliases {
            worklist_statuses_configs: WORKLIST_STATUSES
                .iter()
                .map(|s| StatusConfig {
                    status: (*s).to_owned(),
                    label: super::split_at_capitals(s),
                })
                .collect(),
        }
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
