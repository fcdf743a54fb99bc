//! TechpadMaglinkEvents (spec 04 §3 "Maglink events"): an interface queue (switch, path, message
//! type) for Exam Start, Exam End and Exam Complete (the last without a suffix). Like the survey
//! queues, the texts are only bounded (the spec gives no other rule).

use super::super::survey_maglink_integrations::interface_queue;
use super::super::SettingsGroup;
use crate::ValidationErrors;

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadMaglinkEvents {
        "IsInterfaceQueueEnabledForExamStart" is_interface_queue_enabled_for_exam_start: bool,
        "InterfaceQueuePathForExamStart" interface_queue_path_for_exam_start: String,
        "InterfaceQueueMessageTypeForExamStart" interface_queue_message_type_for_exam_start: String,
        "IsInterfaceQueueEnabledForExamEnd" is_interface_queue_enabled_for_exam_end: bool,
        "InterfaceQueuePathForExamEnd" interface_queue_path_for_exam_end: String,
        "InterfaceQueueMessageTypeForExamEnd" interface_queue_message_type_for_exam_end: String,
        /// Exam Complete.
        "IsInterfaceQueueEnabled" is_interface_queue_enabled: bool,
        "InterfaceQueuePath" interface_queue_path: String,
        "InterfaceQueueMessageType" interface_queue_message_type: String,
    }
}

impl SettingsGroup for TechpadMaglinkEvents {
    const NAME: &'static str = "TechpadMaglinkEvents";

    /// Spec 04 §4: a queue's path and message type follow its checkbox (disabled when off).
    fn disabled(&self) -> Vec<String> {
        let mut off = Vec::new();
        for (on, path, kind) in [
            (
                self.is_interface_queue_enabled_for_exam_start,
                "InterfaceQueuePathForExamStart",
                "InterfaceQueueMessageTypeForExamStart",
            ),
            (
                self.is_interface_queue_enabled_for_exam_end,
                "InterfaceQueuePathForExamEnd",
                "InterfaceQueueMessageTypeForExamEnd",
            ),
            (
                self.is_interface_queue_enabled,
                "InterfaceQueuePath",
                "InterfaceQueueMessageType",
            ),
        ] {
            if !on {
                off.extend([path.to_owned(), kind.to_owned()]);
            }
        }
        off
    }

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        interface_queue(
            &mut e,
            "InterfaceQueuePathForExamStart",
            &self.interface_queue_path_for_exam_start,
            "InterfaceQueueMessageTypeForExamStart",
            &self.interface_queue_message_type_for_exam_start,
        );
        interface_queue(
            &mut e,
            "InterfaceQueuePathForExamEnd",
            &self.interface_queue_path_for_exam_end,
            "InterfaceQueueMessageTypeForExamEnd",
            &self.interface_queue_message_type_for_exam_end,
        );
        interface_queue(
            &mut e,
            "InterfaceQueuePath",
            &self.interface_queue_path,
            "InterfaceQueueMessageType",
            &self.interface_queue_message_type,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_queues_are_bounded() {
        let m = TechpadMaglinkEvents {
            interface_queue_path_for_exam_end: "p".repeat(513),
            interface_queue_message_type: "t".repeat(129),
            ..Default::default()
        };
        let e = m.validate();
        assert_eq!(
            e.field("InterfaceQueuePathForExamEnd"),
            ["Must be at most 512 characters"]
        );
        assert_eq!(
            e.field("InterfaceQueueMessageType"),
            ["Must be at most 128 characters"]
        );
        assert_eq!(e.0.len(), 2);
    }
}
