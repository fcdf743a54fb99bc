//! Sign-in and sign-out (spec 01 §2.1, spec 02 §2.1): the patient and staff doors, throttle,
//! lockout, a fresh session id, every attempt audited.

use super::*;

/// Which sign-in page was used: each admits only its own roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Door {
    Patient,
    Staff,
}

impl Door {
    pub(super) fn admits(self, role: Role) -> bool {
        match self {
            Door::Patient => role == Role::Patient,
            Door::Staff => role.is_staff(),
        }
    }
}

pub(super) async fn patient_login(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(body): ApiJson<LoginRequest>,
) -> AppResult<WithCookie<LoginResponse>> {
    login(&state, Door::Patient, peer, &headers, body).await
}

pub(super) async fn staff_login(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(body): ApiJson<LoginRequest>,
) -> AppResult<WithCookie<LoginResponse>> {
    login(&state, Door::Staff, peer, &headers, body).await
}

pub(super) fn invalid() -> LoginResponse {
    refused(LOGIN_FAILED)
}

pub(super) fn refused(message: &str) -> LoginResponse {
    LoginResponse {
        validation_errors: vec![message.to_owned()],
        ..Default::default()
    }
}

/// The answer to a locked-out account: wasm-core's lockout message with the minutes left of a
/// lockout that ends in `remaining_ms` (a message template the browser shows in the reader's
/// language), and IDFailureURL when one is set (spec 03 UserAccountPassword), where the login
/// page sends the user.
async fn locked_out(db: &crate::db::Db, remaining_ms: i64) -> AppResult<LoginResponse> {
    let pw: UserAccountPassword = settings::get(db).await?;
    Ok(LoginResponse {
        id_failure_url: pw.id_failure_url.trim().to_owned(),
        ..refused(&wasm_core::login::locked_out_message(remaining_ms))
    })
}

/// A refused sign-in: counted toward the account's and the address's throttle, and audited
/// (no change of its own to record it with).
async fn failed(
    db: &crate::db::Db,
    login: &str,
    address: &str,
    now: i64,
    target: Target,
    details: serde_json::Value,
    ip: Option<String>,
) -> AppResult<()> {
    throttle::record_failure(db, login, address, now).await?;
    audit::record_alone(
        db,
        Actor::anonymous(),
        Action::LoginFailed,
        target,
        None,
        Some(details),
        ip,
    )
    .await
}

