//! The reset link (issue 3 part 3): its facts, and the new password set through it.

use super::*;
use wasm_core::model::ResetKeyQuery;

/// What validateResetPasswordKey and the change decide on.
pub(super) async fn reset_facts(
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
    let verification: UserAccountUserAccountVerification = settings::get(db).await?;
    facts.phone_verification_required =
        verification.is_phone_number_verification_required_for_reset_password;
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

pub(super) async fn validate_reset_password_key(
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

pub(super) async fn patient_change_password(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ResetPasswordRequest>,
) -> AppResult<Json<ChangePasswordResult>> {
    change_password_by_reset_token(&state, Door::Patient, peer, req).await
}

pub(super) async fn staff_change_password(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ResetPasswordRequest>,
) -> AppResult<Json<ChangePasswordResult>> {
    change_password_by_reset_token(&state, Door::Staff, peer, req).await
}

pub(super) fn refused(message: &str) -> Json<ChangePasswordResult> {
    Json(ChangePasswordResult {
        is_success: false,
        error_messages: vec![message.to_owned()],
    })
}

pub(super) async fn change_password_by_reset_token(
    state: &AppState,
    door: Door,
    peer: ClientAddr,
    req: ResetPasswordRequest,
) -> AppResult<Json<ChangePasswordResult>> {
    let db = &state.db;
    let rules = password_requirements(db).await?;
    let mut errors = recovery::validate_reset_password(&req, &rules);
    if errors.field("NewPassword").is_empty() {
        errors.merge(crate::password_rules::breached(
            "NewPassword",
            &req.new_password,
        ));
    }
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
    let options: UserAccountPatientPortalOptions = settings::get(db).await?;
    if door == Door::Patient && options.forgot_password_validate_dob {
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
