//! Exports of password reset and phone verification (issue 3 parts 2-4): the form rule of the
//! reset change-password page, and the two routing decisions the browser makes (reset link,
//! phone screen). Everything else of these flows runs only on the server.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::{boolean, field, read, text, whole, write, ReadJs};
use crate::model::{PhoneVerifyState, PhoneVerifyView, ResetKeyValidation, ResetPasswordRequest};
use crate::password::PasswordRequirements;
use crate::recovery;
use crate::ValidationErrors;

impl ReadJs for ResetPasswordRequest {
    fn read_js(v: &JsValue) -> Self {
        ResetPasswordRequest {
            user_id: field(v, "UserId")
                .as_f64()
                .filter(|n| n.fract() == 0.0)
                .map(|n| n as i64),
            new_password: text(v, "NewPassword"),
            new_password_repeat: text(v, "NewPasswordRepeat"),
            month: whole(v, "Month"),
            day: whole(v, "Day"),
            year: whole(v, "Year"),
            reset_password_token: text(v, "ResetPasswordToken"),
        }
    }
}

impl ReadJs for ResetKeyValidation {
    fn read_js(v: &JsValue) -> Self {
        ResetKeyValidation {
            is_forgot_password_validate: boolean(v, "IsForgotPasswordValidate"),
            is_password_need_reset: boolean(v, "IsPasswordNeedReset"),
            is_not_registered: boolean(v, "IsNotRegistered"),
            is_link_epired: boolean(v, "IsLinkEpired"),
            should_do_cell_phone_verification: boolean(v, "ShouldDoCellPhoneVerification"),
            is_user_has_valid_phone_number: boolean(v, "IsUserHasValidPhoneNumber"),
        }
    }
}

impl ReadJs for PhoneVerifyState {
    fn read_js(v: &JsValue) -> Self {
        PhoneVerifyState {
            area: text(v, "Area"),
            key: text(v, "Key"),
            pwd_reset: text(v, "PwdReset"),
            id: text(v, "Id"),
            last4_digits_of_phone: text(v, "Last4DigitsOfPhone"),
            is_verified: boolean(v, "IsVerified"),
            is_exceeded: boolean(v, "IsExceeded"),
            is_registration_needed: boolean(v, "IsRegistrationNeeded"),
        }
    }
}

#[wasm_bindgen(js_name = validateResetPassword)]
pub fn validate_reset_password(
    req: Ts<ResetPasswordRequest>,
    rules: Ts<PasswordRequirements>,
) -> Ts<ValidationErrors> {
    write(&recovery::validate_reset_password(
        &read(&req),
        &read(&rules),
    ))
}

/// Where a reset link leads (spec 02 §4); undefined = stay on change-password.
#[wasm_bindgen(js_name = resetLinkRoute)]
pub fn reset_link_route(
    validation: Ts<ResetKeyValidation>,
    area: &str,
    #[wasm_bindgen(js_name = pwdReset)] pwd_reset: &str,
    id: &str,
) -> Option<String> {
    recovery::reset_link_route(&read(&validation), area, pwd_reset, id)
}

#[wasm_bindgen(js_name = phoneVerifyView)]
pub fn phone_verify_view(state: Ts<PhoneVerifyState>) -> Ts<PhoneVerifyView> {
    write(&recovery::phone_verify_view(&read(&state)))
}

/// The year list of the date-of-birth selects: the current year back 100 years.
#[wasm_bindgen(js_name = dobYears)]
pub fn dob_years(#[wasm_bindgen(js_name = currentYear)] current_year: u32) -> Vec<u32> {
    recovery::dob_years(current_year)
}
