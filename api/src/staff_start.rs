//! The staff start's shared steps (spec 01 §2.5), used by the survey-start screens, the kiosk
//! PIN (surveys), staff-created patients and studies, online survey registration and the expiry
//! job: the start settings, the admin-PIN grant, the respondent within it, the survey choice.

use axum::http::HeaderMap;
use wasm_core::model::{GeneratePinRequest, SurveyChoice};
use wasm_core::settings::core_magview::CoreMagview;
use wasm_core::settings::core_survey::CoreSurvey;
use wasm_core::settings::history_portal::HistoryPortal;
use wasm_core::settings::survey_general::SurveyGeneral;
use wasm_core::settings::user_management::UserManagement;
use wasm_core::survey::staff_start;

use crate::auth::hash_token;
use crate::auth::roles::{RoleSet, SurveyStarter};
use crate::auth::session::SessionUser;
use crate::db::{now_ms, Db};
use crate::error::{AppError, AppResult};
use crate::settings;
use crate::store::surveys as store;
use crate::AppState;

/// The header carrying the admin-PIN grant's token (survey start, spec 01 §2.5).
pub const ADMIN_HEADER: &str = "x-survey-admin";

/// The settings the staff start reads.
pub struct StartConfig {
    pub core: CoreSurvey,
    pub general: SurveyGeneral,
    pub restrict: bool,
    pub luminary: bool,
    pub default_survey: String,
}

pub async fn config(db: &Db) -> AppResult<StartConfig> {
    let core = settings::get::<CoreSurvey>(db).await?;
    let general = settings::get::<SurveyGeneral>(db).await?;
    let users = settings::get::<UserManagement>(db).await?;
    let magview = settings::get::<CoreMagview>(db).await?;
    let history = settings::get::<HistoryPortal>(db).await?;
    let default_survey = Some(general.default_survey.clone())
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(history.default_history_portal_survey);
    Ok(StartConfig {
        restrict: users.is_admin_pin_and_locations_restrictions_enabled,
        luminary: magview.mag_view_mode == "LuminaryOne",
        default_survey,
        core,
        general,
    })
}

impl StartConfig {
    pub fn select_mode(&self) -> bool {
        self.core.survey_select_patient_mode || self.general.is_survey_select_patient_mode
    }

    pub fn global_pin(&self) -> String {
        let core = self.core.survey_admin_pin.trim().to_owned();
        if core.is_empty() {
            self.general.survey_admin_pin.trim().to_owned()
        } else {
            core
        }
    }

    pub fn survey_per_location(&self, loc_num: &str) -> Option<String> {
        if !self.general.is_survey_per_location_enabled {
            return None;
        }
        // The setup wizard's rows (CoreSurvey) first, then Survey General Settings' own.
        self.core
            .survey_per_location
            .iter()
            .chain(&self.general.survey_per_location)
            .find(|kv| kv.key.trim() == loc_num && !kv.value.trim().is_empty())
            .map(|kv| kv.value.clone())
    }

    /// SearchForPatientUsingAlternateUserIdentifier (the setup wizard's or Survey General's).
    pub fn alternate_search(&self) -> bool {
        self.core.search_for_patient_using_alternate_user_identifier
            || self
                .general
                .search_for_patient_using_alternate_user_identifier
    }

    /// The alternate identifier columns a patient search also matches (LocationToMrnColumnMapping):
    /// the location's, or every mapped one when no location is chosen; none when the search by
    /// alternate identifier is off.
    pub fn alternate_columns(&self, loc_num: &str) -> Vec<String> {
        if !self.alternate_search() {
            return Vec::new();
        }
        let mut columns: Vec<String> = self
            .core
            .location_to_mrn_column_mapping
            .iter()
            .chain(&self.general.location_to_mrn_column_mapping)
            .filter(|m| loc_num.is_empty() || m.loc_num.trim() == loc_num)
            .map(|m| m.column.trim().to_owned())
            .filter(|c| !c.is_empty())
            .collect();
        columns.sort();
        columns.dedup();
        columns
    }
}

