//! The signed-in patient's next appointments (spec 01 §2.2 Home, §3, §7).

use axum::extract::State;
use axum::Json;
use wasm_core::history_portal::location_display_name;
use wasm_core::model::{NextAppointment, NextAppointmentsRequest, NextAppointmentsResponse};
use wasm_core::settings::history_portal::HistoryPortal;

use crate::auth::{PatientOnly, RequireRole};
use crate::db::now_ms;
use crate::error::{ApiJson, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::store::appointments;
use crate::{fmt, AppState};

/// How many upcoming appointments Home shows at most.
const MAX_NEXT: i64 = 10;

pub fn router() -> ApiRouter {
    ApiRouter::new().post(
        "/api/surveyApi/GetNextAppointmentsForUser",
        "The signed-in patient's own future appointments (not canceled)",
        next_appointments,
    )
}

async fn next_appointments(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<NextAppointmentsRequest>,
) -> AppResult<Json<NextAppointmentsResponse>> {
    let db = &state.db;
    let offset = req.timezone_offset.clamp(-1080, 1080);
    let rows: Vec<(i64, String)> = match user.patient_id {
        Some(patient_id) => {
            appointments::next_for_patient(db, patient_id, now_ms(), MAX_NEXT).await?
        }
        None => Vec::new(),
    };
    let hide = settings::get::<HistoryPortal>(db)
        .await?
        .is_hide_appointment_time_in_history_portal;
    Ok(Json(NextAppointmentsResponse {
        next_appointments: rows
            .into_iter()
            .map(|(ms, location)| NextAppointment {
                appointment_date_time: fmt::iso_utc(ms),
                appointment_date: fmt::date(ms, offset),
                appointment_time: if hide || fmt::is_whole_day(ms, offset) {
                    String::new()
                } else {
                    fmt::time_of_day(ms, offset)
                },
                location_name: location_display_name(&location),
            })
            .collect(),
        is_hide_appointment_time_in_history_portal: hide,
    }))
}
