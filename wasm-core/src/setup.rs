//! The first-run setup wizard's rules (spec 02 §4 "Setup wizard", §5 "Setup configuration save"):
//! what refuses a save (the toast 'Not all necessary fields were filled with data' for the survey
//! rows, field messages for the rest), the normalisation applied on save (service account user
//! name, public address, FoxPro forcing DMZ off) and the address a test button calls.

use crate::membership;
use crate::model::{FirstManager, FormCheck, Role, SetupConfiguration, SetupNormalized, UserForm};
use crate::password::{self, PasswordRequirements};
use crate::settings::core_email_service::CoreEmailService;
use crate::settings::core_magview::CoreMagview;
use crate::settings::core_notifications::CoreNotifications;
use crate::settings::core_portal::CorePortal;
use crate::settings::core_survey::CoreSurvey;
use crate::settings::user_account_password::UserAccountPassword;
use crate::settings::SettingsGroup;
use crate::validation::{is_blank, ValidationErrors};

pub const NOT_ALL_FILLED: &str = "Not all necessary fields were filled with data";
pub const CLIENT_NAME_REQUIRED: &str = "Client Name field is required";
pub const PASSWORDS_NOT_MATCHING: &str = "Passwords are not matching";
pub const LUMINARY_ONE_URL_REQUIRED: &str = "LuminaryOne URL is required";
pub const MAGVIEW_PATH_REQUIRED: &str = "MagView path is required";
pub const SERVER_NAME_REQUIRED: &str = "Server name is required";
pub const DB_NAME_REQUIRED: &str = "Database name is required";
pub const SQL_LOGIN_REQUIRED: &str = "SQL login is required";
pub const SQL_PASSWORD_REQUIRED: &str = "SQL password is required";

/// Field prefix of the first manager's messages (`FirstManager.Username`, ...).
pub const FIRST_MANAGER: &str = "FirstManager";
pub const FIRST_MANAGER_REQUIRED: &str = "The first Program manager account is required";
pub const FIRST_MANAGER_EXISTS: &str =
    "A Program manager account already exists: add users in User Management";

pub const LUMINARY_ONE: &str = "LuminaryOne";
pub const MAGVIEW_DESKTOP: &str = "MagViewDesktop";
pub const FOXPRO: &str = "FOXPRO";
pub const SQL: &str = "SQL";

/// The secret fields: answered empty by the server, kept when saved empty.
pub const SECRET_FIELDS: [&str; 5] = [
    "MagViewSqlUserPwd",
    "PortalSqlUserPwd",
    "NOTIFICATION_Password",
    "EMAIL_SERVICE_Password",
    "SERVICE_ACCOUNT_PASSWORD",
];

fn has_secret(cfg: &SetupConfiguration, field: &str, value: &str) -> bool {
    !value.is_empty() || cfg.stored_secrets.iter().any(|s| s == field)
}

