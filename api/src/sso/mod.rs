//! Single sign-on (issue 19): what every SSO flow shares. A flow proves who the patient is (a
//! decryption token, ...); [`sign_in`] then finds the patient's portal account by the MRN (or the
//! configured alternate id), opens an SSO session (spec 01 §4, §6: IsSsoMode, Home hidden) and
//! sends the browser to /embed/success/{clientId}/{ssoContextToken}?page=documents (spec 01
//! §2.11). Every refusal goes to /embed/error/sso/{clientId}/SignInFailed: one page for every
//! reason, which only the audit row names.

pub mod decryption;
pub mod oauth;
pub mod saml;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use sha2::{Digest, Sha256};
use wasm_core::settings::sso::Sso;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::session;
use crate::client_addr::ClientAddr;
use crate::cookies;
use crate::db::now_ms;
use crate::error::{AppError, AppResult};
use crate::openapi::describe::{DescribeAnswer, OpDoc};
use crate::store;
use crate::AppState;

/// The error id of every SSO refusal (spec 01 §2.11 /embed/error/{mode}/{id}/{errorId}).
pub const SIGN_IN_FAILED: &str = "SignInFailed";
/// SSO attempts per client address in [`THROTTLE_WINDOW_MS`] (successes and refusals alike).
pub const THROTTLE_LIMIT: i64 = 30;
pub const THROTTLE_WINDOW_MS: i64 = 5 * 60_000;

/// A 303 to the embed pages, with the session cookie of a sign-in.
pub struct SsoRedirect {
    pub location: String,
    pub cookie: Option<String>,
}

impl IntoResponse for SsoRedirect {
    fn into_response(self) -> Response {
        let mut response = StatusCode::SEE_OTHER.into_response();
        let headers = response.headers_mut();
        match HeaderValue::from_str(&self.location) {
            Ok(v) => headers.insert(header::LOCATION, v),
            Err(e) => return AppError::internal(e).into_response(),
        };
        if let Some(cookie) = self.cookie {
            match HeaderValue::from_str(&cookie) {
                Ok(v) => headers.append(header::SET_COOKIE, v),
                Err(e) => return AppError::internal(e).into_response(),
            };
        }
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

/// Documented as the 303 it is (the Location names the embed page; a sign-in sets the cookie).
impl DescribeAnswer for SsoRedirect {
    fn describe(op: &mut OpDoc) {
        <axum::response::Redirect as DescribeAnswer>::describe(op);
    }
}

/// The client id in the embed addresses: the configuration's Key (a plain segment), else "portal".
pub fn client_id(sso: &Sso) -> String {
    let key = sso.key.trim();
    let plain = !key.is_empty()
        && key.len() <= 100
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~'));
    if plain {
        key.to_owned()
    } else {
        "portal".to_owned()
    }
}

/// Who tries, for the audit rows and the throttle.
pub struct Attempt<'a> {
    pub state: &'a AppState,
    pub sso: &'a Sso,
    pub peer: &'a ClientAddr,
    pub headers: &'a HeaderMap,
    /// The flow (DecryptionByHash, Saml, ...), named in the audit rows.
    pub flow: &'a str,
}

impl Attempt<'_> {
    fn ip(&self) -> String {
        self.peer.ip().to_string()
    }

    /// Counts the attempt; false when this address has tried too often.
    pub async fn throttle(&self) -> AppResult<bool> {
        let key = Sha256::digest(format!("sso:{}", self.ip()).as_bytes());
        let key: String = key.iter().map(|b| format!("{b:02x}")).collect();
        store::request_throttle::allow(
            &self.state.db,
            &key,
            THROTTLE_LIMIT,
            THROTTLE_WINDOW_MS,
            now_ms(),
        )
        .await
    }

    /// Refused: an audit row with the reason, and the one error page.
    pub async fn refuse(&self, reason: &str) -> AppResult<SsoRedirect> {
        tracing::info!(flow = self.flow, reason, "SSO sign-in refused");
        audit::record_alone(
            &self.state.db,
            Actor::anonymous(),
            Action::SsoSignInRefused,
            Target::none(),
            None,
            Some(json!({"Flow": self.flow, "Reason": reason})),
            Some(self.ip()),
        )
        .await?;
        Ok(SsoRedirect {
            location: format!("/embed/error/sso/{}/{SIGN_IN_FAILED}", client_id(self.sso)),
            cookie: None,
        })
    }

    /// Signs in the patient the identifier names (the MRN, or the alternate id when that option
    /// is on), or refuses as an unknown patient. `once`: single-use checks made in the same
    /// transaction as the session, so a replay is refused (see [`Once`]).
    pub async fn sign_in(&self, identifier: &str, once: &[Once<'_>]) -> AppResult<SsoRedirect> {
        let column = self
            .sso
            .enable_sso_by_alternate_id
            .then_some(self.sso.sso_alternate_id_column.as_str());
        let Some((user_id, patient_id)) =
            store::sso::patient_account(&self.state.db, column, identifier.trim()).await?
        else {
            return self.refuse("unknown patient").await;
        };
        let length = session::length_ms(&self.state.db).await?;
        let mut tx = self.state.db.begin().await?;
        let now = now_ms();
        for check in once {
            let ok = match check {
                Once::Use { key, until, .. } => {
                    store::sso::use_once(&mut tx, key, "", *until, now).await?
                }
                Once::Take { key, .. } => store::sso::take(&mut tx, key, now).await?,
            };
            if !ok {
                drop(tx);
                return self.refuse(check.reason()).await;
            }
        }
        let (token, context) = session::create_sso_in(&mut tx, user_id, length).await?;
        audit::record(
            &mut tx,
            Actor::user(user_id),
            Action::SsoSignIn,
            Target::user(user_id),
            None,
            Some(json!({"Flow": self.flow, "PatientId": patient_id})),
            Some(self.ip()),
        )
        .await?;
        tx.commit().await?;
        Ok(SsoRedirect {
            location: format!(
                "/embed/success/{}/{context}?page=documents",
                client_id(self.sso)
            ),
            cookie: Some(cookies::session_cookie(
                &token,
                cookies::is_secure(self.headers),
            )),
        })
    }
}

/// A single-use check of a sign-in, refused with its reason when it fails.
pub enum Once<'a> {
    /// Store `key` until `until` (ms); refused if it is already there (a replay).
    Use {
        key: &'a str,
        until: i64,
        reason: &'static str,
    },
    /// Remove `key`, which must be stored and live (a request answered once).
    Take { key: &'a str, reason: &'static str },
}

impl Once<'_> {
    fn reason(&self) -> &'static str {
        match self {
            Once::Use { reason, .. } | Once::Take { reason, .. } => reason,
        }
    }
}

/// A single-use key as stored: the SHA-256 of the flow and the value.
pub fn once_key(flow: &str, value: &str) -> String {
    let digest = Sha256::digest(format!("{flow}:{value}").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
