//! The storage schema synchronisation (spec 04: "a refresh control showing the last schema
//! synchronisation time, used for survey validation"). Surveys are validated (MissingStorages)
//! against the last synchronised storage dictionary; a sync takes the running portal's
//! (`survey::package::STORAGE_COLUMNS`), so after an upgrade that changes the storage the list
//! keeps the old view until an admin synchronises. Before the first sync, the running one is used.

use wasm_core::model::StorageSchemaCache;

use super::*;

fn answer(cache: Option<(i64, String)>) -> StorageSchemaCache {
    match cache {
        Some((at, cols)) => StorageSchemaCache {
            last_cache_date: Some(crate::fmt::iso_utc(at)),
            columns: serde_json::from_str::<Vec<String>>(&cols).map_or(0, |v| v.len() as u32),
        },
        None => StorageSchemaCache {
            last_cache_date: None,
            columns: STORAGE_COLUMNS.len() as u32,
        },
    }
}

pub(super) async fn last_date(
    _user: Admin,
    State(state): State<AppState>,
) -> AppResult<Json<StorageSchemaCache>> {
    Ok(Json(answer(store::schema_cache(&state.db).await?)))
}

pub(super) async fn refresh(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
) -> AppResult<Json<StorageSchemaCache>> {
    let old = store::schema_cache(&state.db).await?;
    let columns = serde_json::to_string(STORAGE_COLUMNS).map_err(AppError::internal)?;
    let now = now_ms();
    let mut tx = state.db.begin().await?;
    store::set_schema_cache(&mut tx, now, &columns).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::StorageSchemaSynchronised,
        Target::none(),
        old.as_ref()
            .map(|(at, _)| json!({ "LastCacheDate": crate::fmt::iso_utc(*at) })),
        Some(
            json!({ "LastCacheDate": crate::fmt::iso_utc(now), "Columns": STORAGE_COLUMNS.len() }),
        ),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(answer(Some((now, columns)))))
}
