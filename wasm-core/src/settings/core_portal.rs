//! CorePortal (spec 03 §3, "Core Settings > Portal"; §5 required fields and session values).

use super::checks::{self, *};
use super::SettingsGroup;
use crate::ValidationErrors;

/// Spec 03 §5.
pub const CLIENT_NAME_EMPTY: &str = "Client Name field can not be empty";
/// Spec 03 §5: the warning must come before the session ends.
pub const WARNING_NOT_LESS_THAN_TIMEOUT: &str =
    "Warning before session timeout should be less than session timeout";
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

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        required_text(
            &mut e,
            "ClientName",
            &self.client_name,
            200,
            Some(CLIENT_NAME_EMPTY),
        );
        text(
            &mut e,
            "PortalSqlServerName",
            &self.portal_sql_server_name,
            256,
        );
        text(&mut e, "PortalSqlDbName", &self.portal_sql_db_name, 128);
        text(&mut e, "PortalSqlUserName", &self.portal_sql_user_name, 128);
        text(&mut e, "PortalSqlUserPwd", &self.portal_sql_user_pwd, 256);
        web_address(&mut e, "PublicWebAddress", &self.public_web_address);
        text(&mut e, "ProdComClassName", &self.prod_com_class_name, 256);
        text(&mut e, "TestComClassName", &self.test_com_class_name, 256);
        let timeout_ok = whole(
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
        whole(
            &mut e,
            "CountOfRetriesInCaseDeadlock",
            self.count_of_retries_in_case_deadlock,
            Some(0),
            Some(100),
            VALUE_CAN_NOT_BE_DECIMAL,
        );
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
