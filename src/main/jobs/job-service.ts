// Bulk jobs as a service in main: start, cancel, resume, list, forget and quit. A job is stored item by item before
// anything is sent; an item sent with no answer is "unknown", never sent again unless the user asks.
import { randomUUID } from 'node:crypto';
import type { JobSummary } from '../../shared/domain.ts';
import {
  conflictWords,
  EXPORTING,
  JOB_GONE,
  JOB_NOT_FOUND,
  JOB_RUNNING,
  NO_API_KEY,
  NO_MATCH,
  NOTHING_TO_RESET,
  QUIT_WHILE_RUNNING,
  QUIT_WHILE_STARTING,
  STILL_RUNNING,
  STOPPED_WHILE_RUNNING,
} from '../../shared/job-words.ts';
import { fail, ok, type Result } from '../../shared/result.ts';
import type { ServiceClient } from '../client/service-client.ts';
import type { LocalDb, SettleBatch, StoredJob } from '../store/local-db.ts';
import type { NewJobItems } from '../store/writer-protocol.ts';
import { QUIT_MS } from '../store/writer.ts';
import { AdaptiveConcurrency } from './concurrency.ts';
import { ceilingOf, DEFAULT_CEILING, realClock, type Engine, type JobServiceDeps, type Starting } from './engine.ts';
import { InlineJobWrites, type JobRunEnd } from './job-writes.ts';
import { emit, summarize } from './progress.ts';
import { drive } from './run-loop.ts';
import { keepEnd, writeAnswers, writeEnd } from './run-writes.ts';
import { jobTargetWords } from '../../shared/filter-words.ts';
import { halt, newRun, signal, stopTimers, type JobParams, type JobRequest } from './run.ts';
import { readSendLog, readSendLogs, removeSendLogs, SendLog, sendLogDir, type SendLogRead } from './send-log.ts';

export { realClock, type JobClock } from './engine.ts';

/** The service's limit per generate request. */
export const GENERATE_BATCH = 100_000;
/** How long quitting waits for answers already on the wire before leaving them unknown (part of QUIT_MS). */
const QUIT_GRACE_MS = 1_000;

export class JobService {
  /** Resolves once the jobs the last session left running are marked interrupted (Core.start waits for it). */
  readonly recovered: Promise<void>;
  private readonly engine: Engine;
  /** Starts whose job is being created: a second start meanwhile must see them (conflictingJob). */
  private readonly creating = new Map<string, { profileId: string; action: JobRequest['action'] }>();
  /** Exports under way, per job: a job is not removed while its rows are being read into a file. */
  private readonly exports = new Map<string, number>();

  constructor(deps: JobServiceDeps) {
    const sendLogs = deps.sendLogDir !== undefined ? deps.sendLogDir : sendLogDir(deps.db.file);
    this.engine = {
      db: deps.db,
      deps,
      clock: deps.clock ?? realClock,
      writes: deps.writes ?? new InlineJobWrites(deps.db),
      runs: new Map(),
      starting: new Map(),
      ends: new Map(),
      stoppedCounts: new Map(),
      silentMs: deps.silentMs,
      sendLogs,
      closed: false,
      version: 0,
    };
    // Whatever was running when Keydesk last stopped did not finish: say so, item by item. Its send log tells the
    // items that went out (unknown: they may have taken effect) from those claimed and never sent (pending again).
    const sent = sendLogs === null ? new Map<string, SendLogRead>() : readSendLogs(sendLogs);
    this.recovered = this.engine.writes.interrupt(STOPPED_WHILE_RUNNING, undefined, [], sent).then(
      () => {
        if (sendLogs !== null) removeSendLogs(sendLogs, sent.keys());
      },
      (error: unknown) => {
        console.error('keydesk: the jobs left running could not be marked interrupted:', error);
      },
    );
  }

  private get db(): LocalDb {
    return this.engine.db;
  }

  ceiling(profileId: string): { ceiling: number; isDefault: boolean } {
    return ceilingOf(this.engine, profileId);
  }

  /**
   * `null`, or the default's own value, makes the profile follow the default again: saving the number already
   * shown as the default must not turn it into one "set by you".
   */
  async setCeiling(profileId: string, ceiling: number | null): Promise<{ ceiling: number; isDefault: boolean }> {
    const byDefault = this.engine.deps.defaultCeiling?.() ?? DEFAULT_CEILING;
    await this.engine.writes.setBulkCeiling(profileId, ceiling === byDefault ? null : ceiling);
    this.applyCeilings(profileId);
    return this.ceiling(profileId);
  }

