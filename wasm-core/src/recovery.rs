//! Rules of password reset, username recovery and phone verification (spec 02 §2.3-§2.6, §4,
//! §5, §9; spec 03 §9 "Zero means disabled"). Pure functions: the API calls them natively with
//! what it read from the store, the web calls the two routing ones through wasm.

use crate::membership::{is_email, is_real_date, us_phone_digits};
use crate::model::{
    CodeCheck, CodeRequestDecision, CodeState, KeyFacts, KeyState, PhoneVerifyState,
    PhoneVerifyView, ResetKeyFacts, ResetKeyValidation, ResetPasswordRequest, VerificationLimits,
};
use crate::password::{self, PasswordRequirements};
use crate::validation::{is_blank, ValidationErrors};

pub const LOGIN_REQUIRED: &str = "Login is required";
pub const EMAIL_OR_USERNAME_REQUIRED: &str = "Email or Username is required";
pub const MONTH_REQUIRED: &str = "Month is required";
pub const DAY_REQUIRED: &str = "Day is required";
pub const YEAR_REQUIRED: &str = "Year is required";
pub const DOB_INVALID: &str = "Date of Birth is not valid";
/// Spec 02 §8, the forgot-password success toast.
pub const RESET_REQUEST_SENT: &str = "Change password request sent.";
/// The one answer of recoverUsername, whether or not an account was found.
pub const USERNAME_SENT: &str =
    "If an account matches what you entered, an email with the username has been sent to its address.";
pub const CODE_SENT: &str = "A verification code was sent to your phone.";
pub const CODE_REQUESTS_EXCEEDED: &str = "The maximum number of code requests was exceeded.";
pub const CODE_NOT_REQUESTED: &str = "No verification code was sent yet. Press Send Code.";
pub const CODE_EXPIRED: &str = "The verification code has expired. Press Send Code for a new one.";
pub const CODE_INVALID: &str = "The verification code is not valid.";
/// A wrong code with the attempts left (1: a constant; more: a template, crate::message_templates).
pub const CODE_INVALID_ONE_LEFT: &str = "The verification code is not valid. 1 attempt left.";
pub const CODE_INVALID_LEFT: &str = "The verification code is not valid. {n} attempts left.";

const MINUTE_MS: i64 = 60_000;

/// Where a membership key stands. `purpose` None accepts either purpose (the phone screens).
pub fn key_state(key: &KeyFacts, purpose: Option<&str>, now: i64) -> KeyState {
    if !key.found || purpose.is_some_and(|p| p != key.purpose) {
        KeyState::Unknown
    } else if key.used_at.is_some() {
        KeyState::Used
    } else if key.expires_at.is_some_and(|t| now >= t) {
        KeyState::Expired
    } else {
        KeyState::Valid
    }
}

/// When a key made at `created_at` expires: ResetKeyExpirationInSeconds, 0 (or less) = never.
pub fn key_expires_at(created_at: i64, expiration_seconds: i64) -> Option<i64> {
    (expiration_seconds > 0)
        .then(|| created_at.saturating_add(expiration_seconds.saturating_mul(1000)))
}

/// The answer of validateResetPasswordKey (spec 02 §3, §4). An unknown key, or one whose id does
/// not match, is "not valid"; a used key no longer needs a reset; an expired one is IsLinkEpired.
/// Phone verification (patients only) is asked while the key's phone is not verified.
pub fn reset_key_validation(facts: &ResetKeyFacts, now: i64) -> ResetKeyValidation {
    let state = if facts.id_matches {
        key_state(&facts.key, Some("reset"), now)
    } else {
        KeyState::Unknown
    };
    let mut v = ResetKeyValidation::default();
    match state {
        KeyState::Unknown => {}
        KeyState::Used => v.is_forgot_password_validate = true,
        KeyState::Expired => {
            v.is_forgot_password_validate = true;
            v.is_password_need_reset = true;
            v.is_link_epired = true;
        }
        KeyState::Valid => {
            v.is_forgot_password_validate = true;
            v.is_password_need_reset = true;
            v.is_not_registered = facts.is_unregistered_patient;
            v.should_do_cell_phone_verification = !facts.is_unregistered_patient
                && facts.is_patient
                && facts.phone_verification_required
                && !facts.phone_verified;
            v.is_user_has_valid_phone_number = us_phone_digits(&facts.phone).is_some();
        }
    }
    v
}

/// The membership base of an area: /patient, /staff or /membership.
fn base(area: &str) -> &'static str {
    match area {
        "patient" => "/patient",
        "staff" => "/staff",
        _ => "/membership",
    }
}

