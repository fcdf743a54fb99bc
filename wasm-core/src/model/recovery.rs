//! Wire types of password reset, username recovery and phone verification (spec 02 §3, issue 3
//! parts 2-4). Field names are the spec's.

use crate::wire;

wire! {
    /// POST patientUser/forgotPassword and staffUser/forgotPassword (spec 02 §3).
    #[serde(rename_all = "camelCase", default)]
    #[derive(Default)]
    pub struct ForgotPasswordRequest {
        pub login: String,
        pub phone_or_second_email: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct ForgotPasswordResponse {
        pub is_valid: bool,
        pub is_locked_out: bool,
        pub is_ask_recovery_option: bool,
        pub validation_errors: Vec<String>,
    }

    /// POST accountApi/recoverUsername (spec 02 §3).
    #[serde(rename_all = "camelCase", default)]
    #[derive(Default)]
    pub struct RecoverUsernameRequest {
        pub email: String,
        pub phone_or_second_email: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct RecoverUsernameResponse {
        pub is_success: bool,
        pub message: String,
    }

    /// GET accountApi/validateResetPasswordKey (spec 02 §3 "Reset-key validation response").
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct ResetKeyValidation {
        pub is_forgot_password_validate: bool,
        pub is_password_need_reset: bool,
        pub is_not_registered: bool,
        /// Spelled so in the spec.
        pub is_link_epired: bool,
        pub should_do_cell_phone_verification: bool,
        pub is_user_has_valid_phone_number: bool,
    }

    /// PUT patientUser|staffUser/changePasswordByResetToken (spec 02 §3 "Change-password payload").
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct ResetPasswordRequest {
        pub user_id: Option<i64>,
        pub new_password: String,
        pub new_password_repeat: String,
        pub month: Option<u32>,
        pub day: Option<u32>,
        pub year: Option<u32>,
        pub reset_password_token: String,
    }

    /// GET patientUser/getVerifyPhoneParams (spec 02 §3 "Phone verify params").
    #[serde(rename_all = "PascalCase")]
    pub struct VerifyPhoneParams {
        pub last4_digits_of_phone: String,
        pub is_verified: bool,
        pub is_code_exists: bool,
        /// When the current code was sent (ISO 8601 UTC), if any.
        pub generated_date: Option<String>,
        pub is_registration_needed: bool,
    }

    /// POST patientUser/requestCode (spec 02 §3 "Request-code response").
    #[serde(rename_all = "PascalCase")]
    pub struct RequestCodeResponse {
        pub is_verification_code_requests_exceeded: bool,
        pub generated_date: Option<String>,
        pub message: String,
    }

    /// PUT patientUser/verifyCode body (spec 02 §3 "Verify code payload").
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct VerifyCodeRequest {
        pub key: String,
        pub code: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct VerifyCodeResponse {
        pub generated_date: Option<String>,
        pub is_code_exists: bool,
        pub is_verification_code_requests_exceeded: bool,
        pub is_valid: bool,
        pub error_message: Option<String>,
    }

    /// What the phone screen knows (from getVerifyPhoneParams, requestCode or verifyCode) and the
    /// address it was opened with; input of `phone_verify_view`.
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct PhoneVerifyState {
        /// "patient", "staff" or "membership": the area the screen was opened in.
        pub area: String,
        pub key: String,
        pub pwd_reset: String,
        pub id: String,
        pub last4_digits_of_phone: String,
        pub is_verified: bool,
        pub is_exceeded: bool,
        pub is_registration_needed: bool,
    }

    /// What the phone screen shows, and where it goes next (None: stay).
    #[serde(rename_all = "PascalCase")]
    pub struct PhoneVerifyView {
        pub masked_phone: String,
        pub next: Option<String>,
    }

    /// The verification limits (spec 03 UserAccountUserAccountVerification; 0 = no limit).
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default, Copy)]
    pub struct VerificationLimits {
        pub verification_attempts_max: u32,
        pub verification_code_requests_max: u32,
        pub verification_code_timeout_in_minutes: u32,
    }

    /// A stored phone code as the rules see it (phone_codes row; instants in ms).
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default, Copy)]
    pub struct CodeState {
        pub generated_at: i64,
        pub requests: u32,
        pub attempts: u32,
    }

    /// A stored membership key as the rules see it.
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct KeyFacts {
        pub found: bool,
        /// 'reset' or 'registration'.
        pub purpose: String,
        pub expires_at: Option<i64>,
        pub used_at: Option<i64>,
    }

    /// Everything validateResetPasswordKey decides on.
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct ResetKeyFacts {
        pub key: KeyFacts,
        /// The link's id names the key's user (or, unregistered, its patient).
        pub id_matches: bool,
        /// The key names a patient without a portal account.
        pub is_unregistered_patient: bool,
        pub is_patient: bool,
        /// UserAccountUserAccountVerification IsPhoneNumberVerificationRequiredForResetPassword.
        pub phone_verification_required: bool,
        pub phone_verified: bool,
        pub phone: String,
    }
}

/// Where a key stands (spec 02 §4): unknown (or another purpose), used, expired or valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum KeyState {
    Unknown,
    Used,
    Expired,
    Valid,
}

/// The answer to a code request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum CodeRequestDecision {
    /// Send a new code (the request count after it is `requests`).
    Send { requests: u32 },
    /// VerificationCodeRequestsMax reached: no more codes for this key.
    Exceeded,
}

/// The answer to a typed code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum CodeCheck {
    NoCode,
    /// VerificationAttemptsMax wrong codes, or the request limit: the key cannot be verified.
    Exceeded,
    Expired,
    Valid,
    /// A wrong code; `attempts_left` is None without a limit. Zero left means Exceeded next time.
    Invalid {
        attempts_left: Option<u32>,
    },
}

wire! {
    /// GET /api/accountApi/validateResetPasswordKey?pwdReset=&id= (spec 02 §7.1).
    pub struct ResetKeyQuery {
        #[serde(default, rename = "pwdReset")]
        pub pwd_reset: String,
        #[serde(default)]
        pub id: String,
    }

    /// POST /api/patientUser/requestCode (spec 02 §7.2): a reset or registration key.
    pub struct RequestCodeRequest {
        #[serde(default)]
        pub key: String,
    }
}