/// Checks a configuration before it is saved. Field messages are filed under the field names;
/// the toast is set when any survey rule failed (and then the save is refused too).
pub fn validate_setup(cfg: &SetupConfiguration) -> FormCheck {
    let mut errors = ValidationErrors::new();
    errors.check(
        is_blank(&cfg.client_name),
        "ClientName",
        CLIENT_NAME_REQUIRED,
    );

    if cfg.mag_view_mode == LUMINARY_ONE {
        errors.check(
            is_blank(&cfg.luminary_one_url),
            "LuminaryOneUrl",
            LUMINARY_ONE_URL_REQUIRED,
        );
    } else {
        errors.check(
            is_blank(&cfg.mag_view_path),
            "MagViewPath",
            MAGVIEW_PATH_REQUIRED,
        );
        if cfg.data_connection_type != FOXPRO {
            errors.check(
                is_blank(&cfg.mag_view_sql_server_name),
                "MagViewSqlServerName",
                SERVER_NAME_REQUIRED,
            );
            errors.check(
                is_blank(&cfg.mag_view_sql_db_name),
                "MagViewSqlDbName",
                DB_NAME_REQUIRED,
            );
            if !cfg.mag_view_integrated_security {
                errors.check(
                    is_blank(&cfg.mag_view_sql_user_name),
                    "MagViewSqlUserName",
                    SQL_LOGIN_REQUIRED,
                );
                errors.check(
                    !has_secret(cfg, "MagViewSqlUserPwd", &cfg.mag_view_sql_user_pwd),
                    "MagViewSqlUserPwd",
                    SQL_PASSWORD_REQUIRED,
                );
            }
        }
    }

    errors.check(
        is_blank(&cfg.portal_sql_server_name),
        "PortalSqlServerName",
        SERVER_NAME_REQUIRED,
    );
    errors.check(
        is_blank(&cfg.portal_sql_db_name),
        "PortalSqlDbName",
        DB_NAME_REQUIRED,
    );
    if !cfg.portal_integrated_security {
        errors.check(
            is_blank(&cfg.portal_sql_user_name),
            "PortalSqlUserName",
            SQL_LOGIN_REQUIRED,
        );
        errors.check(
            !has_secret(cfg, "PortalSqlUserPwd", &cfg.portal_sql_user_pwd),
            "PortalSqlUserPwd",
            SQL_PASSWORD_REQUIRED,
        );
    }

    errors.check(
        cfg.service_account_password != cfg.service_account_password_confirm,
        "SERVICE_ACCOUNT_PASSWORD_Confirm",
        PASSWORDS_NOT_MATCHING,
    );

    let survey_incomplete = (cfg.survey_select_patient_mode && is_blank(&cfg.survey_admin_pin))
        || (cfg.search_for_patient_using_alternate_user_identifier
            && cfg
                .location_to_mrn_column_mapping
                .iter()
                .any(|row| is_blank(&row.loc_num) || is_blank(&row.column)))
        || (cfg.is_interface_queue_enabled_for_survey_start
            && (is_blank(&cfg.survey_start_interface_queue_path)
                || is_blank(&cfg.survey_start_interface_queue_message_type)))
        || (cfg.is_interface_queue_enabled_for_survey_submit
            && (is_blank(&cfg.survey_submit_interface_queue_path)
                || is_blank(&cfg.survey_submit_interface_queue_message_type)))
        || cfg
            .survey_per_location
            .iter()
            .any(|row| is_blank(&row.key) || is_blank(&row.value));
    if survey_incomplete {
        errors.add("Survey", NOT_ALL_FILLED);
    }
    FormCheck {
        is_valid: errors.is_valid(),
        toast: survey_incomplete.then(|| NOT_ALL_FILLED.to_owned()),
        errors,
    }
}

/// The service account user name as saved: any domain prefix (`DOMAIN\`) dropped and a
/// backslash put in front. Empty stays empty.
pub fn normalize_service_account(name: &str) -> String {
    let name = name.trim();
    let bare = name.rsplit('\\').next().unwrap_or("").trim();
    if bare.is_empty() {
        String::new()
    } else {
        format!("\\{bare}")
    }
}

/// The public address as saved: `http://` put in front when it has no http(s) scheme.
pub fn normalize_public_address(url: &str) -> String {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    if url.is_empty() || lower.starts_with("http://") || lower.starts_with("https://") {
        url.to_owned()
    } else {
        format!("http://{url}")
    }
}

/// The address a test button calls: the web address with a trailing slash.
pub fn test_url(url: &str) -> String {
    let url = url.trim();
    if url.is_empty() || url.ends_with('/') {
        url.to_owned()
    } else {
        format!("{url}/")
    }
}

/// FoxPro forces DMZ mode off (spec 02 §4).
pub fn dmz_mode_for(data_connection_type: &str, is_dmz_mode: bool) -> bool {
    is_dmz_mode && data_connection_type != FOXPRO
}

/// The fields that saving normalises, with their saved values.
pub fn normalized_fields(cfg: &SetupConfiguration) -> SetupNormalized {
    SetupNormalized {
        client_name: cfg.client_name.trim().to_owned(),
        public_web_address: normalize_public_address(&cfg.public_web_address),
        is_dmz_mode: dmz_mode_for(&cfg.data_connection_type, cfg.is_dmz_mode),
        service_account_username: normalize_service_account(&cfg.service_account_username),
    }
}

