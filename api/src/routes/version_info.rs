//! Version info block of the History Portal for program managers (spec 01 §2.6):
//! GET /api/admin/GetPortalVersionInformation. Versions are the build's own; components this
//! portal does not ship (TechPad, the COM bridge, LuminaryOne) say so rather than invent a
//! number, and the COM bridge is then not compatible.

use axum::Json;
use wasm_core::model::PortalVersionInformation;

use crate::auth::roles::ProgramManagers;
use crate::auth::RequireRole;
use crate::openapi::ApiRouter;

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

pub fn information() -> PortalVersionInformation {
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
        expected_luminary_one_version: NOT_INSTALLED.to_owned(),
    }
}

async fn version_information(
    _user: RequireRole<ProgramManagers>,
) -> Json<PortalVersionInformation> {
    Json(information())
}
