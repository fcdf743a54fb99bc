//! The first-run setup configuration (spec 02 §3 "Setup configuration settings"), saved as one
//! object. Secret fields (passwords) travel only from the browser to the server: the server
//! answers them empty and lists the ones it holds in `StoredSecrets`; an empty secret on save
//! keeps the stored one.

use crate::model::UserForm;
use crate::wire;

wire! {
    /// The first Program manager's account, sent with the wizard's first save as `FirstManager`
    /// (spec 02 §4): the user form's fields and the password twice.
    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct FirstManager {
        #[serde(flatten)]
        pub form: UserForm,
        #[serde(default)]
        pub password: String,
        #[serde(default)]
        pub password_repeat: String,
    }
}

crate::settings_struct! {
    #[derive(Default)]
    pub struct LocationMrnColumn {
        "LocNum" loc_num: String,
        "Column" column: String,
    }
}

crate::settings_struct! {
    #[derive(Default)]
    pub struct KeyValue {
        "Key" key: String,
        "Value" value: String,
    }
}

wire! {
    #[serde(default)]
    #[derive(Default)]
    pub struct SetupConfiguration {
        // General
        #[serde(rename = "ClientName")] pub client_name: String,
        #[serde(rename = "PublicWebAddress")] pub public_web_address: String,
        #[serde(rename = "ResetPasswordRedirectUrl")] pub reset_password_redirect_url: String,
        /// MD5 or SHA256.
        #[serde(rename = "PasswordEncriptionTechnique")] pub password_encription_technique: String,
        #[serde(rename = "TestUserSsn")] pub test_user_ssn: String,
        #[serde(rename = "TestUserEmail")] pub test_user_email: String,
        // Clinical system
        /// MagViewDesktop or LuminaryOne.
        #[serde(rename = "MagViewMode")] pub mag_view_mode: String,
        #[serde(rename = "MagViewPath")] pub mag_view_path: String,
        #[serde(rename = "LuminaryOneUrl")] pub luminary_one_url: String,
        /// SQL or FOXPRO.
        #[serde(rename = "DataConnectionType")] pub data_connection_type: String,
        #[serde(rename = "IsDMZMode")] pub is_dmz_mode: bool,
        #[serde(rename = "ProxyAppWebAddress")] pub proxy_app_web_address: String,
        #[serde(rename = "MagViewSqlServerName")] pub mag_view_sql_server_name: String,
        #[serde(rename = "MagViewSqlDbName")] pub mag_view_sql_db_name: String,
        #[serde(rename = "MagViewIntegratedSecurity")] pub mag_view_integrated_security: bool,
        #[serde(rename = "MagViewSqlUserName")] pub mag_view_sql_user_name: String,
        #[serde(rename = "MagViewSqlUserPwd")] pub mag_view_sql_user_pwd: String,
        #[serde(rename = "IsLinkedToRadView")] pub is_linked_to_rad_view: bool,
        #[serde(rename = "RadViewPath")] pub rad_view_path: String,
        // Portal database
        #[serde(rename = "PortalSqlServerName")] pub portal_sql_server_name: String,
        #[serde(rename = "PortalSqlDbName")] pub portal_sql_db_name: String,
        #[serde(rename = "PortalIntegratedSecurity")] pub portal_integrated_security: bool,
        #[serde(rename = "PortalSqlUserName")] pub portal_sql_user_name: String,
        #[serde(rename = "PortalSqlUserPwd")] pub portal_sql_user_pwd: String,
        // Notification settings
        #[serde(rename = "NOTIFICATION_EmailFrom")] pub notification_email_from: String,
        #[serde(rename = "NOTIFICATION_EmailFromName")] pub notification_email_from_name: String,
        #[serde(rename = "NOTIFICATION_UseSMTPServer")] pub notification_use_smtp_server: bool,
        #[serde(rename = "NOTIFICATION_SMTPServer")] pub notification_smtp_server: String,
        #[serde(rename = "NOTIFICATION_SMTPServerCertificate")] pub notification_smtp_server_certificate: String,
        #[serde(rename = "NOTIFICATION_SMTPUseSSL")] pub notification_smtp_use_ssl: bool,
        #[serde(rename = "NOTIFICATION_UseAltSmtpAcct")] pub notification_use_alt_smtp_acct: bool,
        #[serde(rename = "NOTIFICATION_UserName")] pub notification_user_name: String,
        #[serde(rename = "NOTIFICATION_Password")] pub notification_password: String,
        #[serde(rename = "NOTIFICATION_Port")] pub notification_port: u32,
        #[serde(rename = "NOTIFICATION_Timeout")] pub notification_timeout: u32,
        #[serde(rename = "NOTIFICATION_EmailEnabled")] pub notification_email_enabled: bool,
        #[serde(rename = "NOTIFICATION_AdminEmail")] pub notification_admin_email: String,
        // Email service settings
        #[serde(rename = "EMAIL_SERVICE_EmailFrom")] pub email_service_email_from: String,
        #[serde(rename = "EMAIL_SERVICE_EmailFromName")] pub email_service_email_from_name: String,
        #[serde(rename = "EMAIL_SERVICE_UseSMTPServer")] pub email_service_use_smtp_server: bool,
        #[serde(rename = "EMAIL_SERVICE_SMTPServer")] pub email_service_smtp_server: String,
        #[serde(rename = "EMAIL_SERVICE_SMTPServerCertificate")] pub email_service_smtp_server_certificate: String,
        #[serde(rename = "EMAIL_SERVICE_SMTPUseSSL")] pub email_service_smtp_use_ssl: bool,
        #[serde(rename = "EMAIL_SERVICE_UseAltSmtpAcct")] pub email_service_use_alt_smtp_acct: bool,
        #[serde(rename = "EMAIL_SERVICE_UserName")] pub email_service_user_name: String,
        #[serde(rename = "EMAIL_SERVICE_Password")] pub email_service_password: String,
        #[serde(rename = "EMAIL_SERVICE_Port")] pub email_service_port: u32,
        #[serde(rename = "EMAIL_SERVICE_Timeout")] pub email_service_timeout: u32,
        #[serde(rename = "EMAIL_SERVICE_EmailEnabled")] pub email_service_email_enabled: bool,
        #[serde(rename = "EMAIL_SERVICE_AdminEmail")] pub email_service_admin_email: String,
        // Service account
        #[serde(rename = "SERVICE_ACCOUNT_DOMAIN")] pub service_account_domain: String,
        #[serde(rename = "SERVICE_ACCOUNT_USERNAME")] pub service_account_username: String,
        #[serde(rename = "SERVICE_ACCOUNT_PASSWORD")] pub service_account_password: String,
        #[serde(rename = "SERVICE_ACCOUNT_PASSWORD_Confirm")] pub service_account_password_confirm: String,
        // Email service behaviour
        /// DEBUG, RELEASE or DISABLED.
        #[serde(rename = "EmailServiceLoggingMode")] pub email_service_logging_mode: String,
        #[serde(rename = "EmailServiceMaxRecordsCountToProcess")] pub email_service_max_records_count_to_process: u32,
        #[serde(rename = "IsEmailServiceTestMode")] pub is_email_service_test_mode: bool,
        #[serde(rename = "IsPortalEnotifyLoggingMode")] pub is_portal_enotify_logging_mode: bool,
        #[serde(rename = "EmailServiceNotFound")] pub email_service_not_found: bool,
        // Survey
        #[serde(rename = "SURVEY_SELECT_PATIENT_MODE")] pub survey_select_patient_mode: bool,
        #[serde(rename = "SURVEY_ADMIN_PIN")] pub survey_admin_pin: String,
        #[serde(rename = "SearchForPatientUsingAlternateUserIdentifier")] pub search_for_patient_using_alternate_user_identifier: bool,
        #[serde(rename = "LocationToMrnColumnMapping")] pub location_to_mrn_column_mapping: Vec<LocationMrnColumn>,
        #[serde(rename = "IsInterfaceQueueEnabledForSurveyStart")] pub is_interface_queue_enabled_for_survey_start: bool,
        #[serde(rename = "SurveyStartInterfaceQueuePath")] pub survey_start_interface_queue_path: String,
        #[serde(rename = "SurveyStartInterfaceQueueMessageType")] pub survey_start_interface_queue_message_type: String,
        #[serde(rename = "IsInterfaceQueueEnabledForSurveySubmit")] pub is_interface_queue_enabled_for_survey_submit: bool,
        #[serde(rename = "SurveySubmitInterfaceQueuePath")] pub survey_submit_interface_queue_path: String,
        #[serde(rename = "SurveySubmitInterfaceQueueMessageType")] pub survey_submit_interface_queue_message_type: String,
        #[serde(rename = "SurveyPerLocation")] pub survey_per_location: Vec<KeyValue>,
        /// Names of the secret fields the server already holds (set by the server only).
        #[serde(rename = "StoredSecrets")] pub stored_secrets: Vec<String>,
    }

    /// What saving changes in a configuration (wasm-core normalizeSetup); the page merges it
    /// into the whole object (a small result keeps the wasm file small).
    pub struct SetupNormalized {
        #[serde(rename = "ClientName")] pub client_name: String,
        #[serde(rename = "PublicWebAddress")] pub public_web_address: String,
        #[serde(rename = "IsDMZMode")] pub is_dmz_mode: bool,
        #[serde(rename = "SERVICE_ACCOUNT_USERNAME")] pub service_account_username: String,
    }

    /// A connection test payload (spec 02 §3 "Connection test payload").
    #[serde(default)]
    #[derive(Default)]
    pub struct ConnectionTest {
        #[serde(rename = "DataConnectionType")] pub data_connection_type: String,
        #[serde(rename = "SqlDbName")] pub sql_db_name: String,
        #[serde(rename = "SqlServerName")] pub sql_server_name: String,
        #[serde(rename = "SqlUserName")] pub sql_user_name: String,
        #[serde(rename = "SqlUserPwd")] pub sql_user_pwd: String,
        #[serde(rename = "IntegratedSecurity")] pub integrated_security: bool,
        #[serde(rename = "DbPath")] pub db_path: Option<String>,
    }

    /// The answer of every connection test (spec 02 §3: success, error, isDataBaseExist).
    #[serde(rename_all = "camelCase")]
    pub struct ConnectionTestResult {
        pub success: bool,
        pub error: Option<String>,
        pub is_data_base_exist: bool,
        /// The banner text the page shows (success, warning or failure).
        pub message: String,
    }
}

