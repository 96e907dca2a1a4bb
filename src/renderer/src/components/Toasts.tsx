import { useKeydesk } from '../store/index.ts';

/** Brief confirmations and errors, announced politely, dismissable. */
export function Toasts() {
  const toasts = useKeydesk((s) => s.toasts);
  const dismiss = useKeydesk((s) => s.dismiss);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.kind}`}>
          <span>{t.text}</span>
          <button
            type="button"
            aria-label="Dismiss"
            onClick={() => {
              dismiss(t.id);
            }}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
