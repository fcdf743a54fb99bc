//! Survey General Settings' lookups (spec 04 §2 "Survey general settings", §7 "GET /api/survey/
//! ..."): the procedures and sides, the locations of the mapping rows, which alternate identifier
//! columns exist, and the surveys a setting may name. The settings themselves are the SurveyGeneral
//! group (`settings_groups`: GET/POST /api/surveySettings/generalSettings).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use wasm_core::history_portal::location_display_name;
use wasm_core::model::{
    FamilyTreeSurvey, LocationOption, ProcedureOption, ProceduresLookup, SideOption,
};
use wasm_core::settings::survey_general::{has_family_tree, ALTERNATE_IDENTIFIER_COLUMNS, SIDES};

use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::db::Db;
use crate::error::AppResult;
use crate::openapi::ApiRouter;
use crate::store::surveys as staff_start;
use crate::store::{locations, survey_general as store};
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/survey/GetAllProcedures",
            "Procedures (Code, Description, AskSide) and the Sides (Code, Name) a procedure may ask for",
            all_procedures,
        )
        .get(
            "/api/survey/GetAvailableLocations",
            "Locations for the location-to-MRN column rows (LocNum, LocName)",
            available_locations,
        )
        .get(
            "/api/survey/CheckForAvailableAlternateIdentifierColumns",
            "Alternate identifier column -> the column found in the store, empty when no patient has one (shown '(Not found)', not selectable)",
            alternate_identifier_columns,
        )
        .get(
            "/api/survey/getAllFamilyTreeSurveys",
            "The surveys a setting may name (startable), with HasFamilyTree for those asking for relatives",
            family_tree_surveys,
        )
}

async fn all_procedures(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<ProceduresLookup>> {
    let procedures = store::procedures(&state.db)
        .await?
        .into_iter()
        .map(|(code, description, ask_side)| ProcedureOption {
            code,
            description,
            ask_side,
        })
        .collect();
    let sides = SIDES
        .iter()
        .map(|(code, name)| SideOption {
            code: (*code).to_owned(),
            name: (*name).to_owned(),
        })
        .collect();
    Ok(Json(ProceduresLookup { procedures, sides }))
}

async fn available_locations(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<LocationOption>>> {
    let rows = locations::numbers_and_names(&state.db).await?;
    Ok(Json(
        rows.into_iter()
            .map(|(loc_num, name)| LocationOption {
                loc_num,
                loc_name: location_display_name(&name),
            })
            .collect(),
    ))
}

/// Column -> found column (or empty): the map the mapping rows' Column select and the save's
/// inactive-column rule read.
pub async fn available_columns(db: &Db) -> AppResult<BTreeMap<String, String>> {
    let in_use = store::identifier_columns_in_use(db).await?;
    Ok(ALTERNATE_IDENTIFIER_COLUMNS
        .iter()
        .map(|c| {
            let found = in_use.iter().find(|u| u.as_str() == *c).cloned();
            ((*c).to_owned(), found.unwrap_or_default())
        })
        .collect())
}

async fn alternate_identifier_columns(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<BTreeMap<String, String>>> {
    Ok(Json(available_columns(&state.db).await?))
}

async fn family_tree_surveys(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<FamilyTreeSurvey>>> {
    let mut out = Vec::new();
    for (_, survey_id, name, xml) in staff_start::startable_survey_xmls(&state.db).await? {
        let has = wasm_core::survey::parse_survey(&xml)
            .survey
            .is_some_and(|d| has_family_tree(&d));
        out.push(FamilyTreeSurvey {
            survey_id,
            name,
            has_family_tree: has,
        });
    }
    Ok(Json(out))
}
