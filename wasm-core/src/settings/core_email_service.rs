//! CoreEmailService (spec 03 §3 "Email service settings", "Core Settings > Notifications": the
//! email service's connection, locations, logging and test modes). The setup wizard writes the
//! `EMAIL_SERVICE_` fields (spec 02 §3, the same set as the notification settings) without
//! their prefix, and the email service behaviour fields.

use super::checks::*;
use super::core_notifications::check_mail;
use super::SettingsGroup;
use crate::ValidationErrors;

pub const LOGGING_MODES: &[&str] = &["DEBUG", "RELEASE", "DISABLED"];

crate::settings_struct! {
    pub struct CoreEmailService {
        /// Reported by the service (read-only on the page).
        "EmailServiceStatus" email_service_status: String,
        "EmailServiceDBName" email_service_db_name: String,
        "EmailServiceServer" email_service_server: String,
        "EmailServiceIntegratedSecurity" email_service_integrated_security: bool,
        "EmailServiceSQLLogin" email_service_sql_login: String,
        "EmailServiceSQLPass" email_service_sql_pass: String,
        "EmailServiceBaseLocation" email_service_base_location: String,
        "EmailServiceWebLocation" email_service_web_location: String,
        "EmailServiceExeLocation" email_service_exe_location: String,
        "EmailServiceTempLocation" email_service_temp_location: String,
        "EmailServiceServiceSettingsLocation" email_service_service_settings_location: String,
        "EmailServiceDebugToEmailAddress" email_service_debug_to_email_address: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "EmailServiceMaxRecordsCountToProcess" email_service_max_records_count_to_process: f64,
        /// DEBUG, RELEASE or DISABLED.
        "EmailServiceLoggingMode" email_service_logging_mode: String,
        "IsEmailServiceTestMode" is_email_service_test_mode: bool,
        "IsPortalEnotifyLoggingMode" is_portal_enotify_logging_mode: bool,
        "NotificationsSettings" notifications_settings: String,
        /// Not-found flags (spec 03 §2 danger notices): the service's settings file lacks the
        /// logging mode / the test mode option; EmailServiceNotFound: no service at all.
        "EmailServiceLoggingModeNotFound" email_service_logging_mode_not_found: bool,
        "IsEmailServiceTestModeNotFound" is_email_service_test_mode_not_found: bool,
        "EmailServiceNotFound" email_service_not_found: bool,
        // Setup wizard EMAIL_SERVICE_* (spec 02 §3).
        "EmailFrom" email_from: String,
        "EmailFromName" email_from_name: String,
        "UseSMTPServer" use_smtp_server: bool,
        "SMTPServer" smtp_server: String,
        "SMTPServerCertificate" smtp_server_certificate: String,
        "SMTPUseSSL" smtp_use_ssl: bool,
        "UseAltSmtpAcct" use_alt_smtp_acct: bool,
        "UserName" user_name: String,
        "Password" password: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "Port" port: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "Timeout" timeout: f64,
        "EmailEnabled" email_enabled: bool,
        "AdminEmail" admin_email: String,
    }
}

impl Default for CoreEmailService {
    fn default() -> Self {
        // The setup wizard's defaults (web `configuration-page.tsx`).
        CoreEmailService {
            email_service_status: String::new(),
            email_service_db_name: String::new(),
            email_service_server: String::new(),
            email_service_integrated_security: false,
            email_service_sql_login: String::new(),
            email_service_sql_pass: String::new(),
            email_service_base_location: String::new(),
            email_service_web_location: String::new(),
            email_service_exe_location: String::new(),
            email_service_temp_location: String::new(),
            email_service_service_settings_location: String::new(),
            email_service_debug_to_email_address: String::new(),
            email_service_max_records_count_to_process: 100.0,
            email_service_logging_mode: "RELEASE".into(),
            is_email_service_test_mode: false,
            is_portal_enotify_logging_mode: false,
            notifications_settings: String::new(),
            email_service_logging_mode_not_found: false,
            is_email_service_test_mode_not_found: false,
            email_service_not_found: false,
            email_from: String::new(),
            email_from_name: String::new(),
            use_smtp_server: true,
            smtp_server: String::new(),
            smtp_server_certificate: String::new(),
            smtp_use_ssl: false,
            use_alt_smtp_acct: false,
            user_name: String::new(),
            password: String::new(),
            port: 25.0,
            timeout: 30.0,
            email_enabled: false,
            admin_email: String::new(),
        }
    }
}

