import { useEffect, useId, useRef } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  destructive?: boolean;
  /** False when there is nothing to confirm (the body says why): only the cancel button, which `cancelLabel` names. */
  confirmable?: boolean;
  cancelLabel?: string;
  /** A third way out, beside cancel and confirm (a check before the yes, say): closes nothing by itself. */
  other?: { label: string; onClick: () => void };
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before anything destructive. Native <dialog>: focus is trapped and Esc cancels. */
export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel,
  destructive,
  confirmable = true,
  cancelLabel = 'Cancel',
  other,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // One id per dialog: two dialogs on a view must not share the element that names them.
  const titleId = useId();
  // One yes per opening: a double click (or Enter held) must not ask for the action twice.
  const answered = useRef(false);
  /** What had the focus when the dialog opened: it takes it back on close, unless the focus has moved on meanwhile. */
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open) answered.current = false;
    if (open && !d.open) {
      opener.current = document.activeElement;
      d.showModal();
    }
    if (!open && d.open) {
      d.close();
      const at = document.activeElement;
      if (opener.current instanceof HTMLElement && (at === null || at === document.body || d.contains(at))) opener.current.focus();
    }
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onCancel={onCancel}>
      <h2 id={titleId}>{title}</h2>
      <p>{body}</p>
      <div className="actions">
        <button type="button" onClick={onCancel} autoFocus={!confirmable}>
          {cancelLabel}
        </button>
        {other && (
          <button type="button" onClick={other.onClick}>
            {other.label}
          </button>
        )}
        {confirmable && (
          <button
            type="button"
            className={destructive ? 'danger' : 'primary'}
            onClick={() => {
              if (answered.current) return;
              answered.current = true;
              onConfirm();
            }}
            autoFocus
          >
            {confirmLabel}
          </button>
        )}
      </div>
    </dialog>
  );
}
