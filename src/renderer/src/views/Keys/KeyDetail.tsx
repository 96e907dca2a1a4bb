import { useEffect, useRef, useState } from 'react';
import { schemas } from '../../../../shared/rules.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { KeyBadges } from '../../components/Badge.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import type { Key } from '../../../../shared/domain.ts';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { Field } from '../../components/Field.tsx';
import { Icon } from '../../components/Icon.tsx';
import { Time } from '../../components/Time.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { parseWhole } from '../../lib/numbers.ts';
import type { ReactNode } from 'react';
import { useKeydesk } from '../../store/index.ts';

/** What a field shows when the service's dialect leaves it out. */
const NOT_REPORTED = 'not reported by this service';

export function KeyDetail() {
  const key = useKeydesk((s) => s.selectedKey);
  if (!key) return null;
  // Keyed by the key: what was typed, and any complaint about it, belongs to the key it was typed for.
  return <KeyCard key={key.value} keyData={key} />;
}

function KeyCard({ keyData: key }: { keyData: Key }) {
  const busy = useKeydesk((s) => s.keyActionRequest.status === 'loading');
  const error = useKeydesk((s) => s.keyActionRequest.error);
  const extendKey = useKeydesk((s) => s.extendKey);
  const resetHwid = useKeydesk((s) => s.resetHwid);
  const deleteKey = useKeydesk((s) => s.deleteKey);
  const selectKey = useKeydesk((s) => s.selectKey);
  const [days, setDays] = useState('30');
  const [daysError, setDaysError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const card = useRef<HTMLElement>(null);

  // The panel opens beside the list; the key picked is brought into view within it.
  useEffect(() => {
    card.current?.scrollIntoView({ block: 'nearest' });
  }, []);

  // What the service's dialect leaves out is said, never shown as a blank or a default posing as data.
  const unreported = new Set(key.unreported);
  const told = (field: NonNullable<typeof key.unreported>[number], shown: ReactNode): ReactNode =>
    unreported.has(field) ? <span className="muted">{NOT_REPORTED}</span> : shown;
  const fields: [string, ReactNode][] = [
    [
      'Value',
      <span key="v" className="with-copy">
        <span className="mono">{key.value}</span>
        <CopyButton value={key.value} label={`Copy key ${key.value}`} />
      </span>,
    ],
    ['Status', told('status', <KeyBadges key="s" status={key.status} isPremium={key.isPremium} expiresAt={key.expiresAt} hwid={key.hwid} />)],
    ['Note', key.note || '—'],
    ['Premium', key.isPremium ? 'Yes' : 'No'],
    [
      'Expires',
      key.expiresAt ? (
        <Time key="e" iso={key.expiresAt} />
      ) : key.expiresByDaysKey ? (
        key.daysKey === null ? 'Days after activation' : `${fmt.count(key.daysKey, NOUNS.day)} after activation`
      ) : unreported.has('daysKey') ? (
        `From activation (the number of days is ${NOT_REPORTED})`
      ) : (
        '—'
      ),
    ],
    [
      'HWID',
      key.hwid ? (
        <span key="h" className="with-copy">
          <span className="mono">{key.hwid}</span>
          <CopyButton value={key.hwid} label={`Copy HWID ${key.hwid}`} />
        </span>
      ) : (
        'Not bound'
      ),
    ],
    ['Created', told('createdAt', <Time key="c" iso={key.createdAt} />)],
    ['Activated', told('activatedAt', <Time key="a" iso={key.activatedAt} />)],
    ['Last HWID reset', told('lastResetAt', <Time key="r" iso={key.lastResetAt} />)],
    ['Id', told('id', <span key="i" className="mono">{key.id}</span>)],
  ];
  return (
    <aside ref={card} className="card side-panel" aria-label="Key detail">
      <div className="side-panel-head">
        <h2 id="detail-title">Key detail</h2>
        <button type="button" className="icon-button" aria-label="Close the key detail" onClick={() => { selectKey(null); }}>
          <Icon name="cross" />
        </button>
      </div>
      <dl className="detail">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {error && <FailureMessage failure={error} />}
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = schemas.days.safeParse(days.trim() === '' ? undefined : parseWhole(days));
          if (!parsed.success) {
            setDaysError(parsed.error.issues[0]?.message ?? 'Enter a number of days.');
            return;
          }
          setDaysError(null);
          void extendKey(key.value, parsed.data);
        }}
      >
        <Field label="Extend by days" inputMode="numeric" value={days} error={daysError} onChange={(e) => { setDays(e.target.value); setDaysError(null); }} />
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