  /** The default limit changed: running bulk jobs of profiles without a limit of their own follow it at once. */
  defaultCeilingChanged(): void {
    for (const run of this.engine.runs.values()) if (this.ceiling(run.job.profileId).isDefault) this.applyCeilings(run.job.profileId);
  }

  private applyCeilings(profileId: string): void {
    const { ceiling } = this.ceiling(profileId);
    for (const run of this.engine.runs.values()) {
      if (run.job.profileId === profileId && run.job.action !== 'generate') run.control.setCeiling(ceiling);
    }
  }

  async start(profileId: string, request: JobRequest): Promise<Result<JobSummary>> {
    const profile = this.engine.deps.profile(profileId);
    if (!profile) return fail('NOT_FOUND', 'That profile no longer exists.');
    // Checked before the items are created (which can take seconds for a whole ledger), and reserved until run()
    // reserves the job itself, so a second start that arrives meanwhile sees this one.
    const busy = this.conflictingJob(profileId, request.action, null);
    if (busy) return fail('CONFLICT', busy);
    if (request.action === 'edit' && this.editStates(profileId).length === 0) {
      return fail('UNSUPPORTED', 'Keydesk has not found an endpoint to edit keys on this service. Check it in Profiles.');
    }
    const id = randomUUID();
    this.creating.set(id, { profileId, action: request.action });
    try {
      return await this.create(id, profileId, profile.name, request);
    } finally {
      this.creating.delete(id);
    }
  }

  private async create(id: string, profileId: string, profileName: string, request: JobRequest): Promise<Result<JobSummary>> {
    const params: JobParams =
      request.action === 'extend'
        ? { days: request.days }
        : request.action === 'edit'
          ? { edit: { ...request.edit, states: this.editStates(profileId) } }
          : request.action === 'generate'
            ? {
                generate: {
                  expire: request.expire,
                  isPremium: request.isPremium,
                  note: request.note,
                  expiresByDaysKey: request.expiresByDaysKey,
                  daysKey: request.daysKey,
                  ...(request.noHwidValidation ? { noHwidValidation: true } : {}),
                },
              }
            : request.action === 'import'
              ? { source: request.source }
              : {};
    const job = {
      id,
      profileId,
      profileName,
      action: request.action,
      params: JSON.stringify(params),
      createdAt: new Date().toISOString(),
      label:
        request.action === 'import'
          ? `imported from ${request.source}`
          : (('label' in request ? request.label : undefined) ?? jobTargetWords(request)),
    };
    let items: NewJobItems;
    if (request.action === 'generate') {
      const batches: number[] = [];
      for (let left = request.count; left > 0; left -= GENERATE_BATCH) batches.push(Math.min(GENERATE_BATCH, left));
      items = { batches };
    } else items = request.action === 'resetHwid' ? this.activeOnly(request.target) : request.target;
    const { writes } = this.engine;
    const total = await writes.createJob(job, items);
    if (total === 0) {
      await writes.jobState(id, 'finished', null, new Date().toISOString());
      return fail('NOT_FOUND', request.action === 'resetHwid' ? NOTHING_TO_RESET : NO_MATCH);
    }
    if (this.engine.closed) {
      // Quitting while it was created: it sent nothing. Refused now, the next start marks it interrupted.
      await writes.jobState(id, 'interrupted', QUIT_WHILE_STARTING, new Date().toISOString()).catch(() => undefined);
      return fail('CANCELLED', 'Keydesk is quitting.');
    }
    return this.run(id, false, undefined, true);
  }

