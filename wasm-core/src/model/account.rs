//! Sign-in, permissions and session settings (spec 01 §3 "Permission flags", spec 02 §3).

use crate::wire;
use crate::ValidationErrors;

/// Reads `null` as the field's default (a lenient request body: see `LoginRequest`).
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de> + Default,
{
    Ok(<Option<T> as serde::Deserialize>::deserialize(deserializer)?.unwrap_or_default())
}

/// The roles of the portal. A user holds exactly one. Technologist (the techpad tablet app's
/// users, issue 18; spec 04 §6 leaves the roles open) reads the techpad configuration.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub enum Role {
    Patient,
    FrontDesk,
    ClientAdmin,
    ProgramManager,
    Technologist,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::Patient,
        Role::FrontDesk,
        Role::ClientAdmin,
        Role::ProgramManager,
        Role::Technologist,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Patient => "Patient",
            Role::FrontDesk => "FrontDesk",
            Role::ClientAdmin => "ClientAdmin",
            Role::ProgramManager => "ProgramManager",
            Role::Technologist => "Technologist",
        }
    }

    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(name))
    }

    /// Staff sign in at /staff/login, patients at /patient/login.
    pub fn is_staff(self) -> bool {
        self != Role::Patient
    }
}

wire! {
    /// GET /api/TestInit/isPortalConfigured
    #[serde(rename_all = "PascalCase")]
    pub struct PortalConfigured {
        pub is_portal_configured: bool,
    }

    /// POST /api/patientUser/login and /api/staffUser/login (spec 02 §3: camelCase fields).
    /// Missing or null fields read as empty so the login rule, not the JSON reader, reports
    /// them; a field of the wrong type is still refused by the reader (400).
    #[serde(rename_all = "camelCase")]
    pub struct LoginRequest {
        #[serde(default, deserialize_with = "null_as_default")]
        #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
        pub username_or_email: String,
        #[serde(default, deserialize_with = "null_as_default")]
        #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
        pub password: String,
        #[serde(default, deserialize_with = "null_as_default")]
        #[cfg_attr(feature = "schema", schemars(with = "Option<bool>"))]
        pub remember_me: bool,
        #[serde(default)]
        pub device_id: Option<String>,
        #[serde(default)]
        pub user_name: Option<String>,
    }

    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct LoginResponse {
        pub is_valid: bool,
        pub is_ask_username: bool,
        pub validation_errors: Vec<String>,
        /// UserAccountPassword IDFailureURL: where a locked-out user is sent (only when the
        /// account is locked out and the address is set).
        #[serde(rename = "IDFailureURL", default, skip_serializing_if = "String::is_empty")]
        pub id_failure_url: String,
        /// Staff two-step sign-in (issue 22): the password was right and no session exists yet;
        /// `Code` (enter a code, `POST /api/staffUser/mfa/verify`) or `Enrol` (set up an app
        /// first, `POST /api/staffUser/mfa/enrol`). Absent otherwise.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        pub mfa_step: String,
    }

    /// GET /api/accountApi/permissionsJson: who the signed-in user is.
    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct Permissions {
        pub is_program_manager: bool,
        pub is_client_admin: bool,
        pub is_patient: bool,
        pub is_front_desk: bool,
        pub is_impersonated: bool,
        pub is_sso_mode: bool,
        pub is_user_logged_in: bool,
        /// UserAccountSwitchUserOptions ShowFrontDeskReports ('Show Reports for ClientAdmin
        /// users', spec 03 §6): a client admin's menu has the reports.
        #[serde(default)]
        pub show_front_desk_reports: bool,
        /// A technologist (the techpad app's user); sent only when true (older clients' shape).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub is_technologist: bool,
    }

    /// GET /api/accountApi/apppermissionsJson: the licensed modules.
    pub struct ModulePermissions {
        #[serde(rename = "Module_Documents")]
        pub module_documents: bool,
        #[serde(rename = "Module_Appointments")]
        pub module_appointments: bool,
        #[serde(rename = "Module_MedicalHistory")]
        pub module_medical_history: bool,
        /// The survey kiosk (tablet): PIN start and staff start (spec 03 "License").
        #[serde(rename = "Module_TabletSurvey", default)]
        pub module_tablet_survey: bool,
    }

    /// GET /api/accountApi/mainMenuSettings
    #[derive(Default)]
    #[serde(rename_all = "PascalCase")]
    pub struct MainMenuSettings {
        #[serde(rename = "IsCernerOAuthEnabled")]
        pub is_cerner_oauth_enabled: bool,
        pub is_sso_mode: bool,
        pub disable_secondary_recovery_options: bool,
        /// UserAccountPassword DisableChangePasswordMenu: the user menu has no change-password link.
        #[serde(default)]
        pub disable_change_password_menu: bool,
        /// OtherSettings IsAllowedToShowEmailResetLink and its link text EmailResetLink.
        #[serde(default)]
        pub is_allowed_to_show_email_reset_link: bool,
        #[serde(default)]
        pub email_reset_link: String,
        /// OtherSettings IsAllowedToShowHelpButton (the body: GET /api/accountApi/helpContent).
        #[serde(default)]
        pub is_allowed_to_show_help_button: bool,
        /// OtherSettings IsAllowedToShowLoginLinkWhenSelfRegistered: the Account Created page
        /// offers its Log In link.
        #[serde(default)]
        pub is_allowed_to_show_login_link_when_self_registered: bool,
        /// OtherSettings UsersListSsnColumnName: the users list's title of the SSN (MRN) column
        /// (empty: "MRN").
        #[serde(default)]
        pub users_list_ssn_column_name: String,
    }

    /// GET /api/accountApi/helpContent: the Help window's body (sanitised HTML; empty when the
    /// Help button is not allowed).
    #[serde(rename_all = "PascalCase")]
    pub struct HelpContent {
        pub help_modal_content: String,
    }

    /// Which links the login page offers (spec 02 §2.2), from wasm-core `login_links`.
    #[serde(rename_all = "PascalCase")]
    pub struct LoginLinks {
        pub forgot_password: bool,
        pub forgot_username: bool,
        pub health_record: bool,
    }

    /// GET /api/accountApi/sessionSettings (minutes; spec 01 §9).
    #[serde(rename_all = "PascalCase")]
    pub struct SessionSettings {
        pub session_timeout_minutes: u32,
        pub warn_before_session_timeout_minutes: u32,
        pub session_timeout_redirect_link: String,
    }

    /// GET /api/accountApi/getCurrentUserName
    #[serde(rename_all = "PascalCase")]
    pub struct CurrentUserName {
        pub user_name: String,
    }

    /// GET /api/accountApi/PortalUserLoggedIn
    #[serde(rename_all = "PascalCase")]
    pub struct PortalUserLoggedIn {
        pub is_logged_in: bool,
        pub user_name: String,
    }

    /// GET/PUT /api/account/language: the signed-in patient's language (issue 21), one of the
    /// spec's names (english, spanish, chinese, cambodian, vietnamese, tagalog); PUT also takes
    /// the codes (en, es, zh, km, vi, tl).
    #[serde(rename_all = "PascalCase")]
    pub struct LanguagePreference {
        pub language: String,
    }

    /// Result of a form rule or a save, where the spec shows success plus messages.
    #[serde(rename_all = "PascalCase")]
    pub struct FormResult {
        pub is_success: bool,
        pub errors: ValidationErrors,
    }
}

