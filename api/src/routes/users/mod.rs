//! User administration (spec 02 §2.10, §3, §4, §5, §6, §7.3): the users table, the Add/Edit
//! modal's calls, the admin password change, roles CRUD and impersonation.
//!
//! Access: ClientAdmin and ProgramManager read (view-users); only a ProgramManager writes
//! (manage-users), changes passwords, manages roles and impersonates. The form rules are
//! wasm-core's `validate_user` / `validate_role` / `check_password`; every write is audited
//! (with both users when the caller is impersonating).

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use wasm_core::membership::{self, PATIENT_ROLE};
use wasm_core::model::{
    AdminChangePassword, ChangePasswordResult, RoleForm, RoleRow, SortDirection, TableRequest,
    TableResponse, UserForm, UserRow,
};
use wasm_core::password;
use wasm_core::settings::core_survey::CoreSurvey;
use wasm_core::settings::user_management::UserManagement;
use wasm_core::ValidationErrors;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::{ProgramManagers, UserAdmins};
use crate::auth::{password as hashing, session, CurrentUser, RequireRole};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::password_rules::password_requirements;
use crate::settings;
use crate::store::membership as accounts;
use crate::store::users::{self, UserFields, UserPageQuery, UserRecord, UserSort};
use crate::store::{locations, patients, roles};
use crate::{cookies, AppState};

mod demo_reset;
mod edit;
mod impersonation;
mod passwords;
mod role_admin;
mod table;

use demo_reset::*;
use edit::*;
use impersonation::*;
use passwords::*;
use role_admin::*;
use table::*;

pub const BUILT_IN_ROLES: [&str; 4] = ["Patient", "FrontDesk", "ClientAdmin", "ProgramManager"];
/// Kept here for the configuration page's first-user form.
pub use crate::store::users::USERNAME_TAKEN;
pub const NO_PATIENT_WITH_MRN: &str = "No patient has this MRN";

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc { method: "POST", path: "/api/user/datatable", summary: "One page of users; SelectedRole filters (default Patient, empty = all), search on names, username, email, MRN", access: Access::UserAdmins, request: Some("UserTableRequest"), response: "TableResponse<UserRow>" },
    RouteDoc { method: "GET", path: "/api/user/{id}", summary: "One user for the Edit modal (ClientAdmin, ProgramManager)", access: Access::UserAdmins, request: None, response: "UserForm" },
    RouteDoc { method: "PUT", path: "/api/user/{id}", summary: "Updates a user (ProgramManager); a patient's role, MRN and names stay as they are", access: Access::ProgramManager, request: Some("UserForm"), response: "UserForm" },
    RouteDoc { method: "POST", path: "/api/user/postUser", summary: "Creates a user with a password (ProgramManager); a Patient is linked to the patient with that MRN", access: Access::ProgramManager, request: Some("NewUser"), response: "UserForm" },
    RouteDoc { method: "POST", path: "/api/user/validatePassword", summary: "Checks a password against the configured rules (ClientAdmin, ProgramManager)", access: Access::UserAdmins, request: Some("ValidatePassword"), response: "ValidatePasswordResult" },
    RouteDoc { method: "PUT", path: "/api/user/changePassword", summary: "Sets a user's password (ProgramManager); ends that user's sessions", access: Access::ProgramManager, request: Some("AdminChangePassword"), response: "ChangePasswordResult" },
    RouteDoc { method: "POST", path: "/api/user/{id}/impersonate", summary: "Signs in as the user (ProgramManager, when IsImpersonationEnabled); a new session remembers the real user", access: Access::ProgramManager, request: None, response: "ImpersonationResult" },
    RouteDoc { method: "GET", path: "/api/staffUser/CanImpersonate", summary: "Whether the user (query id) may be impersonated: impersonation enabled, active, not yourself, not a ProgramManager", access: Access::ProgramManager, request: None, response: "CanImpersonate" },
    RouteDoc { method: "GET", path: "/api/staffUser/cancelImpersonation", summary: "Ends impersonation: back to a session of the real user", access: Access::SignedIn, request: None, response: "ImpersonationResult" },
    RouteDoc { method: "GET", path: "/api/user/configuration", summary: "User administration options (UserManagement: UserManagementViewMode, IsImpersonationEnabled, EnableDemoMode, IsAdminPinAndLocationsRestrictionsEnabled) with AdminPinLength and the known location numbers", access: Access::UserAdmins, request: None, response: "UserAdminConfiguration" },
    RouteDoc { method: "POST", path: "/api/historyPortal/demoResetUser", summary: "Resets a demo account for a new demonstration (ProgramManager, EnableDemoMode on, demo accounts only): its surveys back to Assigned (answers removed), letters unread and unacknowledged, arrival statuses cleared, lockout cleared", access: Access::ProgramManager, request: Some("DemoResetRequest"), response: "DemoResetResult" },
    RouteDoc { method: "GET", path: "/api/role", summary: "Roles with their user counts", access: Access::UserAdmins, request: None, response: "RoleRow[]" },
    RouteDoc { method: "GET", path: "/api/role/{id}", summary: "One role (id = its name)", access: Access::UserAdmins, request: None, response: "RoleRow" },
    RouteDoc { method: "PUT", path: "/api/role/{id}", summary: "Updates a role (ProgramManager); built-in roles keep their names, a role in use cannot be renamed", access: Access::ProgramManager, request: Some("RoleForm"), response: "RoleRow" },
    RouteDoc { method: "POST", path: "/api/role/postRole", summary: "Creates a role (ProgramManager)", access: Access::ProgramManager, request: Some("RoleForm"), response: "RoleRow" },
    RouteDoc { method: "DELETE", path: "/api/role/{id}", summary: "Deletes an unused custom role (ProgramManager)", access: Access::ProgramManager, request: None, response: "Deleted" },
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/user/datatable", post(datatable))
        .route("/api/user/{id}", get(get_user).put(put_user))
        .route("/api/user/postUser", post(post_user))
        .route("/api/user/validatePassword", post(validate_password))
        .route("/api/user/changePassword", put(change_password))
        .route("/api/user/{id}/impersonate", post(impersonate))
        .route("/api/staffUser/CanImpersonate", get(can_impersonate))
        .route(
            "/api/staffUser/cancelImpersonation",
            get(cancel_impersonation),
        )
        .route("/api/user/configuration", get(user_configuration))
        .route("/api/historyPortal/demoResetUser", post(demo_reset_user))
        .route("/api/role", get(list_roles))
        .route("/api/role/postRole", post(post_role))
        .route(
            "/api/role/{id}",
            get(get_role).put(put_role).delete(delete_role),
        )
}

fn ip(peer: &ClientAddr) -> Option<String> {
    Some(peer.ip().to_string())
}

fn invalid(field: &str, message: &str) -> AppError {
    let mut errors = ValidationErrors::new();
    errors.add(field, message);
    AppError::Validation(errors)
}

fn opt(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_owned())
}
