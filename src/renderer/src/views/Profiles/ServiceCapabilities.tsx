// What a service can do: each optional endpoint present, absent or unknown, with when it was checked, and the check.
import { useEffect } from 'react';
import { OPTIONAL_ENDPOINTS, type Profile } from '../../../../shared/domain.ts';
import { Time } from '../../components/Time.tsx';
import { ENDPOINT_WORDS, STATE_WORDS } from '../../lib/capabilities.ts';
import { useKeydesk } from '../../store/index.ts';

/** The capabilities of `profile` as a small table; `checkable` adds "Check this service" (Profiles). */
export function ServiceCapabilities({ profile, checkable }: { profile: Pick<Profile, 'id' | 'name'>; checkable: boolean }) {
  const known = useKeydesk((s) => s.capabilities[profile.id]);
  const load = useKeydesk((s) => s.loadCapabilities);
  const check = useKeydesk((s) => s.checkCapabilities);
  const checking = useKeydesk((s) => s.capabilityCheckRequest.status === 'loading' && s.capabilityCheckOf === profile.id);
  useEffect(() => {
    if (known === undefined) void load(profile.id);
  }, [known, load, profile.id]);
  const rows = OPTIONAL_ENDPOINTS.map((e) => [e, known?.[e]] as const);
  const never = rows.every(([, c]) => c === undefined);
  return (
    <div className="capabilities" aria-label={`What ${profile.name} can do`} role="group">
      <p className="muted">Optional endpoints (seen in vendors&apos; tools, not in the service&apos;s docs):</p>
      {never ? (
        <p className="muted">Not checked yet.</p>
      ) : (
        <table className="capability-table">
          <tbody>
            {rows.map(([endpoint, c]) => (
              <tr key={endpoint} data-endpoint={endpoint} data-state={c?.state ?? 'unchecked'}>
                <th scope="row">{ENDPOINT_WORDS[endpoint]}</th>
                <td>{c ? STATE_WORDS[c.state] : 'Not checked'}</td>
                <td className="muted">
                  {c && (
                    <>
                      {c.evidence} Checked <Time iso={c.checkedAt} mode="relative" />.
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {checkable && (
        <button type="button" disabled={checking} onClick={() => void check(profile.id)}>
          {checking ? 'Checking…' : 'Check this service'}
        </button>
      )}
    </div>
  );
}
