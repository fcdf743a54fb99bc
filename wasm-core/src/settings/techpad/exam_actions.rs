//! TechpadExamActions (spec 04 §3 "Exam actions", §4): for exam start, end and complete a switch
//! and the actions to call, class names joined with ';' (`survey_actions::split_actions` /
//! `join_actions`).
//!
//! §4: "toggling is ignored when the action field is null". A stored field is always text ('' is
//! an empty checklist), so null is a field the document does not hold at all: [`toggle_action`]
//! leaves it null, while a text field is toggled.

use super::super::checks::*;
use super::super::survey_actions::{canonical_actions, join_actions, split_actions};
use super::super::SettingsGroup;
use crate::ValidationErrors;

/// The exam events with actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExamEvent {
    Start,
    End,
    Complete,
}

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadExamActions {
        "CallMVApiActionWhenExamStart" call_mv_api_action_when_exam_start: bool,
        "CallMVApiActionWhenExamEnd" call_mv_api_action_when_exam_end: bool,
        "CallMVApiActionWhenExamComplete" call_mv_api_action_when_exam_complete: bool,
        /// Class names joined with ';' ('' = none).
        "MVApiActionWhenExamStart" mv_api_action_when_exam_start: String,
        "MVApiActionWhenExamEnd" mv_api_action_when_exam_end: String,
        "MVApiActionWhenExamComplete" mv_api_action_when_exam_complete: String,
    }
}

impl TechpadExamActions {
    /// The action field of `event`.
    pub fn actions_mut(&mut self, event: ExamEvent) -> &mut String {
        match event {
            ExamEvent::Start => &mut self.mv_api_action_when_exam_start,
            ExamEvent::End => &mut self.mv_api_action_when_exam_end,
            ExamEvent::Complete => &mut self.mv_api_action_when_exam_complete,
        }
    }

    /// The class names chosen for `event`.
    pub fn actions(&self, event: ExamEvent) -> Vec<String> {
        split_actions(match event {
            ExamEvent::Start => &self.mv_api_action_when_exam_start,
            ExamEvent::End => &self.mv_api_action_when_exam_end,
            ExamEvent::Complete => &self.mv_api_action_when_exam_complete,
        })
    }

    /// Replaces the class names chosen for `event`.
    pub fn set_actions<S: AsRef<str>>(&mut self, event: ExamEvent, class_names: &[S]) {
        *self.actions_mut(event) = canonical_actions(&join_actions(class_names));
    }

    /// Ticks (`on`) or unticks `class_name` in `event`'s checklist.
    pub fn toggle(&mut self, event: ExamEvent, class_name: &str, on: bool) {
        let field = self.actions_mut(event);
        if let Some(next) = toggle_action(Some(field.as_str()), class_name, on) {
            *field = next;
        }
    }
}

/// Spec 04 §4: `actions` (class names joined with ';') with `class_name` ticked (`on`) or
/// unticked; None (the action field is null) stays None: the toggle is ignored.
pub fn toggle_action(actions: Option<&str>, class_name: &str, on: bool) -> Option<String> {
    let actions = actions?;
    let class_name = class_name.trim();
    let mut list = split_actions(actions);
    let present = list.iter().any(|a| a == class_name);
    if !on {
        list.retain(|a| a != class_name);
    } else if !present && !class_name.is_empty() {
        list.push(class_name.to_owned());
    }
    Some(join_actions(&list))
}

impl SettingsGroup for TechpadExamActions {
    const NAME: &'static str = "TechpadExamActions";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (field, actions) in [
            (
                "MVApiActionWhenExamStart",
                &self.mv_api_action_when_exam_start,
            ),
            ("MVApiActionWhenExamEnd", &self.mv_api_action_when_exam_end),
            (
                "MVApiActionWhenExamComplete",
                &self.mv_api_action_when_exam_complete,
            ),
        ] {
            text(&mut e, field, actions, TEXT_MAX);
        }
        e
    }

    /// The action lists in their stored form (no blanks, no repeats, no spaces around ';').
    fn normalize(&mut self) {
        for event in [ExamEvent::Start, ExamEvent::End, ExamEvent::Complete] {
            let field = self.actions_mut(event);
            *field = canonical_actions(field);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toggling_adds_and_removes_class_names() {
        let mut a = TechpadExamActions::default();
        a.set_actions(ExamEvent::End, &["A", "B"]);
        assert_eq!(a.mv_api_action_when_exam_end, "A;B");
        a.toggle(ExamEvent::End, "C", true);
        a.toggle(ExamEvent::End, "A", false);
        a.toggle(ExamEvent::End, "B", true);
        assert_eq!(a.mv_api_action_when_exam_end, "B;C");
        assert_eq!(a.actions(ExamEvent::End), ["B", "C"]);
        a.toggle(ExamEvent::Start, "A", true);
        assert_eq!(a.mv_api_action_when_exam_start, "A");
    }

    #[test]
    fn toggling_is_ignored_when_the_field_is_null() {
        assert_eq!(toggle_action(None, "A", true), None);
        assert_eq!(toggle_action(Some(""), "A", true).as_deref(), Some("A"));
        assert_eq!(toggle_action(Some("A;B"), "A", false).as_deref(), Some("B"));
        assert_eq!(toggle_action(Some("A"), " ", true).as_deref(), Some("A"));
    }

    #[test]
    fn normalize_stores_the_lists_canonically() {
        let mut a = TechpadExamActions {
            mv_api_action_when_exam_complete: " A;;A ; B".into(),
            ..Default::default()
        };
        a.normalize();
        assert_eq!(a.mv_api_action_when_exam_complete, "A;B");
        assert!(a.validate().is_valid());
    }
}
