//! CorePortal (spec 03 §3, "Core Settings > Portal"; §5 required fields and session values).

use super::checks::{self, *};
use super::SettingsGroup;
use crate::setup::{
    normalize_public_address, test_url, DB_NAME_REQUIRED, SERVER_NAME_REQUIRED, SQL_LOGIN_REQUIRED,
    SQL_PASSWORD_REQUIRED,
};
use crate::ValidationErrors;

/// Spec 03 §5.
pub const CLIENT_NAME_EMPTY: &str = "Client Name field can not be empty";
/// Spec 03 §5: the warning must come before the session ends.
pub const WARNING_NOT_LESS_THAN_TIMEOUT: &str =
    "Warning before session timeout should be less than session timeout";
/// Spec 03 §5 required fields the spec gives no message for.
pub const PUBLIC_WEB_ADDRESS_REQUIRED: &str = "Public Web Address is required";
pub const COM_PROD_ID_REQUIRED: &str = "COM PROD ID is required";
pub const COM_TEST_ID_REQUIRED: &str = "COM TEST ID is required";
pub const SESSION_TIMEOUT_REQUIRED: &str = "Session timeout is required";
pub const DEADLOCK_RETRIES_REQUIRED: &str = "Retry count is required";
/// Spec 03 §7: the public web address test's path under the address.
pub const PUBLIC_WEB_ADDRESS_TEST_PATH: &str = "api/configuration/TestPublicWebAddress";
/// Spec 03 §8: a portal database the server answers for but that does not exist yet.
pub fn new_database_message(db: &str) -> String {
    format!("Connection successfully established. NOTE! New database {db} will be created.")
}

/// The address the Public Web Address test calls (spec 03 §5, §7): `http://` put in front when
/// the address has no http(s) scheme, a trailing slash added, then
/// `api/configuration/TestPublicWebAddress`. Empty stays empty (the button is disabled).
pub fn public_web_address_test_url(address: &str) -> String {
    let base = test_url(&normalize_public_address(address));
    if base.is_empty() {
        base
    } else {
        format!("{base}{PUBLIC_WEB_ADDRESS_TEST_PATH}")
    }
}

/// Session length when nothing valid is stored (minutes).
pub const DEFAULT_SESSION_TIMEOUT_MINUTES: i64 = 20;

crate::settings_struct! {
    pub struct CorePortal {
        "ClientName" client_name: String,
        "PortalSqlServerName" portal_sql_server_name: String,
        "PortalSqlDbName" portal_sql_db_name: String,
        "PortalIntegratedSecurity" portal_integrated_security: bool,
        "PortalSqlUserName" portal_sql_user_name: String,
        "PortalSqlUserPwd" portal_sql_user_pwd: String,
        "PublicWebAddress" public_web_address: String,
        "TechpadHistoryIsProdComId" techpad_history_is_prod_com_id: bool,
        "ProdComClassName" prod_com_class_name: String,
        "TestComClassName" test_com_class_name: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "SessionTimeoutMinutes" session_timeout_minutes: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "WarnBeforeSessionTimeoutMinutes" warn_before_session_timeout_minutes: f64,
        "SessionTimeoutRedirectLink" session_timeout_redirect_link: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "CountOfRetriesInCaseDeadlock" count_of_retries_in_case_deadlock: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "DelayInMillisecondsBetweenRetriesInCaseDeadlock" delay_in_milliseconds_between_retries_in_case_deadlock: f64,
        // Set by SSO Management (spec 03 "SSO Management"): the shell's SSO mode and the health
        // record sign-in.
        "IsSsoMode" is_sso_mode: bool,
        "IsCernerOAuthEnabled" is_cerner_oauth_enabled: bool,
        /// Spec 02 §2: hides the secondary recovery options on the sign-in pages.
        "DisableSecondaryRecoveryOptions" disable_secondary_recovery_options: bool,
        /// Spec 02 §3 setup: MD5 or SHA256 (kept for the clinical system's hashes).
        "PasswordEncriptionTechnique" password_encription_technique: String,
        "TestUserSsn" test_user_ssn: String,
        "TestUserEmail" test_user_email: String,
        // Spec 02 §3 setup: the Windows account the portal's services run as.
        "SERVICE_ACCOUNT_DOMAIN" service_account_domain: String,
        "SERVICE_ACCOUNT_USERNAME" service_account_username: String,
        "SERVICE_ACCOUNT_PASSWORD" service_account_password: String,
    }
}

