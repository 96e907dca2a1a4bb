// All keys' notice of generates an earlier session stopped recording: some of their keys may be missing from the
// list. A noted one offers to look them up by their note (main records what it finds); each can be dismissed.
import { useEffect } from 'react';
import { Time } from '../../components/Time.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { useKeydesk } from '../../store/index.ts';

export function CutShortNotice() {
  const generates = useKeydesk((s) => s.cutShort);
  const busy = useKeydesk((s) => s.cutShortRequest.status === 'loading');
  const error = useKeydesk((s) => s.cutShortRequest.error);
  const load = useKeydesk((s) => s.loadCutShort);
  const find = useKeydesk((s) => s.findCutShort);
  const dismiss = useKeydesk((s) => s.dismissCutShort);
  const profileId = useKeydesk((s) => s.activeProfileId);
  useEffect(() => {
    if (profileId !== null) void load();
  }, [load, profileId]);
  if (generates.length === 0) return null;
  return (
    <div className="warning" role="status">
      {generates.map((g) => (
        <p key={g.id}>
          A generate of {fmt.count(g.count, NOUNS.key)} (<Time iso={g.at} />) was cut short while Keydesk recorded them: some may be missing
          here.{' '}
          {g.note === '' ? (
            'They have no note, so on the service they can be found by value only.'
          ) : (
            <>
              Their note: “{g.note}”.{' '}
              <button type="button" className="link" disabled={busy} onClick={() => void find(g.id)}>
                Look them up by their note
              </button>
            </>
          )}{' '}
          <button type="button" className="link" disabled={busy} onClick={() => void dismiss(g.id)}>
            Dismiss
          </button>
        </p>
      ))}
      {error && <p className="error">{error.message}</p>}
    </div>
  );
}
