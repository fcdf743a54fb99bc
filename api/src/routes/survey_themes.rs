//! Survey themes (spec 04 §2 "Survey themes", §4, §7 base /api/surveyTheme): list, add, apply,
//! delete; and the themes as the survey runner and kiosk draw them (CSS variables from wasm-core
//! `survey::theme`). The theme settings (HideSurveyThemeSettingsButton) are the
//! SurveyThemesSettings group (`/api/configurationForm/SurveyThemesSettings`).

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::model::{
    AddThemeRequest, RunnerTheme, RunnerThemes, SurveyThemeRow, ThemeQuery, ThemeStyle,
};
use wasm_core::settings::survey_themes_settings::{
    validate_new_theme, SurveyThemesSettings, Theme,
};
use wasm_core::survey::theme::{self, DEFAULT_THEME};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::store::survey_themes::{self as store, ThemeRow};
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/surveyTheme/GetSurveyThemes",
            "Survey themes by friendly name; exactly one Selected",
            get_themes,
        )
        .post(
            "/api/surveyTheme/AddTheme",
            "Adds a theme named ?theme= (the body repeats the name; BasedOn: the theme whose look it copies, the selected one by default); 400 'Theme Name is required' or a taken name",
            add_theme,
        )
        .post(
            "/api/surveyTheme/ChangeSurveyTheme",
            "Makes ?theme= the selected theme (the body repeats the name); 404 for an unknown theme",
            change_theme,
        )
        .post(
            "/api/surveyTheme/DeleteTheme",
            "Deletes ?theme= (the body repeats the name); 409 for the selected theme, 404 for an unknown one",
            delete_theme,
        )
        .get(
            "/api/surveyTheme/runnerThemes",
            "The themes as the survey screens draw them (no sign-in: the kiosk): the selected one, whether the patient may switch, each theme's CSS variables",
            runner_themes,
        )
}

fn rows_to_themes(rows: &[ThemeRow]) -> Vec<Theme> {
    rows.iter()
        .map(|r| Theme {
            name: r.name.clone(),
            friendly_name: r.friendly_name.clone(),
            selected: r.selected,
        })
        .collect()
}

/// A theme's look: its stored copy, or the shipped style of its name (the default otherwise).
fn style_of(row: &ThemeRow) -> ThemeStyle {
    row.style
        .as_deref()
        .and_then(|s| serde_json::from_str(s).ok())
        .or_else(|| theme::shipped_style(&row.name))
        .unwrap_or_else(|| theme::shipped_style(DEFAULT_THEME).unwrap_or_else(default_style))
}

fn default_style() -> ThemeStyle {
    theme::shipped()[0].2.clone()
}

/// The body repeats the name (spec 04 §7): a body naming another theme is refused.
fn same_name(query: &str, body: &str) -> AppResult<()> {
    if !body.trim().is_empty() && body.trim() != query.trim() {
        return Err(AppError::BadRequest(
            "The body names another theme than ?theme=.".to_owned(),
        ));
    }
    Ok(())
}

async fn get_themes(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<SurveyThemeRow>>> {
    let rows = store::list(&state.db).await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| SurveyThemeRow {
                name: r.name,
                friendly_name: r.friendly_name,
                selected: r.selected,
            })
            .collect(),
    ))
}

