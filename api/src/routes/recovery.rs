//! Password reset, username recovery and phone verification (issue 3 parts 2-4; spec 02 §2.3-§2.6,
//! §3, §4, §7.1, §7.2). The decisions are wasm-core's (`wasm_core::recovery`); this file reads
//! the store, applies them and sends mail and SMS through the outbox.
//!
//! Keys: a reset link carries a random key whose SHA-256 is a `membership_keys` row (purpose
//! 'reset'); it expires after UserAccountPassword ResetKeyExpirationInSeconds (0 = never) and is
//! spent by a successful change. The phone endpoints accept a key of either purpose ('reset' or
//! 'registration', the self-registration link) and record the verification in
//! `membership_keys.phone_verified_at`. Phone codes: 6 digits, only their hash in `phone_codes`.
//! Neither keys nor codes appear in responses, logs or audit rows.

use axum::extract::State;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use rand::Rng;
use serde::Deserialize;
use serde_json::json;
use wasm_core::model::ChangePasswordResult;
use wasm_core::model::{
    CodeCheck, CodeRequestDecision, CodeState, ForgotPasswordRequest, ForgotPasswordResponse,
    KeyFacts, KeyState, RecoverUsernameRequest, RecoverUsernameResponse, RequestCodeResponse,
    ResetKeyFacts, ResetKeyValidation, ResetPasswordRequest, Role, VerificationLimits,
    VerifyCodeRequest, VerifyCodeResponse, VerifyPhoneParams,
};
use wasm_core::{membership, recovery};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{hash_token, password, random_token};
use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db};
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::fmt;
use crate::openapi::{Access, RouteDoc};
use crate::outbox::{self, OutboundMessage};
use crate::password_rules::password_requirements;
use crate::settings::{self, get_bool, get_i64, get_str};
use crate::store::membership as accounts;
use crate::store::recovery::{self as store, Account, KeyRow, NewKey};
use crate::AppState;

pub const LINK_EXPIRED: &str = "Link is expired.";
pub const LINK_USED_OR_EXPIRED: &str =
    "The link is expired or was already used. Request a new one.";
