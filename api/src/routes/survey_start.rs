//! Staff start on the kiosk (issue 5 part 4; spec 01 §2.5, §5, §8; spec 02 §3 survey
//! configuration; spec 04 survey general settings): settings, admin PIN, patient search, the
//! patient's studies, the surveys to choose from, and expiry without the notifications engine
//! (issue 5 part 3; the rule is wasm-core's survey::expiry). Starting itself is `POST /api/v2/survey/generatePin` (surveys.rs), which
//! calls `start_for_respondent` here.
//!
//! Where the settings come from:
//! - SelectPatientMode: CoreSurvey SURVEY_SELECT_PATIENT_MODE or SurveyGeneral
//!   IsSurveySelectPatientMode.
//! - The admin PIN: the signed-in user's SurveyPin when UserManagement
//!   IsAdminPinAndLocationsRestrictionsEnabled is on and the user has one (their LocNums then
//!   limit the locations); otherwise CoreSurvey SURVEY_ADMIN_PIN (else SurveyGeneral
//!   SurveyAdminPin). AdminPinLength is the length of the PIN that applies (0: none configured).
//! - Survey per location: CoreSurvey SurveyPerLocation (Key = location number, Value = survey
//!   id) unless SurveyGeneral IsSurveyPerLocationEnabled is false. Default survey:
//!   SurveyGeneral DefaultSurvey, else HistoryPortal DefaultHistoryPortalSurvey.
//! - Luminary One: CoreMagview MagViewMode = LuminaryOne.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::json;
use wasm_core::model::AdminPinQuery;
use wasm_core::model::{
    AdminPinResponse, Respondent, RespondentEntitiesRequest, RespondentEntitiesResponse,
    RespondentEntity, RespondentSearch, RespondentSearchResponse, StartOptions, StartableSurvey,
    SurveyLocation, SurveyStartSettings,
};
use wasm_core::survey::staff_start;

use crate::audit::{self, Action, Actor, Entry, Target};
use crate::auth::roles::{RoleSet, SurveyStarter};
use crate::auth::{hash_token, random_token, MaybeUser, RequireRole};
use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db};
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::staff_start::{allowed, choice_for, config, grant, respondent, target, StartConfig};
use crate::store::surveys as store;
use crate::AppState;

/// Spec 04 survey general settings (read here and by the summary report; its admin screen comes later).
pub use crate::settings::SURVEY_GENERAL;
/// Wrong admin PINs allowed per staff user in ADMIN_PIN_WINDOW_MS.
pub const ADMIN_PIN_ATTEMPTS: i64 = 5;
pub const ADMIN_PIN_WINDOW_MS: i64 = 15 * 60 * 1000;
/// How long an accepted admin PIN lets the kiosk search and start.
pub const ADMIN_GRANT_MS: i64 = 8 * 60 * 60 * 1000;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/survey/SurveySettings",
            "Kiosk survey settings: SelectPatientMode, AdminPinLength (for the signed-in staff member), Luminary One, ...",
            survey_settings,
        )
        .get(
            "/api/surveyIdentity/CheckAdminPin",
            "Admin PIN (?adminPin=): isValid, locations and a grant token for the header X-Survey-Admin; 'Pin is invalid'",
            check_admin_pin,
        )
        .post(
            "/api/v2/survey/searchRespondents",
            "Patient search (3+ characters): simple, or by respondent id, first and last name, location",
            search_respondents,
        )
        .post(
            "/api/v2/survey/loadRespondentEntities",
            "A respondent's studies (appointments) to start a survey for",
            load_entities,
        )
        .post(
            "/api/v2/survey/startOptions",
            "Surveys to choose from, the survey per study / per location / default, and whether one was submitted today",
            start_options,
        )
}

/// (the admin PIN that applies to this user, the locations it covers: None = all).
async fn pin_for_user(
    db: &Db,
    cfg: &StartConfig,
    user_id: i64,
) -> AppResult<(String, Option<Vec<String>>)> {
    if cfg.restrict {
        let (pin, locs) = store::user_pin_and_locations(db, user_id).await?;
        let pin = pin.unwrap_or_default().trim().to_owned();
        let locs: Option<Vec<String>> = locs
            .map(|l| {
                l.split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
            })
            .filter(|l| !l.is_empty());
        if !pin.is_empty() {
            return Ok((pin, locs));
        }
        return Ok((cfg.global_pin(), locs));
    }
    Ok((cfg.global_pin(), None))
}

