//! HistoryPortal (spec 03 §3 "HistoryPortal"; §4 the two notification toggle machines; §5 the
//! ranges). The toggle machine itself is `crate::history_portal_settings::toggle`; `normalize`
//! brings a block whose switches disagree to the state the machine gives.

use super::checks::*;
use super::SettingsGroup;
use crate::history_portal_settings::{self as rules, Block};
use crate::model::NotificationToggles;
use crate::ValidationErrors;

crate::settings_struct! {
    pub struct HistoryPortal {
        /// A SurveyId from the survey XML list.
        "DefaultHistoryPortalSurvey" default_history_portal_survey: String,
        /// Before or After (wasm-core survey::expiry).
        "HrsAppointmentTimeType" hrs_appointment_time_type: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HrsAppointmentTimeValue" hrs_appointment_time_value: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HistoryPortalSurveyReminderStartTime" history_portal_survey_reminder_start_time: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HistoryPortalSurveyReminderEndTime" history_portal_survey_reminder_end_time: f64,
        /// Mon..Sun.
        "HistoryPortalBusinessDays" history_portal_business_days: Vec<bool>,
        "EnableSendingHistoryPortalNotifications" enable_sending_history_portal_notifications: bool,
        "EnableHistoryPortalNotificationsByEmail" enable_history_portal_notifications_by_email: bool,
        "EnableHistoryPortalNotificationsBySms" enable_history_portal_notifications_by_sms: bool,
        "HistoryPortalRemindXDaysBeforeAppt" history_portal_remind_x_days_before_appt: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HistoryPortalRemindUntilXHoursBeforeAppt" history_portal_remind_until_x_hours_before_appt: f64,
        "EnableSendingIamHereNotifications" enable_sending_iam_here_notifications: bool,
        "EnableIamHereNotificationsByEmail" enable_iam_here_notifications_by_email: bool,
        "EnableIamHereNotificationsBySms" enable_iam_here_notifications_by_sms: bool,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HistoryPortalSendIAmHereXHoursBeforeAppointment" history_portal_send_i_am_here_x_hours_before_appointment: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment" history_portal_expire_i_am_here_button_in_x_hours_after_appointment: f64,
        /// -1 means unlimited.
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HistoryPortalMaxReadyForExamEmail" history_portal_max_ready_for_exam_email: f64,
        "IsDisabledIamHere" is_disabled_iam_here: bool,
        "IsHideAppointmentTimeInHistoryPortal" is_hide_appointment_time_in_history_portal: bool,
        "HistoryPortalPatientNameColumnLastNameFirst" history_portal_patient_name_column_last_name_first: bool,
        "ClientBusinessPhone" client_business_phone: String,
        "EnableDemoMode" enable_demo_mode: bool,
    }
}

impl Default for HistoryPortal {
    fn default() -> Self {
        HistoryPortal {
            default_history_portal_survey: String::new(),
            // Issue 5: unfinished surveys expire a day after the appointment.
            hrs_appointment_time_type: "After".into(),
            hrs_appointment_time_value: 24.0,
            history_portal_survey_reminder_start_time: 8.0,
            history_portal_survey_reminder_end_time: 18.0,
            history_portal_business_days: vec![true, true, true, true, true, false, false],
            enable_sending_history_portal_notifications: false,
            enable_history_portal_notifications_by_email: false,
            enable_history_portal_notifications_by_sms: false,
            history_portal_remind_x_days_before_appt: "2, 1".into(),
            history_portal_remind_until_x_hours_before_appt: 12.0,
            enable_sending_iam_here_notifications: false,
            enable_iam_here_notifications_by_email: false,
            enable_iam_here_notifications_by_sms: false,
            history_portal_send_i_am_here_x_hours_before_appointment: 2.0,
            // The I Am Here button lasts two hours past the appointment's start.
            history_portal_expire_i_am_here_button_in_x_hours_after_appointment: 2.0,
            history_portal_max_ready_for_exam_email: -1.0,
            is_disabled_iam_here: false,
            is_hide_appointment_time_in_history_portal: false,
            history_portal_patient_name_column_last_name_first: false,
            client_business_phone: String::new(),
            enable_demo_mode: false,
        }
    }
}

