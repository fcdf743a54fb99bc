//! The patient sees who opened their record (issue 15): staff accesses to the signed-in patient's
//! letters, surveys and record, from the same audit rows the Audit Logs show. The patient is the
//! session's own: the call takes no patient id, so no one can ask for another patient's list.

use axum::extract::State;
use axum::Json;
use wasm_core::model::{RecordAccess, TableRequest, TableResponse};

use crate::auth::{PatientOnly, RequireRole};
use crate::error::{ApiJson, AppResult};
use crate::openapi::ApiRouter;
use crate::store::audit_logs;
use crate::{fmt, AppState};

pub fn router() -> ApiRouter {
    ApiRouter::new().post(
        "/api/account/recordAccesses",
        "Staff accesses to the signed-in patient's own record (who, role, when, what)",
        record_accesses,
    )
}

/// What an access was, in the patient's words.
fn what(action: &str) -> String {
    match action {
        "LetterViewed" => "Letter opened".to_owned(),
        "LetterAcknowledged" => "Letter acknowledged".to_owned(),
        "LetterPrinted" => "Letter printed".to_owned(),
        "LetterAccessDenied" | "PatientAccessDenied" => "Access refused".to_owned(),
        "PatientRecordOpened" => "Record opened".to_owned(),
        "SurveyViewed" => "Survey viewed".to_owned(),
        "SummaryViewed" => "Survey summary viewed".to_owned(),
        "SurveySubmitted" => "Survey submitted".to_owned(),
        "PatientCreated" => "Record created".to_owned(),
        "StudyCreated" => "Study created".to_owned(),
        "PatientArrived" => "Arrival recorded".to_owned(),
        other => other.to_owned(),
    }
}

async fn record_accesses(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    ApiJson(table): ApiJson<TableRequest>,
) -> AppResult<Json<TableResponse<RecordAccess>>> {
    let page_size = table.safe_page_size();
    let Some(patient_id) = user.0 .0.patient_id else {
        return Ok(Json(TableResponse {
            data: Vec::new(),
            total_count: 0,
            filtered_count: 0,
            page_index: table.page_index,
            page_size,
        }));
    };
    let offset = i64::try_from(table.offset())
        .unwrap_or(i64::MAX)
        .min(100_000);
    let (rows, n) =
        audit_logs::staff_accesses(&state.db, patient_id, i64::from(page_size), offset).await?;
    let data = rows
        .into_iter()
        .map(|r| RecordAccess {
            id: r.id,
            date: fmt::iso_utc(r.created_at),
            user_name: r.impersonator_name.clone().unwrap_or_else(|| {
                let full = format!(
                    "{} {}",
                    r.user_first.clone().unwrap_or_default(),
                    r.user_last.clone().unwrap_or_default()
                );
                let full = full.trim();
                if full.is_empty() {
                    r.user_name.clone().unwrap_or_default()
                } else {
                    full.to_owned()
                }
            }),
            role: r
                .impersonator_role
                .clone()
                .or_else(|| r.user_role.clone())
                .unwrap_or_default(),
            what: what(&r.action),
        })
        .collect();
    let n = u64::try_from(n).unwrap_or(0);
    Ok(Json(TableResponse {
        data,
        total_count: n,
        filtered_count: n,
        page_index: table.page_index,
        page_size,
    }))
}
