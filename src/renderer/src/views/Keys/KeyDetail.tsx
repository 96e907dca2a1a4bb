import { useEffect, useRef, useState } from 'react';
import { schemas } from '../../../../shared/rules.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Field } from '../../components/Field.tsx';
import { useKeydesk } from '../../store/index.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
/** What a field shows when the service's dialect leaves it out: never a blank or a default posing as data. */
const NOT_REPORTED = 'not reported by this service';

export function KeyDetail() {
  const key = useKeydesk((s) => s.selectedKey);
  const busy = useKeydesk((s) => s.keyAction === 'loading');
  const error = useKeydesk((s) => s.keyActionError);
  const extendKey = useKeydesk((s) => s.extendKey);
  const resetHwid = useKeydesk((s) => s.resetHwid);
  const deleteKey = useKeydesk((s) => s.deleteKey);
  const [days, setDays] = useState('30');
  const [daysError, setDaysError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const card = useRef<HTMLElement>(null);
  const shown = key?.value;

  // The detail sits below the results: a key picked there is brought into view.
  useEffect(() => {
    if (shown !== undefined) card.current?.scrollIntoView({ block: 'nearest' });
  }, [shown]);

  if (!key) {
    return (
      <aside ref={card} className="card" aria-label="Key detail">
        <p className="muted">Select a key to see every field and act on it.</p>
      </aside>
    );
  }
  const unreported = new Set(key.unreported);
  const told = (field: NonNullable<typeof key.unreported>[number], shown: string) => (unreported.has(field) ? NOT_REPORTED : shown);
  const expires = key.expiresAt
    ? when(key.expiresAt)
    : key.expiresByDaysKey
      ? `${key.daysKey ?? '?'} days after activation`
      : unreported.has('daysKey')
        ? `from activation (the number of days is ${NOT_REPORTED})`
        : '—';
  const fields: [string, string][] = [
    ['Value', key.value],
    ['Status', told('status', key.status)],
    ['Note', key.note || '—'],
    ['Premium', key.isPremium ? 'Yes' : 'No'],
    ['Expires', expires],
    ['HWID', key.hwid ?? '—'],
    ['Created', told('createdAt', when(key.createdAt))],
    ['Activated', told('activatedAt', when(key.activatedAt))],
    ['Last HWID reset', told('lastResetAt', when(key.lastResetAt))],
    ['Id', told('id', key.id)],
  ];
  return (
    <aside ref={card} className="card" aria-labelledby="detail-title">
      <h2 id="detail-title">Key detail</h2>
      <dl className="detail">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={label === 'Value' || label === 'HWID' ? 'mono' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      {error && (
        <p role="alert" className="error">
          {error.message}
          {error.retryAfterSeconds !== undefined ? ` (about ${Math.ceil(error.retryAfterSeconds / 60)} min left)` : ''}
        </p>
      )}
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = schemas.days.safeParse(days.trim() === '' ? undefined : Number(days));
          if (!parsed.success) {
            setDaysError(parsed.error.issues[0]?.message ?? 'Enter a number of days.');
            return;
          }
          setDaysError(null);
          void extendKey(key.value, parsed.data);
        }}
      >
        <Field label="Extend by days" inputMode="numeric" value={days} error={daysError} onChange={(e) => { setDays(e.target.value); }} />
        <button type="submit" disabled={busy}>
          Extend
        </button>
      </form>
      <div className="actions">
        <button type="button" disabled={busy || key.status !== 'active'} onClick={() => void resetHwid(key.value)}>
          Reset HWID
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => { setConfirming(true); }}>
          Delete key
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Delete this key?"
        body={`${key.value} will stop working at once. This cannot be undone.`}
        confirmLabel="Delete"
        destructive
        onCancel={() => { setConfirming(false); }}
        onConfirm={() => {
          setConfirming(false);
          void deleteKey(key);
        }}
      />
    </aside>
  );
}
