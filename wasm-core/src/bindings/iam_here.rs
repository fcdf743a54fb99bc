//! I Am Here rules (crate::iam_here; spec 01 §2.10). Instants are unix milliseconds (exact in f64).

use tsify::Ts;
use wasm_bindgen::prelude::*;

use crate::iam_here;
use crate::model::IamHereMode;

fn mode_of(v: &JsValue) -> IamHereMode {
    match v.as_string().as_deref() {
        Some("IamHere") => IamHereMode::IamHere,
        Some("RescheduledAppointment") => IamHereMode::RescheduledAppointment,
        Some("AppointmentExpired") => IamHereMode::AppointmentExpired,
        Some("CanceledAppointment") => IamHereMode::CanceledAppointment,
        _ => IamHereMode::IamHereError,
    }
}

#[cfg(feature = "wasm-settings")]
#[wasm_bindgen(js_name = iamHereMode)]
pub fn iam_here_mode(
    disabled: bool,
    found: bool,
    status: &str,
    #[wasm_bindgen(js_name = startsAt)] starts_at: f64,
    now: f64,
    #[wasm_bindgen(js_name = expireHours)] expire_hours: f64,
) -> Ts<IamHereMode> {
    super::write(&iam_here::iam_here_mode(
        disabled,
        found,
        status,
        starts_at as i64,
        now as i64,
        expire_hours as i64,
    ))
}

#[wasm_bindgen(js_name = iamHereShowsDate)]
pub fn iam_here_shows_date(mode: Ts<IamHereMode>) -> bool {
    iam_here::shows_appointment_date(mode_of(&mode.js_value()))
}

#[wasm_bindgen(js_name = iamHereShowsWarning)]
pub fn iam_here_shows_warning(mode: Ts<IamHereMode>) -> bool {
    iam_here::shows_warning(mode_of(&mode.js_value()))
}
