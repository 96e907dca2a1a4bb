// Progress and rate: the summary a job is shown by (stored, starting, running or ended unwritten), and the
// progress events that say it while a run goes on, at most every PROGRESS_EVERY_MS.
import type { JobItemState, JobSummary } from '../../shared/domain.ts';
import type { StoredJob } from '../store/local-db.ts';
import { ceilingOf, isCurrent, type Engine } from './engine.ts';
import type { JobParams, Run } from './run.ts';

/** Progress events at most this often while a job runs (and always on a change of state). */
const PROGRESS_EVERY_MS = 100;
/** Completions counted for the rate shown. */
const RATE_WINDOW_MS = 5_000;

/** Completions for the rate shown, in buckets of PROGRESS_EVERY_MS: a few dozen entries, not one per answer. */
export function countCompletion(run: Run, at: number, size: number): void {
  run.pace.answered += size;
  const last = run.pace.completions.at(-1);
  if (last && at - last.at < PROGRESS_EVERY_MS) {
    last.size += size;
    last.answers++;
  } else run.pace.completions.push({ at, size, answers: 1 });
}

/**
 * A progress event, at most every PROGRESS_EVERY_MS unless `force`: one held back is sent once that has passed, so
 * the last change is always said. The service starting or ending not to answer is said at once.
 */
export function emit(e: Engine, run: Run, force: boolean): void {
  // Closed (quitting): a run still waiting on a hung request says nothing more to a core that is gone.
  if (e.closed || !isCurrent(e, run)) return;
  const now = e.clock.now();
  const wait = PROGRESS_EVERY_MS - (now - run.said.lastAt);
  const silent = !run.stop && run.control.silentSince(now) !== null;
  if (!force && wait > 0 && silent === run.said.silent) {
    run.said.trailing ??= setTimeout(() => {
      run.said.trailing = null;
      emit(e, run, true);
    }, wait);
    return;
  }
  clearTimeout(run.said.trailing ?? undefined);
  run.said.trailing = null;
  run.said.lastAt = now;
  const summary = summarize(e, run.job, run);
  run.said.silent = summary.notAnswering !== undefined;
  e.deps.emit(summary);
}

/**
 * Arms the `silence` timer for when the service would count as not answering, as nothing else happens then. One
 * per run, re-armed when it fires early (answers came meanwhile); none with nothing in flight.
 */
export function watchSilence(e: Engine, run: Run): void {
  if (run.said.silence !== null || run.stop) return;
  const now = e.clock.now();
  const at = run.control.silentAt(now);
  if (at === null) return;
  run.said.silence = setTimeout(
    () => {
      run.said.silence = null;
      if (!isCurrent(e, run) || run.stop) return;
      if (run.control.silentSince(e.clock.now()) === null) watchSilence(e, run);
      else if (!run.said.silent) emit(e, run, true);
    },
    Math.max(0, at - now) + 1,
  );
}

/** A running job's rate, time left, pause and silence, as the screen shows them. */
function pace(
  run: Run,
  counts: JobSummary['counts'],
  now: number,
): Pick<JobSummary, 'ratePerSecond' | 'etaSeconds' | 'pausedUntil' | 'notAnswering'> {
  const { completions } = run.pace;
  while (completions.length > 0 && (completions[0]?.at ?? 0) < now - RATE_WINDOW_MS) completions.shift();
  let ratePerSecond: number | null = null;
  let etaSeconds: number | null = null;
  const first = completions[0];
  if (first && (completions.length > 1 || first.answers > 1)) {
    const span = Math.max(now - first.at, 250);
    ratePerSecond = (completions.reduce((sum, c) => sum + c.size, 0) / span) * 1000;
    const left = counts.pending + counts.sent + (run.retryUnknown ? counts.unknown : 0);
    etaSeconds = ratePerSecond > 0 ? Math.ceil(left / ratePerSecond) : null;
  }
  const until = run.control.pausedUntil(now);
  const pausedUntil = until === null ? null : new Date(Date.now() + (until - now)).toISOString();
  const silent = run.stop ? null : run.control.silentSince(now);
  const notAnswering =
    silent === null ? undefined : { since: new Date(Date.now() - (now - silent)).toISOString(), awaiting: run.wire.inflight };
  // Waiting for a service that does not answer: nothing goes out, so no rate or time left is true.
  if (silent !== null) {
    ratePerSecond = null;
    etaSeconds = null;
  }
  return { ratePerSecond, etaSeconds, pausedUntil, notAnswering };
}

