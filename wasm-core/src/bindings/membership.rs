//! Exports of the membership form rules (spec 02 §5, spec 01 §5): validateUser, validateRole,
//! validateCreateAccount, validateSurveyRegistration, validateVerificationCode,
//! validateChangeMyPassword, formatUsPhone.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::{boolean, field, read, reflect_get, string, whole, write, ReadJs};
use crate::membership;
use crate::model::{
    ChangeMyPassword, CreateAccountRules, CreateUserRequest, FormCheck, RoleForm,
    SurveyRegistration, UserForm,
};
use crate::password::PasswordRequirements;
use crate::ValidationErrors;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> bool;
}

/// The items of an array field (none when the field is not an array).
pub(super) fn list(obj: &JsValue, key: &str) -> Vec<JsValue> {
    let value = field(obj, key);
    if !is_array(&value) {
        return Vec::new();
    }
    let len = reflect_get(&value, "length")
        .ok()
        .and_then(|n| n.as_f64())
        .unwrap_or(0.0);
    let len = if len.is_finite() && len > 0.0 {
        len.min(10_000.0) as u32
    } else {
        0
    };
    (0..len)
        .map(|i| reflect_get(&value, &i.to_string()).unwrap_or(JsValue::UNDEFINED))
        .collect()
}

fn text(v: &JsValue, key: &str) -> String {
    string(v, key).unwrap_or_default()
}

impl ReadJs for UserForm {
    fn read_js(v: &JsValue) -> Self {
        UserForm {
            id: field(v, "Id")
                .as_f64()
                .filter(|n| n.fract() == 0.0)
                .map(|n| n as i64),
            ssn: text(v, "Ssn"),
            first_name: text(v, "FirstName"),
            last_name: text(v, "LastName"),
            username: text(v, "Username"),
            email: text(v, "Email"),
            is_active: boolean(v, "IsActive"),
            roles: list(v, "Roles")
                .iter()
                .filter_map(JsValue::as_string)
                .collect(),
            comment: text(v, "Comment"),
            survey_pin: text(v, "SurveyPin"),
            loc_nums: text(v, "LocNums"),
            is_results_portal_text_notification_enabled: boolean(
                v,
                "IsResultsPortalTextNotificationEnabled",
            ),
        }
    }
}

impl ReadJs for RoleForm {
    fn read_js(v: &JsValue) -> Self {
        RoleForm {
            name: text(v, "Name"),
            description: text(v, "Description"),
        }
    }
}

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

#[wasm_bindgen(js_name = validateUser)]
pub fn validate_user(user: Ts<UserForm>) -> Ts<FormCheck> {
    write(&membership::validate_user(&read(&user)))
}

#[wasm_bindgen(js_name = validateRole)]
pub fn validate_role(role: Ts<RoleForm>) -> Ts<ValidationErrors> {
    write(&membership::validate_role(&read(&role)))
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
