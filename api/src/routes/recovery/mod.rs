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
use axum::Json;
use rand::Rng;
use serde_json::json;
use wasm_core::model::ChangePasswordResult;
use wasm_core::model::{
    CodeCheck, CodeRequestDecision, CodeState, ForgotPasswordRequest, ForgotPasswordResponse,
    KeyFacts, KeyState, RecoverUsernameRequest, RecoverUsernameResponse, RequestCodeResponse,
    ResetKeyFacts, ResetKeyValidation, ResetPasswordRequest, Role, VerificationLimits,
    VerifyCodeRequest, VerifyCodeResponse, VerifyPhoneParams,
};
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::user_account_password::UserAccountPassword;
use wasm_core::settings::user_account_patient_portal_options::UserAccountPatientPortalOptions;
use wasm_core::settings::user_account_verification::UserAccountUserAccountVerification;
use wasm_core::{membership, recovery};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{hash_token, password, random_token};
use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db};
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::fmt;
use crate::openapi::ApiRouter;
use crate::outbox::{self, OutboundMessage};
use crate::password_rules::password_requirements;
use crate::settings;
use crate::store::membership as accounts;
use crate::store::recovery::{self as store, Account, KeyRow, NewKey};
use crate::AppState;

mod forgot;
mod phone;
mod reset;

use forgot::*;
use phone::*;
use reset::*;

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

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/patientUser/forgotPassword",
            "Requests a password reset link by email for a patient (login, phoneOrSecondEmail). The answer is the same whether or not an account matches; IsAskRecoveryOption when the login is an email address and no recovery value was given",
            patient_forgot_password,
        )
        .post(
            "/api/staffUser/forgotPassword",
            "Requests a password reset link by email for a staff account (as the patient one)",
            staff_forgot_password,
        )
        .post(
            "/api/accountApi/recoverUsername",
            "Emails the username of the accounts matching email-or-username (and the phone or second email when given); the answer never says whether one matched",
            recover_username,
        )
        .get(
            "/api/accountApi/validateResetPasswordKey",
            "Checks a reset link (query pwdReset = the emailed key, id = the user id): valid, used (IsPasswordNeedReset false), expired (IsLinkEpired), not registered, phone verification needed",
            validate_reset_password_key,
        )
        .put(
            "/api/patientUser/changePasswordByResetToken",
            "Sets a patient's password with a reset key (date of birth checked when ForgotPasswordValidateDOB); spends the key and ends every session of the user. A staff account's key gets 403",
            patient_change_password,
        )
        .put(
            "/api/staffUser/changePasswordByResetToken",
            "Sets a staff member's password with a reset key; spends the key and ends every session. A patient's key gets 403",
            staff_change_password,
        )
        .get(
            "/api/patientUser/getVerifyPhoneParams",
            "Phone screen of a key (query key): a key of either purpose, reset or registration; last four digits of the phone, whether verified (membership_keys.phone_verified_at), whether a current code exists and when it was sent",
            get_verify_phone_params,
        )
        .post(
            "/api/patientUser/requestCode",
            "Sends a 6-digit code by SMS to the phone of a key (reset or registration; body {key}); at most VerificationCodeRequestsMax codes per key",
            request_code,
        )
        .put(
            "/api/patientUser/verifyCode",
            "Checks a code (Key, Code): expiry VerificationCodeTimeoutInMinutes, VerificationAttemptsMax wrong codes per key; on success sets membership_keys.phone_verified_at of the key (reset or registration)",
            verify_code,
        )
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
    let core: CorePortal = settings::get(db).await?;
    Ok(core
        .public_web_address
        .trim()
        .trim_end_matches('/')
        .to_owned())
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
