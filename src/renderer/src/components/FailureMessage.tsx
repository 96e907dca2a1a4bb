import type { ReactNode } from 'react';
import type { Failure } from '../../../shared/result.ts';
import { plain } from '../lib/words.ts';
import { useKeydesk } from '../store/index.ts';

/** Under a failure to reach the active service shown after it answers again: the failure is of then, not now. */
export function backOnlineNote(failure: Failure, online: boolean): string | undefined {
  // Keydesk's own core did not answer (not the service): nothing here is about the service, and nothing answers now.
  return online && failure.keydeskGone !== true && (failure.code === 'NETWORK' || failure.code === 'TIMEOUT')
    ? 'That was while the service could not be reached; it answers again now. Try again.'
    : undefined;
}

/** A failure as a vendor reads it: the message (announced), `when`, `stale`, and the technical detail under "Details". */
export function FailureMessage({ failure, when, stale }: { failure: Failure; when?: ReactNode; stale?: ReactNode }) {
  const view = useKeydesk((s) => s.view);
  const setView = useKeydesk((s) => s.setView);
  // A profile's API key is gone (kept for the session only, then a restart): the way to enter it again, from where
  // the person met the need (not on Profiles itself, where Edit is beside the words).
  const keyGone =
    failure.code === 'KEYCHAIN_UNAVAILABLE' && /^No API key is (stored|available)/.test(failure.message) && view !== 'profiles';
  return (
    <div role="alert" className="failure">
      <p className="error">
        {plain(failure.message)}
        {failure.retryAfterSeconds !== undefined && !failure.message.includes('Try again in ')
          ? ` (about ${Math.max(1, Math.ceil(failure.retryAfterSeconds / 60)).toLocaleString()} min left)`
          : ''}
      </p>
      {keyGone && (
        <p>
          <button type="button" onClick={() => setView('profiles')}>
            Go to Profiles
          </button>
        </p>
      )}
      {when && <p className="muted">{when}</p>}
      {stale && <p className="stale-note">{stale}</p>}
      {failure.detail && (
        <details>
          <summary>Details</summary>
          <pre>{failure.detail}</pre>
        </details>
      )}
    </div>
  );
}
