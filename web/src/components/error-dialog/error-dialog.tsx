import { Modal } from "../modal/modal";
import { errorFields, fieldMessages, type ErrorDialog as ErrorDialogModel } from "../../lib/wasm";

export interface ErrorDialogProps {
  /** What wasm-core's describeHttpError made of a failed call (spec 01 §8). */
  error: ErrorDialogModel;
  /** Overrides the title, e.g. 'Login Error' (spec 02 §8). */
  title?: string;
  onClose: () => void;
}

export function ErrorDialog({ error, title, onClose }: ErrorDialogProps) {
  const fields = errorFields(error.Errors);
  return (
    <Modal
      title={title ?? error.Title}
      tone="danger"
      onClose={onClose}
      footer={
        <button type="button" className="button button-primary" onClick={onClose}>
          OK
        </button>
      }
    >
      <p className="error-message">{error.Message}</p>
      {fields.length > 0 && (
        <ul className="error-fields">
          {fields.flatMap((field) => fieldMessages(error.Errors, field).map((m) => <li key={field + m}>{m}</li>))}
        </ul>
      )}
      {error.ErrorId && (
        <p className="error-id">
          Error ID: <code>{error.ErrorId}</code>. Please contact the system administrator and quote this error ID.
        </p>
      )}
      {error.StackTrace && (
        <details className="error-stack">
          <summary>Stack trace</summary>
          <pre>{error.StackTrace}</pre>
        </details>
      )}
    </Modal>
  );
}
