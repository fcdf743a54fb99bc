//! The functions the web app calls (feature `wasm`; their TypeScript types are generated into pkg/wasm_core.d.ts).
//!
//! Arguments arrive as `Ts<T>` (a plain JS value, typed by tsify in the .d.ts) and are read here
//! field by field (`ReadJs`): a missing or ill-typed field takes its default, so a malformed
//! argument becomes a safe value instead of an exception thrown from the ABI glue. Reading by hand
//! rather than with serde keeps serde's error formatting (and with it float printing) out of the
//! wasm file. Results are written with serde (`to_js`, the same values serde-wasm-bindgen wrote),
//! maps as plain objects (`{field: [messages]}`), which is what the TypeScript types say. No
//! function panics or throws.

// Staff pages' rules (History Portal, Audit Logs, the kiosk's staff start, survey uploads) and
// exports only the parity tests call: in the staff package too (see below).
#[cfg(feature = "wasm-settings")]
mod audit_logs;
mod documents;
mod embed;
mod iam_here;
mod labels;
mod medical_history;
mod survey;
mod to_js;

use crate::sorted_map::SortedMap;

use serde::Serialize;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use crate::dates::{self, DateFormat};
use crate::http_error::{self, ErrorDialog};
use crate::login;
use crate::menu;
use crate::model::{
    LoginLinks, LoginRequest, MainMenuSettings, ModulePermissions, Permissions, SortDirection,
    TableRequest, DEFAULT_PAGE_SIZE, PAGE_SIZES,
};
use crate::password::{self, PasswordCheck, PasswordRequirements};
use crate::table::{self, TableState};
use crate::ValidationErrors;

mod membership;
mod recovery;
mod session_timer;
// Admin pages' rules: only in the staff package (feature `wasm-settings`, pkg-settings), which
// only the admin, setup and staff pages load; patients' phones and kiosks never download them.
// Staff-only exports in the shared files carry the same cfg (issue 22: the package every page
// loads carries only what the patient pages, sign-in, registration, recovery, the kiosk and I Am
// Here call).
#[cfg(feature = "wasm-settings")]
mod notice_templates;
#[cfg(feature = "wasm-settings")]
mod release_sync;
#[cfg(feature = "wasm-settings")]
mod settings;
#[cfg(feature = "wasm-settings")]
mod setup;
#[cfg(feature = "wasm-settings")]
mod techpad;
#[cfg(feature = "wasm-settings")]
mod users;

#[wasm_bindgen]
extern "C" {
    // Both throw only for a non-object target, which the callers rule out; `catch` covers
    // hostile getters and proxies.
    #[wasm_bindgen(js_namespace = Reflect, js_name = get, catch)]
    fn reflect_get(target: &JsValue, key: &str) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(target: &JsValue) -> Result<Vec<String>, JsValue>;

    #[wasm_bindgen(js_namespace = Array, js_name = isArray)]
    fn array_is_array(value: &JsValue) -> bool;
}

pub(crate) fn is_array(value: &JsValue) -> bool {
    array_is_array(value)
}

