// Before a bulk job's unknown items are sent again: the keys as the service has them now (its current state,
// not a record of what the unanswered request did, and the screen says so).
import { useState } from 'react';
import type { JobSummary } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import { fmt, NOUNS } from '../lib/format.ts';
import { useKeydesk } from '../store/index.ts';
import { UNKNOWN_CHECK_MAX } from '../store/keys.ts';
import type { UnknownCheck } from '../store/types.ts';
import { KeyExpiry } from '../views/Keys/Lookup.tsx';
import { KeyBadges } from './Badge.tsx';
import { FailureMessage } from './FailureMessage.tsx';
import { ServiceText } from './ServiceText.tsx';
import { Time } from './Time.tsx';

type CheckState =
  | { status: 'idle' }
  | { status: 'loading'; version: number }
  | { status: 'error'; version: number; failure: Failure }
  | { status: 'ready'; version: number; result: UnknownCheck };
const IDLE: CheckState = { status: 'idle' };

/** The check of a job's unknown keys: its answer shows only while the job is as it was when asked. */
export function useUnknownCheck(job: JobSummary): { state: CheckState; run: () => void } {
  const check = useKeydesk((s) => s.checkUnknownKeys);
  const [state, setState] = useState<CheckState>(IDLE);
  const run = () => {
    const version = job.version;
    setState({ status: 'loading', version });
    void check(job.id).then((r) => {
      // Another profile is active now: nothing of this job is shown any more.
      if (r === null) setState(IDLE);
      else setState('failure' in r ? { status: 'error', version, failure: r.failure } : { status: 'ready', version, result: r });
    });
  };
  return { state: state.status !== 'idle' && state.version === job.version ? state : IDLE, run };
}

/** The start of a "send again?" dialog: what happened to the requests, in the number they are. */
export const sentOnceWords = (unknown: number): string =>
  unknown === 1
    ? 'It was sent once and no answer came back, so it may already have taken effect.'
    : 'Each was sent once and no answer came back, so it may already have taken effect.';

/** What the dialog says the check does, for a job whose unknown items are keys (not a generate job's batches). */
export const checkFirstWords = (job: JobSummary): string =>
  `“Check these keys first” reads ${job.counts.unknown > UNKNOWN_CHECK_MAX ? `the first ${String(UNKNOWN_CHECK_MAX)} of them` : job.counts.unknown === 1 ? 'the key' : 'each of them'} as the service has ${job.counts.unknown === 1 ? 'it' : 'them'} now, so you can see whether the request took effect before sending it again.`;

/** How to read the keys now, per action. */
function hint(job: JobSummary): string {
  if (job.action === 'extend') {
    return `an expiry already ${job.days === null ? 'moved on' : `${fmt.count(job.days, NOUNS.day)} later than before`} means that extension took effect, and sending it again would extend the key a second time`;
  }
  if (job.action === 'resetHwid')
    return 'a key bound to no machine now has been reset (or was never bound); sending the reset again would clear a machine bound since';
  if (job.action === 'edit') return 'a key that shows the new values has been edited; sending the edit again sets the same values';
  return '“not found” means the key is gone from the service, deleted by that request or otherwise';
}

export function UnknownCheckResult({ job, state }: { job: JobSummary; state: CheckState }) {
  if (state.status === 'idle') return null;
  if (state.status === 'loading') {
    return (
      <p role="status">Reading {job.counts.unknown === 1 ? 'the key' : 'the keys'} sent with no answer from the service, one at a time…</p>
    );
  }
  if (state.status === 'error') {
    return (
      <div>
        <p className="muted">The keys sent with no answer could not be read now:</p>
        <FailureMessage failure={state.failure} />
      </div>
    );
  }
  const { read, keys, total } = state.result;
  return (
    <section className="unknown-check" aria-label="Keys sent with no answer, as the service has them now">
      <p role="status">
        As the service has {keys.length === 1 ? 'this key' : 'these keys'} now, read at <Time iso={read.at} mode="time" />: {hint(job)}.
        This is each key’s state now, not a record of what the unanswered request did
        {total > keys.length ? `; the first ${fmt.number(keys.length)} of ${fmt.number(total)} (export the results for all)` : ''}.
      </p>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Now</th>
              <th scope="col">Expires</th>
              <th scope="col">HWID</th>
            </tr>
          </thead>
          <tbody>
            {keys.map(({ value, key }) => (
              <tr key={value}>
                <td className="mono wrap">
                  <ServiceText text={value} />
                </td>
                {key ? (
                  <>
                    <td>
                      <KeyBadges status={key.status} isPremium={key.isPremium} expiresAt={key.expiresAt} hwid={key.hwid} />
                    </td>
                    <td>
                      <KeyExpiry k={key} />
                    </td>
                    <td className="mono wrap">{key.hwid ? <ServiceText text={key.hwid} /> : '—'}</td>
                  </>
                ) : (
                  <td colSpan={3}>Not found: the service has it neither active nor generated.</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
