//! Phone verification (issue 3 part 4): request a code by SMS, check it.

use super::*;
use wasm_core::model::{KeyQuery, RequestCodeRequest};

pub(super) async fn limits(db: &Db) -> AppResult<VerificationLimits> {
    let v: UserAccountUserAccountVerification = settings::get(db).await?;
    // Whole numbers from 0 to at most 10 080 once saved, so `as u32` is exact.
    Ok(VerificationLimits {
        verification_attempts_max: v.verification_attempts_max as u32,
        verification_code_requests_max: v.verification_code_requests_max as u32,
        verification_code_timeout_in_minutes: v.verification_code_timeout_in_minutes as u32,
    })
}

/// A usable key of either purpose (unknown, used or expired keys are refused alike) and its phone.
pub(super) async fn phone_key(db: &Db, key: &str) -> AppResult<(KeyRow, String)> {
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

pub(super) fn code_state(row: &store::CodeRow) -> CodeState {
    let n = |v: i64| u32::try_from(v.max(0)).unwrap_or(u32::MAX);
    CodeState {
        generated_at: row.generated_at,
        requests: n(row.requests),
        attempts: n(row.attempts),
    }
}

pub(super) fn code_hash(key_id: i64, code: &str) -> String {
    hash_token(&format!("phone-code:{key_id}:{}", code.trim()))
}

pub(super) async fn get_verify_phone_params(
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

pub(super) async fn request_code(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<RequestCodeRequest>,
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
        let core: CorePortal = settings::get(db).await?;
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
        let client = core.client_name;
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

pub(super) async fn verify_code(
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
pub(super) fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}