pub const DOB_MISMATCH: &str = "Date of Birth does not match our records.";
pub const PHONE_NOT_VERIFIED: &str = "The phone number must be verified first.";
pub const NO_PHONE: &str = "The account has no usable phone number.";
/// Wrong dates of birth per key before the key is spent.
pub const DOB_ATTEMPTS_MAX: i64 = 5;
/// At most this many accounts get an email for one request (an email shared by several).
const MAX_ACCOUNTS: i64 = 5;

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "POST",
        path: "/api/patientUser/forgotPassword",
        summary: "Requests a password reset link by email for a patient (login, phoneOrSecondEmail). The answer is the same whether or not an account matches; IsAskRecoveryOption when the login is an email address and no recovery value was given",
        access: Access::Anyone,
        request: Some("ForgotPasswordRequest"),
        response: "ForgotPasswordResponse",
    },
    RouteDoc {
        method: "POST",
        path: "/api/staffUser/forgotPassword",
        summary: "Requests a password reset link by email for a staff account (as the patient one)",
        access: Access::Anyone,
        request: Some("ForgotPasswordRequest"),
        response: "ForgotPasswordResponse",
    },
    RouteDoc {
        method: "POST",
        path: "/api/accountApi/recoverUsername",
        summary: "Emails the username of the accounts matching email-or-username (and the phone or second email when given); the answer never says whether one matched",
        access: Access::Anyone,
        request: Some("RecoverUsernameRequest"),
        response: "RecoverUsernameResponse",
    },
    RouteDoc {
        method: "GET",
        path: "/api/accountApi/validateResetPasswordKey",
        summary: "Checks a reset link (query pwdReset = the emailed key, id = the user id): valid, used (IsPasswordNeedReset false), expired (IsLinkEpired), not registered, phone verification needed",
        access: Access::Anyone,
        request: None,
        response: "ResetKeyValidation",
    },
    RouteDoc {
        method: "PUT",
        path: "/api/patientUser/changePasswordByResetToken",
        summary: "Sets a patient's password with a reset key (date of birth checked when ForgotPasswordValidateDOB); spends the key and ends every session of the user. A staff account's key gets 403",
        access: Access::Anyone,
        request: Some("ResetPasswordRequest"),
        response: "ChangePasswordResult",
    },
    RouteDoc {
        method: "PUT",
        path: "/api/staffUser/changePasswordByResetToken",
        summary: "Sets a staff member's password with a reset key; spends the key and ends every session. A patient's key gets 403",
        access: Access::Anyone,
        request: Some("ResetPasswordRequest"),
        response: "ChangePasswordResult",
    },
    RouteDoc {
        method: "GET",
        path: "/api/patientUser/getVerifyPhoneParams",
        summary: "Phone screen of a key (query key): a key of either purpose, reset or registration; last four digits of the phone, whether verified (membership_keys.phone_verified_at), whether a current code exists and when it was sent",
        access: Access::Anyone,
        request: None,
        response: "VerifyPhoneParams",
    },
    RouteDoc {
        method: "POST",
        path: "/api/patientUser/requestCode",
        summary: "Sends a 6-digit code by SMS to the phone of a key (reset or registration; body {key}); at most VerificationCodeRequestsMax codes per key",
        access: Access::Anyone,
        request: Some("RequestCodeRequest"),
        response: "RequestCodeResponse",
    },
    RouteDoc {
        method: "PUT",
        path: "/api/patientUser/verifyCode",
        summary: "Checks a code (Key, Code): expiry VerificationCodeTimeoutInMinutes, VerificationAttemptsMax wrong codes per key; on success sets membership_keys.phone_verified_at of the key (reset or registration)",
        access: Access::Anyone,
        request: Some("VerifyCodeRequest"),
        response: "VerifyCodeResponse",
    },
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/patientUser/forgotPassword",
            post(patient_forgot_password),
        )
        .route("/api/staffUser/forgotPassword", post(staff_forgot_password))
        .route("/api/accountApi/recoverUsername", post(recover_username))
        .route(
            "/api/accountApi/validateResetPasswordKey",
            get(validate_reset_password_key),
        )
        .route(
            "/api/patientUser/changePasswordByResetToken",
            put(patient_change_password),
        )
        .route(
            "/api/staffUser/changePasswordByResetToken",
            put(staff_change_password),
        )
        .route(
            "/api/patientUser/getVerifyPhoneParams",
            get(get_verify_phone_params),
        )
        .route("/api/patientUser/requestCode", post(request_code))
        .route("/api/patientUser/verifyCode", put(verify_code))
}

/// Which area a request came through: each admits only its own roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Door {
    Patient,
    Staff,
}

impl Door {
    fn admits(self, role: &str) -> bool {
        match (self, Role::parse(role)) {
            (Door::Patient, Some(r)) => r == Role::Patient,
            (Door::Staff, Some(r)) => r.is_staff(),
            (_, None) => false,
        }
    }

    fn area(self) -> &'static str {
        match self {
            Door::Patient => "patient",
            Door::Staff => "staff",
        }
    }
}

fn ip(peer: ClientAddr) -> Option<String> {
    Some(peer.ip().to_string())
}

fn key_facts(row: Option<&KeyRow>) -> KeyFacts {
    match row {
        Some(k) => KeyFacts {
            found: true,
            purpose: k.purpose.clone(),
            expires_at: k.expires_at,
            used_at: k.used_at,
        },
        None => KeyFacts::default(),
    }
}

fn key_target(key_id: i64) -> Target {
    Target {
        target_type: Some("MembershipKey"),
        target_id: Some(key_id.to_string()),
        target_user_id: None,
    }
}

/// The link base: CorePortal PublicWebAddress; without one the link is relative (never built
/// from the request's Host header, which a caller controls).
async fn public_base(db: &Db) -> AppResult<String> {
    let core = settings::load(db, settings::CORE_PORTAL).await?;
    Ok(get_str(&core, "PublicWebAddress")
        .trim()
        .trim_end_matches('/')
        .to_owned())
}

// ---- forgot password -------------------------------------------------------------------------

async fn patient_forgot_password(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ForgotPasswordRequest>,
) -> AppResult<Json<ForgotPasswordResponse>> {
    forgot_password(&state, Door::Patient, peer, req).await
}

async fn staff_forgot_password(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ForgotPasswordRequest>,
) -> AppResult<Json<ForgotPasswordResponse>> {
    forgot_password(&state, Door::Staff, peer, req).await
}

