//! The functions the web app calls (feature `wasm`; names and shapes in /work/CONTRACT.md).
//!
//! Arguments arrive as `Ts<T>` (a plain JS value, typed by tsify in the .d.ts) and are read inside
//! the function, so a malformed argument becomes a safe fallback value here instead of an
//! exception thrown from the ABI glue. Results are written with maps as plain objects
//! (`{field: [messages]}`), which is what the TypeScript types say. No function panics or throws.

use serde::de::DeserializeOwned;
use serde::Serialize;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use crate::dates::{self, DateFormat};
use crate::http_error::{self, ErrorDialog};
use crate::login;
use crate::menu;
use crate::model::{LoginRequest, ModulePermissions, Permissions, TableRequest};
use crate::password::{self, PasswordCheck, PasswordRequirements};
use crate::table::{self, TableState};
use crate::ValidationErrors;

fn read<T: Tsify + DeserializeOwned>(value: &Ts<T>) -> Option<T> {
    serde_wasm_bindgen::from_value(value.js_value()).ok()
}

fn to_js_value<T: Serialize>(value: &T) -> JsValue {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}

fn write<T: Tsify + Serialize>(value: &T) -> Ts<T> {
    Ts::new_unchecked(to_js_value(value))
}

#[wasm_bindgen(js_name = validateLogin)]
pub fn validate_login(
    req: Ts<LoginRequest>,
    #[wasm_bindgen(js_name = askUsername)] ask_username: bool,
) -> Ts<ValidationErrors> {
    // Something that is not a login request at all is treated as an empty form.
    let req = read(&req).unwrap_or_else(|| LoginRequest {
        username_or_email: String::new(),
        password: String::new(),
        remember_me: false,
        device_id: None,
        user_name: None,
    });
    write(&login::validate_login(&req, ask_username))
}

#[wasm_bindgen(js_name = checkPassword)]
pub fn check_password(password: &str, req: Ts<PasswordRequirements>) -> Ts<PasswordCheck> {
    let req = read(&req).unwrap_or_default();
    write(&password::check_password(password, &req))
}

#[wasm_bindgen(js_name = validatePasswordRepeat)]
pub fn validate_password_repeat(password: &str, repeat: &str) -> Ts<ValidationErrors> {
    write(&password::validate_password_repeat(password, repeat))
}

/// `offsetMinutes`: minutes east of UTC at that instant (`-new Date(iso).getTimezoneOffset()`).
#[wasm_bindgen(js_name = formatDate)]
pub fn format_date(
    #[wasm_bindgen(js_name = isoInstant)] iso_instant: &str,
    format: Ts<DateFormat>,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
    #[wasm_bindgen(js_name = zoneAbbr)] zone_abbr: &str,
) -> String {
    match read(&format) {
        Some(format) => dates::format_date(iso_instant, format, offset_minutes, zone_abbr),
        None => String::new(),
    }
}

#[wasm_bindgen(js_name = formatAppointment)]
pub fn format_appointment(
    #[wasm_bindgen(js_name = isoInstant)] iso_instant: &str,
    #[wasm_bindgen(js_name = hideTime)] hide_time: bool,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> String {
    dates::format_appointment(iso_instant, hide_time, offset_minutes)
}

#[wasm_bindgen(js_name = appointmentHeader)]
pub fn appointment_header(#[wasm_bindgen(js_name = hideTime)] hide_time: bool) -> String {
    dates::appointment_header(hide_time).to_owned()
}

#[wasm_bindgen(js_name = readTableState)]
pub fn read_table_state(
    query: &str,
    #[wasm_bindgen(js_name = listId)] list_id: &str,
    defaults: Ts<TableState>,
) -> Ts<TableState> {
    let defaults = read(&defaults).unwrap_or_default();
    write(&table::read_table_state(query, list_id, &defaults))
}

#[wasm_bindgen(js_name = writeTableState)]
pub fn write_table_state(
    query: &str,
    #[wasm_bindgen(js_name = listId)] list_id: &str,
    state: Ts<TableState>,
) -> String {
    let state = read(&state).unwrap_or_default();
    table::write_table_state(query, list_id, &state)
}

#[wasm_bindgen(js_name = tableRequest)]
pub fn table_request(state: Ts<TableState>) -> Ts<TableRequest> {
    let state = read(&state).unwrap_or_default();
    write(&table::table_request(&state))
}

#[wasm_bindgen(js_name = menuFor, unchecked_return_type = "MenuItem[]")]
pub fn menu_for(perms: Ts<Permissions>, modules: Ts<ModulePermissions>) -> JsValue {
    // Unreadable permissions mean "not signed in": no menu. Unreadable module flags mean none.
    let perms = read(&perms).unwrap_or_default();
    let modules = read(&modules).unwrap_or(ModulePermissions {
        module_documents: false,
        module_appointments: false,
        module_medical_history: false,
    });
    to_js_value(&menu::menu_for(&perms, &modules))
}

/// `status` 0 means no response arrived. `body` is the response text as received (may be empty).
#[wasm_bindgen(js_name = describeHttpError)]
pub fn describe_http_error(status: u32, body: &str) -> Ts<ErrorDialog> {
    // Not an HTTP status: described like any unknown failure.
    let status = u16::try_from(status).unwrap_or(999);
    write(&http_error::describe_http_error(status, body))
}
