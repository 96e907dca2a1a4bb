// Where an action needs an optional endpoint the capability check has not found: why it is not offered, and the check.
import type { Capability } from '../../../shared/domain.ts';
import { useKeydesk } from '../store/index.ts';
import { Time } from './Time.tsx';

/** `what` completes "this service can …" ("edit keys"); the check runs again on the active profile. */
export function NotOffered({ capability, what }: { capability: Capability | undefined; what: string }) {
  const profileId = useKeydesk((s) => s.activeProfileId);
  const check = useKeydesk((s) => s.checkCapabilities);
  const checking = useKeydesk((s) => s.capabilityCheckRequest.status === 'loading' && s.capabilityCheckOf === profileId);
  if (capability?.state === 'absent') {
    return (
      <p className="muted" data-testid="not-offered">
        This service cannot {what} (checked <Time iso={capability.checkedAt} mode="relative" />
        ).
      </p>
    );
  }
  return (
    <p className="muted" data-testid="not-offered">
      {capability === undefined ? (
        <>Keydesk has not yet checked whether this service can {what}. </>
      ) : (
        <>
          Keydesk could not tell whether this service can {what} (checked <Time iso={capability.checkedAt} mode="relative" />
          ).{' '}
        </>
      )}
      {profileId && (
        <button type="button" className="link" disabled={checking} onClick={() => void check(profileId)}>
          {checking ? 'Checking…' : 'Check now'}
        </button>
      )}
    </p>
  );
}
