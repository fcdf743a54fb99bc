//! TechpadWorklistSorting (spec 04 §3 "Worklist sorting", §2): the worklist's sort groups in
//! order, each with a switch and its values in order. The spec lists neither the group types nor
//! the defaults that 'Reset Sorting Settings' (`PUT ResetWorklistSorting`) restores: the defaults
//! here sort by status (the worklist statuses in their order), then priority, with the exam type
//! group present but off. A group needs a type, used once, and its values are listed once.
//!
//! The fixed entries are not stored rows: 'Other' ends every group's values (whatever value is
//! not listed) and 'Update Date' ends the groups (the last key, the item's last change). Neither
//! name may be stored as a value or a type.

use super::super::checks::*;
use super::super::SettingsGroup;
use crate::ValidationErrors;

/// Longest sort group type or value.
pub const SORT_NAME_MAX: usize = 128;
pub const SORT_TYPE_REQUIRED: &str = "Sort group type is required";
pub const DUPLICATE_SORT_TYPE: &str = "This sort group is already listed";
pub const DUPLICATE_SORT_VALUE: &str = "This value is already listed in the group";

crate::settings_struct! {
    #[derive(Default)]
    pub struct WorklistSortGroup {
        "Type" kind: String,
        "Enabled" enabled: bool,
        /// In sort order.
        "Values" values: Vec<String>,
    }
}

/// Spec 04 §2: the fixed last value of every group.
pub const SORT_OTHER: &str = "Other";
/// Spec 04 §2: the fixed last sort key, after every group.
pub const SORT_UPDATE_DATE: &str = "Update Date";
pub const FIXED_SORT_ENTRY: &str =
    "'Other' and 'Update Date' are fixed entries and cannot be listed";

/// The default groups (type, enabled, values), in order.
pub const DEFAULT_SORT_GROUPS: &[(&str, bool, &[&str])] = &[
    ("Status", true, super::status_aliases::WORKLIST_STATUSES),
    ("Priority", true, &["STAT", "ASAP", "Routine"]),
    (
        "ExamType",
        false,
        &["Diagnostic", "Screening", "Ultrasound", "Biopsy", "MRI"],
    ),
];

crate::settings_struct! {
    /// Defaults: [`DEFAULT_SORT_GROUPS`].
    pub struct TechpadWorklistSorting {
        /// In sort order.
        "WorklistSorting" worklist_sorting: Vec<WorklistSortGroup>,
    }
}

impl Default for TechpadWorklistSorting {
    fn default() -> Self {
        TechpadWorklistSorting {
            worklist_sorting: DEFAULT_SORT_GROUPS
                .iter()
                .map(|(kind, enabled, values)| WorklistSortGroup {
                    kind: (*kind).to_owned(),
                    enabled: *enabled,
                    values: values.iter().map(|v| (*v).to_owned()).collect(),
                })
                .collect(),
        }
    }
}

fn is_fixed(name: &str) -> bool {
    let name = name.trim();
    name.eq_ignore_ascii_case(SORT_OTHER) || name.eq_ignore_ascii_case(SORT_UPDATE_DATE)
}

impl SettingsGroup for TechpadWorklistSorting {
    const NAME: &'static str = "TechpadWorklistSorting";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (i, group) in self.worklist_sorting.iter().enumerate() {
            let kind = format!("WorklistSorting.{i}.Type");
            if required_text(
                &mut e,
                &kind,
                &group.kind,
                SORT_NAME_MAX,
                Some(SORT_TYPE_REQUIRED),
            ) {
                if is_fixed(&group.kind) {
                    e.add(&kind, FIXED_SORT_ENTRY);
                } else if self.worklist_sorting[..i]
                    .iter()
                    .any(|g| g.kind == group.kind)
                {
                    e.add(&kind, DUPLICATE_SORT_TYPE);
                }
            }
            for (j, value) in group.values.iter().enumerate() {
                let field = format!("WorklistSorting.{i}.Values.{j}");
                if text(&mut e, &field, value, SORT_NAME_MAX) {
                    if is_fixed(value) {
                        e.add(&field, FIXED_SORT_ENTRY);
                    } else if group.values[..j].contains(value) {
                        e.add(&field, DUPLICATE_SORT_VALUE);
                    }
                }
            }
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_need_a_type_used_once() {
        let group = |kind: &str, values: &[&str]| WorklistSortGroup {
            kind: kind.into(),
            enabled: true,
            values: values.iter().map(|v| (*v).to_owned()).collect(),
        };
        let s = TechpadWorklistSorting {
            worklist_sorting: vec![
                group("Status", &["ExamWaiting", "ExamStarted", "ExamWaiting"]),
                group("Status", &[]),
                group(" ", &[]),
                group("Priority", &["STAT", "Routine"]),
            ],
        };
        let e = s.validate();
        assert_eq!(
            e.field("WorklistSorting.0.Values.2"),
            [DUPLICATE_SORT_VALUE]
        );
        assert_eq!(e.field("WorklistSorting.1.Type"), [DUPLICATE_SORT_TYPE]);
        assert_eq!(e.field("WorklistSorting.2.Type"), [SORT_TYPE_REQUIRED]);
        assert_eq!(e.0.len(), 3);
    }

    #[test]
    fn defaults_sort_by_status_then_priority_and_fixed_entries_are_refused() {
        let mut d = TechpadWorklistSorting::default();
        let kinds: Vec<&str> = d.worklist_sorting.iter().map(|g| g.kind.as_str()).collect();
        assert_eq!(kinds, ["Status", "Priority", "ExamType"]);
        assert_eq!(d.worklist_sorting[0].values[0], "ExamWaiting");
        d.worklist_sorting[1].values.push("other".into());
        d.worklist_sorting[2].kind = "Update Date".into();
        let e = d.validate();
        assert_eq!(e.field("WorklistSorting.1.Values.3"), [FIXED_SORT_ENTRY]);
        assert_eq!(e.field("WorklistSorting.2.Type"), [FIXED_SORT_ENTRY]);
    }
}
