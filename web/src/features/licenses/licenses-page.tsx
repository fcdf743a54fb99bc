import { useEffect, useState } from "react";
import { useSession } from "../../app/session";
import { CONFLICT, SAVED } from "../../components/settings-form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import type { License, ValidationErrors } from "../../lib/wasm";
import { licenseModules } from "../../lib/wasm-settings";
import { useLicense } from "./api/license";
import "./licenses.css";

/** License Management (spec 03 §2): the modules with an enable checkbox and Activated Yes/No;
 * Appointments is shown but cannot be toggled (§6). A module switched off leaves the menu and its
 * API answers 403. */
export function LicensesPage() {
  const { query, save, reload } = useLicense();
  const { reload: reloadSession } = useSession();
  const toast = useToast();
  const [draft, setDraft] = useState<License | null>(null);
  const [conflict, setConflict] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const answer = query.data;
  useEffect(() => {
    if (answer) {
      setDraft(answer.force);
      setConflict(false);
    }
  }, [answer]);
  if (!answer || !draft) {
    return query.isError ? (
      <div className="panel" role="alert">
        <p>The licence could not be loaded.</p>
        <button type="button" className="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    ) : (
      <p className="panel">Loading…</p>
    );
  }
  const rows = licenseModules();
  const flags = draft as unknown as Record<string, boolean>;
  const activated = answer.force as unknown as Record<string, boolean>;
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setErrors([]);
    try {
      const flags = draft as unknown as Record<string, boolean>;
      await save.mutateAsync({
        Module_Documents: flags.Module_Documents ?? false,
        Module_Appointments: flags.Module_Appointments ?? false,
        Module_MedicalHistory: flags.Module_MedicalHistory ?? false,
        Module_TabletSurvey: flags.Module_TabletSurvey ?? false,
        Version: answer!.Version,
      });
      toast.success(SAVED);
      void reloadSession();
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      if (err.status === 409) setConflict(true);
      if (err.status === 400) {
        const body = err.body as { Errors?: ValidationErrors } | undefined;
        setErrors(Object.values(body?.Errors ?? {}).flat());
        toast.error("Form is invalid");
      }
    }
  }
  return (
    <form className="panel licenses" aria-label="License Management" onSubmit={submit}>
      {conflict && (
        <div className="alert alert-error" role="alert">
          <p>
            <strong>{CONFLICT}</strong> Reload to see the licence as it is saved now.
          </p>
          <button type="button" className="button" onClick={() => void reload()}>
            Reload
          </button>
        </div>
      )}
      {errors.length > 0 && (
        <div className="alert alert-error" role="alert">
          {errors.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
      <table className="table">
        <caption className="visually-hidden">Licensed modules</caption>
        <thead>
          <tr>
            <th scope="col">Module</th>
            <th scope="col">Enabled</th>
            <th scope="col">Activated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.Key}>
              <th scope="row">{row.Label}</th>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Enable ${row.Label}`}
                  checked={flags[row.Key] ?? false}
                  disabled={!row.CanToggle}
                  title={row.CanToggle ? undefined : "This module cannot be toggled"}
                  onChange={(e) => setDraft({ ...draft, [row.Key]: e.target.checked } as License)}
                />
              </td>
              <td>{activated[row.Key] ? "Yes" : "No"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="settings-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending || conflict}>
          Save
        </button>
      </div>
    </form>
  );
}
