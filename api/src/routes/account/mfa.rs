//! Staff two-step sign-in (issue 22). After the password passes at the staff door, a user with an
//! authenticator (or a Program manager / Client admin while UserAccountPassword
//! RequireMfaForAdmins is on) gets no session but a pending sign-in (a random token in an
//! HttpOnly cookie, its hash in `mfa_challenges`, 5 minutes). `POST /api/staffUser/mfa/verify`
//! with a code from the app (RFC 6238) or a recovery code opens the session; a required user
//! without an app first sets one up with `POST /api/staffUser/mfa/enrol` (QR code) and confirms it
//! with the same verify call, which then answers the ten recovery codes once. A time step is
//! accepted once (RFC 6238 §5.2); 5 wrong codes end the pending sign-in, and every wrong code
//! counts toward the sign-in throttle of the account and the address. Signed-in staff may set up
//! an app themselves (`/api/account/mfa*`); a program manager resets another user's
//! (`routes/users`). The secret is stored AES-256-GCM encrypted (secrets.rs).

use wasm_core::mfa::{
    self, EnteredCode, MfaCodeRequest, MfaEnrolment, MfaStatus, MfaVerifyResult, ALREADY_ENROLLED,
    CODE_REPLAYED, CODE_WRONG, MAX_CODE_FAILURES, NOT_ENROLLED, RECOVERY_CODE_COUNT,
    SIGN_IN_EXPIRED, TOO_MANY_CODES,
};

use super::sign_in::{open_session, Door};
use super::*;
use crate::auth::roles::Staff;
use crate::auth::{random_token, totp, RequireRole};
use crate::error::AppError;
use crate::store::mfa as store;

/// How long a pending second step lasts.
const CHALLENGE_MS: i64 = 5 * 60 * 1000;

fn now_s() -> u64 {
    (now_ms() / 1000).max(0) as u64
}

/// The password passed and a second step is needed: a pending sign-in, audited.
pub(super) async fn challenge(
    state: &AppState,
    user_id: i64,
    enrolled: bool,
    headers: &HeaderMap,
    ip: Option<String>,
) -> AppResult<WithCookie<LoginResponse>> {
    let token = random_token();
    let now = now_ms();
    let mut tx = state.db.begin().await?;
    store::insert_challenge(
        &mut tx,
        &hash_token(&token),
        user_id,
        now,
        now + CHALLENGE_MS,
    )
    .await?;
    let step = if enrolled {
        mfa::STEP_CODE
    } else {
        mfa::STEP_ENROL
    };
    audit::record(
        &mut tx,
        Actor::user(user_id),
        Action::MfaChallenged,
        Target::user(user_id),
        None,
        Some(json!({"Step": step})),
        ip,
    )
    .await?;
    tx.commit().await?;
    Ok(WithCookie::set(
        LoginResponse {
            mfa_step: step.to_owned(),
            ..Default::default()
        },
        cookies::mfa_cookie(&token, CHALLENGE_MS / 1000, cookies::is_secure(headers)),
    ))
}

/// The pending sign-in of the request, if still live.
async fn pending(
    state: &AppState,
    headers: &HeaderMap,
) -> AppResult<Option<(String, store::Challenge)>> {
    let Some(token) = cookies::mfa_token(headers) else {
        return Ok(None);
    };
    let hash = hash_token(token);
    Ok(store::challenge(&state.db, &hash)
        .await?
        .filter(|c| c.expires_at > now_ms())
        .map(|c| (hash, c)))
}

/// A new secret for `user_id`, stored encrypted and not yet confirmed (None: already enrolled).
async fn start_enrolment(
    state: &AppState,
    user_id: i64,
    username: &str,
) -> AppResult<Option<MfaEnrolment>> {
    let secret = totp::new_secret();
    let encrypted = state.secrets.encrypt(&totp::secret_base32(&secret));
    let mut tx = state.db.begin().await?;
    if !store::put_pending(&mut tx, user_id, &encrypted, now_ms()).await? {
        return Ok(None);
    }
    tx.commit().await?;
    let uri = totp::otpauth_uri(&secret, username);
    Ok(Some(MfaEnrolment {
        secret: totp::secret_base32(&secret),
        qr_svg: totp::qr_svg(&uri),
        otpauth_uri: uri,
    }))
}

/// The stored secret's bytes (None when it does not decrypt with this server's key).
fn secret_bytes(state: &AppState, enrolment: &store::Enrolment) -> Option<Vec<u8>> {
    let b32 = state.secrets.decrypt(&enrolment.secret_enc)?;
    base32_decode(&b32)
}

fn base32_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.chars() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            '2'..='7' => c as u32 - '2' as u32 + 26,
            _ => return None,
        };
        buffer = (buffer << 5) | v;
        bits += 5;
        if bits >= 8 {
            out.push((buffer >> (bits - 8)) as u8);
            bits -= 8;
        }
    }
    Some(out)
}

