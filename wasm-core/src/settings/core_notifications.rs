//! CoreNotifications (spec 03 §3 "Notifications settings form", §5 "Notifications": an invalid
//! form is refused with the toast 'Form is invalid'). The outbox sends with these values
//! (`api` `outbox::smtp`, `outbox::sms`); the setup wizard writes the `NOTIFICATION_` fields
//! (spec 02 §3) without their prefix, EmailEnabled and AdminEmail among them.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

pub const ERROR_EMAIL_REQUIRED: &str = "An address for error emails is required";
pub const TEST_EMAIL_TO_REQUIRED: &str = "Enter the address to send the test email to";
pub const TEST_SMS_TO_REQUIRED: &str = "Enter the phone number to send the test SMS to";
pub const ENTER_A_PHONE_NUMBER: &str = "Enter a phone number (digits, optionally starting with +)";

/// The recipient of "Send test email" (field `To`).
pub fn validate_test_email(to: &str) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    if to.trim().is_empty() {
        e.add("To", TEST_EMAIL_TO_REQUIRED);
    } else {
        email_address(&mut e, "To", to.trim());
    }
    e
}

/// The recipient of "Send test SMS" (field `To`): a phone number of 7 to 15 digits, an optional
/// leading + and spaces, dashes or brackets between them.
pub fn validate_test_sms(to: &str) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    let to = to.trim();
    if to.is_empty() {
        e.add("To", TEST_SMS_TO_REQUIRED);
        return e;
    }
    let body = to.strip_prefix('+').unwrap_or(to);
    let digits = body.chars().filter(char::is_ascii_digit).count();
    let shape_ok = body
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '(' | ')'));
    if !shape_ok || !(7..=15).contains(&digits) {
        e.add("To", ENTER_A_PHONE_NUMBER);
    }
    e
}

crate::settings_struct! {
    pub struct CoreNotifications {
        "EmailFrom" email_from: String,
        "EmailFromName" email_from_name: String,
        /// An SMTP server (true) or the provider's SMTP API.
        "UseSMTPServer" use_smtp_server: bool,
        "SMTPServer" smtp_server: String,
        "SMTPServerCertificate" smtp_server_certificate: String,
        "SMTPUseSSL" smtp_use_ssl: bool,
        "UseAltSmtpAcct" use_alt_smtp_acct: bool,
        "UserName" user_name: String,
        "Password" password: String,
        /// 0 = the default port (465 with SSL, 25 without).
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "Port" port: f64,
        /// Seconds; 0 = the default (30).
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "Timeout" timeout: f64,
        "IsErrorEmailEnabled" is_error_email_enabled: bool,
        "EmailToSendError" email_to_send_error: String,
        "TwilioAccSid" twilio_acc_sid: String,
        "TwilioAuthToken" twilio_auth_token: String,
        "TwilioFrom" twilio_from: String,
        "TwilioCallbackUrl" twilio_callback_url: String,
        /// Empty = the provider's public endpoint.
        "AzureTwilioEndpoint" azure_twilio_endpoint: String,
        /// Setup wizard (spec 02 §3 NOTIFICATION_EmailEnabled, NOTIFICATION_AdminEmail).
        "EmailEnabled" email_enabled: bool,
        "AdminEmail" admin_email: String,
    }
}

impl Default for CoreNotifications {
    fn default() -> Self {
        CoreNotifications {
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
            is_error_email_enabled: false,
            email_to_send_error: String::new(),
            twilio_acc_sid: String::new(),
            twilio_auth_token: String::new(),
            twilio_from: String::new(),
            twilio_callback_url: String::new(),
            azure_twilio_endpoint: String::new(),
            email_enabled: false,
            admin_email: String::new(),
        }
    }
}

/// The outgoing mail fields CoreNotifications and CoreEmailService share (spec 02 §3: "the
/// same set as the notification settings").
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_mail(
    e: &mut ValidationErrors,
    email_from: &str,
    email_from_name: &str,
    smtp_server: &str,
    smtp_server_certificate: &str,
    user_name: &str,
    password: &str,
    port: f64,
    timeout: f64,
) {
    email_address(e, "EmailFrom", email_from);
    text(e, "EmailFromName", email_from_name, 200);
    text(e, "SMTPServer", smtp_server, 256);
    text(
        e,
        "SMTPServerCertificate",
        smtp_server_certificate,
        TEXT_MAX,
    );
    text(e, "UserName", user_name, 256);
    text(e, "Password", password, 256);
    digits(e, "Port", port, Some(65535));
    digits(e, "Timeout", timeout, Some(3600));
}