fn range(e: &mut ValidationErrors, field: &str, v: f64, min: i32, max: i32) -> bool {
    if !v.is_finite() {
        e.add(field, "Required");
        return false;
    }
    number(e, field, v, Some(min), Some(max))
}

/// The switches of each notification block, in the order Master, Email, Sms.
const BLOCK_FIELDS: [(Block, [&str; 3]); 2] = [
    (
        Block::HistoryPortal,
        [
            "EnableSendingHistoryPortalNotifications",
            "EnableHistoryPortalNotificationsByEmail",
            "EnableHistoryPortalNotificationsBySms",
        ],
    ),
    (
        Block::IamHere,
        [
            "EnableSendingIamHereNotifications",
            "EnableIamHereNotificationsByEmail",
            "EnableIamHereNotificationsBySms",
        ],
    ),
];

impl HistoryPortal {
    fn blocks(&mut self) -> [(Block, &mut bool, &mut bool, &mut bool); 2] {
        [
            (
                Block::HistoryPortal,
                &mut self.enable_sending_history_portal_notifications,
                &mut self.enable_history_portal_notifications_by_email,
                &mut self.enable_history_portal_notifications_by_sms,
            ),
            (
                Block::IamHere,
                &mut self.enable_sending_iam_here_notifications,
                &mut self.enable_iam_here_notifications_by_email,
                &mut self.enable_iam_here_notifications_by_sms,
            ),
        ]
    }
}

impl SettingsGroup for HistoryPortal {
    const NAME: &'static str = "HistoryPortal";

