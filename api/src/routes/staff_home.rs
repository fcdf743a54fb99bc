//! The staff home's pending work (issue 20): help asked from a kiosk (marked handled here),
//! today's arrivals, arrivals not yet sent Ready for Exam, failed notices.

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::history_portal::location_display_name;
use wasm_core::model::{
    ArrivalItem, FailedNoticeItem, HelpRequestItem, PendingWork, PendingWorkQuery, SuccessResult,
};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{RequireRole, Staff};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::store::staff_home as store;
use crate::{fmt, AppState};

const DAY_MS: i64 = 86_400_000;
/// How many rows of each list the home shows (the History Portal has the full lists).
const LISTED: i64 = 20;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/staffHome/pendingWork",
            "Staff: open kiosk help requests, today's arrivals (?TimezoneOffset= minutes east of UTC), how many arrivals await Ready for Exam, failed notices",
            pending_work,
        )
        .post(
            "/api/staffHome/helpRequests/{id}/resolve",
            "Staff: marks a kiosk help request handled (404 when it is not open)",
            resolve_help,
        )
}

async fn pending_work(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<PendingWorkQuery>,
) -> AppResult<Json<PendingWork>> {
    let db = &state.db;
    let offset_ms = i64::from(q.timezone_offset.clamp(-1080, 1080)) * 60_000;
    let now = now_ms();
    // The viewer's calendar day, as the History Portal's Today tab takes it (spec 01 §9).
    let from = (now + offset_ms).div_euclid(DAY_MS) * DAY_MS - offset_ms;
    let name = |first: String, last: String| format!("{first} {last}").trim().to_owned();
    let help_requests = store::open_help_requests(db, LISTED)
        .await?
        .into_iter()
        .map(
            |(id, first, last, mrn, location, at, queue)| HelpRequestItem {
                id,
                patient_name: name(first, last),
                patient_mrn: mrn,
                location_name: location
                    .as_deref()
                    .map(location_display_name)
                    .unwrap_or_default(),
                requested_at: fmt::iso_utc(at),
                survey_queue_id: queue,
            },
        )
        .collect();
    let arrivals = store::arrivals(db, from, from + DAY_MS, LISTED)
        .await?
        .into_iter()
        .map(|(id, first, last, location, at, arrival)| ArrivalItem {
            appointment_id: id,
            patient_name: name(first, last),
            location_name: location_display_name(&location),
            appointment_date_time: fmt::iso_utc(at),
            arrival_status: arrival,
        })
        .collect();
    let ready_for_exam_unsent = store::ready_for_exam_unsent(db, from, from + DAY_MS).await?;
    let (failed, failed_notices_total) = store::failed_notices(db, LISTED).await?;
    Ok(Json(PendingWork {
        help_requests,
        arrivals,
        ready_for_exam_unsent,
        failed_notices: failed
            .into_iter()
            .map(
                |(id, channel, kind, recipient, at, error)| FailedNoticeItem {
                    id,
                    channel,
                    kind,
                    recipient,
                    created_at: fmt::iso_utc(at),
                    last_error: error.unwrap_or_default(),
                },
            )
            .collect(),
        failed_notices_total,
    }))
}

async fn resolve_help(
    user: RequireRole<Staff>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Json<SuccessResult>> {
    let mut tx = state.db.begin().await?;
    if !store::resolve_help(&mut tx, id, user.user_id, now_ms()).await? {
        return Err(AppError::NotFound);
    }
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::KioskHelpResolved,
        Target {
            target_type: Some("KioskHelpRequest"),
            target_id: Some(id.to_string()),
            target_user_id: None,
        },
        Some(json!({"Resolved": false})),
        Some(json!({"Resolved": true})),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(SuccessResult { is_success: true }))
}