impl SettingsGroup for CoreNotifications {
    const NAME: &'static str = "CoreNotifications";
    const SECRETS: &'static [&'static str] = &["Password", "TwilioAuthToken"];

    /// The SMTP server fields only when mail goes through an SMTP server; the account only
    /// when the alternate account is used; the error address only when error emails are on.
    fn hidden(&self) -> Vec<&'static str> {
        let mut hidden = Vec::new();
        if !self.use_smtp_server {
            hidden.extend([
                "SMTPServer",
                "SMTPServerCertificate",
                "SMTPUseSSL",
                "Port",
                "Timeout",
            ]);
        }
        if !self.use_alt_smtp_acct {
            hidden.extend(["UserName", "Password"]);
        }
        if !self.is_error_email_enabled {
            hidden.push("EmailToSendError");
        }
        hidden
    }

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
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
        if self.is_error_email_enabled && self.email_to_send_error.trim().is_empty() {
            e.add("EmailToSendError", ERROR_EMAIL_REQUIRED);
        } else {
            email_address(&mut e, "EmailToSendError", &self.email_to_send_error);
        }
        text(&mut e, "TwilioAccSid", &self.twilio_acc_sid, 128);
        text(&mut e, "TwilioAuthToken", &self.twilio_auth_token, 256);
        text(&mut e, "TwilioFrom", &self.twilio_from, 64);
        web_address(&mut e, "TwilioCallbackUrl", &self.twilio_callback_url);
        web_address(&mut e, "AzureTwilioEndpoint", &self.azure_twilio_endpoint);
        email_address(&mut e, "AdminEmail", &self.admin_email);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_addresses() {
        let n = CoreNotifications {
            port: 25.5,
            timeout: f64::NAN,
            email_from: "not an address".into(),
            is_error_email_enabled: true,
            azure_twilio_endpoint: "twilio.example".into(),
            ..Default::default()
        };
        let e = n.validate();
        assert_eq!(e.field("Port"), [DIGITS_ONLY]);
        assert_eq!(e.field("Timeout"), [ENTER_A_NUMBER]);
        assert_eq!(e.field("EmailFrom"), [ENTER_AN_EMAIL]);
        assert_eq!(e.field("EmailToSendError"), [ERROR_EMAIL_REQUIRED]);
        assert_eq!(
            e.field("AzureTwilioEndpoint"),
            ["Must start with http:// or https://"]
        );
        let big = CoreNotifications {
            port: 70000.0,
            ..Default::default()
        };
        assert_eq!(big.validate().field("Port"), ["Must be at most 65535"]);
    }

    #[test]
    fn test_message_recipients() {
        assert!(validate_test_email("admin@example.com").is_valid());
        assert_eq!(
            validate_test_email(" ").field("To"),
            [TEST_EMAIL_TO_REQUIRED]
        );
        assert_eq!(validate_test_email("x@").field("To"), [ENTER_AN_EMAIL]);
        assert!(validate_test_sms("+1 (555) 010-2030").is_valid());
        assert_eq!(validate_test_sms("").field("To"), [TEST_SMS_TO_REQUIRED]);
        assert_eq!(
            validate_test_sms("12ab").field("To"),
            [ENTER_A_PHONE_NUMBER]
        );
        assert_eq!(
            validate_test_sms(&"1".repeat(40)).field("To"),
            [ENTER_A_PHONE_NUMBER]
        );
    }

    #[test]
    fn hidden_fields() {
        let d = CoreNotifications::default();
        assert_eq!(d.hidden(), ["UserName", "Password", "EmailToSendError"]);
        let api = CoreNotifications {
            use_smtp_server: false,
            use_alt_smtp_acct: true,
            is_error_email_enabled: true,
            ..Default::default()
        };
        assert_eq!(
            api.hidden(),
            [
                "SMTPServer",
                "SMTPServerCertificate",
                "SMTPUseSSL",
                "Port",
                "Timeout"
            ]
        );
    }

    #[test]
    fn numbers_are_stored_as_integers() {
        let json = serde_json::to_value(CoreNotifications::default()).unwrap();
        assert_eq!(json["Port"], serde_json::json!(25));
        assert_eq!(json["Timeout"], serde_json::json!(30));
        let read: CoreNotifications =
            serde_json::from_value(serde_json::json!({"Port": "587", "Timeout": ""})).unwrap();
        assert_eq!(read.port, 587.0);
        assert!(read.timeout.is_nan());
    }
}
