//! Create a patient or a study from the kiosk's staff start (issue 5 part 4; spec 01 §2.5 "Staff
//! may create a patient (from ssn) or a study (from respondent id)", §3, §7, §8).
//!
//! Who: FrontDesk and ProgramManager holding a valid admin-PIN grant (header X-Survey-Admin, see
//! survey_start.rs); the location must be one the grant covers (LocNums), else 403. The form is
//! checked with wasm-core's rule (the browser runs the same one). Refusals of the form, and a
//! taken MRN, answer 200 in the spec's shape `{Error: true, ErrorMessage, Errors}` (the kiosk
//! toasts ErrorMessage and shows Errors under the fields); success `{Error: false, Result: {Ssn}}`.
//!
//! A study is dated today (the kiosk's day, TimezoneOffset) at the chosen location, with an
//! appointment at 11:59 PM local, which stands for the whole day (spec 01 §9): its survey does
//! not expire before the day is over.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::json;
use wasm_core::membership::us_phone_digits;
use wasm_core::model::{CreatePatientRequest, CreatePatientResult, CreateStudyRequest};
use wasm_core::survey::create_patient as rules;
use wasm_core::ValidationErrors;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::SurveyStarter;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::staff_start::{allowed, grant, respondent};
use crate::store::surveys as store;
use crate::AppState;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
pub const LOCATION_NOT_YOURS: &str = "You may not create patients or studies at this location.";
pub const LOCATION_UNKNOWN: &str = "Unknown location";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .put(
            "/magview.api/patient/add",
            "Staff start: create a patient (Ssn = MRN, names, Dob, optional Gender/Email/Phone) at a location of the admin-PIN grant; {Error, ErrorMessage, Result: {Ssn}}, 'A patient with this MRN already exists'",
            add_patient,
        )
        .put(
            "/magview.api/studies/create",
            "Staff start: create a study today at a location of the admin-PIN grant for a respondent id; {Error, ErrorMessage, Result: {Ssn, RespondentEntityId}}",
            create_study,
        )
}

/// Minutes east of UTC of the kiosk, within the zones that exist.
fn offset_minutes(offset: i64) -> i64 {
    offset.clamp(-14 * 60, 14 * 60)
}

/// The kiosk's local date (YYYY-MM-DD) at `now`.
fn local_date(now: i64, offset: i64) -> String {
    crate::fmt::iso_utc(now + offset_minutes(offset) * 60_000)[..10].to_owned()
}

/// A location the grant covers, by number: 403 outside the grant; `None` when no such location.
async fn location(
    state: &AppState,
    locs: &Option<Vec<String>>,
    loc_num: &str,
) -> AppResult<Option<i64>> {
    if !allowed(locs, loc_num) {
        return Err(AppError::Forbidden(LOCATION_NOT_YOURS.to_owned()));
    }
    store::location_id(&state.db, loc_num).await
}

/// The caller's admin-PIN grant (its LocNums), checked first against the location asked for
/// (403 outside it, before any form check).
async fn granted_at(
    state: &AppState,
    user: &crate::auth::session::SessionUser,
    headers: &HeaderMap,
    loc_num: &str,
) -> AppResult<Option<Vec<String>>> {
    let locs = grant(state, user, headers).await?;
    if !loc_num.is_empty() && !allowed(&locs, loc_num) {
        return Err(AppError::Forbidden(LOCATION_NOT_YOURS.to_owned()));
    }
    Ok(locs)
}

fn unknown_location() -> CreatePatientResult {
    let mut errors = ValidationErrors::new();
    errors.add("Location", LOCATION_UNKNOWN);
    rules::refused(errors)
}

fn optional(value: &str) -> Option<&str> {
    Some(value.trim()).filter(|v| !v.is_empty())
}

