//! Version info block of the History Portal for program managers (spec 01 §2.6):
//! GET /api/admin/GetPortalVersionInformation. Versions are the build's own; components this
//! portal does not ship (TechPad, the COM bridge, LuminaryOne) say so rather than invent a
//! number, and the COM bridge is then not compatible.

use axum::extract::State;
use axum::Json;
use wasm_core::model::PortalVersionInformation;
use wasm_core::settings::luminary_one::LuminaryOne;

use crate::auth::roles::ProgramManagers;
use crate::auth::RequireRole;
use crate::error::AppResult;
use crate::openapi::ApiRouter;
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new().get(
        "/api/admin/GetPortalVersionInformation",
        "Portal, survey, TechPad, COM and LuminaryOne versions (program managers)",
        version_information,
    )
}

/// The COM bridge version this portal expects.
pub const EXPECTED_COM_VERSION: &str = "none (no COM bridge in this portal)";
pub const NOT_INSTALLED: &str = "Not installed";

/// `expected_luminary_one`: the LuminaryOne group's ExpectedLuminaryOneVersion (Luminary One
/// Settings), "Not installed" while it is empty.
pub fn information(expected_luminary_one: &str) -> PortalVersionInformation {
    let installed = NOT_INSTALLED.to_owned();
    PortalVersionInformation {
        portal_version: env!("CARGO_PKG_VERSION").to_owned(),
        survey_version: wasm_core::VERSION.to_owned(),
        techpad_version: NOT_INSTALLED.to_owned(),
        expected_com_version: EXPECTED_COM_VERSION.to_owned(),
        com_compatible: if installed == EXPECTED_COM_VERSION {
            "True"
        } else {
            "False"
        }
        .to_owned(),
        installed_com_version: installed,
        expected_luminary_one_version: if expected_luminary_one.trim().is_empty() {
            NOT_INSTALLED.to_owned()
        } else {
            expected_luminary_one.trim().to_owned()
        },
    }
}

async fn version_information(
    _user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
) -> AppResult<Json<PortalVersionInformation>> {
    let luminary: LuminaryOne = crate::settings::get(&state.db).await?;
    Ok(Json(information(&luminary.expected_luminary_one_version)))
}