/**
 * A job as the screen shows it: `run` while it runs, else as stored (or as its unwritten end, or starting).
 * `written`: its counts as the writer just wrote them, so main need not read its items.
 */
export function summarize(e: Engine, stored: StoredJob, run: Run | null, written?: Record<JobItemState, number>): JobSummary {
  // A run's end not yet in the file is shown as the run ended, not as the file's "running".
  const kept = run === null ? e.ends.get(stored.id) : undefined;
  const job = kept ? { ...stored, state: kept.end.state, reason: kept.end.reason, finishedAt: kept.end.finishedAt } : stored;
  const params = JSON.parse(job.params) as JobParams;
  const counts = run ? { ...run.counts } : kept ? { ...kept.counts } : (written ?? storedCounts(e, job));
  // Reserved to run and getting ready (JobService.run): main is not done with it, whatever state it stopped in.
  // Cancelled meanwhile: cancelling until its end is written.
  const starting = run ? undefined : e.starting.get(job.id);
  const since = starting?.cancelled === false ? starting.since : undefined;
  const cancelling = starting?.cancelled === true;
  const { ratePerSecond, etaSeconds, pausedUntil, notAnswering } = run
    ? pace(run, counts, e.clock.now())
    : { ratePerSecond: null, etaSeconds: null, pausedUntil: null, notAnswering: undefined };
  return {
    id: job.id,
    profileId: job.profileId,
    action: job.action,
    days: params.days ?? null,
    note: params.generate?.note ?? null,
    ...(params.source === undefined ? {} : { source: params.source }),
    state: run?.stop ? run.stop.state : cancelling ? 'cancelled' : since !== undefined ? 'running' : job.state,
    reason: run?.stop ? run.stop.reason : since !== undefined || cancelling ? null : job.reason,
    createdAt: job.createdAt,
    finishedAt: since !== undefined || cancelling ? null : job.finishedAt,
    ...(since === undefined ? {} : { startingSince: since }),
    // An end no one saw (Keydesk stopped under the job): finishedAt is the last moment it was known at work.
    ...(run || kept || starting || !job.endUnseen || job.state === 'running'
      ? {}
      : {
          endUnseen: {
            lastAnswerAt: job.answeredAt,
            runStartedAt: job.runAt,
            resumed: job.runAt !== null && job.runAt !== job.createdAt,
          },
        }),
    ...(notAnswering === undefined ? {} : { notAnswering }),
    total: job.total,
    counts,
    ratePerSecond,
    etaSeconds,
    concurrency: run ? run.control.limit : 0,
    ceiling: job.action === 'generate' ? 1 : ceilingOf(e, job.profileId).ceiling,
    pausedUntil,
    ...(run ? { runAnswered: run.pace.answered } : {}),
    label: job.label,
    history: job.history,
    version: ++e.version,
  };
}

/** A job's item counts from the file: kept once it is stopped and not getting ready to run again. */
function storedCounts(e: Engine, job: StoredJob): Record<JobItemState, number> {
  if (job.state === 'running' || e.starting.has(job.id)) return e.db.jobCounts(job.id);
  let counts = e.stoppedCounts.get(job.id);
  if (counts === undefined) {
    counts = e.db.jobCounts(job.id);
    e.stoppedCounts.set(job.id, counts);
  }
  return { ...counts };
}
