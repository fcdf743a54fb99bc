//! User administration (spec 02 §2.10, §3, §4, §5, §6, §7.3): the users table, the Add/Edit
//! modal's calls, the admin password change, roles CRUD and impersonation.
//!
//! Access: ClientAdmin and ProgramManager read (view-users); only a ProgramManager writes
//! (manage-users), changes passwords, manages roles and impersonates. The form rules are
//! wasm-core's `validate_user` / `validate_role` / `check_password`; every write is audited
//! (with both users when the caller is impersonating).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};
use wasm_core::membership::{self, PATIENT_ROLE};
use wasm_core::model::{
    AdminChangePassword, CanImpersonate, ChangePasswordResult, Deleted, DemoResetRequest,
    DemoResetResult, IdQuery, NewUser, RoleForm, RoleRow, SortDirection, SuccessResult,
    TableResponse, UserAdminConfiguration, UserForm, UserRow, UserTableRequest,
    ValidatePasswordRequest, ValidatePasswordResult, ViewMode,
};
use wasm_core::password;
use wasm_core::settings::core_survey::CoreSurvey;
use wasm_core::settings::user_management::UserManagement;
use wasm_core::ValidationErrors;

use crate::answers::WithCookie;
use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::{ProgramManagers, UserAdmins};
use crate::auth::{password as hashing, session, CurrentUser, RequireRole};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::password_rules::{breached, password_requirements};
use crate::settings;
use crate::store::membership as accounts;
use crate::store::users::{self, UserFields, UserPageQuery, UserRecord, UserSort};
use crate::store::{locations, patients, roles};
use crate::{cookies, AppState};

mod demo_reset;
mod edit;
mod impersonation;
mod mfa_reset;
mod passwords;
mod role_admin;
mod table;

use demo_reset::*;
use edit::*;
use impersonation::*;
use mfa_reset::*;
use passwords::*;
use role_admin::*;
use table::*;

pub const BUILT_IN_ROLES: [&str; 5] = [
    "Patient",
    "FrontDesk",
    "ClientAdmin",
    "ProgramManager",
    "Technologist",
];
/// Kept here for the configuration page's first-user form.
pub use crate::store::users::USERNAME_TAKEN;
pub const NO_PATIENT_WITH_MRN: &str = "No patient has this MRN";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/user/datatable",
            "One page of users; SelectedRole filters (default Patient, empty = all), search on names, username, email, MRN",
            datatable,
        )
        .get(
            "/api/user/{id}",
            "One user for the Edit modal (ClientAdmin, ProgramManager)",
            get_user,
        )
        .put(
            "/api/user/{id}",
            "Updates a user (ProgramManager); a patient's role, MRN and names stay as they are",
            put_user,
        )
        .post(
            "/api/user/postUser",
            "Creates a user with a password (ProgramManager); a Patient is linked to the patient with that MRN",
            post_user,
        )
        .post(
            "/api/user/validatePassword",
            "Checks a password against the configured rules (ClientAdmin, ProgramManager)",
            validate_password,
        )
        .put(
            "/api/user/changePassword",
            "Sets a user's password (ProgramManager); ends that user's sessions",
            change_password,
        )
        .post(
            "/api/user/{id}/mfa/reset",
            "Resets another user's two-step sign-in (ProgramManager; not one's own): authenticator, recovery codes and pending sign-ins removed, audited (MfaReset)",
            reset_mfa,
        )
        .post(
            "/api/user/{id}/impersonate",
            "Signs in as the user (ProgramManager, when IsImpersonationEnabled); a new session remembers the real user",
            impersonate,
        )
        .get(
            "/api/staffUser/CanImpersonate",
            "Whether the user (query id) may be impersonated: impersonation enabled, active, not yourself, not a ProgramManager",
            can_impersonate,
        )
        .get(
            "/api/staffUser/cancelImpersonation",
            "Ends impersonation: back to a session of the real user",
            cancel_impersonation,
        )
        .get(
            "/api/user/configuration",
            "User administration options (UserManagement: UserManagementViewMode, IsImpersonationEnabled, EnableDemoMode, IsAdminPinAndLocationsRestrictionsEnabled) with AdminPinLength and the known location numbers",
            user_configuration,
        )
        .post(
            "/api/historyPortal/demoResetUser",
            "Resets a demo account for a new demonstration (ProgramManager, EnableDemoMode on, demo accounts only): its surveys back to Assigned (answers removed), letters unread and unacknowledged, arrival statuses cleared, lockout cleared",
            demo_reset_user,
        )
        .get(
            "/api/role",
            "Roles with their user counts",
            list_roles,
        )
        .post(
            "/api/role/postRole",
            "Creates a role (ProgramManager)",
            post_role,
        )
        .get(
            "/api/role/{id}",
            "One role (id = its name)",
            get_role,
        )
        .put(
            "/api/role/{id}",
            "Updates a role (ProgramManager); built-in roles keep their names, a role in use cannot be renamed",
            put_role,
        )
        .delete(
            "/api/role/{id}",
            "Deletes an unused custom role (ProgramManager)",
            delete_role,
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
