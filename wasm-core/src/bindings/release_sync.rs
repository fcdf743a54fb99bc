//! The release-sync tab's rules (feature `wasm-settings`): what it shows for a progress answer.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::{boolean, text, whole, write, ReadJs};
use crate::model::{SyncProgress, SyncView};
use crate::release_sync;

impl ReadJs for SyncProgress {
    fn read_js(v: &JsValue) -> Self {
        let n = |key: &str| i64::from(whole(v, key).unwrap_or(0));
        SyncProgress {
            is_sync_in_progress: boolean(v, "isSyncInProgress"),
            progress: n("progress"),
            synced: n("synced"),
            syncable: n("syncable"),
            status: text(v, "status"),
            detail: text(v, "detail"),
            manually_stopped: boolean(v, "manuallyStopped"),
            applicable: boolean(v, "applicable"),
        }
    }
}

/// spec 03 §4: the status text, the button rules and the bar's label for the last answer
/// (`null` while the initial check runs); `userChecked`: it followed the user's Sync.
#[wasm_bindgen(js_name = releaseSyncView)]
pub fn release_sync_view(
    #[wasm_bindgen(unchecked_param_type = "SyncProgress | null")] progress: JsValue,
    #[wasm_bindgen(js_name = userChecked)] user_checked: bool,
) -> Ts<SyncView> {
    let progress = progress
        .is_object()
        .then(|| SyncProgress::read_js(&progress));
    write(&release_sync::view(progress.as_ref(), user_checked))
}

/// spec 03 §9: the poll interval while a sync runs.
#[wasm_bindgen(js_name = releaseSyncPollMs)]
pub fn release_sync_poll_ms() -> u32 {
    release_sync::POLL_MS
}