/// The caller's admin-PIN grant (header X-Survey-Admin): the locations it covers (None = all).
/// 403 without a valid one.
pub async fn grant(
    state: &AppState,
    user: &SessionUser,
    headers: &HeaderMap,
) -> AppResult<Option<Vec<String>>> {
    let token = headers
        .get(ADMIN_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let found = if token.is_empty() {
        None
    } else {
        store::admin_grant(&state.db, &hash_token(token), user.user_id, now_ms()).await?
    };
    match found {
        None => Err(AppError::Forbidden("Enter the admin PIN first.".to_owned())),
        Some(locs) => Ok(locs.map(|l| l.split(',').map(str::to_owned).collect())),
    }
}

pub fn allowed(locs: &Option<Vec<String>>, loc_num: &str) -> bool {
    locs.as_ref().is_none_or(|l| l.iter().any(|x| x == loc_num))
}

/// The patient of a respondent id within the grant's locations (404 otherwise): one with an
/// appointment there, or created there by staff (survey_create_patient.rs).
pub async fn respondent(
    state: &AppState,
    locs: &Option<Vec<String>>,
    mrn: &str,
) -> AppResult<store::PatientHit> {
    let patient = store::patient_by_mrn(&state.db, mrn.trim())
        .await?
        .ok_or(AppError::NotFound)?;
    if let Some(l) = locs {
        if patient
            .created_loc_num
            .as_ref()
            .is_some_and(|c| l.contains(c))
        {
            return Ok(patient);
        }
        let entities = store::entities(&state.db, patient.id).await?;
        if !entities.iter().any(|e| l.contains(&e.loc_num)) {
            return Err(AppError::NotFound);
        }
    }
    Ok(patient)
}

/// What a start is for: the patient, the appointment (None with Luminary One: today's date is
/// the entity id) and the location number.
pub struct StartTarget {
    pub patient: store::PatientHit,
    pub appointment: Option<store::EntityRow>,
    pub loc_num: String,
}

pub async fn target(
    state: &AppState,
    cfg: &StartConfig,
    locs: &Option<Vec<String>>,
    mrn: &str,
    entity_id: &str,
    location: &str,
) -> AppResult<StartTarget> {
    let patient = respondent(state, locs, mrn).await?;
    let entity_id = entity_id.trim();
    if cfg.luminary && entity_id.len() == 10 && crate::fmt::parse_instant(entity_id).is_some() {
        let loc_num = location.trim().to_owned();
        if loc_num.is_empty()
            || !allowed(locs, &loc_num)
            || store::location_id(&state.db, &loc_num).await?.is_none()
        {
            return Err(AppError::BadRequest("Choose a location.".to_owned()));
        }
        return Ok(StartTarget {
            patient,
            appointment: None,
            loc_num,
        });
    }
    let id: i64 = entity_id
        .parse()
        .map_err(|_| AppError::BadRequest("Choose a study.".to_owned()))?;
    let e = store::entity(&state.db, id)
        .await?
        .filter(|e| e.patient_id == patient.id && allowed(locs, &e.loc_num));
    let e = e.ok_or(AppError::NotFound)?;
    Ok(StartTarget {
        patient,
        loc_num: e.loc_num.clone(),
        appointment: Some(e),
    })
}

/// The startable surveys (definition id, survey id, name) and the lookup of the choice order.
pub async fn choice_for(
    state: &AppState,
    cfg: &StartConfig,
    t: &StartTarget,
) -> AppResult<(Vec<(i64, String, String)>, SurveyChoice)> {
    let surveys = store::startable_surveys(&state.db).await?;
    let per_study = match &t.appointment {
        Some(a) => store::survey_of_appointment(&state.db, a.id).await?,
        None => None,
    };
    let choice = SurveyChoice {
        available: surveys.iter().map(|s| s.1.clone()).collect(),
        survey_per_study: per_study,
        survey_per_location: cfg.survey_per_location(&t.loc_num),
        default_survey: Some(cfg.default_survey.clone()).filter(|s| !s.trim().is_empty()),
    };
    Ok((surveys, choice))
}

/// The survey a new assignment at this location gets when nobody picks (spec 01 §2.5 choice
/// order, without a study): online survey registration assigns it. `None` when the order gives
/// none.
pub async fn survey_for_location(db: &Db, loc_num: &str) -> AppResult<Option<i64>> {
    let cfg = config(db).await?;
    let surveys = store::startable_surveys(db).await?;
    let choice = SurveyChoice {
        available: surveys.iter().map(|s| s.1.clone()).collect(),
        survey_per_study: None,
        survey_per_location: cfg.survey_per_location(loc_num.trim()),
        default_survey: Some(cfg.default_survey.clone()).filter(|s| !s.trim().is_empty()),
    };
    Ok(staff_start::choose_survey(&choice)
        .and_then(|id| surveys.iter().find(|s| s.1 == id).map(|s| s.0)))
}

/// generatePin for the staff start flow: the survey is found or assigned for the respondent's
/// study, then the caller makes the PIN. Returns the queue row id.
pub async fn start_for_respondent(
    state: &AppState,
    user: &SessionUser,
    headers: &HeaderMap,
    req: &GeneratePinRequest,
) -> AppResult<i64> {
    if !SurveyStarter::ROLES.contains(&user.role) {
        return Err(AppError::Forbidden(
            "You do not have permission to do this.".to_owned(),
        ));
    }
    let locs = grant(state, user, headers).await?;
    let cfg = config(&state.db).await?;
    let mrn = req.respondent_id.as_deref().unwrap_or("");
    let entity = req.respondent_entity_id.as_deref().unwrap_or("");
    let t = target(
        state,
        &cfg,
        &locs,
        mrn,
        entity,
        req.location.as_deref().unwrap_or(""),
    )
    .await?;
    let (surveys, choice) = choice_for(state, &cfg, &t).await?;
    if surveys.is_empty() {
        return Err(AppError::BadRequest(
            wasm_core::survey::start::NO_SURVEYS.to_owned(),
        ));
    }
    // The survey the user picked, else the one the choice order gives; else the user must pick.
    let wanted = req
        .survey_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    let id = wanted
        .or_else(|| staff_start::choose_survey(&choice))
        .ok_or_else(|| AppError::BadRequest("Choose a survey.".to_owned()))?;
    let definition = surveys
        .iter()
        .find(|s| s.1 == id)
        .ok_or_else(|| AppError::BadRequest(format!("Unknown survey '{id}'.")))?;
    // The start check of the one expiry rule: no new assignment for a study whose surveys have
    // already expired (it would only be refused when opened).
    if let Some(a) = &t.appointment {
        if crate::settings::expiry_rule(&state.db)
            .await?
            .time_passed(Some(a.starts_at), now_ms())
        {
            return Err(AppError::BadRequest(
                wasm_core::survey::start::EXPIRED_MESSAGE.to_owned(),
            ));
        }
    }
    let location_id = match &t.appointment {
        Some(a) => Some(a.location_id),
        None => store::location_id(&state.db, &t.loc_num).await?,
    };
    store::find_or_assign(
        &state.db,
        t.patient.id,
        t.appointment.as_ref().map(|a| a.id),
        t.appointment.as_ref().and_then(|a| a.study_id),
        location_id,
        definition.0,
        now_ms(),
    )
    .await
}

/// One expiry pass (see store::expire_due) with the clinic's rule (wasm-core survey::expiry).
pub async fn expire_once(db: &Db, now: i64) -> AppResult<u64> {
    let rule = crate::settings::expiry_rule(db).await?;
    store::expire_due(db, now, rule.offset_ms()).await
}
