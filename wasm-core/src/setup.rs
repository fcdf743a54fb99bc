//! The first-run setup wizard's rules (spec 02 §4 "Setup wizard", §5 "Setup configuration save"):
//! what refuses a save (the toast 'Not all necessary fields were filled with data' for the survey
//! rows, field messages for the rest), the normalisation applied on save (service account user
//! name, public address, FoxPro forcing DMZ off) and the address a test button calls.

use crate::membership;
use crate::model::{FirstManager, FormCheck, Role, SetupConfiguration, SetupNormalized, UserForm};
use crate::password::{self, PasswordRequirements};
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
