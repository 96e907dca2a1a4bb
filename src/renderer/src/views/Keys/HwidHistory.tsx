// The key panel's HWID history: every binding, reset and HWID Keydesk saw for the key, and the next reset allowed.
import { useEffect, useState } from 'react';
import type { HwidEvent } from '../../../../shared/domain.ts';
import { ServiceText } from '../../components/ServiceText.tsx';
import { Time } from '../../components/Time.tsx';
import { useKeydesk } from '../../store/index.ts';

const KIND_WORDS: Readonly<Record<HwidEvent['kind'], string>> = {
  bound: 'Bound',
  changed: 'Bound to another machine',
  cleared: 'No HWID',
  seen: 'Seen bound',
  reset: 'Reset',
  validated: 'Validated',
  mismatch: 'Refused: another machine',
  cooldown: 'Reset refused: cooldown',
};

export function HwidHistory({ keyValue }: { keyValue: string }) {
  const history = useKeydesk((s) => (s.hwidHistory?.keyValue === keyValue ? s.hwidHistory.events : null));
  const request = useKeydesk((s) => s.hwidHistoryRequest);
  const load = useKeydesk((s) => s.loadHwidHistory);
  // Read again whenever the panel's key is read again: an act or a refresh may have added to it.
  const readSeq = useKeydesk((s) => s.selectedRead?.seq);
  // Read and shown once opened: the panel's other fields (its HWID) stay the only ones on it until asked.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open) void load(keyValue);
  }, [open, keyValue, readSeq, load]);
  // The newest word on resets: a cooldown refusal names when the next is allowed, until a reset comes after it.
  const lastWord = history?.find((e) => e.kind === 'cooldown' || e.kind === 'reset');
  const next = lastWord?.kind === 'cooldown' ? lastWord : undefined;
  return (
    <details className="hwid-history" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>HWID history</summary>
      {open && (
        <>
          {next?.nextResetAt && (
            <p role="status">
              Next reset allowed <Time iso={next.nextResetAt} />.
            </p>
          )}
          {request.status === 'error' && <p className="error">The history could not be read: {request.error?.message}</p>}
          {history && history.length === 0 && <p className="muted">Keydesk has seen no HWID for this key yet.</p>}
          {history && history.length > 0 && (
            <ol className="hwid-events" aria-label="HWID history">
              {history.map((e, i) => (
                <li key={`${e.at}-${i}`}>
                  <Time iso={e.at} /> · {KIND_WORDS[e.kind]}
                  {e.hwid && (
                    <>
                      {' '}
                      <span className="mono">
                        <ServiceText text={e.hwid} />
                      </span>
                    </>
                  )}{' '}
                  <span className="muted">({e.source})</span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </details>
  );
}