async fn add_patient(
    staff: RequireRole<SurveyStarter>,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(req): ApiJson<CreatePatientRequest>,
) -> AppResult<Json<CreatePatientResult>> {
    let user = &staff.0 .0;
    let loc_num = req.location.trim();
    let locs = granted_at(&state, user, &headers, loc_num).await?;
    let now = now_ms();
    let errors = rules::validate_create_patient(&req, &local_date(now, req.timezone_offset));
    if !errors.is_valid() {
        return Ok(Json(rules::refused(errors)));
    }
    let Some(location_id) = location(&state, &locs, loc_num).await? else {
        return Ok(Json(unknown_location()));
    };
    let mrn = rules::normalize_mrn(&req.ssn);
    let phone = optional(&req.phone).and_then(us_phone_digits);
    let mut tx = state.db.begin().await?;
    let inserted = store::insert_staff_patient(
        &mut tx,
        &store::NewStaffPatient {
            mrn: &mrn,
            first_name: req.first_name.trim(),
            last_name: req.last_name.trim(),
            dob: req.dob.trim(),
            gender: optional(&req.gender),
            email: optional(&req.email),
            phone: phone.as_deref(),
            location_id,
            now,
        },
    )
    .await?;
    let Some(patient_id) = inserted else {
        let mut errors = ValidationErrors::new();
        errors.add("Ssn", rules::MRN_TAKEN);
        return Ok(Json(rules::failed(rules::MRN_TAKEN, errors)));
    };
    let target = Target {
        target_type: Some("Patient"),
        target_id: Some(patient_id.to_string()),
        target_user_id: None,
    };
    audit::record(
        &mut tx,
        Actor::from(user),
        Action::PatientCreated,
        target,
        None,
        Some(json!({
            "Ssn": mrn,
            "Location": loc_num,
            "FirstName": req.first_name.trim(),
            "LastName": req.last_name.trim(),
            "Dob": req.dob.trim(),
            "Gender": optional(&req.gender),
            "Email": optional(&req.email),
            "Phone": phone,
        })),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(rules::created(&mrn, None)))
}

async fn create_study(
    staff: RequireRole<SurveyStarter>,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(req): ApiJson<CreateStudyRequest>,
) -> AppResult<Json<CreatePatientResult>> {
    let user = &staff.0 .0;
    let loc_num = req.location.trim();
    let locs = granted_at(&state, user, &headers, loc_num).await?;
    let errors = rules::validate_create_study(&req);
    if !errors.is_valid() {
        return Ok(Json(rules::refused(errors)));
    }
    let patient = respondent(&state, &locs, &req.respondent_id).await?;
    let Some(location_id) = location(&state, &locs, loc_num).await? else {
        return Ok(Json(unknown_location()));
    };
    let now = now_ms();
    let offset = offset_minutes(req.timezone_offset);
    let day = crate::fmt::local_day_start(now, offset as i32);
    // 11:59 PM local: the whole day (spec 01 §9).
    let starts_at = day + DAY_MS - 60_000;
    let mut tx = state.db.begin().await?;
    let appointment = store::insert_staff_study(
        &mut tx,
        patient.id,
        location_id,
        &local_date(now, offset),
        req.description.trim(),
        starts_at,
    )
    .await?;
    let target = Target {
        target_type: Some("Patient"),
        target_id: Some(patient.id.to_string()),
        target_user_id: None,
    };
    let body = json!({"Ssn": patient.mrn, "Location": loc_num, "AppointmentId": appointment});
    audit::record(
        &mut tx,
        Actor::from(user),
        Action::StudyCreated,
        target,
        None,
        Some(body),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(rules::created(
        &patient.mrn,
        Some(appointment.to_string()),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kiosks_day() {
        // 2026-11-22T02:00:00Z is still the 21st five hours west of UTC.
        let t = crate::fmt::parse_instant("2026-11-22T02:00:00Z").unwrap();
        assert_eq!(local_date(t, -300), "2026-11-21");
        assert_eq!(local_date(t, 0), "2026-11-22");
        assert_eq!(local_date(t, 100_000), local_date(t, 14 * 60));
    }
}