  /**
   * Runs (or resumes) a job's pending items, and with `retryUnknown` its unknown ones; a job already running or
   * starting is refused. `first`: the job's first run (from start), not a resume.
   */
  private async run(jobId: string, retryUnknown: boolean, ready?: () => Promise<void>, first = false): Promise<Result<JobSummary>> {
    const { starting: reserved, runs } = this.engine;
    if (this.isActive(jobId)) return fail('CONFLICT', JOB_RUNNING);
    let cancelled = (): void => undefined;
    const cancel = new Promise<'cancelled'>((resolve) => (cancelled = () => resolve('cancelled')));
    const starting: Starting = {
      since: new Date().toISOString(),
      cancelled: false,
      cancelledAt: null,
      cancel: () => {
        starting.cancelled = true;
        starting.cancelledAt ??= new Date().toISOString();
        cancelled();
      },
    };
    reserved.set(jobId, starting);
    this.engine.stoppedCounts.delete(jobId);
    try {
      // The wait can be long (the ledger recording the keys a generate just made): said at once, so no window
      // shows the job as it stopped (and offers to resume it) while it is starting.
      if (ready) this.emitStored(jobId);
      // The client is taken now, while the job's profile is the one it was asked on: a profile switch during the
      // wait below does not leave the run without one. A cancel ends either wait at once.
      const client = await Promise.race([this.clientForJob(jobId), cancel]);
      if (ready && client !== 'cancelled') await Promise.race([ready(), cancel]);
      if (starting.cancelled || client === 'cancelled')
        return await this.cancelStarting(jobId, starting.cancelledAt ?? new Date().toISOString());
      return await this.runReserved(jobId, retryUnknown, client, first);
    } finally {
      reserved.delete(jobId);
      // A start that did not become a run: whoever heard "starting" (or "cancelling") hears the job as it stands.
      if ((ready || starting.cancelled) && !runs.has(jobId)) this.emitStored(jobId);
    }
  }

  /**
   * A job cancelled while it was starting sent nothing: it ends cancelled with its items as they stood (a yes to send
   * unknown ones again is taken only when a run starts), its end kept on screen until written.
   */
  private async cancelStarting(jobId: string, cancelledAt: string): Promise<Result<JobSummary>> {
    const end = startCancelledEnd(jobId, cancelledAt);
    if (!(await writeEnd(this.engine, end))) keepEnd(this.engine, end, this.db.jobCounts(jobId));
    if (this.engine.runs.size === 0) this.engine.writes.release();
    this.engine.starting.delete(jobId);
    const job = this.db.job(jobId);
    return job ? ok(summarize(this.engine, job, null)) : fail('NOT_FOUND', JOB_GONE);
  }

  /**
   * Quitting: the ends of jobs still starting, which sent nothing. One cancelled there ends cancelled, as the screen
   * said; a fresh start ends interrupted, saying nothing was sent; a resume stays as it stopped (the file's guard).
   */
  private startingEnds(quitAt: string): JobRunEnd[] {
    const ends: JobRunEnd[] = [];
    for (const [jobId, starting] of this.engine.starting) {
      if (this.engine.runs.has(jobId)) continue;
      ends.push(
        starting.cancelled
          ? startCancelledEnd(jobId, starting.cancelledAt ?? quitAt)
          : { jobId, state: 'interrupted', reason: QUIT_WHILE_STARTING, finishedAt: quitAt },
      );
    }
    return ends;
  }

  /** The service client for a job's profile, or null (no such job or profile, or no apiKey for it). */
  private async clientForJob(jobId: string): Promise<ServiceClient | null> {
    const job = this.db.job(jobId);
    return job && this.engine.deps.profile(job.profileId) ? this.engine.deps.clientFor(job.profileId) : null;
  }

  private emitStored(jobId: string): void {
    // Quitting: a start that ends after the quit says nothing to a core that is gone.
    if (this.engine.closed) return;
    const job = this.db.job(jobId);
    if (job) this.engine.deps.emit(summarize(this.engine, job, null));
  }

  private isActive(jobId: string): boolean {
    return this.engine.runs.has(jobId) || this.engine.starting.has(jobId);
  }

  /** The key states a bulk edit can reach on this service: each edit endpoint the capability check found. */
  private editStates(profileId: string): ('active' | 'generated')[] {
    const known = this.db.capabilities(profileId);
    const states: ('active' | 'generated')[] = [];
    if (known.keyEdit?.state === 'present') states.push('active');
    if (known.generatedKeyEdit?.state === 'present') states.push('generated');
    return states;
  }

  /**
   * A reset's targets less the keys the ledger shows as generated or deleted: the service refuses a reset for them.
   * A key the ledger does not hold is sent (the service decides). The writer leaves them out as it creates the items.
   */
  private activeOnly(target: Extract<JobRequest, { action: 'delete' | 'resetHwid' }>['target']): NewJobItems {
    if ('keyValues' in target) return { keyValues: target.keyValues, activeOnly: true };
    const { status } = target.filter;
    // A filter for generated or deleted keys names no active one: an empty list, so nothing is created.
    return status === undefined || status === 'active' ? { filter: { ...target.filter, status: 'active' } } : { keyValues: [] };
  }

