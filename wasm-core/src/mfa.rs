//! Staff two-step sign-in (issue 22; ASVS 4.0.3 V2.7/V2.8, HIPAA 164.312(d)): a time-based code
//! (TOTP, RFC 6238: HMAC-SHA1, 6 digits, 30-second steps, one step of clock drift either way) from
//! an authenticator app, or one of ten single-use recovery codes. Who must use it, what a code
//! looks like and the messages are here; the server does the cryptography.

use crate::model::Role;
use crate::validation::ValidationErrors;
use crate::wire;

/// How many recovery codes an enrolment hands out.
pub const RECOVERY_CODE_COUNT: usize = 10;
/// Wrong codes allowed in one sign-in before it must start again with the password.
pub const MAX_CODE_FAILURES: i64 = 5;
/// LoginResponse MfaStep: enter a code from the app.
pub const STEP_CODE: &str = "Code";
/// LoginResponse MfaStep: set up an app first (the setting requires it and none is set up).
pub const STEP_ENROL: &str = "Enrol";
/// The field of every code message.
pub const CODE_FIELD: &str = "Code";

pub const CODE_REQUIRED: &str = "Enter the code from your authenticator app.";
pub const CODE_FORMAT: &str =
    "Enter the 6-digit code from your authenticator app, or a recovery code (xxxx-xxxx-xxxx).";
pub const CODE_WRONG: &str = "That code is not correct. Try the newest code from your app.";
pub const CODE_REPLAYED: &str =
    "That code was already used. Wait for the next code in your app and enter it.";
pub const TOO_MANY_CODES: &str = "Too many wrong codes. Sign in again with your password.";
pub const SIGN_IN_EXPIRED: &str = "Your sign-in expired. Sign in again with your password.";
pub const ALREADY_ENROLLED: &str = "Two-step sign-in is already set up for this account.";
pub const NOT_ENROLLED: &str = "Two-step sign-in is not set up for this account.";
pub const IMPERSONATING: &str = "Two-step sign-in cannot be set up while impersonating a user.";
pub const RESET_DONE: &str =
    "Two-step sign-in was reset. The user sets it up again at the next sign-in.";
pub const RESET_NOTHING: &str = "This user has no two-step sign-in to reset.";
pub const RESET_OWN: &str = "Another program manager must reset your own two-step sign-in.";

/// Whether `role` must sign in with a second step when the User Account setting
/// RequireMfaForAdmins is on: Program managers and Client admins (patients never).
pub fn required_for(role: Role, require_for_admins: bool) -> bool {
    require_for_admins && matches!(role, Role::ProgramManager | Role::ClientAdmin)
}

/// Whether a sign-in at the staff door needs the second step: always once the user enrolled
/// (optional enrolment is still enrolment), else when the setting requires it for the role.
pub fn second_step_needed(role: Role, enrolled: bool, require_for_admins: bool) -> bool {
    role.is_staff() && (enrolled || required_for(role, require_for_admins))
}

/// What the user typed, told apart: a 6-digit app code or a recovery code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnteredCode {
    Totp(String),
    /// Normalised: 12 lowercase letters and digits, no dashes.
    Recovery(String),
}

/// Reads a code: spaces and dashes are ignored; 6 digits are an app code, 12 letters or digits a
/// recovery code. Anything else gets the field's message.
pub fn parse_code(code: &str) -> Result<EnteredCode, ValidationErrors> {
    let mut errors = ValidationErrors::new();
    let compact: String = code
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .take(64)
        .collect();
    if compact.is_empty() {
        errors.add(CODE_FIELD, CODE_REQUIRED);
        return Err(errors);
    }
    if compact.len() == 6 && compact.chars().all(|c| c.is_ascii_digit()) {
        return Ok(EnteredCode::Totp(compact));
    }
    if compact.len() == 12 && compact.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Ok(EnteredCode::Recovery(compact.to_ascii_lowercase()));
    }
    errors.add(CODE_FIELD, CODE_FORMAT);
    Err(errors)
}

/// The field messages of a code (the form's check before it is sent).
pub fn validate_code(code: &str) -> ValidationErrors {
    parse_code(code).err().unwrap_or_default()
}

/// A recovery code as shown: three groups of four.
pub fn format_recovery_code(compact: &str) -> String {
    let chars: Vec<char> = compact.chars().collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

wire! {
    /// A code from the authenticator app, or a recovery code.
    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct MfaCodeRequest {
        pub code: String,
    }

    /// A new authenticator secret to scan: the otpauth address as a QR code (SVG) and the secret
    /// in base32 for typing in by hand. It takes effect once a code from it is confirmed.
    #[serde(rename_all = "PascalCase")]
    pub struct MfaEnrolment {
        pub secret: String,
        pub otpauth_uri: String,
        pub qr_svg: String,
    }

    /// The answer to a code: on success the recovery codes of a new enrolment (shown once).
    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct MfaVerifyResult {
        pub is_valid: bool,
        pub validation_errors: Vec<String>,
        pub recovery_codes: Vec<String>,
        /// The sign-in must start again (too many wrong codes, or it expired).
        pub restart: bool,
    }

    /// The signed-in staff user's two-step sign-in.
    #[serde(rename_all = "PascalCase")]
    pub struct MfaStatus {
        pub enrolled: bool,
        pub required: bool,
        pub recovery_codes_left: i64,
    }

    /// A program manager's reset of another user's two-step sign-in.
    #[serde(rename_all = "PascalCase")]
    pub struct MfaResetResult {
        pub is_success: bool,
        pub message: String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_needs_the_second_step() {
        assert!(second_step_needed(Role::ProgramManager, false, true));
        assert!(second_step_needed(Role::ClientAdmin, false, true));
        assert!(!second_step_needed(Role::FrontDesk, false, true));
        assert!(second_step_needed(Role::FrontDesk, true, false));
        assert!(!second_step_needed(Role::ProgramManager, false, false));
        assert!(!second_step_needed(Role::Patient, true, true));
    }

    #[test]
    fn codes_are_told_apart() {
        assert_eq!(
            parse_code(" 123 456 "),
            Ok(EnteredCode::Totp("123456".into()))
        );
        assert_eq!(
            parse_code("ABCD-efgh-2345"),
            Ok(EnteredCode::Recovery("abcdefgh2345".into()))
        );
        assert_eq!(validate_code("").field(CODE_FIELD), [CODE_REQUIRED]);
        assert_eq!(validate_code("12345").field(CODE_FIELD), [CODE_FORMAT]);
        assert_eq!(validate_code("12345a").field(CODE_FIELD), [CODE_FORMAT]);
        assert_eq!(
            validate_code(&"9".repeat(60_000)).field(CODE_FIELD),
            [CODE_FORMAT]
        );
        assert!(validate_code("000000").is_valid());
        assert_eq!(format_recovery_code("abcdefgh2345"), "abcd-efgh-2345");
    }
}
