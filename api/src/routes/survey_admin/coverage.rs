//! Translation coverage (issue 21): per valid survey, the % of its texts translated in each of
//! the six languages and the missing ones (wasm-core `survey::coverage`). Program managers only,
//! like the rest of the packages screen; survey definitions are not patient data (no audit row).

use wasm_core::model::SurveyCoverage;
use wasm_core::survey::coverage::coverage;
use wasm_core::survey::parse_survey_with;

use super::*;

pub(super) async fn list(
    _user: Admin,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<SurveyCoverage>>> {
    let surveys = crate::store::survey_packages::list(&state.db).await?;
    let libs = library_set(&state.db).await?;
    tokio::task::spawn_blocking(move || {
        surveys
            .iter()
            .filter(|s| s.error.is_none())
            .filter_map(|s| parse_survey_with(&s.xml, Some(&libs)).0.survey)
            .map(|def| coverage(&def))
            .collect()
    })
    .await
    .map(Json)
    .map_err(AppError::internal)
}
