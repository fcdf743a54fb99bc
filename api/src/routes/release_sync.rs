//! Release sync (spec 03 §2 release-sync, §4 "Release sync", §7 "Release sync"): the progress of
//! importing the clinical system's release tables, starting and stopping the import, and deleting
//! what it imported. Client admins and program managers (the settings pages' roles). Sync and
//! StopSync are GETs (spec 03 §7) that change state: like unsafe methods they need the
//! X-CSRF-Token double submit, so a link from another site cannot start or stop a sync.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use wasm_core::model::SyncProgress;

use crate::audit::Actor;
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::{cookies, csrf, release_sync, AppState};

type Admin = RequireRole<SettingsAdmins>;

pub const SYNC_RUNNING: &str = "A sync is running: stop it before deleting the synced records";
pub const CSRF_NEEDED: &str = "This request needs the X-CSRF-Token header";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/magview.api/ReleaseTables/CheckSyncCompleteness",
            "Release sync progress: isSyncInProgress, progress (0-100), synced, syncable (release rows in the RELEASE*.DBF tables under MagViewPath), status ('', In progress, Completed, Stopped, Sync Failed), detail (why rows could not be imported), manuallyStopped, applicable (false in SQL mode)",
            check,
        )
        .get(
            "/magview.api/ReleaseTables/Sync",
            "Starts a sync (FoxPro mode; the ReleaseSync service imports the rows not imported yet, each once) and answers the progress; needs X-CSRF-Token",
            sync,
        )
        .get(
            "/magview.api/ReleaseTables/StopSync",
            "Stops the running sync (status Stopped, manuallyStopped) and answers the progress; needs X-CSRF-Token",
            stop,
        )
        .delete(
            "/magview.api/ReleaseTables/DeleteSyncedRecords",
            "Deletes the letters the sync imported (and their import keys) and answers the progress; 409 while a sync runs",
            delete_synced,
        )
}

fn double_submit(headers: &HeaderMap) -> AppResult<()> {
    let header = headers.get(csrf::HEADER).and_then(|v| v.to_str().ok());
    if csrf::tokens_match(header, cookies::get(headers, cookies::CSRF_COOKIE)) {
        Ok(())
    } else {
        Err(AppError::Forbidden(CSRF_NEEDED.to_owned()))
    }
}

async fn check(_user: Admin, State(state): State<AppState>) -> AppResult<Json<SyncProgress>> {
    Ok(Json(
        release_sync::check(&state.db, state.clinic_utc_offset_minutes).await?,
    ))
}

async fn sync(
    user: Admin,
    peer: ClientAddr,
    headers: HeaderMap,
    State(state): State<AppState>,
) -> AppResult<Json<SyncProgress>> {
    double_submit(&headers)?;
    Ok(Json(
        release_sync::request(
            &state.db,
            Actor::from(&*user),
            Some(peer.ip().to_string()),
            state.clinic_utc_offset_minutes,
        )
        .await?,
    ))
}

async fn stop(
    user: Admin,
    peer: ClientAddr,
    headers: HeaderMap,
    State(state): State<AppState>,
) -> AppResult<Json<SyncProgress>> {
    double_submit(&headers)?;
    Ok(Json(
        release_sync::stop(
            &state.db,
            Actor::from(&*user),
            Some(peer.ip().to_string()),
            state.clinic_utc_offset_minutes,
        )
        .await?,
    ))
}

async fn delete_synced(
    user: Admin,
    peer: ClientAddr,
    State(state): State<AppState>,
) -> AppResult<Json<SyncProgress>> {
    release_sync::delete_all(&state.db, Actor::from(&*user), Some(peer.ip().to_string()))
        .await?
        .ok_or_else(|| AppError::Conflict(SYNC_RUNNING.to_owned()))?;
    Ok(Json(
        release_sync::check(&state.db, state.clinic_utc_offset_minutes).await?,
    ))
}
