import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ErrorDialog } from "../../../components/error-dialog/error-dialog";
import { Modal } from "../../../components/modal/modal";
import "../../../components/data-table/data-table.css";
import { useToast } from "../../../components/toast/toast";
import { ApiFailure } from "../../../lib/api-client";
import { formatDate, zoneOf, type ErrorDialog as ErrorDialogModel } from "../../../lib/wasm";
import { serviceActionErrorTitle } from "../../../lib/wasm-settings";
import type { ServiceInfo } from "../../../lib/wire";
import { serviceAction, serviceKeys, useServices, type ServiceVerb } from "../api/services";

const VERBS: { verb: ServiceVerb; label: string }[] = [
  { verb: "start", label: "Start" },
  { verb: "stop", label: "Stop" },
  { verb: "restart", label: "Restart" },
];

function when(iso: string | null | undefined): string {
  if (!iso) return "never";
  const zone = zoneOf(iso);
  return formatDate(iso, "LogDateTime", zone.offsetMinutes, zone.zoneAbbr);
}

/** The services' actions and status (spec 03 §2 "Email service actions", "Service start, stop and
 * status actions"; §4 "Service status"; §8): the toast '{Service title} was {Action}!' or
 * '{Service title} is not installed.', and the 'Action error' dialog on a failure. */
export function ServiceControls({ names, label }: { names: string[]; label: string }) {
  const services = useServices();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  // A call that failed (its error dialog model), or an action no instance carried out (its message).
  const [failure, setFailure] = useState<{ title: string; error?: ErrorDialogModel; message?: string } | null>(null);
  const shown = (services.data ?? []).filter((s) => names.includes(s.Name));

  async function act(service: ServiceInfo, verb: ServiceVerb, verbLabel: string) {
    setBusy(`${service.Name}:${verb}`);
    try {
      const result = await serviceAction(verb, service.Name);
      if (result.Success) toast.success(result.Message);
      else if (result.NotInstalled) toast.error(result.Message);
      else setFailure({ title: serviceActionErrorTitle(verbLabel), message: result.Message });
    } catch (err) {
      if (err instanceof ApiFailure) setFailure({ title: serviceActionErrorTitle(verbLabel), error: err.dialog });
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: serviceKeys.list });
    }
  }

  return (
    <div className="service-controls">
      {services.isError && <p role="alert">The services could not be loaded.</p>}
      {!services.data && !services.isError && <p>Loading…</p>}
      {shown.length > 0 && (
        <div className="data-table">
          <div className="data-table-scroll">
          <table className="service-table" aria-label={label}>
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Status</th>
                <th scope="col">Last run</th>
                <th scope="col">Last error</th>
                <th scope="col">Heartbeat</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((s) => (
                <tr key={s.Name}>
                  <th scope="row">{s.Title}</th>
                  <td data-label="Status">
                    <span className={s.Status === "STOPPED" || !s.Status ? "status-stopped" : "status-started"}>{s.Status || "not installed"}</span>
                    {s.Status && s.Status !== "STOPPED" && !s.Running && <div className="field-hint">No instance is running it now.</div>}
                  </td>
                  <td data-label="Last run">{when(s.LastRun)}</td>
                  <td data-label="Last error" className="service-error">
                    {s.LastError ? (
                      <>
                        {when(s.LastErrorAt)}: {s.LastError}
                        {s.Failures > 0 && <div className="field-hint">{s.Failures} failed since started</div>}
                      </>
                    ) : (
                      "none"
                    )}
                  </td>
                  <td data-label="Heartbeat">{s.Running ? when(s.Heartbeat) : "none"}</td>
                  <td data-label="Actions">
                    <div className="service-actions">
                      {VERBS.map(({ verb, label: verbLabel }) => (
                        <button
                          key={verb}
                          type="button"
                          className="button"
                          aria-label={`${verbLabel} ${s.Title}`}
                          disabled={busy !== null}
                          onClick={() => void act(s, verb, verbLabel)}
                        >
                          {busy === `${s.Name}:${verb}` ? `${verbLabel}…` : verbLabel}
                        </button>
                      ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </div>
      )}
      {failure?.error && <ErrorDialog error={failure.error} title={failure.title} onClose={() => setFailure(null)} />}
      {failure?.message && (
        <Modal
          title={failure.title}
          tone="danger"
          onClose={() => setFailure(null)}
          footer={
            <button type="button" className="button button-primary" onClick={() => setFailure(null)}>
              OK
            </button>
          }
        >
          <p className="error-message">{failure.message}</p>
        </Modal>
      )}
    </div>
  );
}
