//! Self-registration from an emailed key, online survey registration and unsubscribe
//! (spec 02 §2.1, §2.7-2.9, §3, §4, §5, §7.2, §8; issue 3 parts 5-7).
//!
//! The form rules are wasm-core's (`validate_create_account`, `validate_survey_registration`);
//! the server adds what only it knows: the key, the date of birth on record, username uniqueness
//! and the phone verification of the key. Keys are stored as SHA-256 only (membership_keys).
//! The anonymous endpoints are throttled per client address, and an unknown, spent or expired
//! key gets one and the same answer.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, OnceLock};

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use wasm_core::membership::{self, DOB_MISMATCH, USERNAME_TAKEN};
use wasm_core::model::{
    CreateAccountRules, CreateUserRequest, CreateUserResult, RegistrationInvitation,
    RequestRegistrationEmail, SendRegistrationEmail, SurveyEmailCheck, SurveyRegistration,
    UnsubscribeResult, UserCreationParams,
};
use wasm_core::ValidationErrors;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{hash_token, password, random_token, RequireRole, Staff};
use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db, Tx};
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::outbox::{self, OutboundMessage};
use crate::settings::{self, get_bool, get_i64, get_str};
use crate::store::registration as store;
use crate::{unsubscribe, AppState};

pub const TOKEN_EMPTY: &str = "Token is empty. Self registration is not allowed.";
pub const LINK_EXPIRED: &str = "Link is expired.";
pub const IDENTITY_NOT_VERIFIED: &str =
    "Your identity could not be verified after too many attempts. Please call the provider to create your portal account.";
pub const PHONE_VERIFICATION_NEEDED: &str =
    "Please verify your phone number before creating your account.";
pub const ALREADY_COMPLETED: &str = "You have already completed survey";
pub const LOCATION_INVALID: &str = "Location is not valid";
pub const NO_SURVEY: &str = "No survey is available for this location.";
pub const NO_EMAIL: &str = "The patient has no email address.";
pub const NO_DOB: &str = "The patient has no date of birth on record.";
pub const HAS_ACCOUNT: &str = "The patient already has a portal account.";
pub const INVITATION_SENT: &str = "Portal invitation sent.";
pub const TOO_MANY: &str = "Too many requests. Please wait a few minutes and try again.";

/// Settings groups read here (spec 03 §3) that have no stored defaults yet.
const USERNAME_VALIDATION: &str = "UserAccountUsernameValidation";
/// MinUsernameLength / MaxUsernameLength when UserAccountUsernameValidation does not say.
const DEFAULT_MIN_USERNAME: i64 = 4;
const DEFAULT_MAX_USERNAME: i64 = 64;
/// IDFailMax when UserAccountPassword does not say.
const DEFAULT_ID_FAIL_MAX: i64 = 5;

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "POST",
        path: "/api/patientUser/sendRegistrationEmail",
        summary: "Emails a patient who has an email and no portal account a single-use registration link /patient/create?key=KEY. Spec 03 has no registration-link expiry setting: the key expires after UserAccountPassword ResetKeyExpirationInSeconds (0 = never)",
        access: Access::Staff,
        request: Some("SendRegistrationEmail"),
        response: "RegistrationInvitation",
    },
    RouteDoc {
        method: "GET",
        path: "/api/patientUser/registrationInvitation",
        summary: "Whether the patient of a survey-queue row (query surveyQueueId) can be sent a portal invitation: an email and no account",
        access: Access::Staff,
        request: None,
        response: "RegistrationInvitation",
    },
    RouteDoc {
        method: "GET",
        path: "/api/patientUser/userCreationParams",
        summary: "What a registration key (query key) allows: IsValid, IsLockedOut, IsLinkExpired, Email, FirstName, LastName",
        access: Access::Anyone,
        request: None,
        response: "UserCreationParams",
    },
    RouteDoc {
        method: "POST",
        path: "/api/patientUser/create",
        summary: "Creates the Patient user of a registration key: date of birth on record, username rules and uniqueness, password rules, recovery option; spends the key",
        access: Access::Anyone,
        request: Some("CreateUserRequest"),
        response: "CreateUserResult",
    },
    RouteDoc {
        method: "POST",
        path: "/api/userRegistrationApi/sendRequestRegistrationEmail",
        summary: "Online survey registration step 1 (email, locNum): emails the survey link to a known patient with a survey to do",
        access: Access::Anyone,
        request: Some("RequestRegistrationEmail"),
        response: "SurveyEmailCheck",
    },
    RouteDoc {
        method: "POST",
        path: "/api/userRegistrationApi/requestRegistration",
        summary: "Online survey registration step 2: creates the patient, assigns the location's survey and emails its link",
        access: Access::Anyone,
        request: Some("SurveyRegistration"),
        response: "SurveyEmailCheck",
    },
    RouteDoc {
        method: "GET",
        path: "/api/user/unsubscribe/{token}",
        summary: "Unsubscribes the patient of an unsubscribe link from notifications",
        access: Access::Anyone,
        request: None,
        response: "UnsubscribeResult",
    },
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/patientUser/sendRegistrationEmail",
            post(send_registration_email),
        )
        .route(
            "/api/patientUser/registrationInvitation",
            get(registration_invitation),
        )
        .route(
            "/api/patientUser/userCreationParams",
            get(user_creation_params),
        )
        .route("/api/patientUser/create", post(create))
        .route(
            "/api/userRegistrationApi/sendRequestRegistrationEmail",
            post(send_request_registration_email),
        )
        .route(
            "/api/userRegistrationApi/requestRegistration",
            post(request_registration),
        )
        .route("/api/user/unsubscribe/{token}", get(unsubscribe_patient))
}

