//! Release sync (spec 03 §2 "release-sync", §3 "Sync progress", §7 "Release sync").

use crate::wire;

wire! {
    /// GET /magview.api/ReleaseTables/CheckSyncCompleteness (and the answer of Sync, StopSync and
    /// DeleteSyncedRecords): the progress of importing the clinical system's release tables.
    #[serde(rename_all = "camelCase")]
    pub struct SyncProgress {
        /// A sync runs now (on whichever API instance runs the ReleaseSync service).
        pub is_sync_in_progress: bool,
        /// 0 to 100; 100 only when every release row is imported.
        pub progress: i64,
        /// Release rows imported into the portal's letters.
        pub synced: i64,
        /// Release rows in the tables (deleted rows excluded).
        pub syncable: i64,
        /// '', 'In progress', 'Completed', 'Stopped' or 'Sync Failed'.
        pub status: String,
        /// Why a sync could not import everything (an unreadable table, a row's problem), '' when
        /// nothing went wrong.
        pub detail: String,
        /// The last sync was stopped by a user.
        pub manually_stopped: bool,
        /// False in SQL mode (DataConnectionType SQL): nothing to sync.
        pub applicable: bool,
    }

    /// What the release-sync tab shows for a progress (spec 03 §4 "Release sync").
    #[serde(rename_all = "camelCase")]
    pub struct SyncView {
        pub status: String,
        /// The Sync button is disabled (at 100 percent or while running).
        pub sync_disabled: bool,
        /// Stop appears only while running.
        pub show_stop: bool,
        /// 'delete all' appears only when not running, progress identified and above 0.
        pub show_delete_all: bool,
        /// 'percent ( synced / syncable )'.
        pub label: String,
    }
}