impl Default for CorePortal {
    fn default() -> Self {
        CorePortal {
            client_name: "Demo Breast Imaging".into(),
            portal_sql_server_name: String::new(),
            portal_sql_db_name: String::new(),
            portal_integrated_security: false,
            portal_sql_user_name: String::new(),
            portal_sql_user_pwd: String::new(),
            public_web_address: String::new(),
            techpad_history_is_prod_com_id: true,
            prod_com_class_name: String::new(),
            test_com_class_name: String::new(),
            session_timeout_minutes: DEFAULT_SESSION_TIMEOUT_MINUTES as f64,
            warn_before_session_timeout_minutes: 2.0,
            session_timeout_redirect_link: String::new(),
            count_of_retries_in_case_deadlock: 3.0,
            delay_in_milliseconds_between_retries_in_case_deadlock: 200.0,
            is_sso_mode: false,
            is_cerner_oauth_enabled: false,
            disable_secondary_recovery_options: false,
            password_encription_technique: "SHA256".into(),
            test_user_ssn: String::new(),
            test_user_email: String::new(),
            service_account_domain: String::new(),
            service_account_username: String::new(),
            service_account_password: String::new(),
        }
    }
}

impl CorePortal {
    /// The session length in minutes (a stored value below 1 falls back to the default).
    pub fn session_minutes(&self) -> i64 {
        let m = self.session_timeout_minutes;
        if m.is_finite() && m >= 1.0 {
            m as i64
        } else {
            DEFAULT_SESSION_TIMEOUT_MINUTES
        }
    }
}

