//! Release sync rules (spec 03 §2 "release-sync", §4 "Release sync", §8, §9): the percentage the
//! server reports and what the tab shows for it. The server computes the progress; the page asks
//! [`view`] what to show, so the texts and button rules live here once.

use crate::model::{SyncProgress, SyncView};

/// spec 03 §2: shown by the initial check until its answer arrives.
pub const IDENTIFYING: &str = "identifying progress...";
/// spec 03 §2: in SQL mode there is nothing to sync.
pub const NOT_APPLICABLE: &str = "Sync is not applicable since you chose SQL database";
/// spec 03 §4 statuses.
pub const IN_PROGRESS: &str = "In progress";
pub const STOPPED: &str = "Stopped";
pub const FAILED: &str = "Sync Failed";
pub const COMPLETED: &str = "Completed";
/// spec 03 §9: the progress is re-polled this often while a sync runs.
pub const POLL_MS: u32 = 5000;

/// Percent of `syncable` rows imported, rounded down so that 100 means every row. With no rows:
/// 100 (nothing left to do), unless a table could not be read (`complete` false): 0.
pub fn percent(synced: i64, syncable: i64, complete: bool) -> i64 {
    if syncable <= 0 {
        return if complete { 100 } else { 0 };
    }
    let p = synced.clamp(0, syncable).saturating_mul(100) / syncable;
    if p == 100 && !complete {
        99
    } else {
        p
    }
}

/// What the tab shows. `progress`: the last answer (None while the initial check runs);
/// `user_checked`: that answer followed the user's Sync (or the polls after it).
pub fn view(progress: Option<&SyncProgress>, user_checked: bool) -> SyncView {
    let Some(p) = progress else {
        return SyncView {
            status: IDENTIFYING.to_owned(),
            sync_disabled: true,
            show_stop: false,
            show_delete_all: false,
            label: IDENTIFYING.to_owned(),
        };
    };
    let label = format!("{}% ( {} / {} )", p.progress, p.synced, p.syncable);
    if !p.applicable {
        return SyncView {
            status: NOT_APPLICABLE.to_owned(),
            sync_disabled: true,
            show_stop: false,
            show_delete_all: false,
            label,
        };
    }
    let running = p.is_sync_in_progress;
    let status = if running {
        IN_PROGRESS.to_owned()
    } else if p.manually_stopped {
        STOPPED.to_owned()
    } else if p.progress < 100 && (user_checked || p.status == FAILED) {
        FAILED.to_owned()
    } else {
        p.status.clone()
    };
    SyncView {
        status,
        sync_disabled: running || p.progress >= 100,
        show_stop: running,
        show_delete_all: !running && p.progress > 0,
        label,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(running: bool, pct: i64, stopped: bool, status: &str) -> SyncProgress {
        SyncProgress {
            is_sync_in_progress: running,
            progress: pct,
            synced: pct,
            syncable: 100,
            status: status.into(),
            detail: String::new(),
            manually_stopped: stopped,
            applicable: true,
        }
    }

    #[test]
    fn percent_rounds_down_and_handles_empty_tables() {
        assert_eq!(percent(0, 0, true), 100);
        assert_eq!(percent(0, 0, false), 0);
        assert_eq!(percent(1, 3, true), 33);
        assert_eq!(percent(199, 200, true), 99);
        assert_eq!(percent(200, 200, true), 100);
        assert_eq!(percent(200, 200, false), 99);
        assert_eq!(percent(300, 200, true), 100);
        assert_eq!(percent(-1, 200, true), 0);
    }

    #[test]
    fn initial_check_identifies() {
        let v = view(None, false);
        assert_eq!(v.status, IDENTIFYING);
        assert!(v.sync_disabled && !v.show_stop && !v.show_delete_all);
    }

    #[test]
    fn button_rules() {
        // Running: Sync disabled, Stop shown, no delete all.
        let v = view(Some(&progress(true, 40, false, IN_PROGRESS)), true);
        assert_eq!(v.status, IN_PROGRESS);
        assert!(v.sync_disabled && v.show_stop && !v.show_delete_all);
        assert_eq!(v.label, "40% ( 40 / 100 )");
        // Done: Sync disabled at 100, delete all offered.
        let v = view(Some(&progress(false, 100, false, COMPLETED)), true);
        assert_eq!(v.status, COMPLETED);
        assert!(v.sync_disabled && !v.show_stop && v.show_delete_all);
        // Nothing synced yet: Sync enabled, no delete all.
        let v = view(Some(&progress(false, 0, false, "")), false);
        assert!(!v.sync_disabled && !v.show_delete_all);
        assert_eq!(v.status, "");
    }

    #[test]
    fn below_100_after_a_user_check_fails_unless_stopped() {
        let v = view(Some(&progress(false, 60, false, "")), true);
        assert_eq!(v.status, FAILED);
        let v = view(Some(&progress(false, 60, true, STOPPED)), true);
        assert_eq!(v.status, STOPPED);
        // The page's first check is not the user's: a partial import is not called failed ...
        let v = view(Some(&progress(false, 60, false, "")), false);
        assert_eq!(v.status, "");
        // ... unless the server's last run ended so.
        let v = view(Some(&progress(false, 60, false, FAILED)), false);
        assert_eq!(v.status, FAILED);
    }

    #[test]
    fn sql_mode_is_not_applicable() {
        let mut p = progress(false, 0, false, "");
        p.applicable = false;
        let v = view(Some(&p), true);
        assert_eq!(v.status, NOT_APPLICABLE);
        assert!(v.sync_disabled && !v.show_stop && !v.show_delete_all);
    }
}
