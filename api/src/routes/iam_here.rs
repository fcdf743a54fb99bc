//! I Am Here (spec 01 §2.10, §3): the arrival link. The token resolves to one appointment; in
//! mode IamHere the arrival is recorded (ArrivalStatus PatientArrived, seen by staff in the
//! History Portal) and audited. IsDisabledIamHere turns the link off; the link expires
//! HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment hours after the appointment starts.

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::iam_here::iam_here_mode;
use wasm_core::model::TokenQuery;
use wasm_core::model::{IamHereMode, IamHereResponse};
use wasm_core::settings::history_portal::HistoryPortal;

use crate::audit::{self, Action, Actor, Target};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiQuery, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::store::appointments;
use crate::{fmt, AppState};

pub fn router() -> ApiRouter {
    ApiRouter::new().get(
        "/api/HistoryPortal/ProcessIAmHere",
        "Resolve an I Am Here token (?token=) and record the patient's arrival",
        process,
    )
}

async fn process(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<TokenQuery>,
) -> AppResult<Json<IamHereResponse>> {
    let db = &state.db;
    let history: HistoryPortal = settings::get(db).await?;
    let disabled = history.is_disabled_iam_here;
    let expire = history.history_portal_expire_i_am_here_button_in_x_hours_after_appointment as i64;
    let token = q.token.trim();
    let row = if token.is_empty() || token.len() > 200 {
        None
    } else {
        appointments::by_iam_here_token(db, token).await?
    };
    let now = now_ms();
    let mode = match &row {
        Some((_, _, status, starts, ..)) => {
            iam_here_mode(disabled, true, status, *starts, now, expire)
        }
        None => iam_here_mode(disabled, false, "", 0, now, expire),
    };
    let Some((id, patient_id, _, starts, arrival, first, last)) = row else {
        let message = if disabled {
            "Online check-in is not available. Please check in at the front desk."
        } else {
            "This check-in link is not valid. Please check in at the front desk."
        };
        return Ok(Json(error(message)));
    };
    if disabled {
        return Ok(Json(error(
            "Online check-in is not available. Please check in at the front desk.",
        )));
    }
    let name = format!("{first} {last}").trim().to_owned();
    if mode == IamHereMode::IamHere && arrival.is_none() {
        let mut tx = db.begin().await?;
        appointments::mark_arrived(&mut tx, id).await?;
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::PatientArrived,
            Target {
                target_type: Some("Appointment"),
                target_id: Some(id.to_string()),
                target_user_id: None,
            },
            Some(json!({"ArrivalStatus": null})),
            Some(json!({"ArrivalStatus": "PatientArrived", "PatientId": patient_id})),
            Some(peer.ip().to_string()),
        )
        .await?;
        tx.commit().await?;
    }
    let (message, appointment_message) = match mode {
        IamHereMode::IamHere => (
            "Thank you. The staff has been notified of your arrival. Please have a seat; we will call you shortly.",
            "Your appointment is on",
        ),
        IamHereMode::RescheduledAppointment => (
            "Your appointment has been rescheduled. Please check the new date and time.",
            "Your appointment is now on",
        ),
        IamHereMode::AppointmentExpired => ("This check-in link has expired. Please check in at the front desk.", ""),
        IamHereMode::CanceledAppointment => (
            "This appointment has been canceled. Please contact us to schedule a new appointment.",
            "",
        ),
        IamHereMode::IamHereError => ("This check-in link is not valid. Please check in at the front desk.", ""),
    };
    Ok(Json(IamHereResponse {
        mode,
        patient_name: name.clone(),
        patient_name_message: format!("Hello, {name}"),
        appointment_date: fmt::iso_utc(starts),
        appointment_message: appointment_message.to_owned(),
        message: message.to_owned(),
        footer_text: "If you need help, please ask at the front desk.".to_owned(),
    }))
}

fn error(message: &str) -> IamHereResponse {
    IamHereResponse {
        mode: IamHereMode::IamHereError,
        patient_name: String::new(),
        patient_name_message: String::new(),
        appointment_date: String::new(),
        appointment_message: String::new(),
        message: message.to_owned(),
        footer_text: "If you need help, please ask at the front desk.".to_owned(),
    }
}
