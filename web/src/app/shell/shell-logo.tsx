import { useRef, useState } from "react";
import { FormProvider, useForm, useFormContext, useWatch } from "react-hook-form";
import { setServerErrors, TextField, useFieldMessages, wasmResolver } from "../../components/form";
import { LogoMark } from "../../components/logo";
import { ApiFailure } from "../../lib/api-client";
import { validateLogoWidth } from "../../lib/wasm";
import { useLogoSettings } from "./api/logo-settings";
import { useRemoveLogo } from "./api/remove-logo";
import { useSetLogoWidth } from "./api/set-logo-width";
import { useUploadLogo } from "./api/upload-logo";

/** spec 02 §9: the width until the settings arrive. */
const DEFAULT_WIDTH = 50;

function failureText(e: unknown): string {
  return e instanceof ApiFailure ? e.dialog.Message || e.message : (e as Error).message;
}

interface LogoValues {
  LogoWidth: string;
}

/** The sidebar logo (spec 01 §2.1, spec 02 §7.4b): the clinic's uploaded image (its address
 * carries the upload time, so it is never a cached copy) or the portal's mark, at the stored
 * width. Program managers and client admins edit it: width (Save width / Cancel restores),
 * upload an image, remove it. */
export function ShellLogo({ canEdit }: { canEdit: boolean }) {
  const logo = useLogoSettings().data;
  const [editing, setEditing] = useState(false);
  const saved = logo?.LogoWidth ?? DEFAULT_WIDTH;
  // The width is checked as the server checks it (wasm-core validateLogoWidth), as it is typed.
  const form = useForm<LogoValues>({
    resolver: wasmResolver((values: LogoValues) => validateLogoWidth(values.LogoWidth)),
    defaultValues: { LogoWidth: String(saved) },
    mode: "onChange",
    criteriaMode: "all",
  });
  const width = useWatch({ control: form.control, name: "LogoWidth" });
  const widthValid = !form.formState.errors.LogoWidth;
  // While editing, a valid width previews at once; Cancel goes back to the saved one.
  const shown = editing && widthValid ? Number.parseInt(width, 10) || saved : saved;

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
          <button
            type="button"
            className="logo-edit-toggle"
            aria-label="Edit logo"
            title="Edit logo"
            onClick={() => {
              form.reset({ LogoWidth: String(saved) });
              setEditing(true);
            }}
          >
            ✎
          </button>
        )}
      </div>
      {editing && (
        <FormProvider {...form}>
          <LogoEditor hasImage={Boolean(logo?.LogoUrl)} onDone={() => setEditing(false)} />
        </FormProvider>
      )}
    </div>
  );
}

function LogoEditor({ hasImage, onDone }: { hasImage: boolean; onDone: () => void }) {
  const setWidth = useSetLogoWidth();
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const file = useRef<HTMLInputElement>(null);
  const form = useFormContext<LogoValues>();
  const invalid = useFieldMessages("LogoWidth").length > 0;
  const busy = setWidth.isPending || upload.isPending || remove.isPending;
  // The last action's failure (an image the server refused, ...) under the buttons.
  const failure = [setWidth, upload, remove].find((m) => m.isError)?.error;
  const only = (action: typeof setWidth | typeof upload | typeof remove) => [setWidth, upload, remove].filter((m) => m !== action).forEach((m) => m.reset());

  const save = form.handleSubmit(async ({ LogoWidth }) => {
    only(setWidth);
    try {
      await setWidth.mutateAsync(LogoWidth);
      onDone();
    } catch (err) {
      // The server's message under the field it is about.
      if (err instanceof ApiFailure && err.status === 400) {
        if (err.dialog.Errors) setServerErrors(form.setError, err.dialog.Errors);
        else form.setError("LogoWidth", { type: "server", message: err.dialog.Message });
        setWidth.reset();
      }
    }
  });

  return (
    <form className="logo-editor" aria-label="Logo" noValidate onSubmit={save}>
      <TextField name="LogoWidth" label="Logo width (px)" inputMode="numeric" autoComplete="off" />
      <div className="logo-actions">
        <button type="submit" className="button button-primary" disabled={busy || invalid}>
          Save width
        </button>
        <button type="button" className="button" disabled={busy} onClick={onDone}>
          Cancel
        </button>
      </div>
      <div className="logo-actions">
        <button type="button" className="button" disabled={busy} onClick={() => file.current?.click()}>
          Upload image
        </button>
        {hasImage && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => {
              only(remove);
              remove.mutate();
            }}
          >
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
          if (!chosen) return;
          only(upload);
          upload.mutate(chosen);
        }}
      />
      <p className="logo-hint">PNG, JPEG or GIF, at most 512 KB.</p>
      {failure && (
        <p className="logo-errors" role="alert">
          {failureText(failure)}
        </p>
      )}
    </form>
  );
}
