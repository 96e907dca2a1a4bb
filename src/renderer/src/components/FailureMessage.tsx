import type { Failure } from '../../../shared/result.ts';
import { plain } from '../lib/words.ts';

/**
 * A failure as a vendor reads it: the message first, announced; the technical detail (HTTP status, redacted
 * URL, the service's own words) under a "Details" disclosure, closed until asked for.
 */
export function FailureMessage({ failure, stale }: { failure: Failure; stale?: string | undefined }) {
  return (
    <div role="alert" className="failure">
      <p className="error">
        {plain(failure.message)}
        {failure.retryAfterSeconds !== undefined ? ` (about ${Math.max(1, Math.ceil(failure.retryAfterSeconds / 60)).toLocaleString()} min left)` : ''}
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
