//! Logos (spec 01 §2.1 sidebar logo; spec 02 §3 "Logo settings", §7.4, §7.4b, §9): the shell logo
//! ('logo', also printed on generated letters when it is a JPEG) and the survey logo
//! ('surveyLogo'). Program managers and client admins upload and remove them; the width is the
//! LogoWidth value of /api/settings/setvalue (wasm-core `logo::validate_logo_width`).
//!
//! Uploads are the raw image bytes (the request body), at most 512 KB, PNG, JPEG or GIF judged by
//! their content; SVG is refused because it can carry script. Images are served with their own
//! type, `nosniff` and a sandboxing CSP.

use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::logo::{parse_logo_width, sniff_logo, DEFAULT_LOGO_WIDTH};
use wasm_core::model::LogoSettings;
use wasm_core::settings::login_page::LoginPageSettings;
use wasm_core::settings::portal_values::PortalValues;

use crate::answers::{File, ImageFile};
use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::UserAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiPath, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::{settings, AppState};

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/logoSettings/login",
            "The shell and login logo: address (with ?t=), width, title",
            login_logo,
        )
        .get(
            "/api/logoSettings/survey",
            "The survey logo: address (with ?t=), width, title",
            survey_logo,
        )
        .post(
            "/api/logoSettings/logo",
            "Upload the logo (raw PNG, JPEG or GIF body, at most 512 KB)",
            upload_logo,
        )
        .delete(
            "/api/logoSettings/logo",
            "Remove the uploaded logo (the built-in mark returns)",
            remove_logo,
        )
        .post(
            "/api/logoSettings/surveyLogo",
            "Upload the survey logo (raw PNG, JPEG or GIF body, at most 512 KB)",
            upload_survey_logo,
        )
        .delete(
            "/api/logoSettings/surveyLogo",
            "Remove the survey logo",
            remove_survey_logo,
        )
        .get(
            "/api/logoSettings/image/{name}",
            "An uploaded logo image (logo or surveyLogo)",
            image,
        )
}

#[derive(Clone, Copy)]
enum Which {
    Logo,
    SurveyLogo,
}

impl Which {
    fn name(self) -> &'static str {
        match self {
            Which::Logo => "logo",
            Which::SurveyLogo => "surveyLogo",
        }
    }
}

async fn settings_of(state: &AppState, which: Which) -> AppResult<LogoSettings> {
    let updated = crate::store::logos::updated_at(&state.db, which.name()).await?;
    let values: PortalValues = settings::get(&state.db).await?;
    let (width, title) = match which {
        Which::Logo => {
            // The login page's logo title (spec 03 LoginPageSettings LayoutLoginLogoTitle).
            let login: LoginPageSettings = settings::get(&state.db).await?;
            (values.logo_width, login.layout_login_logo_title)
        }
        Which::SurveyLogo => (values.survey_logo_width, values.survey_title),
    };
    Ok(LogoSettings {
        logo_url: updated.map(|t| format!("/api/logoSettings/image/{}?t={t}", which.name())),
        logo_width: parse_logo_width(&width).unwrap_or(DEFAULT_LOGO_WIDTH),
        logo_title: title,
    })
}

async fn login_logo(State(state): State<AppState>) -> AppResult<Json<LogoSettings>> {
    Ok(Json(settings_of(&state, Which::Logo).await?))
}

async fn survey_logo(State(state): State<AppState>) -> AppResult<Json<LogoSettings>> {
    Ok(Json(settings_of(&state, Which::SurveyLogo).await?))
}

fn target(which: Which) -> Target {
    Target {
        target_type: Some("Logo"),
        target_id: Some(which.name().to_owned()),
        target_user_id: None,
    }
}

async fn upload(
    state: &AppState,
    user: &crate::auth::session::SessionUser,
    which: Which,
    body: &[u8],
    peer: ClientAddr,
) -> AppResult<LogoSettings> {
    let kind = sniff_logo(body).map_err(|m| AppError::BadRequest(m.to_owned()))?;
    // Upload times only move forward, so the address always changes.
    let previous = crate::store::logos::image(&state.db, which.name())
        .await?
        .map_or(0, |(_, _, t)| t);
    let now = now_ms().max(previous + 1);
    let mut tx = state.db.begin().await?;
    crate::store::logos::put(&mut tx, which.name(), kind.content_type(), body, now).await?;
    audit::record(
        &mut tx,
        Actor::from(user),
        Action::LogoChanged,
        target(which),
        None,
        Some(json!({"Uploaded": kind.content_type(), "Bytes": body.len()})),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    settings_of(state, which).await
}

async fn remove(
    state: &AppState,
    user: &crate::auth::session::SessionUser,
    which: Which,
    peer: ClientAddr,
) -> AppResult<LogoSettings> {
    let mut tx = state.db.begin().await?;
    if crate::store::logos::remove(&mut tx, which.name()).await? {
        audit::record(
            &mut tx,
            Actor::from(user),
            Action::LogoChanged,
            target(which),
            None,
            Some(json!({"Removed": true})),
            Some(peer.ip().to_string()),
        )
        .await?;
    }
    tx.commit().await?;
    settings_of(state, which).await
}

async fn upload_logo(
    user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    body: Bytes,
) -> AppResult<Json<LogoSettings>> {
    Ok(Json(upload(&state, &user, Which::Logo, &body, peer).await?))
}

async fn upload_survey_logo(
    user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    body: Bytes,
) -> AppResult<Json<LogoSettings>> {
    Ok(Json(
        upload(&state, &user, Which::SurveyLogo, &body, peer).await?,
    ))
}

async fn remove_logo(
    user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
) -> AppResult<Json<LogoSettings>> {
    Ok(Json(remove(&state, &user, Which::Logo, peer).await?))
}

async fn remove_survey_logo(
    user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
) -> AppResult<Json<LogoSettings>> {
    Ok(Json(remove(&state, &user, Which::SurveyLogo, peer).await?))
}

async fn image(
    State(state): State<AppState>,
    ApiPath(name): ApiPath<String>,
) -> AppResult<File<ImageFile>> {
    if name != "logo" && name != "surveyLogo" {
        return Err(AppError::NotFound);
    }
    let (content_type, data, _) = crate::store::logos::image(&state.db, &name)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok(File::image(data, content_type))
}
