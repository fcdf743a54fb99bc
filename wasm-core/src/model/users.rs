//! User administration on the wire (spec 02 §2.10, §3 "Configuration", §5, §7.3): the users
//! table request, the user options, password check, impersonation, demo reset.

use crate::model::{TableRequest, UserForm};
use crate::wire;

/// Regular or Demo (spec 02 §2.10): which accounts the users table lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ViewMode {
    #[default]
    Regular,
    Demo,
}

wire! {
    /// POST /api/user/datatable: the table state plus the role and view-mode filters.
    #[serde(rename_all = "PascalCase")]
    pub struct UserTableRequest {
        #[serde(flatten)]
        pub table: TableRequest,
        /// A role name; missing = Patient, empty = every role.
        #[serde(default, alias = "selectedRole")]
        pub selected_role: Option<String>,
        /// Regular or Demo. With EnableDemoMode on, Demo lists the demo accounts and Regular the
        /// others; with it off every account is listed.
        #[serde(default, alias = "viewMode")]
        pub view_mode: Option<String>,
    }

    /// GET /api/user/configuration: the user administration options (spec 02 §3
    /// "Configuration") with the admin PIN length and the known location numbers.
    #[serde(rename_all = "PascalCase")]
    pub struct UserAdminConfiguration {
        pub user_management_view_mode: ViewMode,
        pub is_impersonation_enabled: bool,
        pub enable_demo_mode: bool,
        pub is_admin_pin_and_locations_restrictions_enabled: bool,
        pub admin_pin_length: u32,
        pub locations: Vec<String>,
    }

    /// POST /api/user/postUser: the user form and the new user's password.
    #[serde(rename_all = "PascalCase")]
    pub struct NewUser {
        #[serde(flatten)]
        pub form: UserForm,
        #[serde(default)]
        pub password: String,
    }

    /// POST /api/user/validatePassword.
    pub struct ValidatePasswordRequest {
        #[serde(default, alias = "Password")]
        pub password: String,
    }

    /// The server's verdict on a password (spec 02 §5): the unmet requirements' messages.
    #[serde(rename_all = "PascalCase")]
    pub struct ValidatePasswordResult {
        pub success: bool,
        pub errors: Vec<String>,
    }

    /// GET /api/staffUser/CanImpersonate: whether, and if not why not ('' when allowed).
    #[serde(rename_all = "PascalCase")]
    pub struct CanImpersonate {
        pub can_impersonate: bool,
        pub message: String,
    }

    /// Impersonation started or cancelled (the session cookie is replaced).
    #[serde(rename_all = "PascalCase")]
    pub struct SuccessResult {
        pub is_success: bool,
    }

    /// POST /api/historyPortal/demoResetUser (spec 02 §7.3).
    pub struct DemoResetRequest {
        #[serde(rename = "userId", alias = "UserId")]
        pub user_id: i64,
        /// The browser's now with its offset (ISO 8601); recorded with the reset.
        #[serde(default, rename = "clientDateTimeOffsetNow", alias = "ClientDateTimeOffsetNow")]
        pub client_now: String,
    }

    /// What the demo reset changed.
    #[serde(rename_all = "PascalCase")]
    pub struct DemoResetResult {
        pub is_success: bool,
        pub surveys: u64,
        pub letters: u64,
        pub arrivals: u64,
    }

    /// A record deleted (a role, an uploaded survey).
    #[serde(rename_all = "PascalCase")]
    pub struct Deleted {
        pub deleted: bool,
    }
}
