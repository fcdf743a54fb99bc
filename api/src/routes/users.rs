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
use wasm_core::ValidationErrors;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::{ProgramManagers, UserAdmins};
use crate::auth::{password as hashing, session, CurrentUser, RequireRole};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::password_rules::password_requirements;
use crate::settings::{self, get_bool};
use crate::store::membership as accounts;
use crate::store::users::{self, UserFields, UserPageQuery, UserRecord, UserSort};
use crate::store::{locations, patients, roles};
use crate::{cookies, AppState};

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

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct UserTableRequest {
    #[serde(flatten)]
    table: TableRequest,
    #[serde(default, alias = "selectedRole")]
    selected_role: Option<String>,
    /// Regular or Demo (spec 02 §2.10). With EnableDemoMode on, Demo lists the demo accounts and
    /// Regular the others; with it off every account is listed.
    #[serde(default, alias = "viewMode")]
    view_mode: Option<String>,
}

trait UserViews {
    fn row(self) -> UserRow;
    fn form(self) -> UserForm;
    fn audit_value(&self) -> Value;
}

impl UserViews for UserRecord {
    fn row(self) -> UserRow {
        UserRow {
            id: self.id,
            ssn: self.ssn,
            first_name: self.first_name,
            last_name: self.last_name,
            username: self.username,
            email: self.email,
            is_active: self.is_active,
            role: self.role,
        }
    }

    fn form(self) -> UserForm {
        UserForm {
            id: Some(self.id),
            ssn: self.ssn.unwrap_or_default(),
            first_name: self.first_name,
            last_name: self.last_name,
            username: self.username,
            email: self.email.unwrap_or_default(),
            is_active: self.is_active,
            roles: vec![self.role],
            comment: self.comment.unwrap_or_default(),
            survey_pin: self.survey_pin.unwrap_or_default(),
            loc_nums: self.loc_nums.unwrap_or_default(),
            is_results_portal_text_notification_enabled: false,
        }
    }

    fn audit_value(&self) -> Value {
        json!({"Username": self.username, "Email": self.email, "FirstName": self.first_name, "LastName": self.last_name,
               "Role": self.role, "Ssn": self.ssn, "IsActive": self.is_active, "Comment": self.comment, "LocNums": self.loc_nums})
    }
}

async fn datatable(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<UserTableRequest>,
) -> AppResult<Json<TableResponse<UserRow>>> {
    let role = req
        .selected_role
        .clone()
        .unwrap_or_else(|| PATIENT_ROLE.to_owned());
    let role = role.trim().to_owned();
    let search = req.table.search.trim().to_owned();
    let sort = match req
        .table
        .sort_column
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        Some(c) => UserSort::parse(c)
            .ok_or_else(|| AppError::BadRequest("Unknown sort column".to_owned()))?,
        None => UserSort::LAST_NAME,
    };
    let demo_mode = get_bool(
        &settings::load(&state.db, settings::USER_MANAGEMENT).await?,
        "EnableDemoMode",
    );
    let demo = match (demo_mode, req.view_mode.as_deref().map(str::trim)) {
        (false, _) => None,
        (true, Some("Demo")) => Some(true),
        (true, _) => Some(false),
    };
    let page = users::page(
        &state.db,
        &UserPageQuery {
            role: &role,
            search: &search,
            demo,
            sort,
            descending: req.table.sort_direction == SortDirection::Desc,
            limit: i64::from(req.table.safe_page_size()),
            offset: i64::try_from(req.table.offset()).unwrap_or(i64::MAX),
        },
    )
    .await?;
    let (rows, filtered, total) = (page.rows, page.filtered, page.total);
    Ok(Json(TableResponse {
        data: rows.into_iter().map(UserRecord::row).collect(),
        total_count: total.max(0) as u64,
        filtered_count: filtered.max(0) as u64,
        page_index: req.table.page_index,
        page_size: req.table.safe_page_size(),
    }))
}

async fn find_user(state: &AppState, id: i64) -> AppResult<UserRecord> {
    users::find(&state.db, id).await?.ok_or(AppError::NotFound)
}