  /**
   * Why a job of this action cannot start now for this profile, or null. Extend is not idempotent, and two bulk jobs
   * may act on the same keys: one bulk job per profile at a time, and one generate.
   */
  private conflictingJob(profileId: string, action: JobRequest['action'], except: string | null): string | null {
    const ids = new Set([...this.engine.runs.keys(), ...this.engine.starting.keys(), ...this.creating.keys()]);
    for (const id of ids) {
      if (id === except) continue;
      const other = this.engine.runs.get(id)?.job ?? this.creating.get(id) ?? this.db.job(id);
      if (!other || other.profileId !== profileId) continue;
      if ((action === 'generate') !== (other.action === 'generate')) continue;
      return conflictWords(action, other.action);
    }
    return null;
  }

  private async runReserved(
    jobId: string,
    retryUnknown: boolean,
    client: ServiceClient | null,
    first = false,
  ): Promise<Result<JobSummary>> {
    const e = this.engine;
    if (e.closed) return fail('CANCELLED', 'Keydesk is quitting.');
    const job = this.db.job(jobId);
    if (!job) return fail('NOT_FOUND', JOB_GONE);
    const profile = e.deps.profile(job.profileId);
    if (!profile) return fail('NOT_FOUND', 'That profile no longer exists.');
    if (!client) {
      // A job just created (running in the file, never run) ends interrupted; a stopped one stays as it stopped.
      if (job.state === 'running') await e.writes.jobState(jobId, 'interrupted', NO_API_KEY, new Date().toISOString());
      return fail('KEYCHAIN_UNAVAILABLE', NO_API_KEY);
    }
    if (e.runs.has(jobId)) return fail('CONFLICT', JOB_RUNNING);
    // A first run began at the job's creation: only a resume has a time of its own (summary's endUnseen.resumed).
    const runAt = first ? job.createdAt : new Date().toISOString();
    // What an earlier run left claimed is settled by its own log first: this run's log starts empty, and must not be
    // the only word on those items after a crash. The yes to send unknown items again is for this run alone.
    const counts = await e.writes.beginRun(jobId, runAt, retryUnknown, e.sendLogs === null ? null : readSendLog(e.sendLogs, jobId));
    // Quitting meanwhile: the job is still starting, so the quit writes its end.
    if (this.engine.closed) return fail('CANCELLED', 'Keydesk is quitting.');
    e.ends.delete(jobId);
    let log: SendLog | null = null;
    if (e.sendLogs !== null) {
      try {
        log = SendLog.begin(e.sendLogs, jobId, runAt);
      } catch (error) {
        // Without it the run claims as slots free, each claim committed before its requests: slower, as safe.
        console.error("keydesk: a job's send log could not be started; it claims its items as slots free:", error);
      }
    }
    const run = newRun(
      {
        job: { ...job, state: 'running', reason: null, finishedAt: null, runAt, answeredAt: null, endUnseen: false },
        params: JSON.parse(job.params) as JobParams,
        retryUnknown,
        client,
        profileName: profile.name,
        control: new AdaptiveConcurrency(job.action === 'generate' ? 1 : this.ceiling(job.profileId).ceiling, e.silentMs),
        counts,
      },
      log,
    );
    e.runs.set(jobId, run);
    run.finished = drive(e, run);
    emit(e, run, true);
    return ok(summarize(e, run.job, run));
  }

  // ---- what the handlers ask --------------------------------------------------------------------------

  /**
   * The profile's running and interrupted jobs and its `recent` newest, newest first. A job getting ready to run is
   * listed however old, as a running one is: its file still says the state it stopped in.
   */
  list(profileId: string, recent?: number): JobSummary[] {
    const { runs } = this.engine;
    const stored = this.db.jobs(profileId, recent);
    const listed = new Set(stored.map((j) => j.id));
    const starting = [...this.engine.starting.keys()]
      .filter((id) => !listed.has(id))
      .map((id) => this.db.job(id))
      .filter((j): j is StoredJob => j !== null && j.profileId === profileId);
    const jobs = starting.length === 0 ? stored : [...stored, ...starting].sort(newestFirst);
    return jobs.map((j) => summarize(this.engine, runs.get(j.id)?.job ?? j, runs.get(j.id) ?? null));
  }

