import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useKeydesk } from '../store/index.ts';
import { marked } from '../lib/text.ts';
import type { Toast } from '../store/index.ts';

/** How long a success stays once nothing holds it (the pointer over it, or the focus in it). */
export const SUCCESS_MS = 6_000;

/** At most this many on screen; older ones fold into one "N more" button, so the pile stays small. */
export const TOASTS_SHOWN = 3;

/** Confirmations (polite, leave after a few seconds unless hovered) and errors (alerts, stay until dismissed or untrue). */
export function Toasts() {
  const toasts = useKeydesk((s) => s.toasts);
  const [unfolded, setUnfolded] = useState(false);
  const newest = new Set(
    toasts
      .map((t) => t.id)
      .sort((a, b) => b - a)
      .slice(0, TOASTS_SHOWN),
  );
  const shown = unfolded ? toasts : toasts.filter((t) => newest.has(t.id));
  const folded = toasts.length - newest.size;
  const errors = shown.filter((t) => t.kind === 'error');
  const successes = shown.filter((t) => t.kind === 'success');
  return (
    <div className="toasts">
      {folded > 0 && (
        <button type="button" className="toasts-fold" aria-expanded={unfolded} onClick={() => setUnfolded(!unfolded)}>
          {unfolded ? 'Show fewer' : `${String(folded)} more`}
        </button>
      )}
      <div role="alert" aria-label="Errors" className="toast-group">
        {errors.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </div>
      <div role="status" aria-label="Notifications" className="toast-group">
        {successes.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </div>
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useKeydesk((s) => s.dismiss);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const self = useRef<HTMLDivElement>(null);
  const held = hovered || focused;
  // A success counts down only while nothing holds it; leaving starts the full time again.
  useEffect(() => {
    if (toast.kind !== 'success' || held) return;
    const timer = setTimeout(() => dismiss(toast.id), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [toast.kind, toast.id, held, dismiss]);

  /** Dismissed from the keyboard: the focus goes to the next toast, else to the view's heading, never to nowhere. */
  const close = (byKeyboard: boolean) => {
    if (byKeyboard) {
      const buttons = [...document.querySelectorAll<HTMLButtonElement>('.toasts .toast button')];
      const mine = self.current?.querySelector('button');
      const next = buttons.find((b) => b !== mine) ?? document.querySelector<HTMLElement>('main h1');
      if (next) {
        if (next.tagName === 'H1' && !next.hasAttribute('tabindex')) next.setAttribute('tabindex', '-1');
        next.focus();
      }
    }
    dismiss(toast.id);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    close(true);
  };
  const textId = `toast-${String(toast.id)}`;
  return (
    <div
      ref={self}
      className={`toast ${toast.kind}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setFocused(false);
      }}
      onKeyDown={onKeyDown}
    >
      <span id={textId}>{marked(toast.text)}</span>
      <button
        type="button"
        aria-label="Dismiss"
        aria-describedby={textId}
        title="Dismiss (Esc)"
        onClick={(e) => {
          // A click from the keyboard (Enter/Space) has no pointer position: it moves the focus on.
          close(e.detail === 0);
        }}
      >
        ×
      </button>
    </div>
  );
}
