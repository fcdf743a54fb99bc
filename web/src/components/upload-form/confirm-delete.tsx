import { useState, type ReactNode } from "react";
import { Modal } from "../modal/modal";

export interface ConfirmDeleteOptions<T> {
  /** The dialog's title (spec texts: 'Delete Library', 'Delete Theme', ...). */
  title: string;
  /** The question, e.g. "Are you sure you want to delete '{name}'?". */
  message: (item: T) => ReactNode;
  /** Runs when Delete is pressed (the dialog is closed first). */
  onConfirm: (item: T) => void;
}

/** The confirm-delete step the admin lists share: `ask(item)` opens the danger dialog with
 * Delete and Cancel; render `dialog` once in the page. */
export function useConfirmDelete<T>({ title, message, onConfirm }: ConfirmDeleteOptions<T>) {
  const [item, setItem] = useState<T | null>(null);
  const close = () => setItem(null);
  const dialog = item === null ? null : (
    <Modal
      title={title}
      tone="danger"
      onClose={close}
      footer={
        <>
          <button
            type="button"
            className="button danger-button"
            onClick={() => {
              close();
              onConfirm(item);
            }}
          >
            Delete
          </button>
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
        </>
      }
    >
      <p>{message(item)}</p>
    </Modal>
  );
  // setItem is stable, so column definitions that call ask need not be rebuilt.
  return { ask: setItem as (item: T) => void, dialog };
}

/** A row's Delete button (red outline), named for the row it deletes. */
export function DeleteButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <button type="button" className="button danger-button" aria-label={`Delete ${name}`} onClick={onClick}>
      Delete
    </button>
  );
}