pub(crate) fn field(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() {
        reflect_get(obj, key).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

fn string(obj: &JsValue, key: &str) -> Option<String> {
    field(obj, key).as_string()
}

/// A text field; empty when missing or not text.
fn text(obj: &JsValue, key: &str) -> String {
    string(obj, key).unwrap_or_default()
}

fn boolean(obj: &JsValue, key: &str) -> bool {
    field(obj, key).as_bool().unwrap_or(false)
}

/// A whole number in u32's range; anything else (negative, fractional, NaN, text) is `None`.
fn whole(obj: &JsValue, key: &str) -> Option<u32> {
    let n = field(obj, key).as_f64()?;
    (n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n)).then_some(n as u32)
}

/// Reads a Rust value from whatever JS passed; never fails.
trait ReadJs: Sized {
    fn read_js(value: &JsValue) -> Self;
}

fn read<T: Tsify + ReadJs>(value: &Ts<T>) -> T {
    T::read_js(&value.js_value())
}

impl ReadJs for LoginRequest {
    fn read_js(v: &JsValue) -> Self {
        LoginRequest {
            username_or_email: string(v, "usernameOrEmail").unwrap_or_default(),
            password: string(v, "password").unwrap_or_default(),
            remember_me: boolean(v, "rememberMe"),
            device_id: string(v, "deviceId"),
            user_name: string(v, "userName"),
        }
    }
}

impl ReadJs for PasswordRequirements {
    fn read_js(v: &JsValue) -> Self {
        PasswordRequirements {
            len_needed: whole(v, "LenNeeded").unwrap_or(0),
            num_needed: whole(v, "NumNeeded").unwrap_or(0),
            ucase_needed: whole(v, "UcaseNeeded").unwrap_or(0),
            sym_needed: whole(v, "SymNeeded").unwrap_or(0),
            use_complexity_requirements: boolean(v, "UseComplexityRequirements"),
        }
    }
}

impl ReadJs for Option<DateFormat> {
    fn read_js(v: &JsValue) -> Self {
        let name = v.as_string()?;
        DateFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl ReadJs for TableState {
    fn read_js(v: &JsValue) -> Self {
        let filters_value = field(v, "Filters");
        let mut filters = SortedMap::new();
        if filters_value.is_object() {
            for name in object_keys(&filters_value).unwrap_or_default() {
                if let Some(value) = string(&filters_value, &name) {
                    filters.insert(name, value);
                }
            }
        }
        TableState {
            page_index: whole(v, "PageIndex").unwrap_or(0),
            page_size: whole(v, "PageSize").unwrap_or(DEFAULT_PAGE_SIZE),
            sort_column: string(v, "SortColumn"),
            sort_direction: match string(v, "SortDirection").as_deref() {
                Some("desc") => SortDirection::Desc,
                _ => SortDirection::Asc,
            },
            search: string(v, "Search").unwrap_or_default(),
            filters,
        }
    }
}

impl ReadJs for Permissions {
    fn read_js(v: &JsValue) -> Self {
        Permissions {
            is_program_manager: boolean(v, "IsProgramManager"),
            is_client_admin: boolean(v, "IsClientAdmin"),
            is_patient: boolean(v, "IsPatient"),
            is_front_desk: boolean(v, "IsFrontDesk"),
            is_impersonated: boolean(v, "IsImpersonated"),
            is_sso_mode: boolean(v, "IsSsoMode"),
            is_user_logged_in: boolean(v, "IsUserLoggedIn"),
            show_front_desk_reports: boolean(v, "ShowFrontDeskReports"),
            is_technologist: boolean(v, "IsTechnologist"),
        }
    }
}

impl ReadJs for MainMenuSettings {
    fn read_js(v: &JsValue) -> Self {
        MainMenuSettings {
            is_cerner_oauth_enabled: boolean(v, "IsCernerOAuthEnabled"),
            is_sso_mode: boolean(v, "IsSsoMode"),
            disable_secondary_recovery_options: boolean(v, "DisableSecondaryRecoveryOptions"),
            disable_change_password_menu: boolean(v, "DisableChangePasswordMenu"),
            is_allowed_to_show_email_reset_link: boolean(v, "IsAllowedToShowEmailResetLink"),
            email_reset_link: string(v, "EmailResetLink").unwrap_or_default(),
            is_allowed_to_show_help_button: boolean(v, "IsAllowedToShowHelpButton"),
            is_allowed_to_show_login_link_when_self_registered: boolean(
                v,
                "IsAllowedToShowLoginLinkWhenSelfRegistered",
            ),
            users_list_ssn_column_name: string(v, "UsersListSsnColumnName").unwrap_or_default(),
        }
    }
}

impl ReadJs for ModulePermissions {
    // A module flag that is missing counts as not licensed.
    fn read_js(v: &JsValue) -> Self {
        ModulePermissions {
            module_documents: boolean(v, "Module_Documents"),
            module_appointments: boolean(v, "Module_Appointments"),
            module_medical_history: boolean(v, "Module_MedicalHistory"),
            module_tablet_survey: boolean(v, "Module_TabletSurvey"),
        }
    }
}

fn to_js_value<T: Serialize>(value: &T) -> JsValue {
    let to_js = to_js::ToJs {
        missing_as_null: false,
    };
    value.serialize(&to_js).unwrap_or(JsValue::NULL)
}

fn write<T: Tsify + Serialize>(value: &T) -> Ts<T> {
    Ts::new_unchecked(to_js_value(value))
}

#[wasm_bindgen(js_name = validateLogin)]
pub fn validate_login(
    req: Ts<LoginRequest>,
    #[wasm_bindgen(js_name = askUsername)] ask_username: bool,
) -> Ts<ValidationErrors> {
    write(&login::validate_login(&read(&req), ask_username))
}

/// Staff two-step sign-in: the code field's messages (an app code or a recovery code).
#[wasm_bindgen(js_name = validateMfaCode)]
pub fn validate_mfa_code(code: &str) -> Ts<ValidationErrors> {
    write(&crate::mfa::validate_code(code))
}

#[wasm_bindgen(js_name = loginLinks)]
pub fn login_links(
    #[wasm_bindgen(js_name = patientDoor)] patient_door: bool,
    settings: Ts<MainMenuSettings>,
    #[wasm_bindgen(js_name = askUsername)] ask_username: bool,
) -> Ts<LoginLinks> {
    write(&login::login_links(
        patient_door,
        &read(&settings),
        ask_username,
    ))
}

#[wasm_bindgen(js_name = checkPassword)]
pub fn check_password(password: &str, req: Ts<PasswordRequirements>) -> Ts<PasswordCheck> {
    write(&password::check_password(password, &read(&req)))
}

#[cfg(feature = "wasm-settings")]
#[wasm_bindgen(js_name = validatePasswordRepeat)]
pub fn validate_password_repeat(password: &str, repeat: &str) -> Ts<ValidationErrors> {
    write(&password::validate_password_repeat(password, repeat))
}

/// `isoInstant` with a settings date pattern (DocViewDateFormat); blank: the letter date format.
#[wasm_bindgen(js_name = formatDatePattern)]
pub fn format_date_pattern(
    #[wasm_bindgen(js_name = isoInstant)] iso_instant: &str,
    pattern: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
    #[wasm_bindgen(js_name = zoneAbbr)] zone_abbr: &str,
) -> String {
    dates::format_date_pattern(iso_instant, pattern, offset_minutes, zone_abbr)
}

/// A code name (role, column, action, type, status) as words on screen (issue 20).
#[wasm_bindgen(js_name = enumLabel)]
pub fn enum_label(value: &str) -> String {
    crate::enum_label::enum_label(value)
}

/// `offsetMinutes`: minutes east of UTC at that instant (`-new Date(iso).getTimezoneOffset()`).
#[wasm_bindgen(js_name = formatDate)]
pub fn format_date(
    #[wasm_bindgen(js_name = isoInstant)] iso_instant: &str,
    format: Ts<DateFormat>,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
    #[wasm_bindgen(js_name = zoneAbbr)] zone_abbr: &str,
) -> String {
    match Option::<DateFormat>::read_js(&format.js_value()) {
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

/// The Appointments page's date: weekday, date, time and zone, or the day alone (whole day).
#[wasm_bindgen(js_name = formatAppointmentLong)]
pub fn format_appointment_long(
    #[wasm_bindgen(js_name = isoInstant)] iso_instant: &str,
    #[wasm_bindgen(js_name = hideTime)] hide_time: bool,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
    #[wasm_bindgen(js_name = zoneAbbr)] zone_abbr: &str,
) -> String {
    dates::format_appointment_long(iso_instant, hide_time, offset_minutes, zone_abbr)
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
    write(&table::read_table_state(query, list_id, &read(&defaults)))
}

#[wasm_bindgen(js_name = writeTableState)]
pub fn write_table_state(
    query: &str,
    #[wasm_bindgen(js_name = listId)] list_id: &str,
    state: Ts<TableState>,
) -> String {
    table::write_table_state(query, list_id, &read(&state))
}

/// The page sizes a list offers (spec 01 §9); the server clamps requests to the same list.
#[wasm_bindgen(js_name = pageSizes)]
pub fn page_sizes() -> Vec<u32> {
    PAGE_SIZES.to_vec()
}

/// The longest search text a table or patient search accepts: the search inputs' `maxLength`.
#[wasm_bindgen(js_name = maxSearchChars)]
pub fn max_search_chars() -> u32 {
    table::MAX_SEARCH_CHARS as u32
}

/// The numbered pager of a list (spec 01 §2.6); `rowCount` is the filtered count.
#[wasm_bindgen(js_name = pager)]
pub fn pager(
    #[wasm_bindgen(js_name = pageIndex)] page_index: u32,
    #[wasm_bindgen(js_name = pageSize)] page_size: u32,
    #[wasm_bindgen(js_name = rowCount)] row_count: f64,
) -> Ts<table::Pager> {
    // A count is a whole number of rows; anything else reads as none.
    let rows = if row_count.is_finite() && row_count >= 0.0 {
        row_count as u64
    } else {
        0
    };
    // Gaps cross as null, as the type says (the shared writer would leave them undefined).
    let to_js = to_js::ToJs {
        missing_as_null: true,
    };
    let value = table::pager(page_index, page_size, rows)
        .serialize(&to_js)
        .unwrap_or(JsValue::NULL);
    Ts::new_unchecked(value)
}

#[wasm_bindgen(js_name = tableRequest)]
pub fn table_request(state: Ts<TableState>) -> Ts<TableRequest> {
    write(&table::table_request(&read(&state)))
}

/// Unreadable permissions mean "not signed in" (no menu); unreadable module flags mean none.
#[wasm_bindgen(js_name = menuFor, unchecked_return_type = "MenuItem[]")]
pub fn menu_for(perms: Ts<Permissions>, modules: Ts<ModulePermissions>) -> JsValue {
    to_js_value(&menu::menu_for(&read(&perms), &read(&modules)))
}

/// The header's user menu (account settings link, email reset link).
#[wasm_bindgen(js_name = userMenu, unchecked_return_type = "MenuItem[]")]
pub fn user_menu(perms: Ts<Permissions>, settings: Ts<MainMenuSettings>) -> JsValue {
    to_js_value(&menu::user_menu(&read(&perms), &read(&settings)))
}

/// `status` 0 means no response arrived. `body` is the response text as received (may be empty).
#[wasm_bindgen(js_name = describeHttpError)]
pub fn describe_http_error(status: u32, body: &str) -> Ts<ErrorDialog> {
    // Not an HTTP status: described like any unknown failure.
    let status = u16::try_from(status).unwrap_or(999);
    write(&http_error::describe_http_error(status, body))
}

#[cfg(feature = "wasm-settings")]
mod history_portal;

/// Where a shell route sends this user instead (disabled module, SSO mode); `undefined` to stay.
#[wasm_bindgen(js_name = routeRedirect)]
pub fn route_redirect(
    perms: Ts<Permissions>,
    modules: Ts<ModulePermissions>,
    path: &str,
) -> Option<String> {
    menu::route_redirect(&read(&perms), &read(&modules), path)
}

/// The logo width as typed (spec 02 §5): `{LogoWidth: [messages]}`, empty when valid.
#[wasm_bindgen(js_name = validateLogoWidth)]
pub fn validate_logo_width(value: &str) -> Ts<ValidationErrors> {
    write(&crate::logo::validate_logo_width(value))
}