fn recovery_ok(recovery_value: &str, a: &Account) -> bool {
    let emails: Vec<&str> = [a.email.as_deref(), a.patient_email.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    recovery::recovery_matches(
        recovery_value,
        a.patient_phone.as_deref().unwrap_or(""),
        &emails,
    )
}

/// Accounts of this door that `login` names (an exact username wins over shared emails), active,
/// narrowed by the recovery value when one was given.
async fn matching_accounts(
    db: &Db,
    door: Option<Door>,
    login: &str,
    recovery_value: &str,
) -> AppResult<Vec<Account>> {
    let all = store::accounts_by_login(db, login, MAX_ACCOUNTS).await?;
    let mut chosen: Vec<Account> = match all
        .iter()
        .find(|a| a.username.eq_ignore_ascii_case(login.trim()))
    {
        Some(a) => vec![a.clone()],
        None => all,
    };
    chosen.retain(|a| a.is_active && door.is_none_or(|d| d.admits(&a.role)));
    if !recovery_value.trim().is_empty() {
        chosen.retain(|a| recovery_ok(recovery_value, a));
    }
    Ok(chosen)
}

async fn forgot_password(
    state: &AppState,
    door: Door,
    peer: ClientAddr,
    req: ForgotPasswordRequest,
) -> AppResult<Json<ForgotPasswordResponse>> {
    let db = &state.db;
    let core = settings::load(db, settings::CORE_PORTAL).await?;
    let (errors, ask) = recovery::forgot_password_check(
        &req.login,
        &req.phone_or_second_email,
        get_bool(&core, "DisableSecondaryRecoveryOptions"),
    );
    if !errors.is_valid() || ask {
        return Ok(Json(ForgotPasswordResponse {
            is_valid: false,
            is_locked_out: false,
            is_ask_recovery_option: ask,
            validation_errors: errors.messages().map(str::to_owned).collect(),
        }));
    }
    let accounts =
        matching_accounts(db, Some(door), &req.login, &req.phone_or_second_email).await?;
    let pw = settings::load(db, settings::USER_ACCOUNT_PASSWORD).await?;
    let seconds = get_i64(&pw, "ResetKeyExpirationInSeconds").unwrap_or(0);
    let base = public_base(db).await?;
    let client = get_str(&core, "ClientName");
    let now = now_ms();
    let mut sent = 0;
    for a in &accounts {
        let Some(to) = a.email.as_deref().filter(|e| !e.trim().is_empty()) else {
            continue;
        };
        let key = random_token();
        let expires_at = recovery::key_expires_at(now, seconds);
        let mut tx = db.begin().await?;
        let key_id = store::insert_key(
            &mut tx,
            &NewKey {
                token_hash: &hash_token(&key),
                purpose: "reset",
                user_id: Some(a.id),
                patient_id: a.patient_id,
                email: Some(to),
                created_at: now,
                expires_at,
            },
        )
        .await?;
        let link = format!(
            "{base}/{}/change-password?pwdReset={key}&id={}",
            door.area(),
            a.id
        );
        let expiry = match expires_at {
            Some(_) if seconds >= 3600 && seconds % 3600 == 0 => {
                format!("The link expires in {} hour(s).", seconds / 3600)
            }
            Some(_) if seconds >= 60 && seconds % 60 == 0 => {
                format!("The link expires in {} minute(s).", seconds / 60)
            }
            Some(_) => format!("The link expires in {seconds} second(s)."),
            None => String::new(),
        };
        let text = format!(
            "Hello {},\n\nwe received a request to change the password of your {} portal account ({}).\n\
             Open this link to choose a new password:\n{link}\n\n{expiry}\nThe link works once. \
             If you did not ask for this, ignore this email: your password stays as it is.\n",
            if a.first_name.is_empty() { &a.username } else { &a.first_name },
            if client.is_empty() { "patient" } else { &client },
            a.username,
        );
        let mut message =
            OutboundMessage::email(to, "Change password request", &text, "ForgotPassword");
        message.patient_id = a.patient_id;
        outbox::enqueue_in(&mut tx, &message, now).await?;
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::PasswordResetRequested,
            Target::user(a.id),
            None,
            Some(json!({"Door": format!("{door:?}"), "KeyId": key_id})),
            ip(peer),
        )
        .await?;
        tx.commit().await?;
        sent += 1;
    }
    if sent == 0 {
        audit::record_alone(db, Actor::anonymous(), Action::PasswordResetRequested, Target::none(), None,
            Some(json!({"Door": format!("{door:?}"), "Login": req.login.trim(), "Result": "NoMatch"})), ip(peer)).await?;
    }
    // The same answer whether or not an account matched.
    Ok(Json(ForgotPasswordResponse {
        is_valid: true,
        is_locked_out: false,
        is_ask_recovery_option: false,
        validation_errors: vec![],
    }))
}