// --- throttle -------------------------------------------------------------------------------

const WINDOW_MS: i64 = 10 * 60 * 1000;
/// Requests per client address and endpoint group within the window.
pub const ADDRESS_LIMIT: usize = 30;
const MAX_KEYS: usize = 20_000;

/// Counts one request of `group` from `address`; false when over the limit. In memory, like
/// the sign-in throttle: a brake on enumeration, not a record.
fn allow(group: &str, address: &str, now: i64) -> bool {
    static TABLE: OnceLock<Mutex<HashMap<String, VecDeque<i64>>>> = OnceLock::new();
    let mut table = TABLE
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if table.len() >= MAX_KEYS {
        table.retain(|_, times| times.back().is_some_and(|t| now - t < WINDOW_MS));
        if table.len() >= MAX_KEYS {
            table.clear();
        }
    }
    let times = table.entry(format!("{group}:{address}")).or_default();
    while times.front().is_some_and(|t| now - t >= WINDOW_MS) {
        times.pop_front();
    }
    if times.len() >= ADDRESS_LIMIT {
        return false;
    }
    times.push_back(now);
    true
}

fn throttle(group: &str, peer: &ClientAddr) -> AppResult<()> {
    if allow(group, &peer.ip().to_string(), now_ms()) {
        Ok(())
    } else {
        Err(AppError::BadRequest(TOO_MANY.to_owned()))
    }
}

// --- helpers --------------------------------------------------------------------------------

async fn public_base(db: &Db) -> AppResult<String> {
    let core = settings::load(db, settings::CORE_PORTAL).await?;
    Ok(get_str(&core, "PublicWebAddress")
        .trim()
        .trim_end_matches('/')
        .to_owned())
}

fn ip(peer: &ClientAddr) -> Option<String> {
    Some(peer.ip().to_string())
}

fn bounded(value: i64) -> u32 {
    u32::try_from(value.max(0)).unwrap_or(u32::MAX)
}

async fn id_fail_max(db: &Db) -> AppResult<i64> {
    let doc = settings::load(db, settings::USER_ACCOUNT_PASSWORD).await?;
    Ok(get_i64(&doc, "IDFailMax")
        .filter(|n| *n > 0)
        .unwrap_or(DEFAULT_ID_FAIL_MAX))
}

