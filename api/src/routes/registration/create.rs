//! Self-registration through the link (issue 3 part 5): the form's parameters, then the account.

use super::*;
use wasm_core::model::KeyQuery;

/// What a key is worth now.
pub(super) enum KeyState {
    Empty,
    /// Unknown, spent, expired, or its patient has an account already: one answer for all.
    Expired,
    LockedOut,
    Usable(store::RegistrationKey),
}

pub(super) async fn key_state(db: &Db, key: &str) -> AppResult<KeyState> {
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

pub(super) async fn user_creation_params(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<KeyQuery>,
) -> AppResult<Json<UserCreationParams>> {
    throttle(&state.db, "registration", &peer, Some(&q.key)).await?;
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

pub(super) fn refused(state: &str, other: &str) -> CreateUserResult {
    let mut errors = ValidationErrors::new();
    errors.add("key", other);
    let mut out = membership::create_user_result(&errors);
    out.state = state.to_owned();
    out
}

pub(super) fn dob_text(year: Option<u32>, month: Option<u32>, day: Option<u32>) -> Option<String> {
    Some(format!("{:04}-{:02}-{:02}", year?, month?, day?))
}

pub(super) fn optional(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

pub(super) async fn create(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<CreateUserRequest>,
) -> AppResult<Json<CreateUserResult>> {
    throttle(
        &state.db,
        "registration",
        &peer,
        Some(&req.registration_key),
    )
    .await?;
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
    let verification: UserAccountUserAccountVerification = settings::get(db).await?;
    if verification.is_phone_number_patient_verification_enabled && row.phone_verified_at.is_none()
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
    if errors.field("newPassword").is_empty() {
        errors.merge(crate::password_rules::breached(
            "newPassword",
            &req.new_password,
        ));
    }
    let ip = ip(&peer);
    // RequireDOB (spec 03 UserAccountPatientPortalOptions): the date of birth on record proves
    // who registers; off, the single-use link alone does and no date is asked.
    if rules.require_dob && errors.field("Dob").is_empty() {
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
pub(super) fn urlencoding(value: &str) -> String {
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