pub(super) async fn login(
    state: &AppState,
    door: Door,
    peer: ClientAddr,
    headers: &HeaderMap,
    req: LoginRequest,
) -> AppResult<WithCookie<LoginResponse>> {
    let asked_username = req.user_name.is_some();
    let errors = wasm_core::login::validate_login(&req, asked_username);
    if !errors.is_valid() {
        return Err(errors.into());
    }
    let db = &state.db;
    let ip = Some(peer.ip().to_string());
    let address = peer.ip().to_string();
    let login = req.username_or_email.trim().to_owned();
    let now = now_ms();
    // Too many failures for this account or from this address: refused before any password check.
    if throttle::is_throttled(db, &login, &address, now).await? {
        audit::record_alone(
            db,
            Actor::anonymous(),
            Action::LoginFailed,
            Target::none(),
            None,
            Some(json!({"Login": login, "Reason": "Throttled"})),
            ip,
        )
        .await?;
        return Ok(WithCookie::none(refused(throttle::THROTTLED)));
    }

    let candidates = users::login_candidates(db, &login, MAX_EMAIL_CANDIDATES).await?;

    // An exact username wins; otherwise every account with that e-mail at this door.
    let mut chosen: Vec<LoginCandidate> = match candidates
        .iter()
        .find(|c| c.username.eq_ignore_ascii_case(&login))
    {
        Some(c) => vec![c.clone()],
        None => candidates
            .into_iter()
            .filter(|c| Role::parse(&c.role).is_some_and(|r| door.admits(r)))
            .collect(),
    };
    if let Some(name) = req.user_name.as_deref().map(str::trim) {
        chosen.retain(|c| c.username.eq_ignore_ascii_case(name));
    }

    if chosen.len() > 1 {
        // Several accounts share the e-mail: ask which one, but only once the password matches
        // one of them, so the question reveals nothing to someone without the password.
        let mut any = false;
        for c in &chosen {
            any |= password::verify(req.password.clone(), Some(c.password_hash.clone())).await?;
        }
        if any {
            return Ok(WithCookie::none(LoginResponse {
                is_ask_username: true,
                ..Default::default()
            }));
        }
        failed(
            db,
            &login,
            &address,
            now,
            Target::none(),
            json!({"Login": login, "Reason": "WrongPassword"}),
            ip,
        )
        .await?;
        return Ok(WithCookie::none(invalid()));
    }

    let user = chosen.into_iter().next();
    // Locked out (IDFailMax failures): refused until the lockout ends, whatever the password.
    if let Some(u) = &user {
        let (_, locked_until) = membership_store::lock_state(db, u.id).await?;
        if let Some(until) = locked_until.filter(|t| *t > now) {
            failed(
                db,
                &login,
                &address,
                now,
                Target::user(u.id),
                json!({"Login": login, "Reason": "LockedOut"}),
                ip,
            )
            .await?;
            return Ok(WithCookie::none(locked_out(db, until - now).await?));
        }
    }
    let password_ok = password::verify(
        req.password.clone(),
        user.as_ref().map(|u| u.password_hash.clone()),
    )
    .await?;
    let Some(user) = user else {
        failed(
            db,
            &login,
            &address,
            now,
            Target::none(),
            json!({"Login": login, "Reason": "UnknownUser"}),
            ip,
        )
        .await?;
        return Ok(WithCookie::none(invalid()));
    };
    let role_ok = Role::parse(&user.role).is_some_and(|r| door.admits(r));
    let reason = match (password_ok, role_ok, user.is_active) {
        (false, _, _) => Some("WrongPassword"),
        (true, false, _) => Some("WrongDoor"),
        (true, true, false) => Some("Inactive"),
        (true, true, true) => None,
    };
    if let Some(reason) = reason {
        let mut locked = false;
        if !password_ok {
            users::count_failed_login(db, user.id).await?;
            // spec 03 UserAccountPassword IDFailMax: that many wrong passwords in a row lock the
            // account for LOCKOUT_MS (0 = no lockout).
            let max = settings::get::<UserAccountPassword>(db).await?.id_fail_max as i64;
            let (failures, _) = membership_store::lock_state(db, user.id).await?;
            if max > 0 && failures >= max {
                membership_store::lock_until(db, user.id, now + LOCKOUT_MS).await?;
                locked = true;
            }
        }
        let details = json!({"Login": login, "Reason": reason, "LockedOut": locked});
        failed(
            db,
            &login,
            &address,
            now,
            Target::user(user.id),
            details,
            ip,
        )
        .await?;
        return Ok(WithCookie::none(if locked {
            locked_out(db, LOCKOUT_MS).await?
        } else {
            invalid()
        }));
    }

    // Staff two-step sign-in (issue 22): no session until the code passes.
    let role = Role::parse(&user.role).unwrap_or(Role::Patient);
    if door == Door::Staff {
        let enrolled = mfa_store::is_enrolled(db, user.id).await?;
        let pw: UserAccountPassword = settings::get(db).await?;
        if wasm_core::mfa::second_step_needed(role, enrolled, pw.require_mfa_for_admins) {
            return super::mfa::challenge(state, user.id, enrolled, headers, ip).await;
        }
    }
    open_session(state, user.id, door, headers, ip, None).await
}

/// The end of a successful sign-in: a fresh session (the one the browser had is gone), failures
/// reset, LoginSucceeded audited; `second_step` names how a two-step sign-in finished.
pub(super) async fn open_session(
    state: &AppState,
    user_id: i64,
    door: Door,
    headers: &HeaderMap,
    ip: Option<String>,
    second_step: Option<&str>,
) -> AppResult<WithCookie<LoginResponse>> {
    let db = &state.db;
    let now = now_ms();
    let length = session::length_ms(db).await?;
    let mut tx = db.begin().await?;
    users::reset_failed_logins(&mut tx, user_id, now).await?;
    if let Some(old) = cookies::session_token(headers) {
        session::delete_in(&mut tx, &hash_token(old)).await?;
    }
    let token = session::create_in(&mut tx, user_id, None, length).await?;
    let mut details = json!({"Door": format!("{door:?}")});
    if let Some(step) = second_step {
        details["SecondStep"] = json!(step);
    }
    audit::record(
        &mut tx,
        Actor::user(user_id),
        Action::LoginSucceeded,
        Target::user(user_id),
        None,
        Some(details),
        ip,
    )
    .await?;
    tx.commit().await?;

    let cookie = cookies::session_cookie(&token, cookies::is_secure(headers));
    Ok(WithCookie::set(
        LoginResponse {
            is_valid: true,
            ..Default::default()
        },
        cookie,
    ))
}

pub(super) async fn logout(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    MaybeUser(user): MaybeUser,
) -> AppResult<WithCookie<LoggedOut>> {
    if let Some(user) = &user {
        let mut tx = state.db.begin().await?;
        session::delete_in(&mut tx, &user.token_hash).await?;
        audit::record(
            &mut tx,
            Actor::from(user),
            Action::Logout,
            Target::user(user.user_id),
            None,
            None,
            Some(peer.ip().to_string()),
        )
        .await?;
        tx.commit().await?;
    } else if let Some(token) = cookies::session_token(&headers) {
        session::delete_token(&state.db, token).await?;
    }
    let cookie = cookies::clear_session_cookie(cookies::is_secure(&headers));
    Ok(WithCookie::set(
        LoggedOut {
            is_logged_in: false,
        },
        cookie,
    ))
}