/// Minimal query-value escaping for the few characters a key or id could carry.
fn enc(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '-' | '_' | '.' | '~' => out.push(c),
            _ => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
    }
    out
}

/// The web routing of a reset link (spec 02 §4 "Reset link"): None stays on change-password.
pub fn reset_link_route(
    v: &ResetKeyValidation,
    area: &str,
    pwd_reset: &str,
    id: &str,
) -> Option<String> {
    let b = base(area);
    if !v.is_forgot_password_validate || !v.is_password_need_reset || v.is_link_epired {
        return Some(format!("{b}/expired-link"));
    }
    if v.is_not_registered {
        return Some(format!(
            "/patient/create?id={}&pwdReset={}",
            enc(id),
            enc(pwd_reset)
        ));
    }
    if v.should_do_cell_phone_verification {
        return Some(if v.is_user_has_valid_phone_number {
            format!(
                "{b}/forgot-password-verify-phone?key={k}&pwdReset={k}&id={}",
                enc(id),
                k = enc(pwd_reset)
            )
        } else {
            format!("{b}/phone-not-found")
        });
    }
    None
}

/// The masked phone (spec 02 §2.6, §9): only the last four digits visible.
pub fn masked_phone(last4: &str) -> String {
    let digits: String = last4.chars().filter(char::is_ascii_digit).collect();
    if digits.is_empty() {
        String::new()
    } else {
        format!("(***) ***-{digits}")
    }
}

/// The last four digits of a stored phone ("" when it is not a usable US number).
pub fn last_four(phone: &str) -> String {
    us_phone_digits(phone)
        .map(|d| d[6..].to_owned())
        .unwrap_or_default()
}

/// The phone screen (spec 02 §2.6, §4 "Phone verification"): the masked phone, and where to go:
/// verify-link-expired past the limits, phone-not-found without a phone, and once verified
/// change-password (pwdReset and id present) or phone-verified (with the key when registration
/// is needed).
pub fn phone_verify_view(s: &PhoneVerifyState) -> PhoneVerifyView {
    let b = base(&s.area);
    let next = if s.is_verified {
        Some(if !is_blank(&s.pwd_reset) && !is_blank(&s.id) {
            format!(
                "{b}/change-password?pwdReset={}&id={}",
                enc(&s.pwd_reset),
                enc(&s.id)
            )
        } else if s.is_registration_needed && !is_blank(&s.key) {
            format!("{b}/phone-verified?key={}", enc(&s.key))
        } else {
            format!("{b}/phone-verified")
        })
    } else if s.is_exceeded {
        Some(format!("{b}/verify-link-expired"))
    } else if s.last4_digits_of_phone.is_empty() {
        Some(format!("{b}/phone-not-found"))
    } else {
        None
    };
    PhoneVerifyView {
        masked_phone: masked_phone(&s.last4_digits_of_phone),
        next,
    }
}

/// Whether another code may be sent: not past VerificationCodeRequestsMax codes, nor past
/// VerificationAttemptsMax wrong codes (they count across codes of one key); 0 = no limit.
pub fn code_request(
    limits: &VerificationLimits,
    current: Option<&CodeState>,
) -> CodeRequestDecision {
    let sent = current.map_or(0, |c| c.requests);
    let wrong = current.map_or(0, |c| c.attempts);
    let max = limits.verification_code_requests_max;
    let attempts_max = limits.verification_attempts_max;
    if (max > 0 && sent >= max) || (attempts_max > 0 && wrong >= attempts_max) {
        CodeRequestDecision::Exceeded
    } else {
        CodeRequestDecision::Send {
            requests: sent.saturating_add(1),
        }
    }
}

/// Whether a code is still current (VerificationCodeTimeoutInMinutes, 0 = never expires).
pub fn code_is_current(limits: &VerificationLimits, code: &CodeState, now: i64) -> bool {
    let minutes = i64::from(limits.verification_code_timeout_in_minutes);
    minutes == 0 || now < code.generated_at.saturating_add(minutes * MINUTE_MS)
}

/// The decision on a typed code, given whether it matched the stored hash. The limits are
/// checked first, so once VerificationAttemptsMax wrong codes were typed even the right code is
/// refused (the brute-force stop), and so is any code past the request limit.
pub fn code_check(
    limits: &VerificationLimits,
    current: Option<&CodeState>,
    now: i64,
    matches: bool,
) -> CodeCheck {
    let Some(code) = current else {
        return CodeCheck::NoCode;
    };
    let max = limits.verification_attempts_max;
    if max > 0 && code.attempts >= max {
        return CodeCheck::Exceeded;
    }
    if !code_is_current(limits, code, now) {
        return CodeCheck::Expired;
    }
    if matches {
        return CodeCheck::Valid;
    }
    let attempts_left = (max > 0).then(|| max.saturating_sub(code.attempts + 1));
    if attempts_left == Some(0) {
        CodeCheck::Exceeded
    } else {
        CodeCheck::Invalid { attempts_left }
    }
}