async fn survey_settings(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
) -> AppResult<Json<SurveyStartSettings>> {
    let cfg = config(&state.db).await?;
    let length = match &user {
        Some(u) if SurveyStarter::ROLES.contains(&u.role) => {
            pin_for_user(&state.db, &cfg, u.user_id)
                .await?
                .0
                .chars()
                .count()
        }
        _ => cfg.global_pin().chars().count(),
    };
    let g = &cfg.general;
    Ok(Json(SurveyStartSettings {
        select_patient_mode: cfg.select_mode(),
        admin_pin_length: length as u32,
        is_disabled_advanced_patients_search: g.is_disabled_advanced_patients_search,
        search_for_patient_using_alternate_user_identifier: cfg.alternate_search(),
        show_start_survey_for_latest_study_only: g.show_start_survey_for_latest_study_only,
        is_disabled_start_survey_confirmation: g.is_disabled_start_survey_confirmation,
        is_disabled_finished_today_surveys_confirmation: g
            .is_disabled_finished_today_surveys_confirmation,
        is_luminary_one_integration: cfg.luminary,
        layout_survey_title: g.layout_survey_title.clone(),
        luminary_one_patient_details_survey_id: g.luminary_one_patient_details_survey_id.clone(),
    }))
}

fn refuse_mode() -> AppError {
    AppError::Forbidden(
        "Starting surveys for patients is turned off (SelectPatientMode).".to_owned(),
    )
}

async fn check_admin_pin(
    staff: RequireRole<SurveyStarter>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<AdminPinQuery>,
) -> AppResult<Json<AdminPinResponse>> {
    let user = &staff.0 .0;
    let cfg = config(&state.db).await?;
    if !cfg.select_mode() {
        return Err(refuse_mode());
    }
    let (expected, locs) = pin_for_user(&state.db, &cfg, user.user_id).await?;
    let now = now_ms();
    let since = now - ADMIN_PIN_WINDOW_MS;
    let client = format!("admin:{}", user.user_id);
    let failures = store::pin_failures(&state.db, &client, since).await?;
    let valid = failures < ADMIN_PIN_ATTEMPTS && !expected.is_empty() && q.admin_pin == expected;
    let target = Target {
        target_type: Some("User"),
        target_id: Some(user.user_id.to_string()),
        target_user_id: Some(user.user_id),
    };
    let mut tx = state.db.begin().await?;
    audit::record(
        &mut tx,
        Actor::from(user),
        Action::SurveyAdminPinChecked,
        target,
        None,
        Some(json!({"IsValid": valid})),
        Some(peer.ip().to_string()),
    )
    .await?;
    if !valid {
        if failures < ADMIN_PIN_ATTEMPTS {
            store::add_pin_failure(&mut tx, &client, since, now).await?;
        }
        tx.commit().await?;
        return Ok(Json(AdminPinResponse {
            is_valid: false,
            locations: Vec::new(),
            message: staff_start::PIN_INVALID.to_owned(),
            token: None,
        }));
    }
    store::clear_pin_failures(&mut tx, &client).await?;
    let token = random_token();
    let loc_text = locs.as_ref().map(|l| l.join(","));
    store::insert_admin_grant(
        &mut tx,
        &hash_token(&token),
        user.user_id,
        loc_text.as_deref(),
        now,
        now + ADMIN_GRANT_MS,
    )
    .await?;
    tx.commit().await?;
    let locations = store::locations(&state.db)
        .await?
        .into_iter()
        .filter(|(num, _)| locs.as_ref().is_none_or(|l| l.contains(num)))
        .map(|(id, name)| SurveyLocation {
            id,
            location_name: wasm_core::history_portal::location_display_name(&name),
        })
        .collect();
    Ok(Json(AdminPinResponse {
        is_valid: true,
        locations,
        message: String::new(),
        token: Some(token),
    }))
}

