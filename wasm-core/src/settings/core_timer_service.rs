//! CoreTimerService (spec 03 §3 "CoreTimerService", "Core Settings > Timer Service"): the
//! connection is shown read-only (it follows the portal database's); only Append Only Mode and
//! the Notifications API Url are saved ([`CoreTimerService::saved_over`]).

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// The fields a save may change (spec 03 §3: "Only the last two are saved").
pub const SAVED_FIELDS: &[&str] = &[
    "TimerServiceAppendOnlyMode",
    "TimerServiceNotificationsApiUrl",
];

crate::settings_struct! {
    /// Every field empty or off by default.
    #[derive(Default)]
    pub struct CoreTimerService {
        /// Reported by the service.
        "TimerServiceStatus" timer_service_status: String,
        "TimerServiceDBName" timer_service_db_name: String,
        "TimerServiceServer" timer_service_server: String,
        "TimerServiceIntegratedSecurity" timer_service_integrated_security: bool,
        "TimerServiceSQLLogin" timer_service_sql_login: String,
        "TimerServiceSQLPass" timer_service_sql_pass: String,
        "TimerServiceAppendOnlyMode" timer_service_append_only_mode: bool,
        "TimerServiceNotificationsApiUrl" timer_service_notifications_api_url: String,
    }
}

impl CoreTimerService {
    /// `stored` with the two saved fields taken from `self` (the submitted form): what a save
    /// stores. The read-only fields never change through this page.
    pub fn saved_over(&self, stored: &CoreTimerService) -> CoreTimerService {
        CoreTimerService {
            timer_service_append_only_mode: self.timer_service_append_only_mode,
            timer_service_notifications_api_url: self.timer_service_notifications_api_url.clone(),
            ..stored.clone()
        }
    }
}

impl SettingsGroup for CoreTimerService {
    const NAME: &'static str = "CoreTimerService";
    const SECRETS: &'static [&'static str] = &["TimerServiceSQLPass"];
    const FORM_FIELDS: Option<&'static [&'static str]> = Some(SAVED_FIELDS);

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        text(&mut e, "TimerServiceStatus", &self.timer_service_status, 64);
        text(
            &mut e,
            "TimerServiceDBName",
            &self.timer_service_db_name,
            128,
        );
        text(
            &mut e,
            "TimerServiceServer",
            &self.timer_service_server,
            256,
        );
        text(
            &mut e,
            "TimerServiceSQLLogin",
            &self.timer_service_sql_login,
            128,
        );
        text(
            &mut e,
            "TimerServiceSQLPass",
            &self.timer_service_sql_pass,
            256,
        );
        web_address(
            &mut e,
            "TimerServiceNotificationsApiUrl",
            &self.timer_service_notifications_api_url,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_two_fields_are_saved() {
        let stored = CoreTimerService {
            timer_service_db_name: "Portal".into(),
            ..Default::default()
        };
        let form = CoreTimerService {
            timer_service_db_name: "Other".into(),
            timer_service_append_only_mode: true,
            timer_service_notifications_api_url: "https://portal.example/api".into(),
            ..Default::default()
        };
        let saved = form.saved_over(&stored);
        assert_eq!(saved.timer_service_db_name, "Portal");
        assert!(saved.timer_service_append_only_mode);
        assert_eq!(
            saved.timer_service_notifications_api_url,
            "https://portal.example/api"
        );
        assert_eq!(SAVED_FIELDS.len(), 2);
    }

    #[test]
    fn api_url_is_a_web_address() {
        let t = CoreTimerService {
            timer_service_notifications_api_url: "portal/api".into(),
            ..Default::default()
        };
        assert_eq!(
            t.validate().field("TimerServiceNotificationsApiUrl"),
            ["Must start with http:// or https://"]
        );
    }
}