/// What a code did.
enum Outcome {
    /// Accepted; the recovery codes of a new enrolment.
    Accepted {
        how: &'static str,
        recovery: Vec<String>,
    },
    Refused(&'static str),
}

/// Checks `code` for `user_id` (whose stored secret is `enrolment`, read before `tx` began)
/// inside `tx`: an app code (its step accepted once; a pending enrolment confirmed by it, with
/// new recovery codes) or an unused recovery code.
async fn check_code(
    state: &AppState,
    tx: &mut crate::db::Tx,
    user_id: i64,
    enrolment: Option<store::Enrolment>,
    code: EnteredCode,
) -> AppResult<Outcome> {
    let Some(enrolment) = enrolment else {
        return Ok(Outcome::Refused(NOT_ENROLLED));
    };
    let confirmed = enrolment.confirmed_at.is_some();
    match code {
        EnteredCode::Totp(digits) => {
            let Some(secret) = secret_bytes(state, &enrolment) else {
                return Ok(Outcome::Refused(CODE_WRONG));
            };
            let Some(step) = totp::matching_step(&secret, &digits, now_s()) else {
                return Ok(Outcome::Refused(CODE_WRONG));
            };
            let step = step as i64;
            if confirmed {
                if store::accept_step(tx, user_id, step).await? {
                    Ok(Outcome::Accepted {
                        how: "AppCode",
                        recovery: vec![],
                    })
                } else {
                    Ok(Outcome::Refused(CODE_REPLAYED))
                }
            } else if store::confirm(tx, user_id, step, now_ms()).await? {
                let codes = totp::new_recovery_codes(RECOVERY_CODE_COUNT);
                let hashes: Vec<String> =
                    codes.iter().map(|c| totp::recovery_code_hash(c)).collect();
                store::replace_recovery_codes(tx, user_id, &hashes).await?;
                Ok(Outcome::Accepted {
                    how: "Enrolled",
                    recovery: codes.iter().map(|c| mfa::format_recovery_code(c)).collect(),
                })
            } else {
                Ok(Outcome::Refused(CODE_REPLAYED))
            }
        }
        EnteredCode::Recovery(compact) if confirmed => {
            let hash = totp::recovery_code_hash(&compact);
            if store::use_recovery_code(tx, user_id, &hash, now_ms()).await? {
                Ok(Outcome::Accepted {
                    how: "RecoveryCode",
                    recovery: vec![],
                })
            } else {
                Ok(Outcome::Refused(CODE_WRONG))
            }
        }
        EnteredCode::Recovery(_) => Ok(Outcome::Refused(CODE_WRONG)),
    }
}

fn refused_result(message: &str, restart: bool) -> MfaVerifyResult {
    MfaVerifyResult {
        validation_errors: vec![message.to_owned()],
        restart,
        ..Default::default()
    }
}

pub(super) async fn sign_in_enrol(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> AppResult<Json<MfaEnrolment>> {
    let Some((_, challenge)) = pending(&state, &headers).await? else {
        return Err(AppError::Unauthorized);
    };
    let username = users::find(&state.db, challenge.user_id)
        .await?
        .map(|u| u.username)
        .unwrap_or_default();
    match start_enrolment(&state, challenge.user_id, &username).await? {
        Some(e) => Ok(Json(e)),
        None => Err(AppError::BadRequest(ALREADY_ENROLLED.to_owned())),
    }
}

pub(super) async fn sign_in_verify(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(body): ApiJson<MfaCodeRequest>,
) -> AppResult<WithCookie<MfaVerifyResult>> {
    let clear = cookies::mfa_cookie("", 0, cookies::is_secure(&headers));
    let Some((hash, challenge)) = pending(&state, &headers).await? else {
        return Ok(WithCookie::set(
            refused_result(SIGN_IN_EXPIRED, true),
            clear,
        ));
    };
    let code = match mfa::parse_code(&body.code) {
        Ok(code) => code,
        Err(errors) => {
            let message = errors.messages().next().unwrap_or(CODE_WRONG).to_owned();
            return Ok(WithCookie::none(refused_result(&message, false)));
        }
    };
    let db = &state.db;
    let user = users::find(db, challenge.user_id).await?;
    let login = user
        .as_ref()
        .map(|u| u.username.clone())
        .unwrap_or_default();
    let address = peer.ip().to_string();
    let ip = Some(address.clone());
    let now = now_ms();
    if throttle::is_throttled(db, &login, &address, now).await? {
        return Ok(WithCookie::none(refused_result(throttle::THROTTLED, false)));
    }

    let enrolment = store::enrolment(db, challenge.user_id).await?;
    let mut tx = db.begin().await?;
    let outcome = check_code(&state, &mut tx, challenge.user_id, enrolment, code).await?;
    match outcome {
        Outcome::Accepted { how, recovery } => {
            // The pending sign-in is spent here: a second request with the same cookie loses.
            if !store::delete_challenge(&mut tx, &hash).await? {
                return Ok(WithCookie::set(
                    refused_result(SIGN_IN_EXPIRED, true),
                    clear,
                ));
            }
            if how == "Enrolled" {
                audit::record(
                    &mut tx,
                    Actor::user(challenge.user_id),
                    Action::MfaEnrolled,
                    Target::user(challenge.user_id),
                    None,
                    Some(json!({"At": "SignIn"})),
                    ip.clone(),
                )
                .await?;
            }
            tx.commit().await?;
            let opened = open_session(
                &state,
                challenge.user_id,
                Door::Staff,
                &headers,
                ip,
                Some(how),
            )
            .await?;
            Ok(WithCookie {
                body: MfaVerifyResult {
                    is_valid: true,
                    recovery_codes: recovery,
                    ..Default::default()
                },
                cookie: opened.cookie,
                more: vec![clear],
            })
        }
        Outcome::Refused(message) => {
            let failures = store::add_failure(&mut tx, &hash).await?;
            let restart = failures >= MAX_CODE_FAILURES;
            if restart {
                store::delete_challenge(&mut tx, &hash).await?;
            }
            audit::record(
                &mut tx,
                Actor::user(challenge.user_id),
                Action::MfaFailed,
                Target::user(challenge.user_id),
                None,
                Some(json!({"Reason": message, "Failures": failures, "Restart": restart})),
                ip,
            )
            .await?;
            tx.commit().await?;
            throttle::record_failure(db, &login, &address, now).await?;
            if restart {
                Ok(WithCookie::set(refused_result(TOO_MANY_CODES, true), clear))
            } else {
                Ok(WithCookie::none(refused_result(message, false)))
            }
        }
    }
}

/// Signed-in staff, not while impersonating (the real user sets up their own app).
fn own(user: &RequireRole<Staff>) -> AppResult<()> {
    if user.impersonator_user_id.is_some() {
        return Err(AppError::Forbidden(mfa::IMPERSONATING.to_owned()));
    }
    Ok(())
}

pub(super) async fn status(
    State(state): State<AppState>,
    user: RequireRole<Staff>,
) -> AppResult<Json<MfaStatus>> {
    let pw: UserAccountPassword = settings::get(&state.db).await?;
    Ok(Json(MfaStatus {
        enrolled: store::is_enrolled(&state.db, user.user_id).await?,
        required: mfa::required_for(user.role, pw.require_mfa_for_admins),
        recovery_codes_left: store::recovery_codes_left(&state.db, user.user_id).await?,
    }))
}

pub(super) async fn own_enrol(
    State(state): State<AppState>,
    user: RequireRole<Staff>,
) -> AppResult<Json<MfaEnrolment>> {
    own(&user)?;
    match start_enrolment(&state, user.user_id, &user.username).await? {
        Some(e) => Ok(Json(e)),
        None => Err(AppError::BadRequest(ALREADY_ENROLLED.to_owned())),
    }
}

pub(super) async fn own_confirm(
    State(state): State<AppState>,
    user: RequireRole<Staff>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<MfaCodeRequest>,
) -> AppResult<Json<MfaVerifyResult>> {
    own(&user)?;
    let code = match mfa::parse_code(&body.code) {
        Ok(EnteredCode::Totp(d)) => EnteredCode::Totp(d),
        Ok(EnteredCode::Recovery(_)) => return Ok(Json(refused_result(mfa::CODE_FORMAT, false))),
        Err(errors) => {
            let message = errors.messages().next().unwrap_or(CODE_WRONG).to_owned();
            return Ok(Json(refused_result(&message, false)));
        }
    };
    if store::is_enrolled(&state.db, user.user_id).await? {
        return Ok(Json(refused_result(ALREADY_ENROLLED, false)));
    }
    let enrolment = store::enrolment(&state.db, user.user_id).await?;
    let mut tx = state.db.begin().await?;
    match check_code(&state, &mut tx, user.user_id, enrolment, code).await? {
        Outcome::Accepted { recovery, .. } => {
            audit::record(
                &mut tx,
                Actor::from(&*user),
                Action::MfaEnrolled,
                Target::user(user.user_id),
                None,
                Some(json!({"At": "Account"})),
                Some(peer.ip().to_string()),
            )
            .await?;
            tx.commit().await?;
            Ok(Json(MfaVerifyResult {
                is_valid: true,
                recovery_codes: recovery,
                ..Default::default()
            }))
        }
        Outcome::Refused(message) => Ok(Json(refused_result(message, false))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_round_trip() {
        let secret = totp::new_secret();
        assert_eq!(base32_decode(&totp::secret_base32(&secret)), Some(secret));
        assert_eq!(base32_decode("a!"), None);
    }
}
