//! Exports of the setup wizard's rules (spec 02 §4, §5): validateSetup, normalizeSetup, testUrl,
//! dmzModeFor, normalizeServiceAccount, normalizePublicAddress, validateFirstManager.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::users::list;
use super::{boolean, read, text, whole, write, ReadJs};
use crate::model::{
    FirstManager, FormCheck, KeyValue, LocationMrnColumn, SetupConfiguration, SetupNormalized,
    UserForm,
};
use crate::password::PasswordRequirements;
use crate::setup;
use crate::ValidationErrors;

impl ReadJs for SetupConfiguration {
    fn read_js(v: &JsValue) -> Self {
        let t = |k: &str| text(v, k);
        let b = |k: &str| boolean(v, k);
        let n = |k: &str| whole(v, k).unwrap_or(0);
        SetupConfiguration {
            client_name: t("ClientName"),
            public_web_address: t("PublicWebAddress"),
            reset_password_redirect_url: t("ResetPasswordRedirectUrl"),
            password_encription_technique: t("PasswordEncriptionTechnique"),
            test_user_ssn: t("TestUserSsn"),
            test_user_email: t("TestUserEmail"),
            mag_view_mode: t("MagViewMode"),
            mag_view_path: t("MagViewPath"),
            luminary_one_url: t("LuminaryOneUrl"),
            data_connection_type: t("DataConnectionType"),
            is_dmz_mode: b("IsDMZMode"),
            proxy_app_web_address: t("ProxyAppWebAddress"),
            mag_view_sql_server_name: t("MagViewSqlServerName"),
            mag_view_sql_db_name: t("MagViewSqlDbName"),
            mag_view_integrated_security: b("MagViewIntegratedSecurity"),
            mag_view_sql_user_name: t("MagViewSqlUserName"),
            mag_view_sql_user_pwd: t("MagViewSqlUserPwd"),
            is_linked_to_rad_view: b("IsLinkedToRadView"),
            rad_view_path: t("RadViewPath"),
            portal_sql_server_name: t("PortalSqlServerName"),
            portal_sql_db_name: t("PortalSqlDbName"),
            portal_integrated_security: b("PortalIntegratedSecurity"),
            portal_sql_user_name: t("PortalSqlUserName"),
            portal_sql_user_pwd: t("PortalSqlUserPwd"),
            notification_email_from: t("NOTIFICATION_EmailFrom"),
            notification_email_from_name: t("NOTIFICATION_EmailFromName"),
            notification_use_smtp_server: b("NOTIFICATION_UseSMTPServer"),
            notification_smtp_server: t("NOTIFICATION_SMTPServer"),
            notification_smtp_server_certificate: t("NOTIFICATION_SMTPServerCertificate"),
            notification_smtp_use_ssl: b("NOTIFICATION_SMTPUseSSL"),
            notification_use_alt_smtp_acct: b("NOTIFICATION_UseAltSmtpAcct"),
            notification_user_name: t("NOTIFICATION_UserName"),
            notification_password: t("NOTIFICATION_Password"),
            notification_port: n("NOTIFICATION_Port"),
            notification_timeout: n("NOTIFICATION_Timeout"),
            notification_email_enabled: b("NOTIFICATION_EmailEnabled"),
            notification_admin_email: t("NOTIFICATION_AdminEmail"),
            email_service_email_from: t("EMAIL_SERVICE_EmailFrom"),
            email_service_email_from_name: t("EMAIL_SERVICE_EmailFromName"),
            email_service_use_smtp_server: b("EMAIL_SERVICE_UseSMTPServer"),
            email_service_smtp_server: t("EMAIL_SERVICE_SMTPServer"),
            email_service_smtp_server_certificate: t("EMAIL_SERVICE_SMTPServerCertificate"),
            email_service_smtp_use_ssl: b("EMAIL_SERVICE_SMTPUseSSL"),
            email_service_use_alt_smtp_acct: b("EMAIL_SERVICE_UseAltSmtpAcct"),
            email_service_user_name: t("EMAIL_SERVICE_UserName"),
            email_service_password: t("EMAIL_SERVICE_Password"),
            email_service_port: n("EMAIL_SERVICE_Port"),
            email_service_timeout: n("EMAIL_SERVICE_Timeout"),
            email_service_email_enabled: b("EMAIL_SERVICE_EmailEnabled"),
            email_service_admin_email: t("EMAIL_SERVICE_AdminEmail"),
            service_account_domain: t("SERVICE_ACCOUNT_DOMAIN"),
            service_account_username: t("SERVICE_ACCOUNT_USERNAME"),
            service_account_password: t("SERVICE_ACCOUNT_PASSWORD"),
            service_account_password_confirm: t("SERVICE_ACCOUNT_PASSWORD_Confirm"),
            email_service_logging_mode: t("EmailServiceLoggingMode"),
            email_service_max_records_count_to_process: n("EmailServiceMaxRecordsCountToProcess"),
            is_email_service_test_mode: b("IsEmailServiceTestMode"),
            is_portal_enotify_logging_mode: b("IsPortalEnotifyLoggingMode"),
            email_service_not_found: b("EmailServiceNotFound"),
            survey_select_patient_mode: b("SURVEY_SELECT_PATIENT_MODE"),
            survey_admin_pin: t("SURVEY_ADMIN_PIN"),
            search_for_patient_using_alternate_user_identifier: b(
                "SearchForPatientUsingAlternateUserIdentifier",
            ),
            location_to_mrn_column_mapping: list(v, "LocationToMrnColumnMapping")
                .iter()
                .map(|row| LocationMrnColumn {
                    loc_num: text(row, "LocNum"),
                    column: text(row, "Column"),
                })
                .collect(),
            is_interface_queue_enabled_for_survey_start: b("IsInterfaceQueueEnabledForSurveyStart"),
            survey_start_interface_queue_path: t("SurveyStartInterfaceQueuePath"),
            survey_start_interface_queue_message_type: t("SurveyStartInterfaceQueueMessageType"),
            is_interface_queue_enabled_for_survey_submit: b(
                "IsInterfaceQueueEnabledForSurveySubmit",
            ),
            survey_submit_interface_queue_path: t("SurveySubmitInterfaceQueuePath"),
            survey_submit_interface_queue_message_type: t("SurveySubmitInterfaceQueueMessageType"),
            survey_per_location: list(v, "SurveyPerLocation")
                .iter()
                .map(|row| KeyValue {
                    key: text(row, "Key"),
                    value: text(row, "Value"),
                })
                .collect(),
            stored_secrets: list(v, "StoredSecrets")
                .iter()
                .filter_map(JsValue::as_string)
                .collect(),
        }
    }
}