/// The message of a refused code (the 'Code Invalid' dialog shows it).
pub fn code_message(check: CodeCheck) -> Option<String> {
    match check {
        CodeCheck::NoCode => Some(CODE_NOT_REQUESTED.to_owned()),
        CodeCheck::Exceeded => Some(CODE_REQUESTS_EXCEEDED.to_owned()),
        CodeCheck::Expired => Some(CODE_EXPIRED.to_owned()),
        CodeCheck::Valid => None,
        CodeCheck::Invalid {
            attempts_left: Some(n),
        } => Some(if n == 1 {
            CODE_INVALID_ONE_LEFT.to_owned()
        } else {
            crate::message_templates::fill(CODE_INVALID_LEFT, &[("n", &n.to_string())])
        }),
        CodeCheck::Invalid {
            attempts_left: None,
        } => Some(CODE_INVALID.to_owned()),
    }
}

/// Forgot password: the login is required. The alternate email-or-phone is asked (spec 02 §2.3)
/// when the login is an email address and secondary recovery options are enabled: an email can
/// name several accounts, and the answer depends only on what was typed, never on what is
/// stored, so it reveals nothing about which accounts exist.
pub fn forgot_password_check(
    login: &str,
    recovery: &str,
    disable_secondary: bool,
) -> (ValidationErrors, bool) {
    let mut errors = ValidationErrors::new();
    errors.check(is_blank(login), "login", LOGIN_REQUIRED);
    let ask = errors.is_valid() && !disable_secondary && is_email(login) && is_blank(recovery);
    (errors, ask)
}

/// Forgot username: the email or username is required.
pub fn recover_username_check(email: &str) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(is_blank(email), "email", EMAIL_OR_USERNAME_REQUIRED);
    errors
}

/// Whether a recovery value (phone or second email) names this account: the phone compares
/// by its ten digits, an email case-insensitively.
pub fn recovery_matches(recovery: &str, phone: &str, emails: &[&str]) -> bool {
    let recovery = recovery.trim();
    if recovery.is_empty() {
        return false;
    }
    if is_email(recovery) {
        return emails
            .iter()
            .any(|e| e.trim().eq_ignore_ascii_case(recovery));
    }
    matches!((us_phone_digits(recovery), us_phone_digits(phone)), (Some(a), Some(b)) if a == b)
}

/// The reset change-password form (spec 02 §2.5, §5): month, day and year required (and a real
/// day), the password rules and the repeat.
pub fn validate_reset_password(
    req: &ResetPasswordRequest,
    rules: &PasswordRequirements,
) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(
        req.month.is_none_or(|m| !(1..=12).contains(&m)),
        "Month",
        MONTH_REQUIRED,
    );
    errors.check(
        req.day.is_none_or(|d| !(1..=31).contains(&d)),
        "Day",
        DAY_REQUIRED,
    );
    errors.check(req.year.is_none_or(|y| y == 0), "Year", YEAR_REQUIRED);
    if let (Some(y), Some(m), Some(d)) = (req.year, req.month, req.day) {
        if errors.is_valid() {
            errors.check(!is_real_date(y, m, d), "Dob", DOB_INVALID);
        }
    }
    errors.merge(password::validate_password(
        "NewPassword",
        &req.new_password,
        rules,
    ));
    errors.merge(password::validate_password_repeat(
        &req.new_password,
        &req.new_password_repeat,
    ));
    errors
}

/// Whether the typed date of birth is the stored one ('YYYY-MM-DD').
pub fn dob_matches(stored: &str, year: u32, month: u32, day: u32) -> bool {
    stored.trim() == format!("{year:04}-{month:02}-{day:02}")
}

/// The year list of the date-of-birth select: the current year back 100 years (spec 02 §9).
pub fn dob_years(current_year: u32) -> Vec<u32> {
    (0..=100).map(|i| current_year.saturating_sub(i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_zero_is_never() {
        assert_eq!(key_expires_at(1000, 0), None);
        assert_eq!(key_expires_at(1000, 2), Some(3000));
    }

    #[test]
    fn years_run_back_100() {
        let y = dob_years(2026);
        assert_eq!((y.len(), y[0], y[100]), (101, 2026, 1926));
    }
}
