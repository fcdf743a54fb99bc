//! The registry of exam actions (spec 04 §7 `LoadTechpadActionsForExam`: ClassName and
//! Description): the MagView API actions an exam event (techpad exam start, end and complete,
//! `settings::techpad::exam_actions`) or a survey event (`settings::survey_actions`) can call.
//! Declared once here; the API answers this list and the settings pages show it as checklists.
//! The `MagView.*` actions run in MagView, not in the portal: the portal stores which ones are
//! chosen. The `Portal.*` actions (issue 17) are the portal's own, run on a survey event by the
//! integration service (api/src/integrations/actions.rs); on a survey event a MagView action is
//! recorded as handed to MagView, not run.

use crate::model::ExamAction;

/// (ClassName, Description), in the order the checklists show them.
pub const EXAM_ACTIONS: &[(&str, &str)] = &[
    (
        "MagView.Actions.UpdateStudyRisHold",
        "Put the study on RIS hold",
    ),
    (
        "MagView.Actions.UpdateStudyEndTime",
        "Write the exam end time (T_End) to the study",
    ),
    (
        "MagView.Actions.MarkStudyCompleted",
        "Mark the study as completed",
    ),
    (
        "MagView.Actions.SendInterfaceQueueMessage",
        "Send the event's interface queue (Maglink) message",
    ),
    (
        "MagView.Actions.StoreRiskTrigger",
        "Run the risk triggers for the patient",
    ),
    (
        "MagView.Actions.CarryForwardDiagram",
        "Carry the previous exam's diagram forward",
    ),
    (
        "MagView.Actions.CreateFollowUps",
        "Create the follow-ups recorded during the exam",
    ),
    (
        PORTAL_GENERATE_SUMMARY_LETTER,
        "Generate the survey summary PDF as a letter",
    ),
    (
        PORTAL_MARK_STUDY_READY,
        "Mark the patient's appointment ready for the exam",
    ),
    (
        PORTAL_SEND_TO_QUEUE,
        "Write the survey to the Maglink interface queue",
    ),
    (
        PORTAL_NOTIFY_FRONT_DESK,
        "Notify the front desk (email to the clinic's notification address)",
    ),
];

/// The portal's own survey actions.
pub const PORTAL_GENERATE_SUMMARY_LETTER: &str = "Portal.Actions.GenerateSummaryLetter";
pub const PORTAL_MARK_STUDY_READY: &str = "Portal.Actions.MarkStudyReady";
pub const PORTAL_SEND_TO_QUEUE: &str = "Portal.Actions.SendSurveyToQueue";
pub const PORTAL_NOTIFY_FRONT_DESK: &str = "Portal.Actions.NotifyFrontDesk";

/// Whether the portal runs `class_name` itself.
pub fn is_portal_action(class_name: &str) -> bool {
    class_name.starts_with("Portal.Actions.") && EXAM_ACTIONS.iter().any(|(c, _)| *c == class_name)
}

/// The registry as the wire list.
pub fn exam_actions() -> Vec<ExamAction> {
    EXAM_ACTIONS
        .iter()
        .map(|(class_name, description)| ExamAction {
            class_name: (*class_name).to_owned(),
            description: (*description).to_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::survey_actions::ACTION_SEPARATOR;

    #[test]
    fn class_names_are_unique_and_never_hold_the_separator() {
        let mut names: Vec<&str> = EXAM_ACTIONS.iter().map(|(c, _)| *c).collect();
        assert!(names
            .iter()
            .all(|n| !n.contains(ACTION_SEPARATOR) && !n.trim().is_empty()));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), EXAM_ACTIONS.len());
        assert_eq!(exam_actions()[0].description, "Put the study on RIS hold");
    }
}
