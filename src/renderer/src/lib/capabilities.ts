// What the active service can do, as the capability check last found it, in words for the views that offer an
// action needing an optional endpoint (wire.md, "Seen in vendors' code").
import { useEffect } from 'react';
import type { Capability, OptionalEndpoint } from '../../../shared/domain.ts';
import { useKeydesk } from '../store/index.ts';

export const ENDPOINT_WORDS: Readonly<Record<OptionalEndpoint, string>> = {
  keyEdit: 'Edit active keys',
  generatedKeyEdit: 'Edit generated keys (and any-machine keys)',
  publicReset: "End users' own HWID reset",
};

export const STATE_WORDS: Readonly<Record<Capability['state'], string>> = {
  present: 'Yes',
  absent: 'No',
  unknown: 'Unknown',
};

/** The active profile's capability for `endpoint` (undefined: never checked), read from main once per profile. */
export function useCapability(endpoint: OptionalEndpoint): Capability | undefined {
  const profileId = useKeydesk((s) => s.activeProfileId);
  const known = useKeydesk((s) => (profileId ? s.capabilities[profileId] : undefined));
  const load = useKeydesk((s) => s.loadCapabilities);
  useEffect(() => {
    if (profileId && known === undefined) void load(profileId);
  }, [profileId, known, load]);
  return known?.[endpoint];
}

/** Whether an action needing the endpoint is offered: only where the check found it (wire.md, optional endpoints). */
export const offered = (c: Capability | undefined): c is Capability => c?.state === 'present';