async fn search_respondents(
    staff: RequireRole<SurveyStarter>,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(req): ApiJson<RespondentSearch>,
) -> AppResult<Json<RespondentSearchResponse>> {
    let locs = grant(&state, &staff.0 .0, &headers).await?;
    let cfg = config(&state.db).await?;
    let advanced = !cfg.general.is_disabled_advanced_patients_search;
    let (id, first, last) = if advanced {
        (
            req.respondent_id.as_str(),
            req.first_name.as_str(),
            req.last_name.as_str(),
        )
    } else {
        ("", "", "")
    };
    if let Some(message) = staff_start::search_error(&req.simple_search, id, first, last) {
        return Err(AppError::BadRequest(message.to_owned()));
    }
    let location = req.location.trim();
    let filter: Option<Vec<String>> = match (&locs, location.is_empty() || !advanced) {
        (_, true) => locs.clone(),
        (_, false) if allowed(&locs, location) => Some(vec![location.to_owned()]),
        _ => Some(Vec::new()),
    };
    let alternate = cfg.alternate_columns(if advanced { location } else { "" });
    let hits = store::search_patients(
        &state.db,
        &store::PatientSearch {
            simple: &req.simple_search,
            mrn: id,
            first,
            last,
            alternate_columns: &alternate,
        },
        filter.as_deref(),
    )
    .await?;
    // A staff search is a read of patient data (issue 15): recorded like the Audit Logs
    // typeahead's, with what was asked and how many answered, never the answers.
    Entry::new(
        Actor::from(&staff.0 .0),
        Action::PatientSearched,
        Target::none(),
    )
    .values(
        None,
        Some(json!({
            "Source": "SurveyStart",
            "Search": req.simple_search.trim(),
            "RespondentId": id.trim(),
            "FirstName": first.trim(),
            "LastName": last.trim(),
            "Location": if advanced { location } else { "" },
            "Results": hits.len(),
        })),
    )
    .ip(Some(peer.ip().to_string()))
    .write_alone(&state.db)
    .await?;
    Ok(Json(RespondentSearchResponse {
        columns: ["MRN", "First Name", "Last Name", "Date of Birth"]
            .map(str::to_owned)
            .to_vec(),
        data: hits
            .into_iter()
            .map(|p| Respondent {
                display_columns: vec![
                    p.mrn.clone(),
                    p.first_name,
                    p.last_name,
                    p.dob
                        .as_deref()
                        .map(crate::fmt::iso_date_to_us)
                        .unwrap_or_default(),
                ],
                respondent_id: p.mrn,
            })
            .collect(),
    }))
}

fn entity_of(e: &store::EntityRow, offset: i32) -> RespondentEntity {
    RespondentEntity {
        respondent_entity_id: e.id.to_string(),
        respondent_entity_type: "Appointment".to_owned(),
        date: crate::fmt::iso_utc(e.starts_at + i64::from(offset) * 60_000)[..10].to_owned(),
        display_columns: vec![
            // 11:59 PM stands for the whole day (a study made on the kiosk): date only.
            crate::fmt::appointment(e.starts_at, false, offset),
            e.description.clone().unwrap_or_default(),
            wasm_core::history_portal::location_display_name(&e.location_name),
        ],
        location: e.loc_num.clone(),
    }
}

fn offset_of(req: &RespondentEntitiesRequest) -> i32 {
    req.timezone_offset.clamp(-14 * 60, 14 * 60) as i32
}

async fn load_entities(
    staff: RequireRole<SurveyStarter>,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<RespondentEntitiesRequest>,
) -> AppResult<Json<RespondentEntitiesResponse>> {
    let locs = grant(&state, &staff.0 .0, &headers).await?;
    let patient = respondent(&state, &locs, &req.respondent_id).await?;
    let cfg = config(&state.db).await?;
    let location = req.location.trim();
    // IsHideFutureDatedStudies: only studies up to the end of the caller's today.
    let tomorrow = crate::fmt::local_day_start(now_ms(), offset_of(&req)) + 86_400_000;
    let hide_future = cfg.general.is_hide_future_dated_studies;
    let rows: Vec<store::EntityRow> = store::entities(&state.db, patient.id)
        .await?
        .into_iter()
        .filter(|e| allowed(&locs, &e.loc_num) && (location.is_empty() || e.loc_num == location))
        .filter(|e| !hide_future || e.starts_at < tomorrow)
        .collect();
    // ShowStartSurveyForLatestStudyOnly: the latest by date (then id), not the list's first.
    let rows = if cfg.general.show_start_survey_for_latest_study_only {
        staff_start::latest_study_only(rows, |e| (e.starts_at, e.id))
    } else {
        rows
    };
    Ok(Json(RespondentEntitiesResponse {
        entities: rows.iter().map(|e| entity_of(e, offset_of(&req))).collect(),
        columns: ["Date", "Study", "Location"].map(str::to_owned).to_vec(),
    }))
}

async fn start_options(
    staff: RequireRole<SurveyStarter>,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<RespondentEntitiesRequest>,
) -> AppResult<Json<StartOptions>> {
    let locs = grant(&state, &staff.0 .0, &headers).await?;
    let cfg = config(&state.db).await?;
    let t = target(
        &state,
        &cfg,
        &locs,
        &req.respondent_id,
        &req.respondent_entity_id,
        &req.location,
    )
    .await?;
    let (surveys, choice) = choice_for(&state, &cfg, &t).await?;
    let now = now_ms();
    let day = crate::fmt::local_day_start(now, offset_of(&req));
    let finished_today = store::finished_between(
        &state.db,
        t.patient.id,
        t.appointment.as_ref().map(|a| a.id),
        day,
        day + DAY_MS,
    )
    .await?;
    Ok(Json(StartOptions {
        surveys: surveys
            .into_iter()
            .map(|(_, survey_id, name)| StartableSurvey { survey_id, name })
            .collect(),
        choice,
        finished_today,
    }))
}