// ---- forgot username -------------------------------------------------------------------------

async fn recover_username(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<RecoverUsernameRequest>,
) -> AppResult<Json<RecoverUsernameResponse>> {
    let db = &state.db;
    let errors = recovery::recover_username_check(&req.email);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let accounts = matching_accounts(db, None, &req.email, &req.phone_or_second_email).await?;
    let base = public_base(db).await?;
    let mut sent = 0;
    for a in &accounts {
        let Some(to) = a.email.as_deref().filter(|e| !e.trim().is_empty()) else {
            continue;
        };
        let area = if Door::Patient.admits(&a.role) {
            "patient"
        } else {
            "staff"
        };
        let text = format!(
            "Hello {},\n\nyour portal username is: {}\nSign in at {base}/{area}/login\n\n\
             If you did not ask for this, you can ignore this email.\n",
            if a.first_name.is_empty() {
                &a.username
            } else {
                &a.first_name
            },
            a.username,
        );
        let mut message =
            OutboundMessage::email(to, "Your portal username", &text, "ForgotAccount");
        message.patient_id = a.patient_id;
        let mut tx = db.begin().await?;
        outbox::enqueue_in(&mut tx, &message, now_ms()).await?;
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::UsernameRecoveryRequested,
            Target::user(a.id),
            None,
            Some(json!({"Result": "Sent"})),
            ip(peer),
        )
        .await?;
        tx.commit().await?;
        sent += 1;
    }
    if sent == 0 {
        audit::record_alone(
            db,
            Actor::anonymous(),
            Action::UsernameRecoveryRequested,
            Target::none(),
            None,
            Some(json!({"Result": "NoMatch"})),
            ip(peer),
        )
        .await?;
    }
    Ok(Json(RecoverUsernameResponse {
        is_success: true,
        message: recovery::USERNAME_SENT.to_owned(),
    }))
}

// ---- reset link ------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
struct ResetKeyQuery {
    #[serde(default, rename = "pwdReset")]
    pwd_reset: String,
    #[serde(default)]
    id: String,
}

/// What validateResetPasswordKey and the change decide on.
async fn reset_facts(
    db: &Db,
    key: Option<&KeyRow>,
    id: Option<i64>,
) -> AppResult<(ResetKeyFacts, Option<Account>)> {
    let mut facts = ResetKeyFacts {
        key: key_facts(key),
        ..ResetKeyFacts::default()
    };
    let Some(k) = key else {
        return Ok((facts, None));
    };
    let verification = settings::load(db, settings::USER_ACCOUNT_VERIFICATION).await?;
    facts.phone_verification_required = get_bool(
        &verification,
        "IsPhoneNumberVerificationRequiredForResetPassword",
    );
    facts.phone_verified = k.phone_verified_at.is_some();
    match (k.user_id, k.patient_id) {
        (Some(user_id), _) => {
            facts.id_matches = id == Some(user_id);
            let account = store::account(db, user_id).await?;
            if let Some(a) = &account {
                facts.is_patient = Door::Patient.admits(&a.role);
                facts.phone = a.patient_phone.clone().unwrap_or_default();
            }
            Ok((facts, account))
        }
        (None, Some(patient_id)) => {
            facts.id_matches = id == Some(patient_id);
            facts.is_unregistered_patient = true;
            facts.is_patient = true;
            facts.phone = store::patient_phone(db, patient_id)
                .await?
                .unwrap_or_default();
            Ok((facts, None))
        }
        (None, None) => Ok((facts, None)),
    }
}

async fn validate_reset_password_key(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ResetKeyQuery>,
) -> AppResult<Json<ResetKeyValidation>> {
    let db = &state.db;
    let key = if q.pwd_reset.trim().is_empty() {
        None
    } else {
        store::key_by_hash(db, &hash_token(q.pwd_reset.trim())).await?
    };
    let (facts, _) = reset_facts(db, key.as_ref(), q.id.trim().parse().ok()).await?;
    Ok(Json(recovery::reset_key_validation(&facts, now_ms())))
}

