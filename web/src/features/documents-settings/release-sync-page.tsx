import { useCallback, useEffect, useRef, useState } from "react";
import { releaseSyncPollMs, releaseSyncView } from "../../lib/wasm-settings";
import type { SyncProgress } from "../../lib/wire";
import { checkSyncCompleteness, deleteSyncedRecords, startSync, stopSync } from "./api/release-sync";

/** Documents Settings > release-sync (spec 03 §2, §4, §7, §9): the import of the clinical
 * system's release tables into the portal's letters. The first check runs in the background
 * ('identifying progress...'); while a sync runs the progress is re-polled every 5 s. The status
 * text and the button rules are wasm-core's `release_sync::view`. */
export function ReleaseSyncPage() {
  const [progress, setProgress] = useState<SyncProgress | null>(null);
  const [userChecked, setUserChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const alive = useRef(true);

  const check = useCallback(async () => {
    try {
      const p = await checkSyncCompleteness();
      if (alive.current) setProgress(p);
    } catch {
      if (alive.current) setFailed(true);
    }
  }, []);

  useEffect(() => {
    alive.current = true;
    void check();
    return () => {
      alive.current = false;
    };
  }, [check]);

  const running = progress?.isSyncInProgress ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => void check(), releaseSyncPollMs());
    return () => window.clearInterval(timer);
  }, [running, check]);

  async function act(call: () => Promise<SyncProgress>, byUser: boolean) {
    setBusy(true);
    try {
      const p = await call();
      if (!alive.current) return;
      setUserChecked(byUser);
      setProgress(p);
    } catch {
      // The shell's error dialog shows the failure.
    } finally {
      if (alive.current) setBusy(false);
    }
  }

  const view = releaseSyncView(progress, userChecked);
  if (progress && !progress.applicable) {
    return (
      <section className="panel release-sync" aria-labelledby="release-sync-title">
        <h2 id="release-sync-title">Release Sync</h2>
        <p className="release-sync-status" role="status">
          {view.status}
        </p>
      </section>
    );
  }
  return (
    <section className="panel release-sync" aria-labelledby="release-sync-title">
      <h2 id="release-sync-title">Release Sync</h2>
      <p className="field-hint settings-note">
        Imports the letter release tables (RELEASE*.DBF under the MagView path) into the patients' documents. Each release row is
        imported once.
      </p>
      {failed && <p role="alert">The sync progress could not be read.</p>}
      <div className="release-sync-bar">
        <progress
          id="release-sync-progress"
          max={100}
          value={progress ? progress.progress : undefined}
          aria-label="Sync progress"
          aria-valuetext={view.label}
        />
        <span className="release-sync-label">{view.label}</span>
      </div>
      <p className="release-sync-status" role="status" aria-live="polite">
        {view.status}
      </p>
      {progress?.detail && <pre className="release-sync-detail">{progress.detail}</pre>}
      <div className="release-sync-actions">
        <button type="button" className="button button-primary" disabled={busy || view.syncDisabled} onClick={() => void act(startSync, true)}>
          Sync
        </button>
        {view.showStop && (
          <button type="button" className="button" disabled={busy} onClick={() => void act(stopSync, true)}>
            Stop
          </button>
        )}
        {view.showDeleteAll && (
          <button type="button" className="button" disabled={busy} onClick={() => void act(deleteSyncedRecords, false)}>
            delete all
          </button>
        )}
      </div>
    </section>
  );
}
