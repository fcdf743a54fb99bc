import { useEffect, useRef, useState } from "react";
import { LogoMark } from "../../components/logo";
import { api, ApiFailure } from "../../lib/api-client";
import type { SetValueRequest } from "../../lib/wire";
import { fieldMessages, validateLogoWidth, type LogoSettings } from "../../lib/wasm";

/** spec 02 §9: the width until the settings arrive. */
const DEFAULT_WIDTH = 50;

function failureText(e: unknown): string {
  return e instanceof ApiFailure ? e.dialog.Message || e.message : (e as Error).message;
}

/** The sidebar logo (spec 01 §2.1, spec 02 §7.4b): the clinic's uploaded image (its address
 * carries the upload time, so it is never a cached copy) or the portal's mark, at the stored
 * width. Program managers and client admins edit it: width (Save width / Cancel restores),
 * upload an image, remove it. */
export function ShellLogo({ canEdit }: { canEdit: boolean }) {
  const [logo, setLogo] = useState<LogoSettings | null>(null);
  const [editing, setEditing] = useState(false);
  const [width, setWidth] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const file = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const abort = new AbortController();
    api
      .get<LogoSettings>("/api/logoSettings/login", { signal: abort.signal, report: false })
      .then(setLogo)
      .catch(() => {
        // The portal's mark at the default width stands in.
      });
    return () => abort.abort();
  }, []);

  const saved = logo?.LogoWidth ?? DEFAULT_WIDTH;
  const widthErrors = editing ? fieldMessages(validateLogoWidth(width), "LogoWidth") : [];
  // While editing, a valid width previews at once; Cancel goes back to the saved one.
  const shown = editing && widthErrors.length === 0 ? Number.parseInt(width, 10) : saved;

  function startEditing() {
    setWidth(String(saved));
    setMessage(null);
    setEditing(true);
  }

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setMessage(null);
    try {
      await action();
    } catch (e) {
      setMessage(failureText(e));
    } finally {
      setBusy(false);
    }
  }

  const saveWidth = () =>
    run(async () => {
      const body: SetValueRequest = { key: "LogoWidth", value: width };
      const stored = await api.post<Record<string, string>>("/api/settings/setvalue", body, { report: false });
      setLogo((l: LogoSettings | null) => ({ LogoUrl: l?.LogoUrl, LogoTitle: l?.LogoTitle ?? "", LogoWidth: Number(stored.LogoWidth) }));
      setEditing(false);
    });

  const upload = (chosen: File) =>
    run(async () => {
      setLogo(await api.upload<LogoSettings>("/api/logoSettings/logo", chosen, { report: false }));
    });

  const remove = () =>
    run(async () => {
      setLogo(await api.delete<LogoSettings>("/api/logoSettings/logo", { report: false }));
    });

  return (
    <div className="sidebar-logo-area">
      <div className="sidebar-logo">
        {logo?.LogoUrl ? (
          <img className="logo-image" src={logo.LogoUrl} alt={logo.LogoTitle || "Clinic logo"} style={{ width: `${shown}px` }} />
        ) : (
          <span className="logo-mark-box" style={{ width: `${shown}px` }}>
            <LogoMark />
          </span>
        )}
        <span className="logo-text">
          Imaging <strong>Portal</strong>
        </span>
        {canEdit && !editing && (
          <button type="button" className="logo-edit-toggle" aria-label="Edit logo" title="Edit logo" onClick={startEditing}>
            ✎
          </button>
        )}
      </div>
      {editing && (
        <form
          className="logo-editor"
          aria-label="Logo"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (widthErrors.length === 0) void saveWidth();
          }}
        >
          <label htmlFor="logo-width">Logo width (px)</label>
          <input
            id="logo-width"
            inputMode="numeric"
            value={width}
            aria-invalid={widthErrors.length > 0}
            aria-describedby="logo-width-errors"
            onChange={(e) => setWidth(e.target.value)}
          />
          <div id="logo-width-errors" className="logo-errors" role="alert">
            {widthErrors.map((m) => (
              <p key={m}>{m}</p>
            ))}
          </div>
          <div className="logo-actions">
            <button type="submit" className="button button-primary" disabled={busy || widthErrors.length > 0}>
              Save width
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
          <div className="logo-actions">
            <button type="button" className="button" disabled={busy} onClick={() => file.current?.click()}>
              Upload image
            </button>
            {logo?.LogoUrl && (
              <button type="button" className="button" disabled={busy} onClick={() => void remove()}>
                Remove logo
              </button>
            )}
          </div>
          <input
            ref={file}
            type="file"
            hidden
            aria-label="Logo image file"
            accept="image/png,image/jpeg,image/gif"
            onChange={(e) => {
              const chosen = e.target.files?.[0];
              e.target.value = "";
              if (chosen) void upload(chosen);
            }}
          />
          <p className="logo-hint">PNG, JPEG or GIF, at most 512 KB.</p>
          {message && (
            <p className="logo-errors" role="alert">
              {message}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