impl Permissions {
    pub fn for_role(role: Role) -> Permissions {
        Permissions {
            is_program_manager: role == Role::ProgramManager,
            is_client_admin: role == Role::ClientAdmin,
            is_patient: role == Role::Patient,
            is_front_desk: role == Role::FrontDesk,
            is_technologist: role == Role::Technologist,
            is_user_logged_in: true,
            ..Permissions::default()
        }
    }

    pub fn role(&self) -> Option<Role> {
        match (
            self.is_patient,
            self.is_front_desk,
            self.is_client_admin,
            self.is_program_manager,
        ) {
            (true, _, _, _) => Some(Role::Patient),
            (_, true, _, _) => Some(Role::FrontDesk),
            (_, _, true, _) => Some(Role::ClientAdmin),
            (_, _, _, true) => Some(Role::ProgramManager),
            _ if self.is_technologist => Some(Role::Technologist),
            _ => None,
        }
    }
}

impl Default for ModulePermissions {
    fn default() -> Self {
        ModulePermissions {
            module_documents: true,
            module_appointments: true,
            module_medical_history: true,
            module_tablet_survey: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_names_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
        assert_eq!(Role::parse("programmanager"), Some(Role::ProgramManager));
        assert_eq!(Role::parse("admin"), None);
    }

    #[test]
    fn permissions_name_the_role() {
        for role in Role::ALL {
            assert_eq!(Permissions::for_role(role).role(), Some(role));
        }
        assert_eq!(Permissions::default().role(), None);
    }

    #[test]
    fn login_request_uses_the_spec_field_names() {
        let req: LoginRequest =
            serde_json::from_str(r#"{"usernameOrEmail":"a","password":"b","deviceId":"d"}"#)
                .unwrap();
        assert_eq!(req.username_or_email, "a");
        assert_eq!(req.device_id.as_deref(), Some("d"));
        assert_eq!(req.user_name, None);
        let modules = serde_json::to_value(ModulePermissions::default()).unwrap();
        assert_eq!(modules["Module_MedicalHistory"], true);
    }
}

wire! {
    /// GET /api/health: liveness ('ok').
    #[serde(rename_all = "PascalCase")]
    pub struct HealthStatus {
        pub status: String,
    }

    /// GET /api/accountApi/logout: the session is ended (its cookie cleared).
    #[serde(rename_all = "PascalCase")]
    pub struct LoggedOut {
        pub is_logged_in: bool,
    }

    /// The session timer's calls (spec 01 §9): seconds until the session expires (0: none).
    #[serde(rename_all = "PascalCase")]
    pub struct SessionTimeout {
        pub session_timeout_seconds: i64,
    }
}