async fn patient_change_password(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ResetPasswordRequest>,
) -> AppResult<Json<ChangePasswordResult>> {
    change_password_by_reset_token(&state, Door::Patient, peer, req).await
}

async fn staff_change_password(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ResetPasswordRequest>,
) -> AppResult<Json<ChangePasswordResult>> {
    change_password_by_reset_token(&state, Door::Staff, peer, req).await
}

fn refused(message: &str) -> Json<ChangePasswordResult> {
    Json(ChangePasswordResult {
        is_success: false,
        error_messages: vec![message.to_owned()],
    })
}

async fn change_password_by_reset_token(
    state: &AppState,
    door: Door,
    peer: ClientAddr,
    req: ResetPasswordRequest,
) -> AppResult<Json<ChangePasswordResult>> {
    let db = &state.db;
    let rules = password_requirements(db).await?;
    let errors = recovery::validate_reset_password(&req, &rules);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let now = now_ms();
    let token = req.reset_password_token.trim();
    let key = if token.is_empty() {
        None
    } else {
        store::key_by_hash(db, &hash_token(token)).await?
    };
    let (facts, account) = reset_facts(db, key.as_ref(), req.user_id).await?;
    let validation = recovery::reset_key_validation(&facts, now);
    let usable = validation.is_forgot_password_validate
        && validation.is_password_need_reset
        && !validation.is_link_epired;
    let (Some(key), Some(account), true) = (key, account, usable) else {
        audit::record_alone(
            db,
            Actor::anonymous(),
            Action::PasswordReset,
            Target::none(),
            None,
            Some(json!({"Result": "LinkRefused"})),
            ip(peer),
        )
        .await?;
        return Ok(refused(LINK_USED_OR_EXPIRED));
    };
    if !door.admits(&account.role) {
        audit::record_alone(
            db,
            Actor::anonymous(),
            Action::PasswordReset,
            key_target(key.id),
            None,
            Some(json!({"Result": "WrongArea", "UserId": account.id})),
            ip(peer),
        )
        .await?;
        return Err(AppError::Forbidden(
            "This link belongs to the other sign-in area.".to_owned(),
        ));
    }
    if validation.should_do_cell_phone_verification {
        return Ok(refused(PHONE_NOT_VERIFIED));
    }
    let options = settings::load(db, settings::USER_ACCOUNT_PATIENT_PORTAL_OPTIONS).await?;
    if door == Door::Patient && get_bool(&options, "ForgotPasswordValidateDOB") {
        let stored = account.patient_dob.as_deref().unwrap_or("");
        let (y, m, d) = (
            req.year.unwrap_or(0),
            req.month.unwrap_or(0),
            req.day.unwrap_or(0),
        );
        if !recovery::dob_matches(stored, y, m, d) {
            audit::record_alone(
                db,
                Actor::anonymous(),
                Action::PasswordReset,
                key_target(key.id),
                None,
                Some(json!({"Result": "DobMismatch", "UserId": account.id})),
                ip(peer),
            )
            .await?;
            // A few wrong dates spend the key: the date of birth cannot be guessed through it.
            if store::dob_failures(db, key.id).await? >= DOB_ATTEMPTS_MAX {
                let mut tx = db.begin().await?;
                store::spend_key(&mut tx, key.id, now).await?;
                tx.commit().await?;
            }
            return Ok(refused(DOB_MISMATCH));
        }
    }
    // Spend first: of two concurrent changes with one key only one gets through.
    let hash = password::hash(req.new_password.clone()).await?;
    let mut tx = db.begin().await?;
    if !store::spend_key(&mut tx, key.id, now).await? {
        return Ok(refused(LINK_USED_OR_EXPIRED));
    }
    accounts::set_password_hash(&mut tx, account.id, &hash, now).await?;
    let ended = accounts::end_sessions(&mut tx, account.id).await?;
    audit::record(
        &mut tx,
        Actor::anonymous(),
        Action::PasswordReset,
        Target::user(account.id),
        None,
        Some(json!({"Result": "Changed", "KeyId": key.id, "SessionsEnded": ended})),
        ip(peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(ChangePasswordResult {
        is_success: true,
        error_messages: Vec::new(),
    }))
}

// ---- phone verification ----------------------------------------------------------------------

#[derive(Debug, Deserialize)]
struct KeyQuery {
    #[serde(default)]
    key: String,
}

#[derive(Debug, Deserialize)]
struct RequestCodeBody {
    #[serde(default)]
    key: String,
}

async fn limits(db: &Db) -> AppResult<VerificationLimits> {
    let doc = settings::load(db, settings::USER_ACCOUNT_VERIFICATION).await?;
    let n = |k: &str| {
        get_i64(&doc, k)
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or(0)
    };
    Ok(VerificationLimits {
        verification_attempts_max: n("VerificationAttemptsMax"),
        verification_code_requests_max: n("VerificationCodeRequestsMax"),
        verification_code_timeout_in_minutes: n("VerificationCodeTimeoutInMinutes"),
    })
}

/// A usable key of either purpose (unknown, used or expired keys are refused alike) and its phone.
async fn phone_key(db: &Db, key: &str) -> AppResult<(KeyRow, String)> {
    let key = key.trim();
    let row = if key.is_empty() {
        None
    } else {
        store::key_by_hash(db, &hash_token(key)).await?
    };
    if recovery::key_state(&key_facts(row.as_ref()), None, now_ms()) != KeyState::Valid {
        return Err(AppError::BadRequest(LINK_EXPIRED.to_owned()));
    }
    let Some(row) = row else {
        return Err(AppError::BadRequest(LINK_EXPIRED.to_owned()));
    };
    let phone = match (row.user_id, row.patient_id) {
        (Some(user_id), _) => store::account(db, user_id)
            .await?
            .and_then(|a| a.patient_phone),
        (None, Some(patient_id)) => store::patient_phone(db, patient_id).await?,
        (None, None) => None,
    };
    Ok((row, phone.unwrap_or_default()))
}

fn code_state(row: &store::CodeRow) -> CodeState {
    let n = |v: i64| u32::try_from(v.max(0)).unwrap_or(u32::MAX);
    CodeState {
        generated_at: row.generated_at,
        requests: n(row.requests),
        attempts: n(row.attempts),
    }
}

fn code_hash(key_id: i64, code: &str) -> String {
    hash_token(&format!("phone-code:{key_id}:{}", code.trim()))
}

async fn get_verify_phone_params(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<KeyQuery>,
) -> AppResult<Json<VerifyPhoneParams>> {
    let db = &state.db;
    let (key, phone) = phone_key(db, &q.key).await?;
    let limits = limits(db).await?;
    let code = store::code(db, key.id).await?;
    let current = code
        .as_ref()
        .filter(|c| recovery::code_is_current(&limits, &code_state(c), now_ms()));
    Ok(Json(VerifyPhoneParams {
        last4_digits_of_phone: recovery::last_four(&phone),
        is_verified: key.phone_verified_at.is_some(),
        is_code_exists: current.is_some(),
        generated_date: current.map(|c| fmt::iso_utc(c.generated_at)),
        is_registration_needed: key.purpose == "registration",
    }))
}

async fn request_code(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<RequestCodeBody>,
) -> AppResult<Json<RequestCodeResponse>> {
    let db = &state.db;
    let (key, phone) = phone_key(db, &body.key).await?;
    let Some(digits) = membership::us_phone_digits(&phone) else {
        return Err(AppError::BadRequest(NO_PHONE.to_owned()));
    };
    let limits = limits(db).await?;
    for _ in 0..3 {
        let existing = store::code(db, key.id).await?;
        let decision = recovery::code_request(&limits, existing.as_ref().map(code_state).as_ref());
        if decision == CodeRequestDecision::Exceeded {
            audit::record_alone(
                db,
                Actor::anonymous(),
                Action::PhoneVerification,
                key_target(key.id),
                None,
                Some(json!({"Result": "RequestsExceeded"})),
                ip(peer),
            )
            .await?;
            return Ok(Json(RequestCodeResponse {
                is_verification_code_requests_exceeded: true,
                generated_date: None,
                message: recovery::CODE_REQUESTS_EXCEEDED.to_owned(),
            }));
        }
        let code = format!("{:06}", rand::rngs::OsRng.gen_range(0..1_000_000u32));
        let now = now_ms();
        let core = settings::load(db, settings::CORE_PORTAL).await?;
        let mut tx = db.begin().await?;
        if !store::store_code(
            &mut tx,
            key.id,
            &code_hash(key.id, &code),
            now,
            existing.as_ref().map(|c| c.requests),
        )
        .await?
        {
            continue; // a concurrent request counted first: decide again
        }
        let client = get_str(&core, "ClientName");
        let minutes = limits.verification_code_timeout_in_minutes;
        let text = format!(
            "{}Your verification code is {code}.{}",
            if client.is_empty() {
                String::new()
            } else {
                format!("{client}: ")
            },
            if minutes > 0 {
                format!(" It expires in {minutes} minutes.")
            } else {
                String::new()
            }
        );
        outbox::enqueue_in(
            &mut tx,
            &OutboundMessage::sms(&format!("+1{digits}"), &text, "PhoneVerificationCode"),
            now,
        )
        .await?;
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::PhoneVerification,
            key_target(key.id),
            None,
            Some(json!({"Result": "CodeSent"})),
            ip(peer),
        )
        .await?;
        tx.commit().await?;
        return Ok(Json(RequestCodeResponse {
            is_verification_code_requests_exceeded: false,
            generated_date: Some(fmt::iso_utc(now)),
            message: recovery::CODE_SENT.to_owned(),
        }));
    }
    Err(AppError::Conflict(
        "Too many code requests at once; try again.".to_owned(),
    ))
}

