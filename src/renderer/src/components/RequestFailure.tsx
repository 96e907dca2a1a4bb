import type { ReactNode } from 'react';
import type { RequestState } from '../store/request.ts';
import { useKeydesk } from '../store/index.ts';
import { FailureMessage } from './FailureMessage.tsx';
import { Time } from './Time.tsx';

/** A request's failure with its time, marked as from before once the service has answered a later request. */
export function RequestFailure({ request, what, again }: { request: RequestState; what: ReactNode; again: string }) {
  const { error, failedAt } = request;
  /** The service answered a request after this one failed: the failure is of its moment, not of now. */
  const answeredSince = useKeydesk((s) =>
    failedAt && s.serviceAnswered && s.serviceAnswered.seq > failedAt.seq ? s.serviceAnswered : null,
  );
  if (!error) return null;
  // Refused before anything was sent: the message says what to change, and "failed at" would suggest a try.
  const unsent = error.code === 'INVALID_INPUT' || error.code === 'NEEDS_CONFIRMATION';
  return (
    <FailureMessage
      failure={error}
      when={
        failedAt &&
        !unsent && (
          <>
            {/* An answer lost or unread may have taken effect (a validation may have activated the key): never "failed". */}
            {what} {error.code === 'OUTCOME_UNKNOWN' ? 'ended with its outcome unknown' : 'failed'} at{' '}
            <Time iso={failedAt.at} mode="time" />.
          </>
        )
      }
      stale={
        answeredSince &&
        error.keydeskGone !== true &&
        (error.code === 'NETWORK' || error.code === 'TIMEOUT' ? (
          <>
            That was while the service could not be reached; it has answered since, at <Time iso={answeredSince.at} mode="time" />: {again}.
          </>
        ) : (
          <>
            The service has answered since, at <Time iso={answeredSince.at} mode="time" />: {again} to see whether it still fails.
          </>
        ))
      }
    />
  );
}
