import type { Failure } from '../../../shared/result.ts';
import { plain } from '../lib/words.ts';

/**
 * Under a failure to reach the active profile's service shown after the service answers again (the banner gone):
 * the failure is of the moment it was made, not of now. Only for calls to the active profile's service, which
 * count it unreachable until it answers again (store/context.ts).
 */
export function backOnlineNote(failure: Failure, online: boolean): string | undefined {
  return online && (failure.code === 'NETWORK' || failure.code === 'TIMEOUT')
    ? 'That was while the service could not be reached; it answers again now. Try again.'
    : undefined;
}

/**
 * A failure as a vendor reads it: the message first, announced; the technical detail (HTTP status, redacted
 * URL, the service's own words) under a "Details" disclosure, closed until asked for.
 */
export function FailureMessage({ failure, stale }: { failure: Failure; stale?: string | undefined }) {
  return (
    <div role="alert" className="failure">
      <p className="error">
        {plain(failure.message)}
        {failure.retryAfterSeconds !== undefined && !failure.message.includes('Try again in ') ? ` (about ${Math.max(1, Math.ceil(failure.retryAfterSeconds / 60)).toLocaleString()} min left)` : ''}
      </p>
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