async fn verify_code(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<VerifyCodeRequest>,
) -> AppResult<Json<VerifyCodeResponse>> {
    let db = &state.db;
    let errors = membership::validate_verification_code(&req.code);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let (key, _) = phone_key(db, &req.key).await?;
    if key.phone_verified_at.is_some() {
        return Ok(Json(VerifyCodeResponse {
            generated_date: None,
            is_code_exists: false,
            is_verification_code_requests_exceeded: false,
            is_valid: true,
            error_message: None,
        }));
    }
    let limits = limits(db).await?;
    for _ in 0..5 {
        let row = store::code(db, key.id).await?;
        let state_now = row.as_ref().map(code_state);
        let now = now_ms();
        let matches = row
            .as_ref()
            .is_some_and(|r| constant_time_eq(&r.code_hash, &code_hash(key.id, &req.code)));
        let check = recovery::code_check(&limits, state_now.as_ref(), now, matches);
        let wrong = matches!(check, CodeCheck::Invalid { .. })
            || (check == CodeCheck::Exceeded
                && !matches
                && state_now.is_some_and(|s| {
                    limits.verification_attempts_max == 0
                        || s.attempts < limits.verification_attempts_max
                }));
        let mut tx = db.begin().await?;
        if wrong {
            let seen = row.as_ref().map_or(0, |r| r.attempts);
            if !store::count_wrong_code(&mut tx, key.id, seen).await? {
                continue; // a concurrent guess was counted first: decide again
            }
        }
        if check == CodeCheck::Valid {
            store::set_phone_verified(&mut tx, key.id, now).await?;
        }
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::PhoneVerification,
            key_target(key.id),
            None,
            Some(json!({"Result": format!("{check:?}").split([' ', '{']).next().unwrap_or("")})),
            ip(peer),
        )
        .await?;
        tx.commit().await?;
        let current = row
            .as_ref()
            .filter(|r| recovery::code_is_current(&limits, &code_state(r), now));
        return Ok(Json(VerifyCodeResponse {
            generated_date: current.map(|r| fmt::iso_utc(r.generated_at)),
            is_code_exists: current.is_some(),
            is_verification_code_requests_exceeded: check == CodeCheck::Exceeded,
            is_valid: check == CodeCheck::Valid,
            error_message: recovery::code_message(check),
        }));
    }
    Err(AppError::Conflict(
        "Too many attempts at once; try again.".to_owned(),
    ))
}

/// Compares two hashes without an early exit.
fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doors() {
        assert!(Door::Patient.admits("Patient") && !Door::Patient.admits("FrontDesk"));
        assert!(Door::Staff.admits("ProgramManager") && !Door::Staff.admits("Patient"));
        assert!(!Door::Staff.admits("Nobody"));
    }

    #[test]
    fn hashes_compare() {
        assert!(constant_time_eq("abc", "abc"));
        assert!(!constant_time_eq("abc", "abd"));
        assert!(!constant_time_eq("abc", "abcd"));
        assert_ne!(code_hash(1, "123456"), code_hash(2, "123456"));
    }
}