async fn get_user(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Json<UserForm>> {
    Ok(Json(find_user(&state, id).await?.form()))
}

fn the_role(form: &UserForm) -> String {
    form.roles
        .iter()
        .map(|r| r.trim())
        .find(|r| !r.is_empty())
        .unwrap_or_default()
        .to_owned()
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

/// The form as stored: trimmed, empty optional texts as NULL.
fn fields<'a>(form: &'a UserForm, role: &'a str, first: &'a str, last: &'a str) -> UserFields<'a> {
    UserFields {
        username: form.username.trim(),
        email: opt(&form.email),
        first_name: first.trim(),
        last_name: last.trim(),
        role,
        is_active: form.is_active,
        ssn: opt(&form.ssn),
        comment: opt(&form.comment),
        survey_pin: opt(&form.survey_pin),
        loc_nums: opt(&form.loc_nums),
    }
}

async fn put_user(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<i64>,
    ApiJson(form): ApiJson<UserForm>,
) -> AppResult<Json<UserForm>> {
    let old = find_user(&state, id).await?;
    let mut form = form;
    if old.role == PATIENT_ROLE {
        // spec 02 §6: a patient's role, MRN and names are not edited here.
        form.roles = vec![PATIENT_ROLE.to_owned()];
        form.ssn = old.ssn.clone().unwrap_or_default();
        form.first_name = old.first_name.clone();
        form.last_name = old.last_name.clone();
    }
    let check = membership::validate_user(&form);
    if !check.is_valid {
        return Err(AppError::Validation(check.errors));
    }
    let role = the_role(&form);
    check_admin_restrictions(&state, &role, &mut form).await?;
    if old.role != PATIENT_ROLE && role == PATIENT_ROLE {
        return Err(invalid("Roles", "A staff user cannot become a patient"));
    }
    if !roles::exists(&state.db, &role).await? {
        return Err(invalid("Roles", "Unknown role"));
    }
    if id == user.user_id && (!form.is_active || role != old.role) {
        return Err(invalid(
            "Roles",
            "You cannot deactivate yourself or change your own role",
        ));
    }
    let mut tx = state.db.begin().await?;
    let stored = fields(&form, &role, &form.first_name, &form.last_name);
    users::update(&mut tx, id, &stored, now_ms()).await?;
    if !form.is_active {
        accounts::end_sessions(&mut tx, id).await?;
    }
    let new = users::find_in(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::UserUpdated,
        Target::user(id),
        Some(old.audit_value()),
        Some(new.audit_value()),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(new.form()))
}

/// Admin PIN length for staff when UserManagement or CoreSurvey does not say (spec 01 AdminPinLength).
pub const DEFAULT_ADMIN_PIN_LENGTH: i64 = 4;

async fn admin_pin_length(state: &AppState) -> AppResult<u32> {
    let survey = settings::load(&state.db, crate::routes::configuration::CORE_SURVEY).await?;
    let n = settings::get_i64(&survey, "AdminPinLength").unwrap_or(DEFAULT_ADMIN_PIN_LENGTH);
    Ok(u32::try_from(n.clamp(1, 12)).unwrap_or(4))
}

async fn location_numbers(state: &AppState) -> AppResult<Vec<String>> {
    locations::numbers(&state.db).await
}

/// SurveyPin and LocNums are a Program manager's, edited only with the restriction setting on.
async fn admin_restrictions_apply(state: &AppState, role: &str) -> AppResult<bool> {
    let um = settings::load(&state.db, settings::USER_MANAGEMENT).await?;
    Ok(role == "ProgramManager" && get_bool(&um, "IsAdminPinAndLocationsRestrictionsEnabled"))
}

async fn admin_restriction_errors(
    state: &AppState,
    role: &str,
    form: &UserForm,
) -> AppResult<ValidationErrors> {
    if !admin_restrictions_apply(state, role).await? {
        return Ok(ValidationErrors::new());
    }
    Ok(membership::validate_admin_restrictions(
        form,
        admin_pin_length(state).await?,
        &location_numbers(state).await?,
    ))
}

/// Refuses an invalid PIN or location list (wasm-core rule); stores the list normalised.
async fn check_admin_restrictions(
    state: &AppState,
    role: &str,
    form: &mut UserForm,
) -> AppResult<()> {
    if !admin_restrictions_apply(state, role).await? {
        return Ok(());
    }
    let errors = admin_restriction_errors(state, role, form).await?;
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    form.loc_nums = membership::location_list(&form.loc_nums).join(",");
    Ok(())
}

async fn user_configuration(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Value>> {
    let um = settings::load(&state.db, settings::USER_MANAGEMENT).await?;
    let view_mode = settings::get_str(&um, "UserManagementViewMode");
    Ok(Json(json!({
        "UserManagementViewMode": if view_mode == "Demo" { "Demo" } else { "Regular" },
        "IsImpersonationEnabled": get_bool(&um, "IsImpersonationEnabled"),
        "EnableDemoMode": get_bool(&um, "EnableDemoMode"),
        "IsAdminPinAndLocationsRestrictionsEnabled": get_bool(&um, "IsAdminPinAndLocationsRestrictionsEnabled"),
        "AdminPinLength": admin_pin_length(&state).await?,
        "Locations": location_numbers(&state).await?,
    })))
}

pub const DEMO_MODE_OFF: &str = "Demo mode is not enabled";
pub const NOT_A_DEMO_ACCOUNT: &str = "Only demo accounts can be reset for demo";

#[derive(Debug, Deserialize)]
struct DemoResetRequest {
    #[serde(alias = "UserId", rename = "userId")]
    user_id: i64,
    /// The browser's now with its offset (ISO 8601); recorded with the reset.
    #[serde(
        default,
        alias = "ClientDateTimeOffsetNow",
        rename = "clientDateTimeOffsetNow"
    )]
    client_now: String,
}

/// Demo reset (spec 02 §4, §6): a demo patient's surveys back to Assigned (answers removed),
/// letters unread and unacknowledged, arrival statuses cleared; any demo account's lockout cleared.
async fn demo_reset_user(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<DemoResetRequest>,
) -> AppResult<Json<Value>> {
    if !get_bool(
        &settings::load(&state.db, settings::USER_MANAGEMENT).await?,
        "EnableDemoMode",
    ) {
        return Err(AppError::BadRequest(DEMO_MODE_OFF.to_owned()));
    }
    let (is_demo, patient_id) = users::demo_account(&state.db, body.user_id)
        .await?
        .ok_or(AppError::NotFound)?;
    if !is_demo {
        return Err(AppError::BadRequest(NOT_A_DEMO_ACCOUNT.to_owned()));
    }
    let client_now: String = body.client_now.chars().take(40).collect();
    let mut tx = state.db.begin().await?;
    let n = users::demo_reset(&mut tx, body.user_id, patient_id, now_ms()).await?;
    let (surveys, letters, arrivals) = (n.surveys, n.letters, n.arrivals);
    audit::record(&mut tx, Actor::from(&*user), Action::DemoUserReset, Target::user(body.user_id), None,
        Some(json!({"Surveys": surveys, "Letters": letters, "Arrivals": arrivals, "ClientDateTimeOffsetNow": client_now})), ip(&peer)).await?;
    tx.commit().await?;
    Ok(Json(
        json!({"IsSuccess": true, "Surveys": surveys, "Letters": letters, "Arrivals": arrivals}),
    ))
}

#[derive(Debug, Deserialize)]
struct NewUser {
    #[serde(flatten)]
    form: UserForm,
    #[serde(default, rename = "Password")]
    password: String,
}

async fn post_user(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<NewUser>,
) -> AppResult<Json<UserForm>> {
    let mut form = body.form;
    let role = the_role(&form);
    let mut errors = membership::validate_user(&form).errors;
    errors.merge(admin_restriction_errors(&state, &role, &form).await?);
    let rules = password_requirements(&state.db).await?;
    errors.merge(password::validate_password(
        "Password",
        &body.password,
        &rules,
    ));
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    if admin_restrictions_apply(&state, &role).await? {
        form.loc_nums = membership::location_list(&form.loc_nums).join(",");
    }
    if !roles::exists(&state.db, &role).await? {
        return Err(invalid("Roles", "Unknown role"));
    }
    let (patient_id, first, last) = if role == PATIENT_ROLE {
        let found = patients::by_mrn(&state.db, form.ssn.trim()).await?;
        let (pid, f, l) = found.ok_or_else(|| invalid("Ssn", NO_PATIENT_WITH_MRN))?;
        (Some(pid), f, l)
    } else {
        (
            None,
            form.first_name.trim().to_owned(),
            form.last_name.trim().to_owned(),
        )
    };
    let hash = hashing::hash(body.password.clone()).await?;
    let now = now_ms();
    let mut tx = state.db.begin().await?;
    let id = users::create(
        &mut tx,
        &fields(&form, &role, &first, &last),
        &hash,
        patient_id,
        now,
    )
    .await?;
    let new = users::find_in(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::UserCreated,
        Target::user(id),
        None,
        Some(new.audit_value()),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(new.form()))
}

#[derive(Debug, Deserialize)]
struct ValidatePassword {
    #[serde(default, alias = "Password")]
    password: String,
}

async fn validate_password(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ValidatePassword>,
) -> AppResult<Json<Value>> {
    let rules = password_requirements(&state.db).await?;
    let check = password::check_password(&body.password, &rules);
    Ok(Json(
        json!({"Success": check.is_valid, "Errors": check.errors}),
    ))
}

async fn change_password(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<AdminChangePassword>,
) -> AppResult<Json<ChangePasswordResult>> {
    let target = find_user(&state, body.user_id).await?;
    let rules = password_requirements(&state.db).await?;
    let mut errors = password::validate_password("NewPassword", &body.new_password, &rules);
    errors.merge(password::validate_password_repeat(
        &body.new_password,
        &body.new_password_repeat,
    ));
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let hash = hashing::hash(body.new_password.clone()).await?;
    let mut tx = state.db.begin().await?;
    accounts::set_password_hash(&mut tx, target.id, &hash, now_ms()).await?;
    // The user signs in again with the new password (unless it is the caller's own session).
    let ended = accounts::end_other_sessions(&mut tx, target.id, &user.token_hash).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::PasswordChanged,
        Target::user(target.id),
        None,
        Some(json!({"Result": "ChangedByAdmin", "SessionsEnded": ended})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(ChangePasswordResult {
        is_success: true,
        error_messages: vec![],
    }))
}

/// Why `target` may not be impersonated by `caller`, if anything stops it.
async fn impersonation_refusal(
    state: &AppState,
    caller: &session::SessionUser,
    target: &UserRecord,
) -> AppResult<Option<&'static str>> {
    let doc = settings::load(&state.db, settings::USER_MANAGEMENT).await?;
    Ok(if !get_bool(&doc, "IsImpersonationEnabled") {
        Some("Impersonation is not enabled.")
    } else if caller.impersonator_user_id.is_some() {
        Some("Cancel the current impersonation first.")
    } else if target.id == caller.user_id {
        Some("You cannot impersonate yourself.")
    } else if !target.is_active {
        Some("The user is not active.")
    } else if target.role == "ProgramManager" {
        Some("A program manager cannot be impersonated.")
    } else {
        None
    })
}