impl SettingsGroup for CorePortal {
    const NAME: &'static str = "CorePortal";
    const SECRETS: &'static [&'static str] = &["PortalSqlUserPwd", "SERVICE_ACCOUNT_PASSWORD"];
    /// The site's database, public address and COM IDs are its own to enter (spec 03 §5).
    const DEFAULTS_ARE_COMPLETE: bool = false;

    /// Spec 03 §2: login and password show only for SQL Server authentication.
    fn hidden(&self) -> Vec<&'static str> {
        if self.portal_integrated_security {
            vec!["PortalSqlUserName", "PortalSqlUserPwd"]
        } else {
            Vec::new()
        }
    }

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        required_text(
            &mut e,
            "ClientName",
            &self.client_name,
            200,
            Some(CLIENT_NAME_EMPTY),
        );
        // Spec 03 §5: server and database; login and password only for SQL authentication
        // (a kept secret reaches this check as a stand-in, so a stored password passes).
        required_text(
            &mut e,
            "PortalSqlServerName",
            &self.portal_sql_server_name,
            256,
            Some(SERVER_NAME_REQUIRED),
        );
        required_text(
            &mut e,
            "PortalSqlDbName",
            &self.portal_sql_db_name,
            128,
            Some(DB_NAME_REQUIRED),
        );
        if self.portal_integrated_security {
            text(&mut e, "PortalSqlUserName", &self.portal_sql_user_name, 128);
            text(&mut e, "PortalSqlUserPwd", &self.portal_sql_user_pwd, 256);
        } else {
            required_text(
                &mut e,
                "PortalSqlUserName",
                &self.portal_sql_user_name,
                128,
                Some(SQL_LOGIN_REQUIRED),
            );
            required_text(
                &mut e,
                "PortalSqlUserPwd",
                &self.portal_sql_user_pwd,
                256,
                Some(SQL_PASSWORD_REQUIRED),
            );
        }
        if self.public_web_address.trim().is_empty() {
            e.add("PublicWebAddress", PUBLIC_WEB_ADDRESS_REQUIRED);
        } else {
            web_address(&mut e, "PublicWebAddress", &self.public_web_address);
        }
        required_text(
            &mut e,
            "ProdComClassName",
            &self.prod_com_class_name,
            256,
            Some(COM_PROD_ID_REQUIRED),
        );
        required_text(
            &mut e,
            "TestComClassName",
            &self.test_com_class_name,
            256,
            Some(COM_TEST_ID_REQUIRED),
        );
        if self.session_timeout_minutes.is_nan() {
            e.add("SessionTimeoutMinutes", SESSION_TIMEOUT_REQUIRED);
        }
        if self.count_of_retries_in_case_deadlock.is_nan() {
            e.add("CountOfRetriesInCaseDeadlock", DEADLOCK_RETRIES_REQUIRED);
        }
        let timeout_ok = !self.session_timeout_minutes.is_nan()
            && whole(
                &mut e,
                "SessionTimeoutMinutes",
                self.session_timeout_minutes,
                Some(1),
                Some(1440),
                VALUE_CAN_NOT_BE_DECIMAL,
            );
        let warn_ok = whole(
            &mut e,
            "WarnBeforeSessionTimeoutMinutes",
            self.warn_before_session_timeout_minutes,
            Some(0),
            Some(1440),
            VALUE_CAN_NOT_BE_A_DECIMAL,
        );
        if timeout_ok
            && warn_ok
            && self.session_timeout_minutes <= self.warn_before_session_timeout_minutes
        {
            e.add(
                "WarnBeforeSessionTimeoutMinutes",
                WARNING_NOT_LESS_THAN_TIMEOUT,
            );
        }
        web_address(
            &mut e,
            "SessionTimeoutRedirectLink",
            &self.session_timeout_redirect_link,
        );
        if !self.count_of_retries_in_case_deadlock.is_nan() {
            whole(
                &mut e,
                "CountOfRetriesInCaseDeadlock",
                self.count_of_retries_in_case_deadlock,
                Some(0),
                Some(100),
                VALUE_CAN_NOT_BE_DECIMAL,
            );
        }
        whole(
            &mut e,
            "DelayInMillisecondsBetweenRetriesInCaseDeadlock",
            self.delay_in_milliseconds_between_retries_in_case_deadlock,
            Some(0),
            Some(60000),
            VALUE_CAN_NOT_BE_DECIMAL,
        );
        one_of(
            &mut e,
            "PasswordEncriptionTechnique",
            &self.password_encription_technique,
            &["", "MD5", "SHA256"],
        );
        text(&mut e, "TestUserSsn", &self.test_user_ssn, 64);
        text(
            &mut e,
            "SERVICE_ACCOUNT_DOMAIN",
            &self.service_account_domain,
            128,
        );
        text(
            &mut e,
            "SERVICE_ACCOUNT_USERNAME",
            &self.service_account_username,
            128,
        );
        text(
            &mut e,
            "SERVICE_ACCOUNT_PASSWORD",
            &self.service_account_password,
            256,
        );
        text(
            &mut e,
            "TestUserEmail",
            &self.test_user_email,
            checks::TEXT_MAX,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled() -> CorePortal {
        CorePortal {
            portal_sql_server_name: "127.0.0.1".into(),
            portal_sql_db_name: "portal".into(),
            portal_sql_user_name: "postgres".into(),
            portal_sql_user_pwd: "********".into(),
            public_web_address: "https://portal.example/".into(),
            prod_com_class_name: "Prod.Com".into(),
            test_com_class_name: "Test.Com".into(),
            ..Default::default()
        }
    }

    #[test]
    fn required_fields_and_sql_authentication() {
        assert!(filled().validate().is_valid());
        let e = CorePortal {
            session_timeout_minutes: f64::NAN,
            count_of_retries_in_case_deadlock: f64::NAN,
            ..Default::default()
        }
        .validate();
        assert_eq!(e.field("PortalSqlServerName"), [SERVER_NAME_REQUIRED]);
        assert_eq!(e.field("PortalSqlDbName"), [DB_NAME_REQUIRED]);
        assert_eq!(e.field("PortalSqlUserName"), [SQL_LOGIN_REQUIRED]);
        assert_eq!(e.field("PortalSqlUserPwd"), [SQL_PASSWORD_REQUIRED]);
        assert_eq!(e.field("PublicWebAddress"), [PUBLIC_WEB_ADDRESS_REQUIRED]);
        assert_eq!(e.field("ProdComClassName"), [COM_PROD_ID_REQUIRED]);
        assert_eq!(e.field("TestComClassName"), [COM_TEST_ID_REQUIRED]);
        assert_eq!(e.field("SessionTimeoutMinutes"), [SESSION_TIMEOUT_REQUIRED]);
        assert_eq!(
            e.field("CountOfRetriesInCaseDeadlock"),
            [DEADLOCK_RETRIES_REQUIRED]
        );
        // Windows authentication: no login or password asked, and none shown.
        let windows = CorePortal {
            portal_integrated_security: true,
            portal_sql_user_name: String::new(),
            portal_sql_user_pwd: String::new(),
            ..filled()
        };
        assert!(windows.validate().is_valid());
        assert_eq!(windows.hidden(), ["PortalSqlUserName", "PortalSqlUserPwd"]);
        assert!(filled().hidden().is_empty());
    }

    #[test]
    fn public_web_address_test_url_is_normalised() {
        assert_eq!(
            public_web_address_test_url("portal.example"),
            "http://portal.example/api/configuration/TestPublicWebAddress"
        );
        assert_eq!(
            public_web_address_test_url(" https://p.example/portal/ "),
            "https://p.example/portal/api/configuration/TestPublicWebAddress"
        );
        assert_eq!(public_web_address_test_url("  "), "");
        assert_eq!(
            new_database_message("portal2"),
            "Connection successfully established. NOTE! New database portal2 will be created."
        );
    }

    #[test]
    fn spec_messages() {
        let mut c = CorePortal {
            client_name: " ".into(),
            session_timeout_minutes: 1.5,
            warn_before_session_timeout_minutes: 0.5,
            ..Default::default()
        };
        let e = c.validate();
        assert_eq!(e.field("ClientName"), [CLIENT_NAME_EMPTY]);
        assert_eq!(e.field("SessionTimeoutMinutes"), [VALUE_CAN_NOT_BE_DECIMAL]);
        assert_eq!(
            e.field("WarnBeforeSessionTimeoutMinutes"),
            [VALUE_CAN_NOT_BE_A_DECIMAL]
        );
        c = CorePortal {
            session_timeout_minutes: 5.0,
            warn_before_session_timeout_minutes: 5.0,
            ..Default::default()
        };
        assert_eq!(
            c.validate().field("WarnBeforeSessionTimeoutMinutes"),
            [WARNING_NOT_LESS_THAN_TIMEOUT]
        );
    }
}