impl CoreEmailService {
    /// Spec 03 §2: a danger notice when the logging mode or the test mode option is missing
    /// from the service's settings.
    pub fn shows_danger_notice(&self) -> bool {
        self.email_service_logging_mode_not_found || self.is_email_service_test_mode_not_found
    }
}

impl SettingsGroup for CoreEmailService {
    const NAME: &'static str = "CoreEmailService";
    const SECRETS: &'static [&'static str] = &["EmailServiceSQLPass", "Password"];

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        text(&mut e, "EmailServiceStatus", &self.email_service_status, 64);
        text(
            &mut e,
            "EmailServiceDBName",
            &self.email_service_db_name,
            128,
        );
        text(
            &mut e,
            "EmailServiceServer",
            &self.email_service_server,
            256,
        );
        text(
            &mut e,
            "EmailServiceSQLLogin",
            &self.email_service_sql_login,
            128,
        );
        text(
            &mut e,
            "EmailServiceSQLPass",
            &self.email_service_sql_pass,
            256,
        );
        for (field, value) in [
            (
                "EmailServiceBaseLocation",
                &self.email_service_base_location,
            ),
            ("EmailServiceWebLocation", &self.email_service_web_location),
            ("EmailServiceExeLocation", &self.email_service_exe_location),
            (
                "EmailServiceTempLocation",
                &self.email_service_temp_location,
            ),
            (
                "EmailServiceServiceSettingsLocation",
                &self.email_service_service_settings_location,
            ),
        ] {
            text(&mut e, field, value, 1000);
        }
        email_address(
            &mut e,
            "EmailServiceDebugToEmailAddress",
            &self.email_service_debug_to_email_address,
        );
        digits(
            &mut e,
            "EmailServiceMaxRecordsCountToProcess",
            self.email_service_max_records_count_to_process,
            Some(100_000),
        );
        one_of(
            &mut e,
            "EmailServiceLoggingMode",
            &self.email_service_logging_mode,
            LOGGING_MODES,
        );
        text(
            &mut e,
            "NotificationsSettings",
            &self.notifications_settings,
            TEXT_MAX,
        );
        check_mail(
            &mut e,
            &self.email_from,
            &self.email_from_name,
            &self.smtp_server,
            &self.smtp_server_certificate,
            &self.user_name,
            &self.password,
            self.port,
            self.timeout,
        );
        email_address(&mut e, "AdminEmail", &self.admin_email);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logging_mode_and_counts() {
        let s = CoreEmailService {
            email_service_logging_mode: "VERBOSE".into(),
            email_service_max_records_count_to_process: -1.0,
            email_service_debug_to_email_address: "x@".into(),
            ..Default::default()
        };
        let e = s.validate();
        assert_eq!(
            e.field("EmailServiceLoggingMode"),
            ["Choose one of: DEBUG, RELEASE, DISABLED"]
        );
        assert_eq!(
            e.field("EmailServiceMaxRecordsCountToProcess"),
            [DIGITS_ONLY]
        );
        assert_eq!(e.field("EmailServiceDebugToEmailAddress"), [ENTER_AN_EMAIL]);
    }

    #[test]
    fn danger_notice_when_an_option_is_missing() {
        assert!(!CoreEmailService::default().shows_danger_notice());
        assert!(CoreEmailService {
            is_email_service_test_mode_not_found: true,
            ..Default::default()
        }
        .shows_danger_notice());
    }
}