#[derive(Debug, Deserialize)]
struct IdQuery {
    id: i64,
}

async fn can_impersonate(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<IdQuery>,
) -> AppResult<Json<Value>> {
    let target = find_user(&state, q.id).await?;
    let refusal = impersonation_refusal(&state, &user, &target).await?;
    Ok(Json(
        json!({"CanImpersonate": refusal.is_none(), "Message": refusal.unwrap_or("")}),
    ))
}

fn with_session_cookie(body: Value, token: &str, headers: &HeaderMap) -> AppResult<Response> {
    let mut response = Json(body).into_response();
    let cookie = cookies::session_cookie(token, cookies::is_secure(headers));
    response.headers_mut().append(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).map_err(AppError::internal)?,
    );
    Ok(response)
}

async fn impersonate(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Response> {
    let target = find_user(&state, id).await?;
    if let Some(reason) = impersonation_refusal(&state, &user, &target).await? {
        return Err(AppError::Forbidden(reason.to_owned()));
    }
    // A new session id for the impersonated identity; the manager's own session ends.
    let length = session::length_ms(&state.db).await?;
    let mut tx = state.db.begin().await?;
    session::delete_in(&mut tx, &user.token_hash).await?;
    let token = session::create_in(&mut tx, target.id, Some(user.user_id), length).await?;
    audit::record(
        &mut tx,
        Actor {
            user_id: Some(target.id),
            impersonator_user_id: Some(user.user_id),
        },
        Action::ImpersonationStarted,
        Target::user(target.id),
        None,
        Some(json!({"Username": target.username})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    with_session_cookie(json!({"IsSuccess": true}), &token, &headers)
}

async fn cancel_impersonation(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
) -> AppResult<Response> {
    let Some(real) = user.impersonator_user_id else {
        return Err(AppError::BadRequest("Not impersonating.".to_owned()));
    };
    let length = session::length_ms(&state.db).await?;
    let mut tx = state.db.begin().await?;
    session::delete_in(&mut tx, &user.token_hash).await?;
    let token = session::create_in(&mut tx, real, None, length).await?;
    audit::record(
        &mut tx,
        Actor::from(&user.0),
        Action::ImpersonationEnded,
        Target::user(user.user_id),
        None,
        None,
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    with_session_cookie(json!({"IsSuccess": true}), &token, &headers)
}

async fn load_roles(state: &AppState, name: Option<&str>) -> AppResult<Vec<RoleRow>> {
    let rows = roles::list(&state.db, name).await?;
    Ok(rows
        .into_iter()
        .map(|(name, description, user_count)| RoleRow {
            is_built_in: BUILT_IN_ROLES.contains(&name.as_str()),
            name,
            description,
            user_count,
        })
        .collect())
}

async fn list_roles(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<RoleRow>>> {
    Ok(Json(load_roles(&state, None).await?))
}

async fn one_role(state: &AppState, name: &str) -> AppResult<RoleRow> {
    if name.trim().is_empty() {
        return Err(AppError::NotFound);
    }
    load_roles(state, Some(name))
        .await?
        .into_iter()
        .next()
        .ok_or(AppError::NotFound)
}

async fn get_role(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<RoleRow>> {
    Ok(Json(one_role(&state, &id).await?))
}

async fn post_role(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(form): ApiJson<RoleForm>,
) -> AppResult<Json<RoleRow>> {
    let errors = membership::validate_role(&form);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let name = form.name.trim().to_owned();
    let mut tx = state.db.begin().await?;
    roles::create(&mut tx, &name, form.description.trim()).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::RoleCreated,
        Target {
            target_type: Some("Role"),
            target_id: Some(name.clone()),
            target_user_id: None,
        },
        None,
        Some(json!({"Name": name, "Description": form.description.trim()})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(one_role(&state, &name).await?))
}

async fn put_role(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<String>,
    ApiJson(form): ApiJson<RoleForm>,
) -> AppResult<Json<RoleRow>> {
    let old = one_role(&state, &id).await?;
    let errors = membership::validate_role(&form);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let name = form.name.trim().to_owned();
    if name != old.name {
        if old.is_built_in {
            return Err(invalid("Name", "A built-in role keeps its name"));
        }
        if old.user_count > 0 {
            return Err(AppError::Conflict(
                "A role in use cannot be renamed".to_owned(),
            ));
        }
    }
    let mut tx = state.db.begin().await?;
    roles::update(&mut tx, &old.name, &name, form.description.trim()).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::RoleUpdated,
        Target {
            target_type: Some("Role"),
            target_id: Some(name.clone()),
            target_user_id: None,
        },
        Some(json!({"Name": old.name, "Description": old.description})),
        Some(json!({"Name": name, "Description": form.description.trim()})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(one_role(&state, &name).await?))
}

async fn delete_role(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<Value>> {
    let old = one_role(&state, &id).await?;
    if old.is_built_in {
        return Err(AppError::BadRequest(
            "A built-in role cannot be deleted".to_owned(),
        ));
    }
    if old.user_count > 0 {
        return Err(AppError::Conflict(
            "A role in use cannot be deleted".to_owned(),
        ));
    }
    let mut tx = state.db.begin().await?;
    roles::delete(&mut tx, &old.name).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::RoleDeleted,
        Target {
            target_type: Some("Role"),
            target_id: Some(old.name.clone()),
            target_user_id: None,
        },
        Some(json!({"Name": old.name, "Description": old.description})),
        None,
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(json!({"Deleted": true})))
}
