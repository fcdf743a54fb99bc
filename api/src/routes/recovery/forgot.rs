//! Forgot password and forgot username (issue 3 part 2): the e-mailed reset link or username,
//! the same answer whether or not an account matched.

use super::*;

pub(super) async fn patient_forgot_password(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ForgotPasswordRequest>,
) -> AppResult<Json<ForgotPasswordResponse>> {
    forgot_password(&state, Door::Patient, peer, req).await
}

pub(super) async fn staff_forgot_password(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ForgotPasswordRequest>,
) -> AppResult<Json<ForgotPasswordResponse>> {
    forgot_password(&state, Door::Staff, peer, req).await
}

pub(super) fn recovery_ok(recovery_value: &str, a: &Account) -> bool {
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
pub(super) async fn matching_accounts(
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

pub(super) async fn forgot_password(
    state: &AppState,
    door: Door,
    peer: ClientAddr,
    req: ForgotPasswordRequest,
) -> AppResult<Json<ForgotPasswordResponse>> {
    let db = &state.db;
    // Per address and per login (issue 20: a waiting room behind one address is not braked).
    crate::request_limit::throttle(db, "recovery-password", &peer, Some(&req.login)).await?;
    let core: CorePortal = settings::get(db).await?;
    let (errors, ask) = recovery::forgot_password_check(
        &req.login,
        &req.phone_or_second_email,
        core.disable_secondary_recovery_options,
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
    let pw: UserAccountPassword = settings::get(db).await?;
    let seconds = pw.reset_key_expiration_in_seconds as i64;
    let base = public_base(db).await?;
    let client = core.client_name;
    let now = now_ms();
    let words = crate::notice_words::NoticeWords::load(db).await?;
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
        // In the patient's language (staff accounts: English), the expiry sentence too.
        let language = crate::store::notice_languages::patient_language(db, a.patient_id).await?;
        let expiry =
            expires_at.map_or_else(String::new, |_| words.link_expires(seconds, &language));
        let first = if a.first_name.is_empty() {
            &a.username
        } else {
            &a.first_name
        };
        let template =
            crate::notice_templates::account_template(db, "ForgotPassword", &language).await?;
        let rendered = crate::notice_templates::render_letter(
            &template,
            &[
                ("PatientFirstName", first.as_str()),
                (
                    "ClientName",
                    if client.is_empty() {
                        "patient"
                    } else {
                        client.as_str()
                    },
                ),
                ("Username", a.username.as_str()),
                ("ResetLink", link.as_str()),
                ("LinkExpiry", expiry.as_str()),
                ("PortalLink", base.as_str()),
            ],
        );
        let mut message = crate::notice_templates::message(
            crate::outbox::Channel::Email,
            to,
            &rendered,
            "ForgotPassword",
        );
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

pub(super) async fn recover_username(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<RecoverUsernameRequest>,
) -> AppResult<Json<RecoverUsernameResponse>> {
    let db = &state.db;
    crate::request_limit::throttle(db, "recovery-username", &peer, Some(&req.email)).await?;
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
        let first = if a.first_name.is_empty() {
            &a.username
        } else {
            &a.first_name
        };
        let login = format!("{base}/{area}/login");
        let language = crate::store::notice_languages::patient_language(db, a.patient_id).await?;
        let template =
            crate::notice_templates::account_template(db, "ForgotAccount", &language).await?;
        let rendered = crate::notice_templates::render_letter(
            &template,
            &[
                ("PatientFirstName", first.as_str()),
                ("Username", a.username.as_str()),
                ("LoginLink", login.as_str()),
                ("PortalLink", base.as_str()),
            ],
        );
        let mut message = crate::notice_templates::message(
            crate::outbox::Channel::Email,
            to,
            &rendered,
            "ForgotAccount",
        );
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
