//! History Portal settings (spec 03 "History Portal Settings", HistoryPortal group, §4 toggle
//! rules, §5 ranges): GET /api/configuration/GetHistoryPortalSettings and
//! PUT /api/configurationForm/HistoryPortal (client admins and program managers). Saving runs
//! wasm-core's validation and toggle rules, refuses a stale version (409) and writes the audit.

use axum::extract::State;
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use wasm_core::history_portal_settings::{self as rules, Block};
use wasm_core::model::{HistoryPortalSettingsForm, NotificationToggles, Role};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{RequireRole, RoleSet};
use crate::db::now_ms;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::settings::{self, get_bool, get_str};
use crate::{on_db, AppState};

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "GET",
        path: "/api/configuration/GetHistoryPortalSettings",
        summary:
            "The HistoryPortal settings group with its version (client admins, program managers)",
        access: Access::Staff,
        request: None,
        response: "VersionedSettings",
    },
    RouteDoc {
        method: "PUT",
        path: "/api/configurationForm/HistoryPortal",
        summary: "Save the HistoryPortal settings group (validated; 409 on a stale version)",
        access: Access::Staff,
        request: Some("VersionedSettings"),
        response: "VersionedSettings",
    },
];

pub struct SettingsAdmins;
impl RoleSet for SettingsAdmins {
    const ROLES: &'static [Role] = &[Role::ClientAdmin, Role::ProgramManager];
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/configuration/GetHistoryPortalSettings",
            get(get_settings),
        )
        .route("/api/configurationForm/HistoryPortal", put(save_settings))
}

