//! TechpadWorklistSorting (spec 04 §3 "Worklist sorting", §2): the worklist's sort groups in
//! order, each with a switch and its values in order. The spec does not list the group types or
//! the defaults ('Reset Sorting Settings' is the server's `PUT ResetWorklistSorting`), so the
//! default is an empty list; a group needs a type, used once, and its values are listed once.
//! The fixed 'Other' and 'Update Date' entries are the page's, not stored rows.

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

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadWorklistSorting {
        /// In sort order.
        "WorklistSorting" worklist_sorting: Vec<WorklistSortGroup>,
    }
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
            ) && self.worklist_sorting[..i]
                .iter()
                .any(|g| g.kind == group.kind)
            {
                e.add(&kind, DUPLICATE_SORT_TYPE);
            }
            for (j, value) in group.values.iter().enumerate() {
                let field = format!("WorklistSorting.{i}.Values.{j}");
                if text(&mut e, &field, value, SORT_NAME_MAX) && group.values[..j].contains(value) {
                    e.add(&field, DUPLICATE_SORT_VALUE);
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
}
