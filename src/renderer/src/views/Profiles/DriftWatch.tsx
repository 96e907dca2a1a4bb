// A remote profile's change watch: when its answers were last checked, the last change in their shape (fields
// gained or lost, both raw answers), what Keydesk can no longer read, and a button to check now.
import { useEffect, useState } from 'react';
import type { DriftStatus, Profile } from '../../../../shared/domain.ts';
import type { Failure } from '../../../../shared/result.ts';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { fmt } from '../../lib/format.ts';
import { useKeydesk } from '../../store/index.ts';

const words = (items: string[]): string => items.join(', ');

export function DriftWatch({ profile }: { profile: Profile }) {
  const load = useKeydesk((s) => s.loadDrift);
  const check = useKeydesk((s) => s.checkDrift);
  const [status, setStatus] = useState<DriftStatus | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void load(profile.id).then((r) => {
      if (live) setStatus(r);
    });
    return () => {
      live = false;
    };
  }, [load, profile.id]);
  const run = async () => {
    setBusy(true);
    const r = await check(profile.id);
    setBusy(false);
    if ('ok' in r) setFailure(r);
    else {
      setFailure(null);
      setStatus(r);
    }
  };
  return (
    <div className="drift" role="region" aria-label={`Answer changes on ${profile.name}`}>
      <p className="muted">
        Keydesk checks once a day, with reads that change nothing, whether {profile.name}&rsquo;s answers still have the fields it knows.{' '}
        {status?.checkedAt ? `Last checked ${fmt.dateTime(status.checkedAt)}.` : 'Not checked yet.'}
      </p>
      <button type="button" disabled={busy} onClick={() => void run()}>
        {busy ? 'Checking…' : 'Check for changes now'}
      </button>
      {failure && <FailureMessage failure={failure} />}
      {status && status.changes.length > 0 && status.changedAt && (
        <div role="status" aria-label="Last change seen">
          <p>
            <strong>The service&rsquo;s answers changed</strong> ({fmt.dateTime(status.changedAt)}).
          </p>
          {status.changes.map((c) => (
            <details key={c.read}>
              <summary>
                The answer to {c.read}
                {c.gained.length > 0 && ` gained ${words(c.gained)}`}
                {c.gained.length > 0 && c.lost.length > 0 && ' and'}
                {c.lost.length > 0 && ` lost ${words(c.lost)}`}
                {c.retyped.length > 0 && `; types changed: ${words(c.retyped)}`}.
              </summary>
              <p>Before</p>
              <pre tabIndex={0}>
                <code>{c.before}</code>
              </pre>
              <p>After</p>
              <pre tabIndex={0}>
                <code>{c.after}</code>
              </pre>
            </details>
          ))}
        </div>
      )}
      {status && status.unreadable.length > 0 && (
        <p role="note">Keydesk goes on working by its tolerance rules, but can no longer read {status.unreadable.join('; ')}.</p>
      )}
      {status && status.unanswered.length > 0 && <p className="muted">No answer at the last check for {status.unanswered.join('; ')}</p>}
    </div>
  );
}
