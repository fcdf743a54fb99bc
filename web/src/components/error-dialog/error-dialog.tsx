import { Modal } from "../modal/modal";
import { useLabels } from "../../i18n/labels";
import { errorFields, fieldMessages, type ErrorDialog as ErrorDialogModel } from "../../lib/wasm";

export interface ErrorDialogProps {
  /** What wasm-core's describeHttpError made of a failed call (spec 01 §8). */
  error: ErrorDialogModel;
  /** Overrides the title, e.g. 'Login Error' (spec 02 §8). */
  title?: string;
  onClose: () => void;
}

export function ErrorDialog({ error, title, onClose }: ErrorDialogProps) {
  const { t, tMessage } = useLabels();
  const fields = errorFields(error.Errors);
  return (
    <Modal
      title={title ?? tMessage(error.Title)}
      tone="danger"
      onClose={onClose}
      footer={
        <button type="button" className="button button-primary" onClick={onClose}>
          {t("Dialog_OK")}
        </button>
      }
    >
      <p className="error-message">{tMessage(error.Message)}</p>
      {fields.length > 0 && (
        <ul className="error-fields">
          {fields.flatMap((field) => fieldMessages(error.Errors, field).map((m) => <li key={field + m}>{tMessage(m)}</li>))}
        </ul>
      )}
      {error.ErrorId && (
        <p className="error-id">
          {t("Dialog_ErrorId")} <code>{error.ErrorId}</code>. {t("Dialog_ErrorIdHelp")}
        </p>
      )}
      {error.StackTrace && (
        <details className="error-stack">
          <summary>{t("Dialog_StackTrace")}</summary>
          <pre>{error.StackTrace}</pre>
        </details>
      )}
    </Modal>
  );
}
