// A job main is getting ready to run, with how long that has taken so far (it can be a minute: see startingLine);
// a job's line, with how long its service has not answered while it does not.
import { useEffect, useState } from 'react';
import { isLive, isStarting, jobLine, notAnsweringSince, startingLine, stateNotKnownLine } from '../lib/jobs.ts';
import { useKeydesk } from '../store/index.ts';
import type { JobAction, JobSummary } from '../../../shared/domain.ts';

const TICK_MS = 1_000;

/** A time so far: "12 s", "1 min 5 s", "1 h 2 min". */
function elapsedWords(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** `words` of the time since `since` (ms since the epoch), moving every second. */
function Elapsed({ since, words }: { since: number; words: (elapsed: string) => string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  // Not announced every second inside the status line it sits in: read when a reader goes to it.
  return <span aria-hidden="true">{words(elapsedWords(Math.max(0, now - since)))}</span>;
}

/** " 12 s so far." after `since` (ms since the epoch), moving every second. */
export const SoFar = ({ since }: { since: number }) => <Elapsed since={since} words={(elapsed) => ` ${elapsed} so far.`} />;

/** A job asked of main and not answered yet (this window's own start or resume). */
export function StartingLine({ starting }: { starting: { action: JobAction; days: number | null; since: number; resume: boolean } }) {
  return (
    <>
      {startingLine(starting)}
      <SoFar since={starting.since} />
    </>
  );
}

/** A job's bar: indeterminate before any answer, then the answers' share; still while Keydesk itself does not answer. */
export function JobProgress({ job, label }: { job: JobSummary; label: string }) {
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  const settled = job.counts.done + job.counts.failed + job.counts.unknown;
  return (
    <progress aria-label={label} max={job.total} value={job.state === 'running' && settled === 0 && !keydeskGone ? undefined : settled} />
  );
}

/** A job's line, with a moving time while main readies it or the service does not answer, so the screen is not stuck. */
export function JobLine({ job }: { job: JobSummary }) {
  const keydeskGone = useKeydesk((s) => s.keydeskGone !== null);
  const silentSince = notAnsweringSince(job);
  // Keydesk itself stopped answering: nothing about a job it ran can be said as current.
  if (keydeskGone && isLive(job)) return <>{stateNotKnownLine(job)}</>;
  return (
    <>
      {jobLine(job)}
      {isStarting(job) && job.startingSince !== undefined && <SoFar since={Date.parse(job.startingSince)} />}
      {silentSince !== null && <Elapsed since={silentSince} words={(elapsed) => ` No answer for ${elapsed}.`} />}
    </>
  );
}
