//! TechpadResources (spec 04 §3 "Resources", §4): the resources a technologist can pick, each
//! with a label, a single-use flag and the statuses it is offered in. A new resource starts with
//! every status allowed, not single-use and an empty label ([`new_resource`]).

use super::super::checks::*;
use super::super::SettingsGroup;
use super::status_aliases::STATUS_MAX;
use super::LABEL_MAX;
use crate::ValidationErrors;

crate::settings_struct! {
    #[derive(Default)]
    pub struct StatusAllowed {
        "Status" status: String,
        "IsAllowed" is_allowed: bool,
    }
}

crate::settings_struct! {
    #[derive(Default)]
    pub struct Resource {
        "Label" label: String,
        "IsSingleUsageOnly" is_single_usage_only: bool,
        "VisibleForStatusesConfig" visible_for_statuses_config: Vec<StatusAllowed>,
    }
}

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadResources {
        "Resources" resources: Vec<Resource>,
    }
}

/// Spec 04 §4: a new resource, offered in every one of `statuses`, not single-use, no label.
pub fn new_resource<S: AsRef<str>>(statuses: &[S]) -> Resource {
    Resource {
        label: String::new(),
        is_single_usage_only: false,
        visible_for_statuses_config: statuses
            .iter()
            .map(|s| StatusAllowed {
                status: s.as_ref().to_owned(),
                is_allowed: true,
            })
            .collect(),
    }
}

impl SettingsGroup for TechpadResources {
    const NAME: &'static str = "TechpadResources";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (i, r) in self.resources.iter().enumerate() {
            text(&mut e, &format!("Resources.{i}.Label"), &r.label, LABEL_MAX);
            for (j, s) in r.visible_for_statuses_config.iter().enumerate() {
                text(
                    &mut e,
                    &format!("Resources.{i}.VisibleForStatusesConfig.{j}.Status"),
                    &s.status,
                    STATUS_MAX,
                );
            }
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_resource_is_allowed_everywhere() {
        let r = new_resource(&["ExamWaiting", "ExamStarted"]);
        assert_eq!(r.label, "");
        assert!(!r.is_single_usage_only);
        assert_eq!(r.visible_for_statuses_config.len(), 2);
        assert!(r.visible_for_statuses_config.iter().all(|s| s.is_allowed));
        assert_eq!(r.visible_for_statuses_config[1].status, "ExamStarted");
    }

    #[test]
    fn texts_are_bounded() {
        let mut r = new_resource(&["s".repeat(STATUS_MAX + 1)]);
        r.label = "l".repeat(LABEL_MAX + 1);
        let s = TechpadResources {
            resources: vec![new_resource(&["ExamWaiting"]), r],
        };
        let e = s.validate();
        assert_eq!(
            e.field("Resources.1.Label"),
            ["Must be at most 100 characters"]
        );
        assert_eq!(
            e.field("Resources.1.VisibleForStatusesConfig.0.Status"),
            ["Must be at most 64 characters"]
        );
        assert_eq!(e.0.len(), 2);
    }
}