  /** Whether a job of the profile runs, or is getting ready to, now. */
  runsOn(profileId: string): boolean {
    const e = this.engine;
    return (
      [...e.runs.values()].some((r) => r.job.profileId === profileId) ||
      [...e.starting.keys()].some((id) => this.db.job(id)?.profileId === profileId)
    );
  }

  /** Jobs running now for other profiles: a reload or a profile switch must still say they run, and how far. */
  runningElsewhere(profileId: string): JobSummary[] {
    const e = this.engine;
    const running = [...e.runs.values()].filter((r) => r.job.profileId !== profileId).map((r) => summarize(e, r.job, r));
    // One getting ready to run (a resume waiting for the ledger) is about to send: said too, as starting.
    const starting = [...e.starting.keys()]
      .filter((id) => !e.runs.has(id))
      .map((id) => this.db.job(id))
      .filter((j): j is StoredJob => j !== null && j.profileId !== profileId)
      .map((j) => summarize(e, j, null));
    return [...running, ...starting];
  }

  /** The items a job's run claimed and has not sent: the file says sent, the screen and an export say what they are. */
  claimedUnsent(jobId: string): number[] {
    const run = this.engine.runs.get(jobId);
    // Put back (a cancel, a stop, a 429) and not yet in the file: the answers waiting or being written.
    const groups: SettleBatch[] = run ? [...run.answers.inWrite] : [];
    const putBack = [...(run?.answers.next.items ?? []), ...groups.flatMap((b) => b.items)].filter(
      (i) => i.state === 'pending' || i.state === 'retry',
    );
    return [...(run?.claims.ready.map((item) => item.seq) ?? []), ...putBack.map((i) => i.seq)];
  }

  /** A job of this profile; another profile's job is not found. */
  get(profileId: string, jobId: string): JobSummary | null {
    const run = this.engine.runs.get(jobId);
    const job = run?.job ?? this.db.job(jobId);
    if (!job || job.profileId !== profileId) return null;
    return summarize(this.engine, job, run ?? null);
  }

  /** Stops sending at once and cuts off the requests on the wire (their items unknown); then the job is cancelled. */
  cancel(profileId: string, jobId: string): Result<JobSummary> {
    const e = this.engine;
    const run = e.runs.get(jobId);
    const starting = run ? undefined : e.starting.get(jobId);
    if (starting) {
      // Getting ready to run (a resume waiting for the ledger): it sends nothing, and ends cancelled (run()).
      const job = this.db.job(jobId);
      if (!job || job.profileId !== profileId) return fail('NOT_FOUND', JOB_NOT_FOUND);
      starting.cancel();
      const s = summarize(e, job, null);
      e.deps.emit(s);
      return ok(s);
    }
    if (!run || run.job.profileId !== profileId) {
      const s = this.get(profileId, jobId);
      return s ? ok(s) : fail('NOT_FOUND', JOB_NOT_FOUND);
    }
    halt(run, { state: 'cancelled', reason: null });
    run.wire.cut.abort();
    signal(run);
    // The job stays "running" in the database until its last answer is recorded (its run's end writes "cancelled"):
    // if Keydesk dies first, the next start finds it running and marks its unanswered items unknown.
    const s = summarize(e, run.job, run);
    e.deps.emit(s);
    return ok(s);
  }

  /**
   * Sends a stopped job's pending items, and with `retryUnknown` (the user's choice, for this run alone) its unknown
   * ones: those it does not send stay unknown, and a later resume leaves them alone.
   */
  async resume(profileId: string, jobId: string, retryUnknown: boolean, ready?: () => Promise<void>): Promise<Result<JobSummary>> {
    const job = this.db.job(jobId);
    if (!job || job.profileId !== profileId) return fail('NOT_FOUND', JOB_NOT_FOUND);
    if (this.isActive(jobId)) return fail('CONFLICT', JOB_RUNNING);
    const busy = this.conflictingJob(profileId, job.action, jobId);
    if (busy) return fail('CONFLICT', busy);
    const counts = this.db.jobCounts(jobId);
    if (counts.pending === 0 && (!retryUnknown || counts.unknown === 0)) {
      const s = this.get(profileId, jobId);
      return s ? ok(s) : fail('NOT_FOUND', JOB_NOT_FOUND);
    }
    return this.run(jobId, retryUnknown, ready);
  }

