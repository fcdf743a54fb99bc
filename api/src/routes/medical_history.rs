//! The signed-in patient's own surveys (spec 01 §2.4, §3 "Patient survey item", §7): available
//! (assigned or in progress), completed or expired, and whether any is unfinished. Patients
//! only, own rows only.

use axum::extract::State;
use axum::Json;
use wasm_core::history_portal::location_display_name;
use wasm_core::medical_history::survey_tab;
use wasm_core::model::PatientSurveysRequest;
use wasm_core::model::{
    IncompleteSurveyAnswer, PatientSurveyItem, PatientSurveysResponse, SurveyStatus, SurveyTab,
};
use wasm_core::settings::history_portal::HistoryPortal;

use crate::auth::{PatientOnly, RequireRole};
use crate::error::{ApiJson, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::{fmt, store, AppState};

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/surveyApi/GetAvailableSurveysForUser",
            "The signed-in patient's assigned and in-progress surveys (UTC texts)",
            available_get,
        )
        .post(
            "/api/surveyApi/GetAvailableSurveysForUser",
            "The signed-in patient's assigned and in-progress surveys, texts at TimezoneOffset",
            available_post,
        )
        .get(
            "/api/surveyApi/GetCompletedSurveysForUser",
            "The signed-in patient's completed, finalized and expired surveys",
            completed_get,
        )
        .post(
            "/api/surveyApi/GetCompletedSurveysForUser",
            "The same, texts at TimezoneOffset",
            completed_post,
        )
        .get(
            "/api/surveyApi/IsCurrentPatientHasIncompletedSurvey",
            "Whether the signed-in patient has a survey to begin or resume",
            has_incomplete,
        )
}

async fn patient_surveys(
    state: &AppState,
    patient_id: Option<i64>,
    offset: i32,
) -> AppResult<(Vec<PatientSurveyItem>, bool)> {
    let hide = settings::get::<HistoryPortal>(&state.db)
        .await?
        .is_hide_appointment_time_in_history_portal;
    let Some(patient_id) = patient_id else {
        return Ok((Vec::new(), hide));
    };
    let rows = store::surveys::for_patient(&state.db, patient_id).await?;
    let items = rows
        .into_iter()
        .map(
            |(id, name, created, completed, updated, status, starts, location, log)| {
                let parsed = SurveyStatus::parse(&status);
                // For a survey in progress DateCompleted is its last update (spec 01 §2.4).
                let done = if parsed == Some(SurveyStatus::IntermediateSave) {
                    Some(updated)
                } else {
                    completed
                };
                PatientSurveyItem {
                    id,
                    survey_name: name,
                    date_created: fmt::iso_utc(created),
                    date_completed: done.map(fmt::iso_utc),
                    appointment_date: starts.map(fmt::iso_utc),
                    appointment_date_time_string: starts
                        .map(|ms| fmt::appointment(ms, hide, offset))
                        .unwrap_or_default(),
                    appointment_date_string: starts
                        .map(|ms| fmt::date(ms, offset))
                        .unwrap_or_default(),
                    appointment_time_string: starts
                        .filter(|ms| !hide && !fmt::is_whole_day(*ms, offset))
                        .map(|ms| fmt::time_of_day(ms, offset))
                        .unwrap_or_default(),
                    location_name: location
                        .as_deref()
                        .map(location_display_name)
                        .unwrap_or_default(),
                    status: parsed
                        .map(|s| s.label().to_owned())
                        .unwrap_or_else(|| status.clone()),
                    status_key: status,
                    survey_log_id: log,
                }
            },
        )
        .collect();
    Ok((items, hide))
}

async fn by_tabs(
    state: &AppState,
    patient_id: Option<i64>,
    offset: i32,
    completed: bool,
) -> AppResult<Json<PatientSurveysResponse>> {
    let (items, hide) = patient_surveys(state, patient_id, offset.clamp(-1080, 1080)).await?;
    let surveys = items
        .into_iter()
        .filter(|i| match survey_tab(&i.status_key) {
            Some(SurveyTab::Completed) => completed,
            Some(_) => !completed,
            None => false,
        })
        .collect();
    Ok(Json(PatientSurveysResponse {
        surveys,
        is_hide_appointment_time_in_history_portal: hide,
    }))
}

async fn available_get(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
) -> AppResult<Json<PatientSurveysResponse>> {
    by_tabs(&state, user.patient_id, 0, false).await
}

async fn available_post(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<PatientSurveysRequest>,
) -> AppResult<Json<PatientSurveysResponse>> {
    by_tabs(&state, user.patient_id, req.timezone_offset, false).await
}

async fn completed_get(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
) -> AppResult<Json<PatientSurveysResponse>> {
    by_tabs(&state, user.patient_id, 0, true).await
}

async fn completed_post(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<PatientSurveysRequest>,
) -> AppResult<Json<PatientSurveysResponse>> {
    by_tabs(&state, user.patient_id, req.timezone_offset, true).await
}

async fn has_incomplete(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
) -> AppResult<Json<IncompleteSurveyAnswer>> {
    let (items, _) = patient_surveys(&state, user.patient_id, 0).await?;
    Ok(Json(IncompleteSurveyAnswer {
        has_incompleted_survey: items.iter().any(|i| {
            matches!(
                survey_tab(&i.status_key),
                Some(SurveyTab::Assigned | SurveyTab::Progress)
            )
        }),
    }))
}