#[wasm_bindgen(js_name = validateSetup)]
pub fn validate_setup(cfg: Ts<SetupConfiguration>) -> Ts<FormCheck> {
    write(&setup::validate_setup(&read(&cfg)))
}

/// The normalised fields only; `{...cfg, ...normalizeSetup(cfg)}` is the configuration as saved.
#[wasm_bindgen(js_name = normalizeSetup)]
pub fn normalize_setup(cfg: Ts<SetupConfiguration>) -> Ts<SetupNormalized> {
    write(&setup::normalized_fields(&read(&cfg)))
}

#[wasm_bindgen(js_name = testUrl)]
pub fn test_url(url: &str) -> String {
    setup::test_url(url)
}

#[wasm_bindgen(js_name = dmzModeFor)]
pub fn dmz_mode_for(
    #[wasm_bindgen(js_name = dataConnectionType)] data_connection_type: &str,
    #[wasm_bindgen(js_name = isDmzMode)] is_dmz_mode: bool,
) -> bool {
    setup::dmz_mode_for(data_connection_type, is_dmz_mode)
}

#[wasm_bindgen(js_name = normalizeServiceAccount)]
pub fn normalize_service_account(name: &str) -> String {
    setup::normalize_service_account(name)
}

#[wasm_bindgen(js_name = normalizePublicAddress)]
pub fn normalize_public_address(url: &str) -> String {
    setup::normalize_public_address(url)
}

impl ReadJs for FirstManager {
    fn read_js(v: &JsValue) -> Self {
        FirstManager {
            form: UserForm::read_js(v),
            password: text(v, "Password"),
            password_repeat: text(v, "PasswordRepeat"),
        }
    }
}

/// The first Program manager's account as the server checks it (spec 02 §4); `rules` null while
/// the password rules are not loaded (the password's own rules are skipped then). Messages are
/// keyed `FirstManager.<field>`.
#[wasm_bindgen(js_name = validateFirstManager)]
pub fn validate_first_manager(
    // The wizard sends only the fields it asks for; the others read as empty.
    #[wasm_bindgen(unchecked_param_type = "Partial<FirstManager>")] manager: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PasswordRequirements | null | undefined")]
    rules: JsValue,
    #[wasm_bindgen(js_name = usernameTaken)] username_taken: bool,
) -> Ts<ValidationErrors> {
    let rules =
        (!rules.is_null() && !rules.is_undefined()).then(|| PasswordRequirements::read_js(&rules));
    write(&setup::validate_first_manager(
        &FirstManager::read_js(&manager),
        rules.as_ref(),
        username_taken,
    ))
}