    /// Spec 03 §5 "History portal": business hours 0-24 (end after start), the notification
    /// windows and 'I am Here' hours 0-99, ready-for-exam tries -1-99 (whole), 'Expires X hrs'
    /// at most 99, the reminder days comma-separated whole numbers, at least one business day.
    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        let start_ok = range(
            &mut e,
            "HistoryPortalSurveyReminderStartTime",
            self.history_portal_survey_reminder_start_time,
            0,
            24,
        );
        let end_ok = range(
            &mut e,
            "HistoryPortalSurveyReminderEndTime",
            self.history_portal_survey_reminder_end_time,
            0,
            24,
        );
        if start_ok
            && end_ok
            && self.history_portal_survey_reminder_end_time
                <= self.history_portal_survey_reminder_start_time
        {
            e.add(
                "HistoryPortalSurveyReminderEndTime",
                "End must be after start",
            );
        }
        range(
            &mut e,
            "HrsAppointmentTimeValue",
            self.hrs_appointment_time_value,
            0,
            99,
        );
        range(
            &mut e,
            "HistoryPortalRemindUntilXHoursBeforeAppt",
            self.history_portal_remind_until_x_hours_before_appt,
            0,
            99,
        );
        range(
            &mut e,
            "HistoryPortalSendIAmHereXHoursBeforeAppointment",
            self.history_portal_send_i_am_here_x_hours_before_appointment,
            0,
            99,
        );
        range(
            &mut e,
            "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment",
            self.history_portal_expire_i_am_here_button_in_x_hours_after_appointment,
            0,
            99,
        );
        let max = self.history_portal_max_ready_for_exam_email;
        if range(&mut e, "HistoryPortalMaxReadyForExamEmail", max, -1, 99) && max.fract() != 0.0 {
            e.add(
                "HistoryPortalMaxReadyForExamEmail",
                "Must be a whole number",
            );
        }
        whole_number_list(
            &mut e,
            "HistoryPortalRemindXDaysBeforeAppt",
            &self.history_portal_remind_x_days_before_appt,
        );
        if !matches!(self.hrs_appointment_time_type.as_str(), "Before" | "After") {
            e.add("HrsAppointmentTimeType", "Choose Before or After");
        }
        if self.history_portal_business_days.len() != 7
            || !self.history_portal_business_days.iter().any(|d| *d)
        {
            e.add(
                "HistoryPortalBusinessDays",
                "Choose at least one business day",
            );
        }
        text(
            &mut e,
            "DefaultHistoryPortalSurvey",
            &self.default_history_portal_survey,
            128,
        );
        text(
            &mut e,
            "ClientBusinessPhone",
            &self.client_business_phone,
            32,
        );
        e
    }

    /// Spec 03 §4: a block whose switches disagree gets the state the toggle machine gives.
    /// Spec 03 §4: the switch the user just moved drives its block's toggle machine (a block
    /// with the master on and no channel means 'master just on' or 'last channel just off':
    /// only the moved switch tells which).
    fn edited(&mut self, field: &str) {
        let Some((index, which)) = BLOCK_FIELDS
            .iter()
            .enumerate()
            .find_map(|(i, (_, fields))| fields.iter().position(|f| *f == field).map(|w| (i, w)))
        else {
            return;
        };
        let (block, master, email, sms) = self.blocks().into_iter().nth(index).expect("two blocks");
        let now = NotificationToggles {
            master: *master,
            email: *email,
            sms: *sms,
        };
        let on = [now.master, now.email, now.sms][which];
        let next = rules::toggle(block, now, ["Master", "Email", "Sms"][which], on);
        (*master, *email, *sms) = (next.master, next.email, next.sms);
    }

    fn normalize(&mut self) {
        for (block, master, email, sms) in self.blocks() {
            let now = NotificationToggles {
                master: *master,
                email: *email,
                sms: *sms,
            };
            let fixed = if !now.master {
                rules::toggle(block, now, "Master", false)
            } else if !now.email && !now.sms {
                rules::toggle(
                    block,
                    NotificationToggles {
                        master: false,
                        ..now
                    },
                    "Master",
                    true,
                )
            } else {
                now
            };
            (*master, *email, *sms) = (fixed.master, fixed.email, fixed.sms);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_moved_switch_drives_its_block() {
        // Master switched on with no channel: history portal -> email only; I am Here -> both.
        let mut h = HistoryPortal {
            enable_sending_history_portal_notifications: true,
            ..Default::default()
        };
        h.edited("EnableSendingHistoryPortalNotifications");
        assert!(h.enable_history_portal_notifications_by_email);
        assert!(!h.enable_history_portal_notifications_by_sms);
        let mut i = HistoryPortal {
            enable_sending_iam_here_notifications: true,
            ..Default::default()
        };
        i.edited("EnableSendingIamHereNotifications");
        assert!(i.enable_iam_here_notifications_by_email && i.enable_iam_here_notifications_by_sms);
        // The last channel switched off turns the master off.
        let mut off = HistoryPortal {
            enable_sending_history_portal_notifications: true,
            enable_history_portal_notifications_by_email: false,
            ..Default::default()
        };
        off.edited("EnableHistoryPortalNotificationsByEmail");
        assert!(!off.enable_sending_history_portal_notifications);
        // Any other field changes nothing here.
        let before = off.clone();
        off.edited("ClientBusinessPhone");
        assert!(off == before);
    }

    #[test]
    fn toggles_are_brought_in_line() {
        let mut h = HistoryPortal {
            enable_sending_history_portal_notifications: true,
            enable_sending_iam_here_notifications: true,
            ..Default::default()
        };
        h.normalize();
        assert!(
            h.enable_history_portal_notifications_by_email
                && !h.enable_history_portal_notifications_by_sms
        );
        assert!(h.enable_iam_here_notifications_by_email && h.enable_iam_here_notifications_by_sms);
        let mut off = HistoryPortal {
            enable_history_portal_notifications_by_sms: true,
            ..Default::default()
        };
        off.normalize();
        assert!(!off.enable_history_portal_notifications_by_sms);
    }

    #[test]
    fn ranges() {
        let h = HistoryPortal {
            history_portal_max_ready_for_exam_email: 1.5,
            hrs_appointment_time_value: 100.0,
            history_portal_business_days: vec![false; 7],
            ..Default::default()
        };
        let e = h.validate();
        assert_eq!(
            e.field("HistoryPortalMaxReadyForExamEmail"),
            ["Must be a whole number"]
        );
        assert_eq!(
            e.field("HrsAppointmentTimeValue"),
            ["Must be between 0 and 99"]
        );
        assert_eq!(
            e.field("HistoryPortalBusinessDays"),
            ["Choose at least one business day"]
        );
    }
}
