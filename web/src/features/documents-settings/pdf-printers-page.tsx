import { useState } from "react";
import { fieldsOf, Section, SettingsForm, SAVED, useSettingsGroup } from "../../components/settings-form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import type { DocumentsPdfPrinters, ValidationErrors } from "../../lib/wasm";
import type { EnabledPrinters, Printer } from "../../lib/wire";
import { savePrinters, usePrinters } from "./api/printers";

const Server = fieldsOf<DocumentsPdfPrinters>();

/** Spec 03 §2 pdf-printers, exactly. */
export const NO_PRINTERS = "There no printers enabled.";
const CONFLICT = "Someone else saved the printers after you opened this page, so your changes were not saved.";

/** Documents Settings > pdf-printers (spec 03 §2): the enabled printers, each with an X, a select
 * to add one of the print server's (CUPS) printers, Save Printers. The print server's address
 * is its own small form below (DocumentsPdfPrinters PrintServer; default the local cupsd). */
export function PdfPrintersPage() {
  const { available, enabled, reload } = usePrinters();
  const group = useSettingsGroup<DocumentsPdfPrinters>("DocumentsPdfPrinters");
  return (
    <>
      {enabled.data ? (
        // A new version from the server (after a save anywhere) starts the list afresh.
        <PrintersPanel
          key={enabled.data.Version}
          saved={enabled.data}
          available={available.data?.Printers ?? []}
          availableError={available.data?.Error ?? (available.isError ? "The print server's printers could not be loaded." : null)}
          loadingAvailable={available.isFetching}
          onSaved={() => void reload()}
          onReload={() => void reload()}
        />
      ) : (
        <p className="panel">{enabled.isError ? "The printers could not be loaded." : "Loading…"}</p>
      )}
      <SettingsForm group={group} label="Print server" onSaved={() => void reload()}>
        <Section legend="Print server" fields={[]}>
          <Server
            name="PrintServer"
            label="Print server (CUPS) address"
            description="host:port, http://host:port or ipp://host:port. Default: the print server on this machine (http://localhost:631)."
          />
        </Section>
      </SettingsForm>
    </>
  );
}

function PrintersPanel({
  saved,
  available,
  availableError,
  loadingAvailable,
  onSaved,
  onReload,
}: {
  saved: EnabledPrinters;
  available: Printer[];
  availableError: string | null;
  loadingAvailable: boolean;
  onSaved: () => void;
  onReload: () => void;
}) {
  const toast = useToast();
  const [printers, setPrinters] = useState<string[]>(saved.Printers);
  const [errors, setErrors] = useState<string[]>([]);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const addable = available.filter((p) => !printers.includes(p.Name));

  const save = async () => {
    setSaving(true);
    setErrors([]);
    try {
      await savePrinters({ Version: saved.Version, Printers: printers });
      toast.success(SAVED);
      onSaved();
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      if (err.status === 409) setConflict(true);
      else if (err.status === 400) {
        const body = err.body as { Errors?: ValidationErrors } | undefined;
        const all = Object.entries(body?.Errors ?? {}).flatMap(([field, messages]) => {
          const row = /^EnabledPrinters\.(\d+)$/.exec(field);
          const name = row ? printers[Number(row[1])] : undefined;
          return (messages as string[]).map((m) => (name ? `${name}: ${m}` : m));
        });
        setErrors(all.length > 0 ? all : [err.dialog.Message]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="panel printers" aria-labelledby="printers-title">
      <h2 id="printers-title">PDF Printers</h2>
      {conflict && (
        <div className="alert alert-error" role="alert">
          <p>
            <strong>{CONFLICT}</strong> Reload to see the printers as they are saved now.
          </p>
          <button type="button" className="button" onClick={onReload}>
            Reload
          </button>
        </div>
      )}
      {errors.length > 0 && (
        <div className="alert alert-error" role="alert">
          <ul>
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      <h3 className="printers-subtitle">Enabled printers</h3>
      {printers.length === 0 ? (
        <p className="muted">{NO_PRINTERS}</p>
      ) : (
        <ul className="printer-list" aria-label="Enabled printers">
          {printers.map((name) => {
            const info = available.find((p) => p.Name === name);
            return (
              <li key={name} className="printer-item">
                <span className="printer-name">{name}</span>
                {info?.Info && info.Info !== name && <span className="muted printer-info">{info.Info}</span>}
                <button
                  type="button"
                  className="icon-button printer-remove"
                  aria-label={`Remove ${name}`}
                  title={`Remove ${name}`}
                  onClick={() => setPrinters((list) => list.filter((p) => p !== name))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="field printer-add">
        <label htmlFor="printer-add">Add a printer</label>
        <select
          id="printer-add"
          value=""
          disabled={addable.length === 0}
          aria-describedby={availableError ? "printer-add-error" : undefined}
          onChange={(e) => {
            const name = e.target.value;
            if (name) setPrinters((list) => [...list, name]);
          }}
        >
          <option value="">
            {loadingAvailable ? "Loading printers…" : addable.length === 0 ? "No other printers available" : "Choose a printer"}
          </option>
          {addable.map((p) => (
            <option key={p.Name} value={p.Name}>
              {p.Info && p.Info !== p.Name ? `${p.Name} (${p.Info})` : p.Name}
            </option>
          ))}
        </select>
        {availableError && (
          <div id="printer-add-error" className="field-messages" role="alert">
            <p>{availableError}</p>
          </div>
        )}
      </div>
      <div className="settings-actions">
        <button type="button" className="button button-primary" disabled={saving || conflict} onClick={() => void save()}>
          Save Printers
        </button>
      </div>
    </section>
  );
}