/// The settings `validate_create_account` depends on.
async fn create_rules(db: &Db) -> AppResult<CreateAccountRules> {
    let names = settings::load(db, USERNAME_VALIDATION).await?;
    let core = settings::load(db, settings::CORE_PORTAL).await?;
    Ok(CreateAccountRules {
        password: super::password::password_requirements(db).await?,
        min_username_length: bounded(
            get_i64(&names, "MinUsernameLength").unwrap_or(DEFAULT_MIN_USERNAME),
        ),
        max_username_length: bounded(
            get_i64(&names, "MaxUsernameLength").unwrap_or(DEFAULT_MAX_USERNAME),
        ),
        disable_secondary_recovery_options: get_bool(&core, "DisableSecondaryRecoveryOptions"),
    })
}

fn invitation(can_invite: bool, is_sent: bool, message: &str) -> RegistrationInvitation {
    RegistrationInvitation {
        can_invite,
        is_sent,
        message: message.to_owned(),
    }
}

// --- part 5: invitation ---------------------------------------------------------------------

async fn send_registration_email(
    State(state): State<AppState>,
    user: RequireRole<Staff>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<SendRegistrationEmail>,
) -> AppResult<Json<RegistrationInvitation>> {
    let db = &state.db;
    let patient_id = match (req.patient_id, req.survey_queue_id) {
        (Some(id), _) => Some(id),
        (None, Some(queue)) => store::patient_of_queue_row(db, queue).await?,
        (None, None) => {
            return Err(AppError::BadRequest(
                "PatientId or SurveyQueueId is required.".to_owned(),
            ))
        }
    };
    let patient = match patient_id {
        Some(id) => store::patient(db, id).await?.ok_or(AppError::NotFound)?,
        None => return Err(AppError::NotFound),
    };
    let email = patient.email.as_deref().map(str::trim).unwrap_or("");
    if !membership::is_email(email) {
        return Err(AppError::BadRequest(NO_EMAIL.to_owned()));
    }
    if patient.accounts > 0 {
        return Err(AppError::Conflict(HAS_ACCOUNT.to_owned()));
    }
    if patient.dob.as_deref().is_none_or(|d| d.trim().is_empty()) {
        return Err(AppError::BadRequest(NO_DOB.to_owned()));
    }
    let doc = settings::load(db, settings::USER_ACCOUNT_PASSWORD).await?;
    let seconds = get_i64(&doc, "ResetKeyExpirationInSeconds")
        .unwrap_or(0)
        .max(0);
    let now = now_ms();
    let expires_at = (seconds > 0).then(|| now.saturating_add(seconds.saturating_mul(1000)));
    let key = random_token();
    let link = format!("{}/patient/create?key={key}", public_base(db).await?);
    let validity = if seconds > 0 {
        format!(
            "The link can be used once, within {}.",
            duration_text(seconds)
        )
    } else {
        "The link can be used once.".to_owned()
    };
    let text = format!(
        "Dear {} {},\nyou are invited to create your patient portal account:\n{link}\n\n{validity}\n",
        patient.first_name, patient.last_name
    );
    let mut message = OutboundMessage::email(
        email,
        "Create your patient portal account",
        &text,
        "PortalRegistration",
    );
    message.patient_id = Some(patient.id);
    let mut tx = db.begin().await?;
    store::insert_registration_key(
        &mut tx,
        &hash_token(&key),
        patient.id,
        email,
        now,
        expires_at,
    )
    .await?;
    outbox::enqueue_in(&mut tx, &message, now).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::RegistrationInvitationSent,
        Target {
            target_type: Some("Patient"),
            target_id: Some(patient.id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({"Email": email, "ExpiresAt": expires_at})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(invitation(true, true, INVITATION_SENT)))
}

fn duration_text(seconds: i64) -> String {
    match seconds {
        s if s % 86_400 == 0 => plural(s / 86_400, "day"),
        s if s % 3_600 == 0 => plural(s / 3_600, "hour"),
        s if s % 60 == 0 => plural(s / 60, "minute"),
        s => plural(s, "second"),
    }
}

fn plural(n: i64, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct QueueQuery {
    survey_queue_id: i64,
}

async fn registration_invitation(
    State(state): State<AppState>,
    _user: RequireRole<Staff>,
    ApiQuery(q): ApiQuery<QueueQuery>,
) -> AppResult<Json<RegistrationInvitation>> {
    let patient_id = store::patient_of_queue_row(&state.db, q.survey_queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let patient = store::patient(&state.db, patient_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let can = patient.accounts == 0
        && membership::is_email(patient.email.as_deref().unwrap_or(""))
        && patient.dob.as_deref().is_some_and(|d| !d.trim().is_empty());
    Ok(Json(invitation(can, false, "")))
}

// --- part 5: creation params and create -----------------------------------------------------

/// What a key is worth now.
enum KeyState {
    Empty,
    /// Unknown, spent, expired, or its patient has an account already: one answer for all.
    Expired,
    LockedOut,
    Usable(store::RegistrationKey),
}

async fn key_state(db: &Db, key: &str) -> AppResult<KeyState> {
    let key = key.trim();
    if key.is_empty() {
        return Ok(KeyState::Empty);
    }
    let Some(row) = store::registration_key(db, &hash_token(key)).await? else {
        return Ok(KeyState::Expired);
    };
    let now = now_ms();
    if row.used_at.is_some() || row.expires_at.is_some_and(|t| t <= now) {
        return Ok(KeyState::Expired);
    }
    let patient = store::patient(db, row.patient_id).await?;
    if patient.is_none_or(|p| p.accounts > 0) {
        return Ok(KeyState::Expired);
    }
    if row.dob_failures >= id_fail_max(db).await? {
        return Ok(KeyState::LockedOut);
    }
    Ok(KeyState::Usable(row))
}

#[derive(Deserialize)]
struct KeyQuery {
    #[serde(default)]
    key: String,
}

async fn user_creation_params(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<KeyQuery>,
) -> AppResult<Json<UserCreationParams>> {
    throttle("registration", &peer)?;
    let mut out = UserCreationParams {
        is_valid: false,
        is_locked_out: false,
        is_link_expired: false,
        email: String::new(),
        first_name: String::new(),
        last_name: String::new(),
        message: String::new(),
        rules: CreateAccountRules::default(),
    };
    match key_state(&state.db, &q.key).await? {
        KeyState::Empty => out.message = TOKEN_EMPTY.to_owned(),
        KeyState::Expired => {
            out.is_link_expired = true;
            out.message = LINK_EXPIRED.to_owned();
        }
        KeyState::LockedOut => {
            out.is_locked_out = true;
            out.message = IDENTITY_NOT_VERIFIED.to_owned();
        }
        KeyState::Usable(row) => {
            out.is_valid = true;
            out.email = row.email.unwrap_or_default();
            out.first_name = row.first_name;
            out.last_name = row.last_name;
            out.rules = create_rules(&state.db).await?;
        }
    }
    Ok(Json(out))
}

fn refused(state: &str, other: &str) -> CreateUserResult {
    let mut errors = ValidationErrors::new();
    errors.add("key", other);
    let mut out = membership::create_user_result(&errors);
    out.state = state.to_owned();
    out
}

fn dob_text(year: Option<u32>, month: Option<u32>, day: Option<u32>) -> Option<String> {
    Some(format!("{:04}-{:02}-{:02}", year?, month?, day?))
}

fn optional(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

async fn create(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<CreateUserRequest>,
) -> AppResult<Json<CreateUserResult>> {
    throttle("registration", &peer)?;
    let db = &state.db;
    let row = match key_state(db, &req.registration_key).await? {
        KeyState::Empty => return Ok(Json(refused("Invalid", TOKEN_EMPTY))),
        KeyState::Expired => return Ok(Json(refused("Expired", LINK_EXPIRED))),
        KeyState::LockedOut => {
            let mut out = refused("LockedOut", IDENTITY_NOT_VERIFIED);
            out.is_verification_failed = true;
            out.verification_failed_error = IDENTITY_NOT_VERIFIED.to_owned();
            return Ok(Json(out));
        }
        KeyState::Usable(row) => row,
    };
    // Phone verification before registration (spec 03 UserAccountUserAccountVerification
    // IsPhoneNumberPatientVerificationEnabled): the key must carry a verified phone.
    let verification = settings::load(db, settings::USER_ACCOUNT_VERIFICATION).await?;
    if get_bool(&verification, "IsPhoneNumberPatientVerificationEnabled")
        && row.phone_verified_at.is_none()
    {
        let mut out = refused("VerificationRequired", PHONE_VERIFICATION_NEEDED);
        out.other_errors.clear();
        out.is_verification_failed = true;
        out.verification_failed_redirect_url = format!(
            "/patient/create-verify-phone?key={}",
            urlencoding(req.registration_key.trim())
        );
        out.verification_failed_error = PHONE_VERIFICATION_NEEDED.to_owned();
        out.verification_errors = vec![PHONE_VERIFICATION_NEEDED.to_owned()];
        return Ok(Json(out));
    }

    let rules = create_rules(db).await?;
    let mut errors = membership::validate_create_account(&req, &rules);
    let ip = ip(&peer);
    if errors.field("Dob").is_empty() {
        let entered = dob_text(req.year, req.month, req.day);
        let on_record = row
            .dob
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(|d| d.chars().take(10).collect::<String>());
        if entered.is_none() || entered != on_record {
            errors.add("Dob", DOB_MISMATCH);
            let failures = store::add_dob_failure(db, row.id).await?;
            audit::record_alone(
                db,
                Actor::anonymous(),
                Action::RegistrationFailed,
                Target {
                    target_type: Some("Patient"),
                    target_id: Some(row.patient_id.to_string()),
                    target_user_id: None,
                },
                None,
                Some(json!({"Reason": "DobMismatch", "Failures": failures})),
                ip.clone(),
            )
            .await?;
            if failures >= id_fail_max(db).await? {
                let mut out = refused("LockedOut", IDENTITY_NOT_VERIFIED);
                out.is_verification_failed = true;
                out.verification_failed_error = IDENTITY_NOT_VERIFIED.to_owned();
                return Ok(Json(out));
            }
        }
    }
    if errors.field("username").is_empty()
        && crate::store::users::username_taken(db, &req.username, None).await?
    {
        errors.add("username", USERNAME_TAKEN);
    }
    if !errors.is_valid() {
        return Ok(Json(membership::create_user_result(&errors)));
    }
    let hash = password::hash(req.new_password.clone()).await?;
    let email = row
        .email
        .clone()
        .unwrap_or_else(|| req.email.trim().to_owned());
    let phone = optional(req.phone_number.as_deref()).and_then(membership::us_phone_digits);
    let mut tx = db.begin().await?;
    let created = store::create_patient_user(
        &mut tx,
        &store::NewPatientUser {
            key_id: row.id,
            patient_id: row.patient_id,
            username: &req.username,
            email: &email,
            first_name: &row.first_name,
            last_name: &row.last_name,
            password_hash: &hash,
            recovery_phone: phone.as_deref(),
            recovery_email: optional(req.second_email.as_deref()),
            now: now_ms(),
        },
    )
    .await;
    let user_id = match created {
        Ok(Some(id)) => id,
        Ok(None) => return Ok(Json(refused("Expired", LINK_EXPIRED))),
        Err(AppError::Conflict(_)) => {
            let mut errors = ValidationErrors::new();
            errors.add("username", USERNAME_TAKEN);
            return Ok(Json(membership::create_user_result(&errors)));
        }
        Err(e) => return Err(e),
    };
    audit::record(&mut tx, Actor::anonymous(), Action::UserCreated, Target::user(user_id), None,
        Some(json!({"Username": req.username.trim(), "Role": "Patient", "PatientId": row.patient_id, "Via": "SelfRegistration"})), ip).await?;
    tx.commit().await?;
    Ok(Json(membership::create_user_result(
        &ValidationErrors::new(),
    )))
}

/// Percent-encodes a key for a query string (keys are base64url already; this is a guard).
fn urlencoding(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

// --- part 6: online survey registration -----------------------------------------------------

fn check(is_user_exist: bool, sent: bool, message: &str) -> SurveyEmailCheck {
    SurveyEmailCheck {
        is_user_exist,
        is_sent_start_hist_portal_survey_email: sent,
        message: message.to_owned(),
    }
}

/// The survey a location's patients get: the staff start's choice order (spec 01 §2.5, in
/// wasm-core), so both assign the same survey.
async fn location_survey(db: &Db, loc_num: &str) -> AppResult<Option<i64>> {
    crate::staff_start::survey_for_location(db, loc_num).await
}

/// Where the emailed survey link points and the key that signs it: read before the transaction
/// that assigns the survey (the key is created on first use).
struct LinkParts {
    base: String,
    key: crate::survey_link::LinkKey,
}

async fn link_parts(db: &Db) -> AppResult<LinkParts> {
    Ok(LinkParts {
        base: public_base(db).await?,
        key: crate::survey_link::key(db).await?,
    })
}

/// The survey link e-mail for a queue row, queued in `tx`.
async fn send_survey_email(
    tx: &mut Tx,
    parts: &LinkParts,
    patient: &store::PatientForRegistration,
    queue_id: i64,
) -> AppResult<()> {
    let link = crate::survey_link::link(&parts.base, &parts.key, queue_id);
    let text = format!(
        "Dear {} {},\nplease fill in your medical history survey:\n{link}\n",
        patient.first_name, patient.last_name
    );
    let to = patient.email.as_deref().unwrap_or("").trim();
    let mut message =
        OutboundMessage::email(to, "Your medical history survey", &text, "SurveyAssignment");
    message.patient_id = Some(patient.id);
    message.survey_queue_id = Some(queue_id);
    outbox::enqueue_in(tx, &message, now_ms()).await?;
    Ok(())
}

/// Step 1 for a known email: the open survey's link again, or a new assignment when the patient
/// has none at all; 'You have already completed survey' when only completed ones exist.
async fn existing_patient(
    db: &Db,
    patient: &store::PatientForRegistration,
    location_id: i64,
    loc_num: &str,
    peer: &ClientAddr,
) -> AppResult<SurveyEmailCheck> {
    let (open, done) = store::survey_state(db, patient.id).await?;
    let survey = match (open, done) {
        (Some(_), _) => None,
        (None, 0) => Some(
            location_survey(db, loc_num)
                .await?
                .ok_or_else(|| AppError::BadRequest(NO_SURVEY.to_owned()))?,
        ),
        (None, _) => return Ok(check(true, false, ALREADY_COMPLETED)),
    };
    let parts = link_parts(db).await?;
    let mut tx = db.begin().await?;
    let queue_id = match (open, survey) {
        (Some(id), _) => id,
        (None, Some(survey)) => {
            store::assign_survey(&mut tx, patient.id, location_id, survey, now_ms()).await?
        }
        (None, None) => return Ok(check(true, false, ALREADY_COMPLETED)),
    };
    send_survey_email(&mut tx, &parts, patient, queue_id).await?;
    audit::record(
        &mut tx,
        Actor::anonymous(),
        Action::SurveyRegistrationRequested,
        Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(queue_id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({"PatientId": patient.id, "LocNum": loc_num, "NewPatient": false})),
        ip(peer),
    )
    .await?;
    tx.commit().await?;
    Ok(check(true, true, ""))
}

async fn location(db: &Db, loc_num: &str) -> AppResult<i64> {
    let loc = loc_num.trim();
    if loc.is_empty() || loc.len() > 32 {
        return Err(AppError::BadRequest(LOCATION_INVALID.to_owned()));
    }
    store::location_id(db, loc)
        .await?
        .ok_or_else(|| AppError::BadRequest(LOCATION_INVALID.to_owned()))
}

async fn send_request_registration_email(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<RequestRegistrationEmail>,
) -> AppResult<Json<SurveyEmailCheck>> {
    throttle("survey-registration", &peer)?;
    let reg = SurveyRegistration {
        email: req.email.clone(),
        loc_num: req.loc_num.clone(),
        ..Default::default()
    };
    let errors = membership::validate_survey_registration(&reg, false);
    if !errors.is_valid() {
        return Err(errors.into());
    }
    let db = &state.db;
    let location_id = location(db, &req.loc_num).await?;
    match store::patients_by_email(db, &req.email).await?.first() {
        Some(patient) => Ok(Json(
            existing_patient(db, patient, location_id, &req.loc_num, &peer).await?,
        )),
        None => Ok(Json(check(false, false, ""))),
    }
}

async fn request_registration(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<SurveyRegistration>,
) -> AppResult<Json<SurveyEmailCheck>> {
    throttle("survey-registration", &peer)?;
    let errors = membership::validate_survey_registration(&req, true);
    if !errors.is_valid() {
        return Err(errors.into());
    }
    let db = &state.db;
    let location_id = location(db, &req.loc_num).await?;
    if let Some(patient) = store::patients_by_email(db, &req.email).await?.first() {
        return Ok(Json(
            existing_patient(db, patient, location_id, &req.loc_num, &peer).await?,
        ));
    }
    let survey = location_survey(db, &req.loc_num)
        .await?
        .ok_or_else(|| AppError::BadRequest(NO_SURVEY.to_owned()))?;
    let dob = dob_text(req.year, req.month, req.day).unwrap_or_default();
    let phone = optional(Some(req.phone_number.as_str())).and_then(membership::us_phone_digits);
    let now = now_ms();
    // The MRN of a self-registered patient: 'W' and 12 random digits (the clinical system
    // assigns its own when the patient is seen).
    let mrn = {
        use rand::Rng;
        format!(
            "W{:012}",
            rand::thread_rng().gen_range(0..1_000_000_000_000u64)
        )
    };
    let parts = link_parts(db).await?;
    let mut tx = db.begin().await?;
    let patient_id = store::insert_patient(
        &mut tx,
        &store::NewSurveyPatient {
            mrn: &mrn,
            first_name: &req.first_name,
            last_name: &req.last_name,
            dob: &dob,
            email: &req.email,
            phone: phone.as_deref(),
            gender: &req.gender,
            now,
        },
    )
    .await?;
    let queue_id = store::assign_survey(&mut tx, patient_id, location_id, survey, now).await?;
    let patient = store::patient_in(&mut tx, patient_id)
        .await?
        .ok_or(AppError::NotFound)?;
    send_survey_email(&mut tx, &parts, &patient, queue_id).await?;
    audit::record(
        &mut tx,
        Actor::anonymous(),
        Action::SurveyRegistrationRequested,
        Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(queue_id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({"PatientId": patient_id, "LocNum": req.loc_num.trim(), "NewPatient": true})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(check(false, true, "")))
}

// --- part 7: unsubscribe --------------------------------------------------------------------

async fn unsubscribe_patient(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(token): ApiPath<String>,
) -> AppResult<Json<UnsubscribeResult>> {
    throttle("unsubscribe", &peer)?;
    let db = &state.db;
    let key = unsubscribe::key(db).await?;
    let mut tx = db.begin().await?;
    let done = match key.verify(token.trim()) {
        Some(patient_id) => store::unsubscribe(&mut tx, patient_id, now_ms())
            .await?
            .then_some(patient_id),
        None => None,
    };
    if let Some(patient_id) = done {
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::PatientUnsubscribed,
            Target {
                target_type: Some("Patient"),
                target_id: Some(patient_id.to_string()),
                target_user_id: None,
            },
            None,
            Some(json!({"Unsubscribed": true})),
            ip(&peer),
        )
        .await?;
        tx.commit().await?;
    }
    // A link that does not verify: the patient is asked to call the provider instead.
    Ok(Json(UnsubscribeResult {
        is_success: done.is_some(),
        show_call_to_provider_message: done.is_none(),
    }))
}
