//! Exports of the membership form rules (spec 02 §5, spec 01 §5): validateCreateAccount,
//! validateSurveyRegistration, validateVerificationCode, validateChangeMyPassword, formatUsPhone.
//! The user administration's validateUser and validateRole are in `users` (settings package).

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::{boolean, field, read, string, text, whole, write, ReadJs};
use crate::membership;
use crate::model::{ChangeMyPassword, CreateAccountRules, CreateUserRequest, SurveyRegistration};
use crate::password::PasswordRequirements;
use crate::ValidationErrors;

impl ReadJs for CreateUserRequest {
    fn read_js(v: &JsValue) -> Self {
        CreateUserRequest {
            year: whole(v, "year"),
            month: whole(v, "month"),
            day: whole(v, "day"),
            email: text(v, "email"),
            username: text(v, "username"),
            new_password: text(v, "newPassword"),
            new_password_repeat: text(v, "newPasswordRepeat"),
            phone_number: string(v, "phoneNumber"),
            second_email: string(v, "secondEmail"),
            registration_key: text(v, "registrationKey"),
        }
    }
}

impl ReadJs for CreateAccountRules {
    fn read_js(v: &JsValue) -> Self {
        CreateAccountRules {
            password: PasswordRequirements::read_js(&field(v, "Password")),
            min_username_length: whole(v, "MinUsernameLength").unwrap_or(0),
            max_username_length: whole(v, "MaxUsernameLength").unwrap_or(0),
            disable_secondary_recovery_options: boolean(v, "DisableSecondaryRecoveryOptions"),
            // Missing: required (the setting's default).
            require_dob: !matches!(field(v, "RequireDOB").as_bool(), Some(false)),
        }
    }
}

impl ReadJs for SurveyRegistration {
    fn read_js(v: &JsValue) -> Self {
        SurveyRegistration {
            email: text(v, "email"),
            first_name: text(v, "firstName"),
            last_name: text(v, "lastName"),
            gender: text(v, "gender"),
            year: whole(v, "year"),
            month: whole(v, "month"),
            day: whole(v, "day"),
            phone_number: text(v, "phoneNumber"),
            loc_num: text(v, "locNum"),
            language: string(v, "language"),
        }
    }
}

impl ReadJs for ChangeMyPassword {
    fn read_js(v: &JsValue) -> Self {
        ChangeMyPassword {
            old_password: text(v, "OldPassword"),
            new_password: text(v, "NewPassword"),
            new_password_repeat: text(v, "NewPasswordRepeat"),
        }
    }
}

#[wasm_bindgen(js_name = validateCreateAccount)]
pub fn validate_create_account(
    req: Ts<CreateUserRequest>,
    rules: Ts<CreateAccountRules>,
) -> Ts<ValidationErrors> {
    write(&membership::validate_create_account(
        &read(&req),
        &read(&rules),
    ))
}

#[wasm_bindgen(js_name = validateSurveyRegistration)]
pub fn validate_survey_registration(
    reg: Ts<SurveyRegistration>,
    #[wasm_bindgen(js_name = newPerson)] new_person: bool,
) -> Ts<ValidationErrors> {
    write(&membership::validate_survey_registration(
        &read(&reg),
        new_person,
    ))
}

#[wasm_bindgen(js_name = validateVerificationCode)]
pub fn validate_verification_code(code: &str) -> Ts<ValidationErrors> {
    write(&membership::validate_verification_code(code))
}

/// Characters in a verification code (the code field's `maxLength`).
#[wasm_bindgen(js_name = verificationCodeLength)]
pub fn verification_code_length() -> u32 {
    membership::CODE_LEN as u32
}

#[wasm_bindgen(js_name = validateChangeMyPassword)]
pub fn validate_change_my_password(
    req: Ts<ChangeMyPassword>,
    rules: Ts<PasswordRequirements>,
) -> Ts<ValidationErrors> {
    write(&membership::validate_change_my_password(
        &read(&req),
        &read(&rules),
    ))
}

#[wasm_bindgen(js_name = formatUsPhone)]
pub fn format_us_phone(value: &str) -> String {
    membership::format_us_phone(value)
}
