import { useEffect, useId, useRef, type ReactNode } from "react";
import { useLabels } from "../../i18n/labels";
import "./modal.css";

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons shown at the bottom; the first one receives focus when the modal opens. */
  footer?: ReactNode;
  tone?: "default" | "danger";
}

/** An accessible modal dialog: labelled by its title, Escape closes, focus moves in on open,
 * stays inside while open (Tab wraps) and returns to the opener on close. */
export function Modal({ title, onClose, children, footer, tone = "default" }: ModalProps) {
  const { t } = useLabels();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>(".modal-footer button, button, [href], input");
    (first ?? panel.current)?.focus();
    return () => opener?.focus?.();
  }, []);

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === "Escape") {
      event.stopPropagation();
      closeRef.current();
    } else if (event.key === "Tab" && panel.current) {
      const focusable = [...panel.current.querySelectorAll<HTMLElement>("button, [href], input, select, textarea, summary")];
      if (focusable.length === 0) return;
      const [first, last] = [focusable[0], focusable[focusable.length - 1]];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  }

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={panel}
        className={`modal modal-${tone}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label={t("Dialog_Close")} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <div className="modal-body">{children}</div>
        {footer && <footer className="modal-footer">{footer}</footer>}
      </div>
    </div>
  );
}