async fn add_theme(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<ThemeQuery>,
    ApiJson(body): ApiJson<AddThemeRequest>,
) -> AppResult<Json<SurveyThemeRow>> {
    same_name(&q.theme, &body.name)?;
    let name = q.theme.trim().to_owned();
    let mut tx = state.db.begin().await?;
    let rows = store::list_in(&mut tx).await?;
    let errors = validate_new_theme(&name, &rows_to_themes(&rows));
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let base = match body.based_on.as_deref().map(str::trim) {
        Some(b) if !b.is_empty() => rows.iter().find(|r| r.name == b).ok_or_else(|| {
            AppError::BadRequest(format!("No theme named '{b}' to base the new one on."))
        })?,
        _ => rows
            .iter()
            .find(|r| r.selected)
            .ok_or_else(|| AppError::internal("no selected survey theme".to_owned()))?,
    };
    let style = serde_json::to_string(&style_of(base))
        .map_err(|e| AppError::internal(format!("theme style: {e}")))?;
    store::insert(&mut tx, &name, &style, now_ms()).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::SurveyThemeAdded,
        theme_target(&name),
        None,
        Some(json!({"Name": name, "BasedOn": base.name})),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(SurveyThemeRow {
        friendly_name: name.clone(),
        name,
        selected: false,
    }))
}

fn theme_target(name: &str) -> Target {
    Target {
        target_type: Some("SurveyTheme"),
        target_id: Some(name.to_owned()),
        target_user_id: None,
    }
}

async fn change_theme(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<ThemeQuery>,
    ApiJson(body): ApiJson<AddThemeRequest>,
) -> AppResult<Json<Vec<SurveyThemeRow>>> {
    same_name(&q.theme, &body.name)?;
    let mut tx = state.db.begin().await?;
    let rows = store::list_in(&mut tx).await?;
    let before = rows.iter().find(|r| r.selected).map(|r| r.name.clone());
    if !rows.iter().any(|r| r.name == q.theme) {
        return Err(AppError::NotFound);
    }
    store::select(&mut tx, &q.theme).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::SurveyThemeApplied,
        theme_target(&q.theme),
        Some(json!({"Selected": before})),
        Some(json!({"Selected": q.theme})),
        Some(peer.ip().to_string()),
    )
    .await?;
    let rows = store::list_in(&mut tx).await?;
    tx.commit().await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| SurveyThemeRow {
                name: r.name,
                friendly_name: r.friendly_name,
                selected: r.selected,
            })
            .collect(),
    ))
}

async fn delete_theme(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<ThemeQuery>,
    ApiJson(body): ApiJson<AddThemeRequest>,
) -> AppResult<Json<Vec<SurveyThemeRow>>> {
    same_name(&q.theme, &body.name)?;
    let mut tx = state.db.begin().await?;
    let rows = store::list_in(&mut tx).await?;
    let Some(row) = rows.iter().find(|r| r.name == q.theme) else {
        return Err(AppError::NotFound);
    };
    // spec 04 §4: the selected theme cannot be deleted.
    if row.selected || !store::delete_unselected(&mut tx, &q.theme).await? {
        return Err(AppError::Conflict(
            "The selected theme cannot be deleted.".to_owned(),
        ));
    }
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::SurveyThemeDeleted,
        theme_target(&q.theme),
        Some(json!({"Name": row.name, "FriendlyName": row.friendly_name})),
        None,
        Some(peer.ip().to_string()),
    )
    .await?;
    let rows = store::list_in(&mut tx).await?;
    tx.commit().await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| SurveyThemeRow {
                name: r.name,
                friendly_name: r.friendly_name,
                selected: r.selected,
            })
            .collect(),
    ))
}

async fn runner_themes(State(state): State<AppState>) -> AppResult<Json<RunnerThemes>> {
    let rows = store::list(&state.db).await?;
    let settings = settings::get::<SurveyThemesSettings>(&state.db).await?;
    let selected = rows
        .iter()
        .find(|r| r.selected)
        .map(|r| r.name.clone())
        .unwrap_or_else(|| DEFAULT_THEME.to_owned());
    Ok(Json(RunnerThemes {
        selected,
        hide_survey_theme_settings_button: settings.hide_survey_theme_settings_button,
        themes: rows
            .iter()
            .map(|r| RunnerTheme {
                name: r.name.clone(),
                friendly_name: r.friendly_name.clone(),
                variables: theme::css_variables(&style_of(r)),
            })
            .collect(),
    }))
}
