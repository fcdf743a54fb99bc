//! Export of the session timer rule (spec 01 §4, §9): sessionTimerView.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::write;
use crate::session_timer::{self, SessionTimerView};

#[wasm_bindgen(js_name = sessionTimerView)]
pub fn session_timer_view(
    #[wasm_bindgen(js_name = secondsLeft)] seconds_left: f64,
    #[wasm_bindgen(js_name = timeoutMinutes)] timeout_minutes: u32,
    #[wasm_bindgen(js_name = warnMinutes)] warn_minutes: u32,
) -> Ts<SessionTimerView> {
    // NaN and fractions count as whole seconds down; anything below zero as expired.
    let left = if seconds_left.is_finite() {
        seconds_left.floor().clamp(-1.0, 4.0e9) as i64
    } else {
        0
    };
    write(&session_timer::session_timer_view(
        left,
        timeout_minutes,
        warn_minutes,
    ))
}
