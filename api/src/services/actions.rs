//! Start, stop and restart (spec 03 §7 "Services"), and the status list of the pages. An action
//! stores the desired state (audited in the same transaction) and waits, a few seconds at most,
//! for an instance to carry it out: then it answers success with the new status; otherwise the
//! failure (the desired state stays stored and is carried out when an instance takes it up).

use std::time::Duration;

use serde_json::json;
use wasm_core::model::services::{
    service_action_success, service_not_installed, ServiceAction, STARTED, STOPPED,
};
use wasm_core::model::{ServiceActionResult, ServiceInfo};

use super::registry::{find, SERVICES};
use super::supervisor::FRESH_MS;
use crate::audit::{self, Action, Target};
use crate::db::{now_ms, Db};
use crate::error::{AppError, AppResult};
use crate::fmt::iso_utc;
use crate::settings::engine::Who;
use crate::store::retry::retrying;
use crate::store::services::{self as store, ServiceRow};

/// How long an action waits for an instance to carry it out.
pub const ACK_WAIT: Duration = Duration::from_secs(5);

/// Installed: an instance that may run it looked in lately (spec 03 §4: no status, not installed).
fn installed(row: &ServiceRow, now: i64) -> bool {
    row.offered_at >= now - FRESH_MS
}

pub async fn act(
    db: &Db,
    who: Who,
    name: &str,
    action: ServiceAction,
) -> AppResult<ServiceActionResult> {
    if name.trim().is_empty() {
        return Err(AppError::BadRequest("serviceName is required.".to_owned()));
    }
    let def = find(name);
    let title = def.map_or_else(|| name.trim().to_owned(), |d| d.title.to_owned());
    let now = now_ms();
    let row = match def {
        Some(d) => store::one(db, d.name).await?,
        None => None,
    };
    let (Some(def), Some(_)) = (def, row.filter(|r| installed(r, now))) else {
        return Ok(ServiceActionResult {
            success: false,
            status: String::new(),
            action: action.done().to_owned(),
            message: service_not_installed(&title),
            not_installed: true,
        });
    };
    let desired = if action == ServiceAction::Stop {
        STOPPED
    } else {
        STARTED
    };
    let who = &who;
    let seq = retrying(db, || async move {
        let mut tx = db.begin().await?;
        let before = store::one_in(&mut tx, def.name).await?;
        let seq = store::set_desired(&mut tx, def.name, desired, action.status(), now_ms()).await?;
        audit::record(
            &mut tx,
            who.actor,
            Action::ServiceAction,
            Target {
                target_type: Some("Service"),
                target_id: Some(def.name.to_owned()),
                target_user_id: None,
            },
            before.map(|b| json!({"Status": b.status})),
            Some(json!({"Status": action.status(), "Action": action.verb()})),
            who.ip.clone(),
        )
        .await?;
        tx.commit().await?;
        Ok(seq)
    })
    .await?;
    let deadline = tokio::time::Instant::now() + ACK_WAIT;
    loop {
        if let Some(now) = store::one(db, def.name).await? {
            if now.acked_seq >= seq {
                return Ok(ServiceActionResult {
                    success: true,
                    status: now.status,
                    action: action.done().to_owned(),
                    message: service_action_success(def.title, action),
                    not_installed: false,
                });
            }
        }
        if tokio::time::Instant::now() >= deadline {
            return Ok(ServiceActionResult {
                success: false,
                status: action.status().to_owned(),
                action: action.done().to_owned(),
                message: format!(
                    "No portal instance carried out the {} of {} within {} seconds. It is stored and will be carried out when an instance takes the service up.",
                    action.verb().to_lowercase(),
                    def.title,
                    ACK_WAIT.as_secs()
                ),
                not_installed: false,
            });
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every service with its status ('' when not installed), in the registry's order.
pub async fn list(db: &Db) -> AppResult<Vec<ServiceInfo>> {
    let rows = store::all(db).await?;
    let now = now_ms();
    Ok(SERVICES
        .iter()
        .map(|def| {
            let row = rows
                .iter()
                .find(|r| r.name == def.name)
                .filter(|r| installed(r, now));
            info(def.name, def.title, row, now)
        })
        .collect())
}

/// The status of one service ('' when not installed or unknown).
pub async fn status(db: &Db, name: &str) -> AppResult<String> {
    Ok(list(db)
        .await?
        .into_iter()
        .find(|s| s.name == name)
        .map(|s| s.status)
        .unwrap_or_default())
}

fn info(name: &str, title: &str, row: Option<&ServiceRow>, now: i64) -> ServiceInfo {
    let Some(row) = row else {
        return ServiceInfo {
            name: name.to_owned(),
            title: title.to_owned(),
            status: String::new(),
            running: false,
            last_run: None,
            last_error: None,
            last_error_at: None,
            heartbeat: None,
            failures: 0,
        };
    };
    ServiceInfo {
        name: name.to_owned(),
        title: title.to_owned(),
        status: row.status.clone(),
        running: row.desired == STARTED
            && row.runner.is_some()
            && row.heartbeat_at.is_some_and(|h| h >= now - FRESH_MS),
        last_run: row.last_run_at.map(iso_utc),
        last_error: row.last_error.clone(),
        last_error_at: row.last_error_at.map(iso_utc),
        heartbeat: row.heartbeat_at.map(iso_utc),
        failures: row.failures,
    }
}
