//! Named settings groups (spec 03 §3, spec 04 §3), one JSON document each with a version.
//! Every group is typed in wasm-core (`settings`): read completed with its defaults, typed with
//! [`get`] (the only read: no document is read by group name and key); written only through
//! [`engine`]. The group name constants below are for the setup wizard's field map and the
//! demo loader.

pub mod group_document;

use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::history_portal::HistoryPortal;
use wasm_core::settings::SettingsGroup;
use wasm_core::survey::expiry::ExpiryRule;

use crate::db::{now_ms, Db};
use crate::error::AppResult;
use crate::store;

pub const CORE_PORTAL: &str = "CorePortal";
pub const USER_ACCOUNT_PASSWORD: &str = "UserAccountPassword";
/// User administration options (spec 02 §3 "Configuration").
pub const USER_MANAGEMENT: &str = "UserManagement";
/// Survey general settings (spec 04 §3; GET/POST /api/surveySettings/generalSettings).
pub const SURVEY_GENERAL: &str = "SurveyGeneral";

pub use wasm_core::settings::core_portal::DEFAULT_SESSION_TIMEOUT_MINUTES;

/// Stores each group that is not stored yet with its defaults (existing documents are never
/// touched), so that every group has a row and a version from the start.
pub async fn ensure_defaults(db: &Db) -> AppResult<()> {
    let now = now_ms();
    for def in engine::defs() {
        let body = Value::Object(def.defaults()).to_string();
        store::settings::insert_if_missing(db, def.name, &body, now).await?;
    }
    invalidate(db);
    Ok(())
}

/// The document of a group completed with its defaults (`{}` for a name that is no group), kept
/// in memory on both engines (see [`cache`]; on SQLite for at most 2 s).
async fn load(db: &Db, group: &str) -> AppResult<Value> {
    let cached = cache::begin(db, group);
    if let cache::Lookup::Hit(doc) = cached {
        return Ok(doc);
    }
    let row = store::settings::read(db, group).await?;
    let doc = document(group, row.map(|(_, body)| body).as_deref());
    if let cache::Lookup::Miss(ticket) = cached {
        cache::put(ticket, group, &doc);
    }
    Ok(doc)
}

/// A typed group, as stored (its defaults where nothing is stored).
pub async fn get<T: SettingsGroup + DeserializeOwned>(db: &Db) -> AppResult<T> {
    Ok(serde_json::from_value(load(db, T::NAME).await?).unwrap_or_default())
}

/// [`get`] inside `tx` (a check made with the write it guards, e.g. the outbox's
/// DisabledResultsPortalLocations).
pub async fn get_in<T: SettingsGroup + DeserializeOwned>(tx: &mut crate::db::Tx) -> AppResult<T> {
    let row = store::settings::read_in(tx, T::NAME).await?;
    let doc = document(T::NAME, row.map(|(_, body)| body).as_deref());
    Ok(serde_json::from_value(doc).unwrap_or_default())
}

/// Forgets the cached documents of `db`: call after writing the settings table (the PostgreSQL
/// trigger of 0014 tells the other instances, and this one, a moment later; on SQLite the
/// update hook already did, see [`crate::change_feed`]).
pub fn invalidate(db: &Db) {
    cache::invalidate(db);
}

/// A typed group's document completed with its defaults; `{}` for a name that is no group.
fn document(group: &str, stored: Option<&str>) -> Value {
    match engine::def(group) {
        Some(def) => Value::Object(def.complete(stored)),
        None => json!({}),
    }
}

/// CorePortal SessionTimeoutMinutes, at least 1 minute.
pub async fn session_timeout_minutes(db: &Db) -> AppResult<i64> {
    Ok(get::<CorePortal>(db).await?.session_minutes())
}

/// The clinic's survey expiry rule (HistoryPortal HrsAppointmentTimeType / Value), which the
/// emailed link, the start checks, the expiry job and the notifications engine share.
pub async fn expiry_rule(db: &Db) -> AppResult<ExpiryRule> {
    let h = get::<HistoryPortal>(db).await?;
    Ok(ExpiryRule::new(
        &h.hrs_appointment_time_type,
        Some(h.hrs_appointment_time_value),
    ))
}

pub(crate) mod cache;
pub mod engine;
mod group_commit;
mod row_secrets;