/// The configuration as it is saved: the normalisations above applied.
pub fn normalize_setup(cfg: &SetupConfiguration) -> SetupConfiguration {
    let n = normalized_fields(cfg);
    let mut out = cfg.clone();
    out.client_name = n.client_name;
    out.service_account_username = n.service_account_username;
    out.public_web_address = n.public_web_address;
    out.is_dmz_mode = n.is_dmz_mode;
    // A choice left out of the request takes the form's default (the CoreEmailService rule
    // accepts only DEBUG, RELEASE or DISABLED).
    if out.email_service_logging_mode.trim().is_empty() {
        out.email_service_logging_mode = "RELEASE".to_owned();
    }
    out
}

/// The settings groups the configuration is stored in, in the order the server writes them.
pub const GROUPS: [&str; 6] = [
    CorePortal::NAME,
    CoreMagview::NAME,
    CoreNotifications::NAME,
    CoreEmailService::NAME,
    UserAccountPassword::NAME,
    CoreSurvey::NAME,
];

/// Which settings group a configuration field is stored in, and under which key (none for the
/// fields that are not stored: StoredSecrets and the password confirmation).
pub fn group_of(field: &str) -> Option<(&'static str, String)> {
    if field == "StoredSecrets" || field == "SERVICE_ACCOUNT_PASSWORD_Confirm" {
        return None;
    }
    if let Some(rest) = field.strip_prefix("NOTIFICATION_") {
        return Some((CoreNotifications::NAME, rest.to_owned()));
    }
    if let Some(rest) = field.strip_prefix("EMAIL_SERVICE_") {
        return Some((CoreEmailService::NAME, rest.to_owned()));
    }
    let group = match field {
        "MagViewMode"
        | "MagViewPath"
        | "LuminaryOneUrl"
        | "DataConnectionType"
        | "IsDMZMode"
        | "ProxyAppWebAddress"
        | "MagViewSqlServerName"
        | "MagViewSqlDbName"
        | "MagViewIntegratedSecurity"
        | "MagViewSqlUserName"
        | "MagViewSqlUserPwd"
        | "IsLinkedToRadView"
        | "RadViewPath" => CoreMagview::NAME,
        "EmailServiceLoggingMode"
        | "EmailServiceMaxRecordsCountToProcess"
        | "IsEmailServiceTestMode"
        | "IsPortalEnotifyLoggingMode"
        | "EmailServiceNotFound" => CoreEmailService::NAME,
        "ResetPasswordRedirectUrl" => UserAccountPassword::NAME,
        f if f.starts_with("SURVEY_")
            || f.starts_with("Survey")
            || f.contains("InterfaceQueue")
            || f == "SearchForPatientUsingAlternateUserIdentifier"
            || f == "LocationToMrnColumnMapping" =>
        {
            CoreSurvey::NAME
        }
        _ => CorePortal::NAME,
    };
    Some((group, field.to_owned()))
}

/// The configuration's name of key `key` of group `group` (`Port` of CoreNotifications is
/// `NOTIFICATION_Port`): the inverse of [`group_of`].
pub fn setup_field_of(group: &str, key: &str) -> Option<String> {
    [
        key.to_owned(),
        format!("NOTIFICATION_{key}"),
        format!("EMAIL_SERVICE_{key}"),
    ]
    .into_iter()
    .find(|field| matches!(group_of(field), Some((g, k)) if g == group && k == key))
}

/// Group `group`'s messages (its settings engine check, run when the configuration is saved)
/// under the configuration's names of their fields, so the wizard shows them under its own
/// fields (a row's `List.0.Name` keeps its row path). A field the configuration has no name for
/// keeps its own.
pub fn under_setup_names(group: &str, errors: ValidationErrors) -> ValidationErrors {
    let mut renamed = ValidationErrors::new();
    for (field, messages) in errors.0 {
        let (top, rest) = field.split_once('.').unwrap_or((field.as_str(), ""));
        // Whole-group messages ("") stay the whole form's.
        let name = match setup_field_of(group, top).filter(|_| !top.is_empty()) {
            Some(name) if rest.is_empty() => name,
            Some(name) => format!("{name}.{rest}"),
            None => field.clone(),
        };
        for message in messages {
            renamed.add(&name, message);
        }
    }
    renamed
}

