//! Exports of the user administration's form rules (spec 02 §5): validateUser, validateRole.
//! Admin pages only: built into the settings package (feature `wasm-settings`), not the one
//! patients' phones download.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::{boolean, field, is_array, read, reflect_get, text, write, ReadJs};
use crate::membership;
use crate::model::{FormCheck, RoleForm, UserForm};
use crate::ValidationErrors;

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

#[wasm_bindgen(js_name = validateUser)]
pub fn validate_user(user: Ts<UserForm>) -> Ts<FormCheck> {
    write(&membership::validate_user(&read(&user)))
}

#[wasm_bindgen(js_name = validateRole)]
pub fn validate_role(role: Ts<RoleForm>) -> Ts<ValidationErrors> {
    write(&membership::validate_role(&read(&role)))
}
