//! The signed-in patient's next appointments (spec 01 §2.2 Home, §3, §7) and the Appointments
//! page (spec 01 §2.1 menu, Module_Appointments): upcoming and past appointments with location,
//! study, the survey due and the I Am Here link while check-in is open.

use axum::extract::State;
use axum::Json;
use wasm_core::history_portal::location_display_name;
use wasm_core::iam_here::iam_here_open;
use wasm_core::model::{
    AppointmentSurvey, NextAppointment, NextAppointmentsRequest, NextAppointmentsResponse,
    PatientAppointment, PatientAppointmentsResponse,
};
use wasm_core::settings::history_portal::HistoryPortal;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{PatientOnly, RequireRole};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::store::appointments;
use crate::{fmt, AppState};

/// How many upcoming appointments Home shows at most.
const MAX_NEXT: i64 = 10;
/// How many appointment rows the Appointments page reads at most (latest first).
const MAX_LISTED: i64 = 200;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/surveyApi/GetNextAppointmentsForUser",
            "The signed-in patient's own future appointments (not canceled)",
            next_appointments,
        )
        .post(
            "/api/surveyApi/GetAppointmentsForUser",
            "The signed-in patient's own appointments, upcoming (soonest first) and past (latest first): location with address and phone, study, the survey due, arrival and the I Am Here token while check-in is open",
            appointments_for_user,
        )
}

async fn appointments_for_user(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    peer: ClientAddr,
) -> AppResult<Json<PatientAppointmentsResponse>> {
    let db = &state.db;
    let history = settings::get::<HistoryPortal>(db).await?;
    let rows = match user.patient_id {
        Some(patient_id) => appointments::all_for_patient(db, patient_id, MAX_LISTED).await?,
        None => Vec::new(),
    };
    let now = now_ms();
    let hours = |h: f64| {
        if h.is_finite() {
            h.clamp(0.0, 1e4) as i64
        } else {
            0
        }
    };
    let before = hours(history.history_portal_send_i_am_here_x_hours_before_appointment);
    let expire = hours(history.history_portal_expire_i_am_here_button_in_x_hours_after_appointment);
    let business_phone = history.client_business_phone.trim().to_owned();
    let (mut upcoming, mut past) = (Vec::new(), Vec::new());
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        // One row per due survey: the first (oldest queue row) names the appointment's survey.
        if !seen.insert(row.id) {
            continue;
        }
        let open = iam_here_open(
            history.is_disabled_iam_here,
            &row.status,
            row.arrival_status.is_some(),
            row.starts_at,
            now,
            before,
            expire,
        );
        let phone = row.location_phone.unwrap_or_default().trim().to_owned();
        let item = PatientAppointment {
            id: row.id,
            appointment_date_time: fmt::iso_utc(row.starts_at),
            status: row.status,
            location_name: location_display_name(&row.location_name),
            location_address: row.location_address.unwrap_or_default(),
            location_phone: if phone.is_empty() {
                business_phone.clone()
            } else {
                phone
            },
            study_description: row.study_description.unwrap_or_default(),
            survey: match (row.survey_queue_id, row.survey_status) {
                (Some(id), Some(status)) => Some(AppointmentSurvey {
                    survey_queue_id: id,
                    survey_name: row.survey_name.unwrap_or_default(),
                    status_key: status,
                }),
                _ => None,
            },
            arrival_status: row.arrival_status,
            iam_here_token: row.iam_here_token.filter(|_| open),
        };
        // Still upcoming until the check-in window closes (an appointment under way stays on top).
        if row.starts_at + expire * 3_600_000 >= now {
            upcoming.push(item);
        } else {
            past.push(item);
        }
    }
    upcoming.reverse();
    audit::record_alone(
        db,
        Actor::from(&*user),
        Action::AppointmentsViewed,
        Target {
            target_type: Some("Patient"),
            target_id: user.patient_id.map(|id| id.to_string()),
            target_user_id: Some(user.user_id),
        },
        None,
        None,
        Some(peer.ip().to_string()),
    )
    .await?;
    Ok(Json(PatientAppointmentsResponse {
        upcoming,
        past,
        is_hide_appointment_time_in_history_portal: history
            .is_hide_appointment_time_in_history_portal,
    }))
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