/// The first Program manager's account (spec 02 §4): the user form's rules for a Program manager,
/// the password rules (`rules`; `None` while the wizard has not loaded them yet: the server
/// always passes them), the repeat, and `username_taken` (the caller looked the name up) when the
/// username is otherwise fine. Messages are keyed `FirstManager.<field>`.
pub fn validate_first_manager(
    manager: &FirstManager,
    rules: Option<&PasswordRequirements>,
    username_taken: bool,
) -> ValidationErrors {
    let form = UserForm {
        roles: vec![Role::ProgramManager.as_str().to_owned()],
        ..manager.form.clone()
    };
    let mut own = membership::validate_user(&form).errors;
    if let Some(rules) = rules {
        own.merge(password::validate_password(
            "Password",
            &manager.password,
            rules,
        ));
    }
    for message in
        password::validate_password_repeat(&manager.password, &manager.password_repeat).messages()
    {
        own.add("PasswordRepeat", message);
    }
    if own.field("Username").is_empty() {
        own.check(username_taken, "Username", membership::USERNAME_TAKEN);
    }
    let mut errors = ValidationErrors::new();
    for (field, messages) in own.0 {
        for message in messages {
            errors.add(&format!("{FIRST_MANAGER}.{field}"), message);
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_fields_have_the_configurations_names() {
        assert_eq!(
            group_of("NOTIFICATION_Port"),
            Some((CoreNotifications::NAME, "Port".to_owned()))
        );
        assert_eq!(
            setup_field_of(CoreNotifications::NAME, "Port").as_deref(),
            Some("NOTIFICATION_Port")
        );
        assert_eq!(
            setup_field_of(CoreEmailService::NAME, "Timeout").as_deref(),
            Some("EMAIL_SERVICE_Timeout")
        );
        assert_eq!(
            setup_field_of(CoreEmailService::NAME, "EmailServiceLoggingMode").as_deref(),
            Some("EmailServiceLoggingMode")
        );
        assert_eq!(
            setup_field_of(CoreSurvey::NAME, "SurveyPerLocation").as_deref(),
            Some("SurveyPerLocation")
        );
        assert_eq!(setup_field_of(CoreMagview::NAME, "NoSuchField"), None);
        let mut errors = ValidationErrors::new();
        errors.add("Port", "Must be at most 65535");
        errors.add("", "whole group");
        let renamed = under_setup_names(CoreNotifications::NAME, errors);
        assert_eq!(
            renamed.field("NOTIFICATION_Port"),
            ["Must be at most 65535"]
        );
        assert_eq!(renamed.field(""), ["whole group"]);
        let mut errors = ValidationErrors::new();
        errors.add("SurveyPerLocation.0.Key", "Required");
        let renamed = under_setup_names(CoreSurvey::NAME, errors);
        assert_eq!(renamed.field("SurveyPerLocation.0.Key"), ["Required"]);
    }

    #[test]
    fn service_account() {
        assert_eq!(normalize_service_account("CORP\\svc"), "\\svc");
        assert_eq!(normalize_service_account("svc"), "\\svc");
        assert_eq!(normalize_service_account("\\svc"), "\\svc");
        assert_eq!(normalize_service_account(" "), "");
        assert_eq!(normalize_service_account("CORP\\"), "");
    }

    #[test]
    fn urls() {
        assert_eq!(
            normalize_public_address("portal.example.com"),
            "http://portal.example.com"
        );
        assert_eq!(normalize_public_address("HTTPS://x"), "HTTPS://x");
        assert_eq!(test_url("http://x"), "http://x/");
        assert_eq!(test_url("http://x/"), "http://x/");
        assert!(!dmz_mode_for(FOXPRO, true) && dmz_mode_for(SQL, true));
    }
}
