//! Embedded (single-sign-on) error pages (spec 01 §2.11, §3 "Embed error data", §7
//! GET /api/userApi/EmbedError). The message comes from the error id (HTML, sanitised); the
//! go-back section from the SSO configuration (ShowBackToMainMenuInSSO, ...AsLinkInSSO,
//! ShowIconInBackToMainMenuInSSO, ReturnURL; spec 03 §3), read from the settings group
//! the SSO settings group (all off otherwise).

use axum::extract::State;
use axum::Json;
use wasm_core::model::EmbedError;
use wasm_core::model::EmbedQuery;
use wasm_core::settings::sso::Sso;

use crate::error::{ApiQuery, AppResult};
use crate::html::sanitise_html;
use crate::openapi::ApiRouter;
use crate::settings;
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new().get(
        "/api/userApi/EmbedError",
        "Embedded error page data for ?mode=&id=&errorId= (message HTML sanitised)",
        embed_error,
    )
}

/// The message of an error id (unknown ids get the general one).
pub fn message_for(mode: &str, error_id: &str) -> &'static str {
    match error_id.trim().to_ascii_lowercase().as_str() {
        "patientnotfound" | "usernotfound" => {
            "<p><strong>We could not find your patient record.</strong></p><p>Please contact the clinic so that we can link your account.</p>"
        }
        "tokenexpired" | "expired" => "<p><strong>Your link has expired.</strong></p><p>Please open the portal again from your health record.</p>",
        "documentnotfound" | "letternotfound" => "<p><strong>This document is not available.</strong></p><p>It may have been withdrawn or is not yours.</p>",
        "moduledisabled" => "<p><strong>This part of the portal is not available.</strong></p>",
        _ if mode.eq_ignore_ascii_case("sso") => {
            "<p><strong>We could not sign you in.</strong></p><p>Please try again from your health record, or contact the clinic.</p>"
        }
        _ => "<p><strong>Something went wrong.</strong></p><p>Please try again later or contact the clinic.</p>",
    }
}

async fn embed_error(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<EmbedQuery>,
) -> AppResult<Json<EmbedError>> {
    let sso: Sso = settings::get(&state.db).await?;
    let show = sso.show_back_to_main_menu_in_sso;
    let as_link = show && sso.show_back_to_main_menu_as_link_in_sso;
    let return_url = sso.return_url;
    // Only web addresses are offered as links (no javascript: or data: targets).
    let safe_url = if return_url.starts_with("https://")
        || return_url.starts_with("http://")
        || return_url.starts_with('/')
    {
        return_url
    } else {
        String::new()
    };
    Ok(Json(EmbedError {
        message: sanitise_html(message_for(&q.mode, &q.error_id)),
        show_back_to_main_menu_in_sso: show,
        show_back_to_main_menu_as_link_in_sso: as_link && !safe_url.is_empty(),
        show_icon_in_back_to_main_menu_in_sso: show && sso.show_icon_in_back_to_main_menu_in_sso,
        go_back_section_text: if show {
            "Back to main menu".to_owned()
        } else {
            String::new()
        },
        go_back_section_link: if as_link {
            safe_url.clone()
        } else {
            String::new()
        },
        return_url: safe_url,
    }))
}