  /**
   * Removes a stopped job and its items from the profile's list (its keys stay in the ledger, its requests in the
   * audit log). A job still running or starting is refused: its answers are still to be recorded.
   */
  async forget(profileId: string, jobId: string): Promise<Result<null>> {
    const job = this.engine.runs.get(jobId)?.job ?? this.db.job(jobId);
    if (!job || job.profileId !== profileId) return fail('NOT_FOUND', JOB_NOT_FOUND);
    if (this.isActive(jobId)) return fail('CONFLICT', STILL_RUNNING);
    if (this.exports.has(jobId)) return fail('CONFLICT', EXPORTING);
    await this.engine.writes.forgetJob(jobId);
    this.engine.ends.delete(jobId);
    this.engine.stoppedCounts.delete(jobId);
    return ok(null);
  }

  /** An export of a job's rows begins: the job is not removed until the function it returns is called. */
  exportBegins(jobId: string): () => void {
    this.exports.set(jobId, (this.exports.get(jobId) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.exports.get(jobId) ?? 1) - 1;
      if (left > 0) this.exports.set(jobId, left);
      else this.exports.delete(jobId);
    };
  }

  /** Waits until a job stops running and its end is recorded, or refused (tests and the bench). */
  async settled(jobId: string): Promise<void> {
    await this.engine.runs.get(jobId)?.finished;
  }

  /**
   * Quitting within `budgetMs`: stop sending, give answers on the wire QUIT_GRACE_MS of it, queue what answered and
   * one last statement, and leave what is not written by then to the next start (the jobs interrupted, items unknown).
   */
  async close(budgetMs = QUIT_MS): Promise<void> {
    const e = this.engine;
    if (e.closed) return;
    e.closed = true;
    const quitAt = new Date().toISOString();
    const deadline = performance.now() + budgetMs;
    const left = (): number => Math.max(0, deadline - performance.now());
    const runs = [...e.runs.values()];
    for (const run of runs) {
      halt(run, { state: 'interrupted', reason: QUIT_WHILE_RUNNING });
      signal(run);
    }
    if (runs.length > 0) {
      await within(Promise.all(runs.map((r) => r.finished)), Math.min(QUIT_GRACE_MS, left()));
      // A claim still coming back puts its items back first; then what did answer goes to the writer. Whatever is
      // still on the wire is unknown.
      await within(e.writes.idle(), left());
      for (const run of runs) writeAnswers(e, run);
    }
    // No job at work in this process: the file has none running, and the statement would start a thread for nothing.
    if (runs.length === 0 && e.starting.size === 0 && e.ends.size === 0 && this.creating.size === 0) {
      e.writes.close();
      return;
    }
    // The jobs still starting are written as shown, not as "Keydesk quit while this job ran". The runs' send logs
    // tell the items they sent from those claimed and put back by answers not written.
    const ends = this.startingEnds(quitAt);
    for (const run of runs) run.claims.log?.close();
    const sent = e.sendLogs === null ? new Map<string, SendLogRead>() : readSendLogs(e.sendLogs);
    const interrupted = e.writes.interrupt(QUIT_WHILE_RUNNING, quitAt, ends, sent).then(
      () => true,
      (error: unknown) => {
        // Refused, or not written by the deadline: the next start does this.
        console.error('keydesk: running jobs could not be marked interrupted on quitting:', error);
        return false;
      },
    );
    // Nothing of a job is written after the last statement.
    e.writes.close();
    if ((await within(interrupted, left())) === true && e.sendLogs !== null) removeSendLogs(e.sendLogs, sent.keys());
    // Runs still waiting on hung requests keep no timer of theirs past the quit.
    for (const run of runs) stopTimers(run);
  }
}

/** The end of a start or resume cancelled before it ran: nothing was sent, its items stand as they were. */
function startCancelledEnd(jobId: string, cancelledAt: string): JobRunEnd {
  return { jobId, state: 'cancelled', reason: null, finishedAt: cancelledAt, anyState: true };
}

/** `work`'s outcome, or 'late' when `ms` pass first (the work goes on; no one waits for it). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The order jobs are listed in (LocalDb.jobs): newest first, then by id. */
function newestFirst(a: StoredJob, b: StoredJob): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