wire! {
    /// POST /api/configuration/saveConfiguration: the configuration, and while the portal is not
    /// configured the first program manager's account (created in the same transaction, so a
    /// portal is never configured without someone who can sign in to it).
    pub struct SaveConfigurationRequest {
        #[serde(flatten)]
        pub cfg: SetupConfiguration,
        #[serde(default, rename = "FirstManager")]
        pub first_manager: Option<FirstManager>,
    }

    /// The answer of a successful save (spec 02 §7.5: success, error; where to go next).
    pub struct SaveConfigurationResult {
        pub success: bool,
        pub error: Option<String>,
        #[serde(rename = "LaunchUrl")]
        pub launch_url: String,
        #[serde(rename = "PortalDatabaseCreated")]
        pub portal_database_created: bool,
        #[serde(rename = "FirstManagerCreated")]
        pub first_manager_created: bool,
    }

    /// POST /api/configuration/detectRadViewPath: the MagView database path (a folder, or a file
    /// in it).
    #[serde(default)]
    #[derive(Default)]
    pub struct RadViewDetectRequest {
        #[serde(rename = "DbPath", alias = "dbPath")]
        pub db_path: String,
    }

    /// The RadView path found, or why none was.
    #[serde(rename_all = "camelCase")]
    pub struct RadViewDetectResult {
        pub success: bool,
        pub rad_view_path: Option<String>,
        pub error: Option<String>,
    }

    /// POST /api/configuration/testFolder.
    #[serde(default)]
    #[derive(Default)]
    pub struct FolderTestRequest {
        #[serde(rename = "Path")]
        pub path: String,
    }

    /// POST /api/configuration/testWebAddress.
    #[serde(default)]
    #[derive(Default)]
    pub struct WebAddressTestRequest {
        #[serde(rename = "Url")]
        pub url: String,
    }

    /// POST /api/Event/LogUrlChange: a page change (a path of this portal).
    #[serde(default)]
    #[derive(Default)]
    pub struct LogUrlChangeRequest {
        #[serde(rename = "Url", alias = "url")]
        pub url: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct UrlChangeLogged {
        pub logged: bool,
    }
}