/// Every field of the group with its default (spec 03 "HistoryPortal").
pub fn full_defaults() -> Map<String, Value> {
    let v = serde_json::json!({
        "DefaultHistoryPortalSurvey": "",
        // Issue 5: unfinished surveys expire after the appointment (wasm-core survey::expiry).
        "HrsAppointmentTimeType": "After",
        "HrsAppointmentTimeValue": 24,
        "HistoryPortalSurveyReminderStartTime": 8,
        "HistoryPortalSurveyReminderEndTime": 18,
        "HistoryPortalBusinessDays": [true, true, true, true, true, false, false],
        "EnableSendingHistoryPortalNotifications": false,
        "EnableHistoryPortalNotificationsByEmail": false,
        "EnableHistoryPortalNotificationsBySms": false,
        "HistoryPortalRemindXDaysBeforeAppt": "2, 1",
        "HistoryPortalRemindUntilXHoursBeforeAppt": 12,
        "EnableSendingIamHereNotifications": false,
        "EnableIamHereNotificationsByEmail": false,
        "EnableIamHereNotificationsBySms": false,
        "HistoryPortalSendIAmHereXHoursBeforeAppointment": 2,
        "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment": 4,
        "HistoryPortalMaxReadyForExamEmail": -1,
        "IsDisabledIamHere": false,
        "IsHideAppointmentTimeInHistoryPortal": false,
        "HistoryPortalPatientNameColumnLastNameFirst": false
    });
    v.as_object().cloned().unwrap_or_default()
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct VersionedSettings {
    pub version: i64,
    pub settings: Map<String, Value>,
}

async fn load(state: &AppState) -> AppResult<VersionedSettings> {
    let row: Option<(i64, String)> = on_db!(&state.db, pool => sqlx::query_as(
        "SELECT version, body FROM settings WHERE group_name = $1",
    )
    .bind(settings::HISTORY_PORTAL)
    .fetch_optional(pool)
    .await)?;
    let mut merged = full_defaults();
    let (version, body) = row.unwrap_or((0, "{}".to_owned()));
    if let Ok(Value::Object(stored)) = serde_json::from_str::<Value>(&body) {
        merged.extend(stored);
    }
    Ok(VersionedSettings {
        version,
        settings: merged,
    })
}

async fn get_settings(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<VersionedSettings>> {
    Ok(Json(load(&state).await?))
}

fn num(doc: &Value, key: &str) -> Option<f64> {
    match doc.get(key) {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    }
}

pub fn form_of(doc: &Value) -> HistoryPortalSettingsForm {
    HistoryPortalSettingsForm {
        reminder_start: num(doc, "HistoryPortalSurveyReminderStartTime"),
        reminder_end: num(doc, "HistoryPortalSurveyReminderEndTime"),
        hrs_appointment_time_type: get_str(doc, "HrsAppointmentTimeType"),
        hrs_appointment_time_value: num(doc, "HrsAppointmentTimeValue"),
        remind_days: get_str(doc, "HistoryPortalRemindXDaysBeforeAppt"),
        remind_until_hours: num(doc, "HistoryPortalRemindUntilXHoursBeforeAppt"),
        iam_here_hours_before: num(doc, "HistoryPortalSendIAmHereXHoursBeforeAppointment"),
        iam_here_hours_after: num(
            doc,
            "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment",
        ),
        max_ready_for_exam: num(doc, "HistoryPortalMaxReadyForExamEmail"),
        business_days: doc
            .get("HistoryPortalBusinessDays")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(|d| d.as_bool().unwrap_or(false)).collect())
            .unwrap_or_default(),
    }
}

const BLOCKS: [(Block, &str, &str, &str); 2] = [
    (
        Block::HistoryPortal,
        "EnableSendingHistoryPortalNotifications",
        "EnableHistoryPortalNotificationsByEmail",
        "EnableHistoryPortalNotificationsBySms",
    ),
    (
        Block::IamHere,
        "EnableSendingIamHereNotifications",
        "EnableIamHereNotificationsByEmail",
        "EnableIamHereNotificationsBySms",
    ),
];

async fn save_settings(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<VersionedSettings>,
) -> AppResult<Json<VersionedSettings>> {
    let current = load(&state).await?;
    // Unknown keys are dropped; missing ones keep their stored value.
    let mut next = current.settings.clone();
    for (key, value) in req.settings {
        if next.contains_key(&key) {
            next.insert(key, value);
        }
    }
    let doc = Value::Object(next.clone());
    let errors = rules::validate(&form_of(&doc));
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    // A block whose switches disagree is brought to the state the toggle rules give (the page
    // applies the same rules as the user clicks; this covers other clients).
    for (block, master, email, sms) in BLOCKS {
        let state_now = NotificationToggles {
            master: get_bool(&doc, master),
            email: get_bool(&doc, email),
            sms: get_bool(&doc, sms),
        };
        let fixed = if !state_now.master {
            rules::toggle(block, state_now, "Master", false)
        } else if !state_now.email && !state_now.sms {
            rules::toggle(
                block,
                NotificationToggles {
                    master: false,
                    ..state_now
                },
                "Master",
                true,
            )
        } else {
            state_now
        };
        next.insert(master.to_owned(), Value::Bool(fixed.master));
        next.insert(email.to_owned(), Value::Bool(fixed.email));
        next.insert(sms.to_owned(), Value::Bool(fixed.sms));
    }
    let body = Value::Object(next.clone()).to_string();
    let now = now_ms();
    let updated = on_db!(&state.db, pool => sqlx::query(
        "UPDATE settings SET body = $1, version = version + 1, updated_at = $2 WHERE group_name = $3 AND version = $4",
    )
    .bind(&body)
    .bind(now)
    .bind(settings::HISTORY_PORTAL)
    .bind(req.version)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?;
    settings::invalidate(&state.db);
    if updated == 0 {
        return Err(AppError::Conflict(
            "The settings were changed by someone else. Reload and try again.".to_owned(),
        ));
    }
    audit::record_alone(
        &state.db,
        Actor::from(&*user),
        Action::HistoryPortalSettingsSaved,
        Target {
            target_type: Some("Settings"),
            target_id: Some(settings::HISTORY_PORTAL.to_owned()),
            target_user_id: None,
        },
        Some(Value::Object(current.settings)),
        Some(Value::Object(next.clone())),
        None,
    )
    .await?;
    Ok(Json(VersionedSettings {
        version: req.version + 1,
        settings: next,
    }))
}
