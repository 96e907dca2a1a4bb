// Bulk work as a service in main: a job is persisted with one row per item before anything is sent, runs here
// whatever the renderer does (a reload reattaches through jobs.list / jobs.progress), and survives a quit or a
// crash as "interrupted" with every item's state. The rule that matters: an item is marked sent (committed)
// before it goes on the wire, and an item sent with no answer is "unknown" and is never sent again unless the
// user asks: extend is not idempotent.
import { randomUUID } from 'node:crypto';
import type { ParsedInput } from '../../shared/contract.ts';
import type { AuditEntry, JobAction, JobItemState, JobState, JobSummary, Key } from '../../shared/domain.ts';
import { fail, ok, type ErrorCode, type Result } from '../../shared/result.ts';
import { readBack } from '../client/read-back.ts';
import type { BatchIntake, ServiceClient } from '../client/service-client.ts';
import { unexpectedFailure } from '../failures.ts';
import { jsonTextOf, toJson, type JsonText, type KeyBatch } from '../../shared/key-batch.ts';
import { keyCount } from '../../shared/operation-words.ts';
import type { ItemSettlement, LocalDb, SettleBatch, StoredJob } from '../store/local-db.ts';
import { AdaptiveConcurrency } from './concurrency.ts';
import { InlineJobWrites, isLockWait, type ClaimedItem, type JobRunEnd, type JobWrites } from './job-writer.ts';
import { readSendLog, readSendLogs, removeSendLogs, SendLog, sendLogDir, type SendLogRead } from './send-log.ts';

/** Requests in flight a job may reach by default: high for the local sandbox, modest for a remote service. */
export const DEFAULT_CEILING = { sandbox: 64, remote: 8 } as const;
/** The service's limit per generate request. */
export const GENERATE_BATCH = 100_000;
/** Progress events at most this often while a job runs (and always on a change of state). */
const PROGRESS_EVERY_MS = 100;
/** Completions counted for the rate shown. */
const RATE_WINDOW_MS = 5_000;
/**
 * A bulk job's answers are written in groups: at most this long after the first of them arrived, or at once when
 * this many are waiting. Progress events go out after a write is asked for, but a summary asked for between
 * writes (a cancel, jobs.list) counts answers not yet written: at most this long or this many ahead of the file.
 * The job writer (job-writer.ts) applies writes in order, so a claim waits for the group before it: groups stay
 * small (a few milliseconds of SQLite) so the requests queued at the service outlast that wait. Only answers
 * wait: an item is always committed as sent before its request goes out, and an answer lost in a crash leaves
 * its item sent, which the next start calls unknown, as it may or may not have taken effect.
 */
const WRITE_ANSWERS_EVERY_MS = 10;
const WRITE_ANSWERS_AT = 32;
/**
 * With a send log (send-log.ts), items are claimed ahead of the requests: at least this many, or twice the limit,
 * once fewer than a limit's worth are left claimed and unsent. A slot that frees is filled at once from them, so no
 * request waits for a commit on the job writer's thread (a round trip there is about half a millisecond, in which
 * a local service answers several requests), and claims are a few commits per thousand keys, not hundreds.
 */
const CLAIM_AHEAD = 64;
/** How long quitting waits for answers already on the wire before leaving them unknown (part of QUIT_BUDGET_MS). */
const QUIT_GRACE_MS = 2_000;
/**
 * All quitting gives the jobs: answers on the wire (at most QUIT_GRACE_MS of it), then writing what they and the
 * runs' ends left, each write's wait for keydesk.db's lock included (another writer may hold it for seconds: the
 * ledger writer, a large job created). Past it the rest is left to the next start, which marks the jobs interrupted
 * and items still sent unknown: only answers not yet written are lost, and their items read unknown, never done or
 * pending. 4 s: the answers' 2 s and as long again for the writes, which take milliseconds when the file is free
 * and one job writer's lock wait (1 s) each when it is not; a person quitting waits for the window to go, and the
 * ledger's own flush comes after this.
 */
const QUIT_BUDGET_MS = 4_000;
/**
 * A job write refused because another writer holds keydesk.db's lock (main creating or removing a large job, the
 * ledger writer recording a 100,000-key batch: seconds) is made again after this pause, doubling up to the most.
 */
const LOCK_RETRY_MS = { first: 25, most: 1_000 } as const;
/**
 * How long a bulk job waits for keydesk.db's lock before it stops, interrupted, to be resumed: as long as the
 * upgrade waits for it. Answers already in are kept and written with the job's end once the lock is let go.
 */
const LOCK_WAIT_MS = 60_000;

/** Why a job stopped when another writer held keydesk.db's lock past `ms`. */
function lockWords(ms: number): string {
  return `Keydesk's records were busy: another task kept them locked for over ${waitWords(ms)}, so this job stopped sending. Resume it to send the keys left.`;
}
function waitWords(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s % 60 === 0 ? `${s / 60} minute${s === 60 ? '' : 's'}` : `${s} second${s === 1 ? '' : 's'}`;
}
/** Why a job stopped when a write of it met keydesk.db's lock held by another writer, however long. */
const BUSY_WORDS =
  "Keydesk's records were busy (another task was writing to them), so this job stopped sending. Resume it to send the keys left.";
/** A job whose end waits for keydesk.db's lock: resumed or removed only once it is recorded. */
const END_PENDING =
  "Keydesk's records are busy (another task is writing to them): this job's end is not recorded yet. Try again in a moment.";

/** Why a fresh job Keydesk quit under while it was starting (before its run began) stopped. */
const QUIT_WHILE_STARTING = 'Keydesk quit while this job was starting, before it sent anything: no key was sent. Resume it to send them.';

/** A job as jobs.start's input checks it. */
export type JobRequest = ParsedInput<'jobs.start'>;
export type GenerateParams = Omit<Extract<JobRequest, { action: 'generate' }>, 'action' | 'count'>;
export type JobTarget = Extract<JobRequest, { target: unknown }>['target'];

interface JobParams {
  days?: number;
  generate?: GenerateParams;
}

/** Time, injectable so tests can hold a Retry-After pause open without waiting for it. */
export interface JobClock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}
export const realClock: JobClock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    }),
};

export interface JobServiceDeps {
  db: LocalDb;
  /** The profile's name and kind, or null when it is gone. */
  profile(profileId: string): { id: string; name: string; kind: 'sandbox' | 'remote' } | null;
  clientFor(profileId: string): Promise<ServiceClient | null>;
  emit(summary: JobSummary): void;
  clock?: JobClock;
  /**
   * A reader for one generate request's answer off main (main's ledger writer: LedgerWriter.intake): the body is
   * read there, its keys (up to 100,000) stay there and are recorded from there, and main holds only the batch.
   * Without it (the engine tested alone) the answer is read here and its keys are written with the step.
   */
  generateIntake?: () => GenerateIntake;
  /**
   * Where a job's claims and answers are written: the app's is a thread of its own (ThreadJobWrites).
   * Without it they are written on `db` (the engine tested alone).
   */
  writes?: JobWrites;
  /** How long a bulk job waits for keydesk.db's lock held by another writer before it stops (default a minute). */
  lockWaitMs?: number;
  /**
   * How long no answer, with a request in flight that long, counts as the service not answering (concurrency.ts'
   * SILENT_MS unless a test sets it shorter).
   */
  silentMs?: number;
  /**
   * Where runs log the items they send (send-log.ts): beside `db`'s file unless given; null for none (an in-memory
   * database), when items are claimed only as slots free, each claim committed before its requests go out.
   */
  sendLogDir?: string | null;
}

/** A job reserved to run and getting ready (JobService.run): since when, and whether the user cancelled it meanwhile. */
interface Starting {
  since: string;
  cancelled: boolean;
  /** When it was cancelled (its end's time), or null. */
  cancelledAt: string | null;
  /** Cancels it: it sends nothing, and ends cancelled with its items as they stand. */
  cancel(): void;
}

/** What a generate item's answer is read with (AnswerIntake): after the read, record() or release(), once. */
export interface GenerateIntake extends BatchIntake {
  /** Queues the keys read for the ledger; resolves when written or reported failed (the writer says so in words). */
  record(profileId: string): Promise<unknown>;
  release(): void;
}

interface Run {
  job: StoredJob;
  params: JobParams;
  /**
   * The user said yes to sending the job's unknown items again, for this run only: it claims them (held as
   * 'retry') once no item is pending, and when it ends those it did not send are unknown again.
   */
  retryUnknown: boolean;
  client: ServiceClient;
  profileName: string;
  control: AdaptiveConcurrency;
  counts: Record<JobItemState, number>;
  inflight: number;
  /**
   * `whenFixed`: the reason gets the way on once its cause is fixed, worded at the end from what is left.
   * `unreachable`: the service is gone (that many requests in a row lost their connection): worded at the end too.
   * `hung`: the service takes requests and answers none (that many in a row got no answer, the probes among them):
   * worded at the end too.
   */
  stop: {
    state: 'cancelled' | 'interrupted';
    reason: string | null;
    whenFixed?: true;
    unreachable?: number;
    hung?: { requests: number; timedOut: number; probes: number };
  } | null;
  abort: AbortController;
  wake: (() => void) | null;
  /** Set by an answer or a cancel; cleared when the loop has looked. */
  signalled: boolean;
  /** Answers not written yet, and when the first of them arrived (performance.now()). */
  settle: ItemSettlement[];
  settleSince: number;
  /** Groups of answers handed to the job writer and not yet written (made again while the file is locked). */
  writing: Set<Promise<void>>;
  /** A claim is being written (made again while the file is locked). */
  claiming: boolean;
  /** Items claimed (sent in the file) and not sent yet, lowest first: sent as slots free. */
  ready: ClaimedItem[];
  /** A claim came back short: nothing left to claim, until an item is put back (then there may be). */
  exhausted: boolean;
  /** Groups of answers being written now (retried while the lock holds): the items they put back count as unsent. */
  inWrite: Set<SettleBatch>;
  /** The run's send log: an item's number goes in before its request goes out. Null: claims are made as slots free. */
  log: SendLog | null;
  /** Since when (performance.now()) the job's writes have been refused for keydesk.db's lock; null: they are not. */
  lockedSince: number | null;
  /** The same moment as a time of day, for the screen (JobSummary.waitingForRecordsSince). */
  lockedSinceIso: string;
  /** Groups of answers the lock held back past the wait: written when the lock is let go, at the latest with the end. */
  unwritten: SettleBatch[];
  seenKeys: Key[];
  /** Keys described in part (no status): only their reported fields go into the ledger. */
  reportedKeys: Key[];
  /** Keys whose HWID a reset cleared, where the service described nothing more. */
  hwidCleared: string[];
  /** Keys extended whose new expiry could not be read back: their ledger rows are marked. */
  expiryStale: string[];
  /** Keys whose HWID reset, or delete, was sent with no answer: their ledger rows' HWID, or status, is marked. */
  hwidStale: string[];
  statusStale: string[];
  deleted: string[];
  /** Values a generate batch made, kept with the job for its export: per answer, its values as one JSON list. */
  generated: JsonText<string[]>[];
  audit: SettleBatch['audit'][number][];
  /** Answers counted for the rate shown: per bucket, when its first came, the keys and the answers in it. */
  completions: { at: number; size: number; answers: number }[];
  /** Keys answered in this run (not the runs before a resume): a rate is shown once enough of them have come. */
  answered: number;
  lastEmitAt: number;
  /** A progress event PROGRESS_EVERY_MS held back: sent when that has passed, so the last change is always said. */
  trailing: NodeJS.Timeout | null;
  /**
   * Fires when the service would count as not answering if nothing answers before (AdaptiveConcurrency.silentAt):
   * nothing else happens then (no answer comes), so without it the screen would go on showing the job as working.
   */
  silence: NodeJS.Timeout | null;
  /** Whether the last progress event said the service was not answering: a change of that is said at once. */
  saidSilent: boolean;
  finished: Promise<void>;
}

type Outcome =
  | { kind: 'done'; keys: Key[]; batch?: KeyBatch; hwidCleared?: boolean; expiryStale?: boolean; note?: string }
  // lost: no answer came because the connection failed (Failure.connectionLost); timedOut: none came in time (Failure.timedOut).
  | {
      kind: 'failed' | 'unknown';
      code: ErrorCode;
      message: string;
      overload: boolean;
      retryAfter?: number | undefined;
      lost?: true;
      timedOut?: true;
    }
  | { kind: 'requeue'; code: ErrorCode; message: string; retryAfter?: number | undefined; stopJob: boolean };

const AUDIT_ACTION = { delete: 'keys.delete', extend: 'keys.extend', resetHwid: 'keys.resetHwid', generate: 'keys.generate' } as const;

/**
 * A stop's reason with the way on once its cause is fixed, for what the run left: Resume when items were not sent,
 * else (only unknown ones left, which no Resume sends) the choice to send those again.
 */
function whenFixed(reason: string, counts: Record<JobItemState, number>): string {
  if (counts.pending > 0) return `${reason} Resume the job when this is fixed.`;
  const unknown = counts.unknown + counts.sent;
  if (unknown === 0) return reason;
  return `${reason} When this is fixed, "Send the ${unknown.toLocaleString('en-US')} unknown again…" sends them once more, if you choose to.`;
}

/**
 * Why a job stopped when its service was gone (AdaptiveConcurrency.unreachable): what happened, that the keys left
 * were not sent, and the way on. The items sent into it keep their own words (unknown: it may have acted).
 */
function unreachableWords(service: string, lost: number, counts: Record<JobItemState, number>): string {
  return goneWords(service, `${lost.toLocaleString('en-US')} requests in a row got no answer (the connection failed)`, counts);
}

/**
 * Why a job stopped when its service took requests and answered none (AdaptiveConcurrency.hung), in the same shape:
 * how many got no answer in time, the probes among them, that the keys left were not sent, and the way on.
 */
function hungWords(
  service: string,
  hung: { requests: number; timedOut: number; probes: number },
  counts: Record<JobItemState, number>,
): string {
  const n = (v: number): string => v.toLocaleString('en-US');
  const how =
    hung.timedOut === hung.requests
      ? 'got no answer in time'
      : `got no answer (${n(hung.timedOut)} timed out, ${n(hung.requests - hung.timedOut)} lost their connection)`;
  return goneWords(service, `${n(hung.requests)} requests in a row ${how}, the last ${n(hung.probes)} sent one at a time to check`, counts);
}

function goneWords(service: string, what: string, counts: Record<JobItemState, number>): string {
  const head = `${service} stopped answering: ${what}, so this job stopped sending.`;
  const left = counts.pending;
  if (left === 0) return whenFixed(head, counts);
  return `${head} The ${keyCount(left)} left ${left === 1 ? 'was' : 'were'} not sent (still pending): Resume the job once ${service} answers again.`;
}

/** What a failed request means for its item and for the job. */
function classify(r: Result<unknown> & { ok: false }): Outcome {
  const { code, message, retryAfterSeconds: retryAfter } = r;
  switch (code) {
    // The service refused before acting on it: the item is safe to send again, after the pause.
    case 'RATE_LIMITED':
      return { kind: 'requeue', code, message, retryAfter, stopJob: false };
    // Never reached the service, or it refuses this profile's key: nothing was done; stop and let the user resume.
    case 'NETWORK':
    case 'TIMEOUT':
    case 'API_KEY_INVALID':
    case 'API_KEY_MISSING':
      return { kind: 'requeue', code, message, retryAfter, stopJob: true };
    // Sent, and no trustworthy answer: it may or may not have taken effect.
    case 'OUTCOME_UNKNOWN':
    case 'INTERNAL':
    case 'HTTP_ERROR':
    case 'BAD_RESPONSE':
      return {
        kind: 'unknown',
        code,
        message,
        overload: true,
        retryAfter,
        ...(r.connectionLost ? { lost: true as const } : {}),
        ...(r.timedOut ? { timedOut: true as const } : {}),
      };
    default:
      return { kind: 'failed', code, message, overload: false };
  }
}

/** A reset over keys none of which the ledger shows as active. */
const NOTHING_TO_RESET =
  "None of these keys is active as Keydesk's ledger shows them (they are generated or deleted), and only an active key has an HWID to reset: nothing was sent. A key a customer activated since Keydesk last saw it still shows as generated: look it up in Keys to refresh it, then reset it.";

/** A job's action in the words the screen uses. */
const ACTION_WORDS: Record<JobRequest['action'], string> = {
  delete: 'Delete',
  extend: 'Extend',
  resetHwid: 'Reset HWID',
  generate: 'Generate',
};

export class JobService {
  private readonly db: LocalDb;
  private readonly deps: JobServiceDeps;
  private readonly clock: JobClock;
  private readonly writes: JobWrites;
  private readonly runs = new Map<string, Run>();
  /**
   * Jobs between a start or resume and their run, with when that began: reserved before the first await, so a
   * second resume is refused, and listed as starting (not as the state they stopped in) meanwhile.
   */
  private readonly starting = new Map<string, Starting>();
  /** Exports under way, per job: a job is not removed while its rows are being read into a file. */
  private readonly exports = new Map<string, number>();
  /**
   * Runs that ended and whose end is not in the file: shown ended (with the run's counts), not running. `recorded`:
   * written again until another writer lets go of keydesk.db's lock; null: it failed otherwise and stays
   * unrecorded (the file says running, which the next start turns into interrupted).
   */
  private readonly ends = new Map<string, { end: JobRunEnd; counts: Record<JobItemState, number>; recorded: Promise<void> | null }>();
  private readonly lockWaitMs: number;
  private readonly silentMs: number | undefined;
  private readonly sendLogs: string | null;
  private closed = false;
  private version = 0;

  constructor(deps: JobServiceDeps) {
    this.deps = deps;
    this.db = deps.db;
    this.clock = deps.clock ?? realClock;
    this.writes = deps.writes ?? new InlineJobWrites(deps.db);
    this.lockWaitMs = deps.lockWaitMs ?? LOCK_WAIT_MS;
    this.silentMs = deps.silentMs;
    this.sendLogs = deps.sendLogDir !== undefined ? deps.sendLogDir : sendLogDir(deps.db.file);
    // Whatever was running when Keydesk last stopped did not finish: say so, item by item. Its send log tells the
    // items that went out (unknown: they may have taken effect) from those claimed and never sent (pending again).
    const sent = this.sendLogs === null ? new Map<string, SendLogRead>() : readSendLogs(this.sendLogs);
    this.db.interruptRunningJobs('Keydesk stopped while this job ran.', undefined, [], sent);
    if (this.sendLogs !== null) removeSendLogs(this.sendLogs, sent.keys());
  }

  ceiling(profileId: string): { ceiling: number; isDefault: boolean } {
    const set = this.db.bulkCeiling(profileId);
    if (set !== null) return { ceiling: set, isDefault: false };
    return { ceiling: DEFAULT_CEILING[this.deps.profile(profileId)?.kind ?? 'remote'], isDefault: true };
  }

  /**
   * `null`, or the default's own value, makes the profile follow the default again (walk9 P8): saving the number
   * already shown as the default must not turn it into one "set by you".
   */
  setCeiling(profileId: string, ceiling: number | null): { ceiling: number; isDefault: boolean } {
    const byDefault = DEFAULT_CEILING[this.deps.profile(profileId)?.kind ?? 'remote'];
    this.db.setBulkCeiling(profileId, ceiling === byDefault ? null : ceiling);
    const now = this.ceiling(profileId);
    for (const run of this.runs.values()) {
      if (run.job.profileId === profileId && run.job.action !== 'generate') run.control.setCeiling(now.ceiling);
    }
    return now;
  }

  async start(profileId: string, request: JobRequest): Promise<Result<JobSummary>> {
    const profile = this.deps.profile(profileId);
    if (!profile) return fail('NOT_FOUND', 'That profile no longer exists.');
    // Checked before the items are created (which can take seconds for a whole ledger): nothing awaits between
    // here and the new job's reservation in run(), so a second start that arrives meanwhile sees this one.
    const busy = this.conflictingJob(profileId, request.action, null);
    if (busy) return fail('CONFLICT', busy);
    const id = randomUUID();
    const params: JobParams =
      request.action === 'extend'
        ? { days: request.days }
        : request.action === 'generate'
          ? {
              generate: {
                expire: request.expire,
                isPremium: request.isPremium,
                note: request.note,
                expiresByDaysKey: request.expiresByDaysKey,
                daysKey: request.daysKey,
              },
            }
          : {};
    const job = { id, profileId, action: request.action, params: JSON.stringify(params), createdAt: new Date().toISOString() };
    let items: Parameters<LocalDb['createJob']>[1];
    if (request.action === 'generate') {
      const batches: number[] = [];
      for (let left = request.count; left > 0; left -= GENERATE_BATCH) batches.push(Math.min(GENERATE_BATCH, left));
      items = { batches };
    } else items = request.action === 'resetHwid' ? this.activeOnly(profileId, request.target) : request.target;
    const total = this.db.createJob(job, items);
    if (total === 0) {
      this.db.setJobState(id, 'finished', null, new Date().toISOString());
      return fail('NOT_FOUND', request.action === 'resetHwid' ? NOTHING_TO_RESET : 'No keys match; nothing was sent.');
    }
    return this.run(id, false, undefined, true);
  }

  /**
   * Runs (or resumes) a job's pending items, and with `retryUnknown` its unknown ones; a job already running or
   * starting is refused. `first`: the job's first run (from start), not a resume.
   */
  private async run(jobId: string, retryUnknown: boolean, ready?: () => Promise<void>, first = false): Promise<Result<JobSummary>> {
    if (this.isActive(jobId)) return fail('CONFLICT', 'That job is already running.');
    if (this.endPending(jobId)) return fail('CONFLICT', END_PENDING);
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
    this.starting.set(jobId, starting);
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
      return this.runReserved(jobId, retryUnknown, client, first);
    } finally {
      this.starting.delete(jobId);
      // A start that did not become a run: whoever heard "starting" (or "cancelling") hears the job as it stands.
      if ((ready || starting.cancelled) && !this.runs.has(jobId)) this.emitStored(jobId);
    }
  }

  /**
   * A job cancelled while it was starting: nothing was sent, so it ends cancelled with its items as they stood
   * (pending ones pending, unknown ones unknown: a yes to send them again is taken only when a run starts). Its end
   * is written as a run's is, and kept on screen until written when another writer holds the lock.
   */
  private async cancelStarting(jobId: string, cancelledAt: string): Promise<Result<JobSummary>> {
    const end = startCancelledEnd(jobId, cancelledAt);
    const written = await this.writeEnd(end);
    if (written !== 'written') this.keepEnd(end, this.db.jobCounts(jobId), written === 'busy');
    if (this.runs.size === 0) this.writes.release();
    this.starting.delete(jobId);
    const job = this.db.job(jobId);
    return job ? ok(this.summary(job, null)) : fail('NOT_FOUND', 'That job no longer exists.');
  }

  /**
   * Quitting: the ends of the jobs still between a start or resume and their run (the quit's last statement writes
   * them), whose own end is not kept already. They sent nothing (a run does not begin once the quit has). One
   * cancelled there ends cancelled, whatever state it stopped in, as the screen said; one merely starting is
   * interrupted in words that say nothing was sent if it was a fresh start (its file says running), and a resume
   * stays as it stopped (the file's `running` guard).
   */
  private startingEnds(quitAt: string): JobRunEnd[] {
    const ends: JobRunEnd[] = [];
    for (const [jobId, starting] of this.starting) {
      if (this.runs.has(jobId) || (this.ends.get(jobId)?.recorded ?? null) !== null) continue;
      ends.push(
        starting.cancelled
          ? startCancelledEnd(jobId, starting.cancelledAt ?? quitAt)
          : { jobId, state: 'interrupted', reason: QUIT_WHILE_STARTING, finishedAt: quitAt, batches: [] },
      );
    }
    return ends;
  }

  /** The service client for a job's profile, or null (no such job or profile, or no apiKey for it). */
  private async clientForJob(jobId: string): Promise<ServiceClient | null> {
    const job = this.db.job(jobId);
    return job && this.deps.profile(job.profileId) ? this.deps.clientFor(job.profileId) : null;
  }

  private emitStored(jobId: string): void {
    // Quitting: a start that ends after the quit says nothing to a core that is gone.
    if (this.closed) return;
    const job = this.db.job(jobId);
    if (job) this.deps.emit(this.summary(job, null));
  }

  private isActive(jobId: string): boolean {
    return this.runs.has(jobId) || this.starting.has(jobId);
  }

  /** Whether a run of this job has ended and its end is still to be written (another writer holds the lock). */
  private endPending(jobId: string): boolean {
    return (this.ends.get(jobId)?.recorded ?? null) !== null;
  }

  /**
   * A reset's targets less the keys the ledger shows as generated or deleted: the service refuses a reset for
   * them, so sending would only make failures. The ledger knows a key's status as Keydesk last saw it; a key it
   * does not hold is sent (the service decides).
   */
  private activeOnly(profileId: string, target: Extract<JobRequest, { action: 'delete' | 'resetHwid' }>['target']): typeof target {
    if ('filter' in target) {
      const { status } = target.filter;
      // A filter for generated or deleted keys names no active one: an empty list, so nothing is created.
      return status === undefined || status === 'active' ? { filter: { ...target.filter, status: 'active' } } : { keyValues: [] };
    }
    const inactive = new Set<string>();
    for (const row of this.db.iterateLedgerKeys(profileId, target.keyValues)) if (row.status !== 'active') inactive.add(row.value);
    return inactive.size === 0 ? target : { keyValues: target.keyValues.filter((v) => !inactive.has(v)) };
  }

  /**
   * Why a job of this action cannot start now for this profile, or null. Extend is not idempotent: two bulk jobs
   * at once may act on the same keys (a second "all matching" over the same filter extends every key twice), so a
   * bulk job waits for any other bulk job of the profile that runs or is starting. Generate makes new keys only;
   * one generate at a time.
   */
  private conflictingJob(profileId: string, action: JobRequest['action'], except: string | null): string | null {
    const ids = new Set([...this.runs.keys(), ...this.starting.keys()]);
    for (const id of ids) {
      if (id === except) continue;
      const other = this.runs.get(id)?.job ?? this.db.job(id);
      if (!other || other.profileId !== profileId) continue;
      if ((action === 'generate') !== (other.action === 'generate')) continue;
      const what = action === 'generate' ? 'A Generate job' : `A bulk ${ACTION_WORDS[other.action]} job`;
      return `${what} is already running for this profile; it may act on the same keys, so nothing was started. Wait for it to end or cancel it, then start again.`;
    }
    return null;
  }

  private runReserved(jobId: string, retryUnknown: boolean, client: ServiceClient | null, first = false): Result<JobSummary> {
    if (this.closed) return fail('CANCELLED', 'Keydesk is quitting.');
    const job = this.db.job(jobId);
    if (!job) return fail('NOT_FOUND', 'That job no longer exists.');
    const profile = this.deps.profile(job.profileId);
    if (!profile) return fail('NOT_FOUND', 'That profile no longer exists.');
    if (!client) {
      const words = 'No API key is available for this profile; enter it again, then resume.';
      // A job just created (running in the file, never run) ends interrupted; a stopped one stays as it stopped.
      if (job.state === 'running') this.db.setJobState(jobId, 'interrupted', words, new Date().toISOString());
      return fail('KEYCHAIN_UNAVAILABLE', words);
    }
    if (this.runs.has(jobId)) return fail('CONFLICT', 'That job is already running.');
    // What an earlier run claimed and left claimed (its end not recorded) is settled by its own log first: this run's
    // log starts empty, and must not be the only word on those items after a crash.
    this.db.settleLeftoverClaims(jobId, this.sendLogs === null ? null : readSendLog(this.sendLogs, jobId));
    // The yes to send the unknown items again is taken now the run surely starts, and for this run alone.
    if (retryUnknown) this.db.approveUnknownJobItems(jobId);
    // A job's first run began when it was started (its creation): only a resume has a time of its own, so a job
    // Keydesk stops under is said to have been resumed only when it was (summary's endUnseen.resumed).
    const runAt = first ? job.createdAt : new Date().toISOString();
    this.db.beginJobRun(jobId, runAt);
    this.ends.delete(jobId);
    let log: SendLog | null = null;
    if (this.sendLogs !== null) {
      try {
        log = SendLog.begin(this.sendLogs, jobId, runAt);
      } catch (error) {
        // Without it the run claims as slots free, each claim committed before its requests: slower, as safe. A log
        // an earlier run left (not replaced) names that run, and is never applied to this one's claims.
        console.error("keydesk: a job's send log could not be started; it claims its items as slots free:", error);
      }
    }
    const run: Run = {
      job: { ...job, state: 'running', reason: null, finishedAt: null, runAt, answeredAt: null, endUnseen: false },
      params: JSON.parse(job.params) as JobParams,
      retryUnknown,
      client,
      profileName: profile.name,
      control: new AdaptiveConcurrency(job.action === 'generate' ? 1 : this.ceiling(job.profileId).ceiling, this.silentMs),
      counts: this.db.jobCounts(jobId),
      inflight: 0,
      stop: null,
      abort: new AbortController(),
      wake: null,
      signalled: false,
      settle: [],
      settleSince: 0,
      writing: new Set(),
      claiming: false,
      ready: [],
      exhausted: false,
      inWrite: new Set(),
      log,
      lockedSince: null,
      lockedSinceIso: '',
      unwritten: [],
      seenKeys: [],
      reportedKeys: [],
      hwidCleared: [],
      expiryStale: [],
      hwidStale: [],
      statusStale: [],
      deleted: [],
      generated: [],
      audit: [],
      completions: [],
      answered: 0,
      lastEmitAt: Number.NEGATIVE_INFINITY,
      trailing: null,
      silence: null,
      saidSilent: false,
      finished: Promise.resolve(),
    };
    this.runs.set(jobId, run);
    run.finished = this.drive(run);
    this.emit(run, true);
    return ok(this.summary(run.job, run));
  }

  private async drive(run: Run): Promise<void> {
    try {
      for (;;) {
        if (run.stop) {
          // Claimed and never sent: back as they were.
          for (const item of run.ready.splice(0)) putBack(run, item, false);
          this.writeAnswers(run);
          this.emit(run, false);
          if (run.inflight === 0) break;
          await this.waitForAnswer(run);
          continue;
        }
        const wait = run.control.waitMs(this.clock.now());
        if (wait > 0) {
          // A Retry-After pause or pacing: nothing new goes out until it ends (or the job is stopped). An answer
          // ends the sleep early so it is saved now; the loop then sleeps again for what is left of the pause.
          this.writeAnswers(run);
          this.emit(run, true);
          await this.sleepUnlessAnswered(run, wait);
          continue;
        }
        // Items already claimed go out first, as far as the limit lets them.
        this.sendReady(run);
        // While the service is not answering, nothing more is opened into the hang but one probe at a time.
        const limit = run.control.limitAt(this.clock.now());
        const claim = this.claimSize(run, limit);
        // Answers wait to be written in groups, after the next requests have gone out (a generate job's too: its
        // batches' values go to the job writer, off main, and wait out another writer's lock as a bulk job's do).
        const claimed = await this.claim(run, claim);
        if (stopped(run)) {
          // Cancelled (or quitting) as the claim came back: claimed, never sent, so back as they were.
          for (const item of claimed) putBack(run, item, false);
          continue;
        }
        if (claimed.length === 0 && run.inflight === 0 && run.ready.length === 0) {
          // Answers not yet written may put items back to pending (a 429 with no Retry-After, which brings no
          // pause that would write them first): the claim above could not see those. Write them, wait until they
          // are in, then look again; the job ends only when nothing is pending, in flight or waiting to be written.
          if (run.settle.length > 0 || run.writing.size > 0) {
            await this.answersWritten(run);
            // A claim that came back short could not see items those answers put back: look again.
            run.exhausted = false;
            continue;
          }
          break;
        }
        run.ready.push(...claimed);
        this.sendReady(run);
        if (this.answersDue(run)) {
          // The requests just claimed reach the socket first (their sending continues in microtasks).
          await new Promise((r) => setImmediate(r));
          this.writeAnswers(run);
          this.emit(run, false);
        }
        // Paced (or paused): the loop sleeps until the next may go, without waiting for an answer first.
        if ((run.ready.length > 0 || claimed.length > 0) && run.control.waitMs(this.clock.now()) > 0) continue;
        await this.waitForAnswer(run);
      }
    } catch (error) {
      // A lock wait past LOCK_WAIT_MS stops the run where it happens (claim), in lockWords; one met anywhere else
      // is said without a length it did not last.
      run.stop ??= { state: 'interrupted', reason: isLockWait(error) ? BUSY_WORDS : unexpectedFailure('this job', error).message };
    } finally {
      await this.finish(run);
    }
  }

  private async finish(run: Run): Promise<void> {
    // Nothing is said of the run as running any more: its timers go before its end is said.
    stopTimers(run);
    // Claimed and never sent: back as they were, written with the answers (and said so by the send log until then).
    for (const item of run.ready.splice(0)) putBack(run, item, false);
    run.log?.close();
    if (this.closed && run.stop?.state === 'interrupted') {
      // Quitting: the database may be closing; close() writes what it can (its send log read with it) and the next
      // start marks what is left.
      this.runs.delete(run.job.id);
      return;
    }
    const state: JobState = run.stop?.state ?? 'finished';
    const reason =
      run.stop?.unreachable !== undefined
        ? unreachableWords(run.profileName, run.stop.unreachable, run.counts)
        : run.stop?.hung !== undefined
          ? hungWords(run.profileName, run.stop.hung, run.counts)
          : run.stop?.whenFixed
            ? whenFixed(run.stop.reason ?? '', run.counts)
            : (run.stop?.reason ?? null);
    const finishedAt = new Date().toISOString();
    let end: JobRunEnd = { jobId: run.job.id, state, reason, finishedAt, batches: [] };
    let written: 'written' | 'busy' | 'failed' = 'failed';
    try {
      // Every answer is in the file before the job is recorded as ended, or is written with its end: the groups
      // another writer's lock held back go in the same transaction as the end.
      await this.answersWritten(run);
      end = { ...end, batches: run.unwritten.splice(0) };
      written = await this.writeEnd(end);
    } finally {
      // Whatever the file says, the run is over, and the screen hears it ended: an end not written yet is kept
      // here (and written once the lock is let go), so the job does not read "running" with nothing running.
      run.job = { ...run.job, state, reason, finishedAt };
      // Its end is in the file with every answer and every item put back: the send log has nothing more to say.
      if (written === 'written') this.removeSendLog(run.job.id);
      else this.keepEnd(end, run.counts, written === 'busy');
      this.runs.delete(run.job.id);
      // A progress event held back while the end was written is not sent now: the end is what is said.
      stopTimers(run);
      if (this.runs.size === 0) this.writes.release();
      this.deps.emit(this.summary(run.job, null));
    }
  }

  /**
   * Records a run's end through the job writer (after the writes before it); refused for another cause than the
   * lock (the writer thread gone), on main's connection. Never throws: says whether it was written, or refused
   * because another writer holds keydesk.db's lock ('busy': the same write succeeds later), or failed.
   */
  private async writeEnd(end: JobRunEnd): Promise<'written' | 'busy' | 'failed'> {
    try {
      await this.writes.end(end);
      return 'written';
    } catch (error) {
      // Quitting: not on main's connection either, which would wait for the lock past the quit's budget.
      if (isLockWait(error) || this.closed) return 'busy';
      try {
        this.db.endJobRun(end.jobId, end.state, end.reason, end.finishedAt, end.batches);
        return 'written';
      } catch (again) {
        if (isLockWait(again)) return 'busy';
        console.error("keydesk: a job's end could not be recorded:", again);
        return 'failed';
      }
    }
  }

  /**
   * A run's end not in the file: shown as the run ended, with its counts (items still sent had no answer: unknown,
   * as the end records them). `busy`: written again, with backoff, until the lock is let go; otherwise it stays
   * unrecorded, and the next start turns the job (still running in the file) into interrupted.
   */
  private keepEnd(end: JobRunEnd, counts: Record<JobItemState, number>, busy: boolean): void {
    const kept: { end: JobRunEnd; counts: Record<JobItemState, number>; recorded: Promise<void> | null } = {
      end,
      counts: { ...counts, unknown: counts.unknown + counts.sent, sent: 0 },
      recorded: null,
    };
    this.ends.set(end.jobId, kept);
    if (!busy) return;
    kept.recorded = (async () => {
      for (let attempt = 0; ; attempt++) {
        await lockPause(attempt);
        // Quitting: close() makes the last try.
        if (this.closed) return;
        const written = await this.writeEnd(end);
        if (written === 'busy') continue;
        if (written === 'written') {
          this.ends.delete(end.jobId);
          this.removeSendLog(end.jobId);
        } else kept.recorded = null;
        if (this.runs.size === 0) this.writes.release();
        const job = this.db.job(end.jobId);
        if (job) this.deps.emit(this.summary(job, null));
        return;
      }
    })();
  }

  private removeSendLog(jobId: string): void {
    if (this.sendLogs !== null) removeSendLogs(this.sendLogs, [jobId]);
  }

  /**
   * How many more items to claim now. With a send log: a batch ahead (CLAIM_AHEAD, or twice the limit) once fewer
   * than a limit's worth are claimed and unsent. Without one, each claim is a commit before its requests go out:
   * free slots are filled a few at a time (a quarter of the limit), not one commit per answer, and one at a time when
   * paced. Nothing to claim (every item sent or ended, as far as this run knows): no claim is asked of the file.
   */
  private claimSize(run: Run, limit: number): number {
    if (run.exhausted || !(run.counts.pending - run.ready.length > 0 || run.retryUnknown)) return 0;
    if (run.log !== null) return run.ready.length < limit ? Math.max(CLAIM_AHEAD, 2 * limit) - run.ready.length : 0;
    const free = limit - run.inflight - run.ready.length;
    return free <= 0 || (free < Math.ceil(limit / 4) && run.inflight > 0) ? 0 : run.control.pacedRate !== null ? 1 : free;
  }

  /**
   * Sends items already claimed while the limit and the pace let them: each one's number goes into the send log
   * first (one write for those going together), and if that cannot be written, none of them goes and the job stops.
   */
  private sendReady(run: Run): void {
    if (run.stop || run.ready.length === 0) return;
    const now = this.clock.now();
    const room = run.control.limitAt(now) - run.inflight;
    if (room <= 0 || run.control.waitMs(now) > 0) return;
    // Paced: one, then the pace says when the next may go.
    const going = run.ready.splice(0, run.control.pacedRate !== null ? 1 : room);
    if (run.log !== null) {
      try {
        run.log.record(going.map((item) => item.seq));
      } catch (error) {
        for (const item of [...going, ...run.ready.splice(0)]) putBack(run, item, false);
        const why = unexpectedFailure('noting the keys this job sends', error).message;
        run.stop ??= {
          state: 'interrupted',
          reason: `${why} The job stopped before sending them: nothing was sent unnoted.`,
          whenFixed: true,
        };
        run.abort.abort();
        this.signal(run);
        return;
      }
    }
    for (const item of going) {
      run.counts[item.retry ? 'unknown' : 'pending'] -= item.size;
      run.counts.sent += item.size;
      void this.send(run, item, run.control.sent(this.clock.now()));
    }
    this.watchSilence(run);
  }

  /** Writes the answers waiting, then waits until every group asked for is written (or held back by the lock). */
  private async answersWritten(run: Run): Promise<void> {
    this.writeAnswers(run);
    while (run.writing.size > 0) {
      await Promise.all(run.writing);
      this.writeAnswers(run);
    }
  }

  /**
   * A write of this run was refused for keydesk.db's lock: whether it has waited for the lock as long as a job
   * waits (real time, not the job's clock: the lock is not a pause the job chose). The first refusal is said at
   * once (the summary's waitingForRecordsSince), so the screen does not go on showing a rate nothing backs.
   */
  private lockWaitOver(run: Run): boolean {
    const now = performance.now();
    if (run.lockedSince === null) {
      run.lockedSince = now;
      run.lockedSinceIso = new Date().toISOString();
      if (this.runs.get(run.job.id) === run && !stopped(run)) this.emit(run, true);
    }
    return now - run.lockedSince >= this.lockWaitMs;
  }

  /** Resolves after the next answer (or a cancel), and after every other answer that arrived with it. */
  private async waitForAnswer(run: Run): Promise<void> {
    // An answer (or a cancel) that came while the loop was busy elsewhere is not waited for again.
    if (!run.signalled) {
      await new Promise<void>((resolve) => {
        // Answers waiting to be written are written in time even if no other answer comes (a slow service).
        const timer =
          run.settle.length > 0
            ? setTimeout(() => run.wake?.(), Math.max(0, run.settleSince + WRITE_ANSWERS_EVERY_MS - performance.now()))
            : undefined;
        run.wake = () => {
          clearTimeout(timer);
          run.wake = null;
          resolve();
        };
      });
    }
    await new Promise((r) => setImmediate(r));
    run.signalled = false;
  }

  /** Whether the answers waiting are to be written now. Real time, not the job's clock: a write is not a pause. */
  private answersDue(run: Run): boolean {
    return (
      run.settle.length > 0 && (run.settle.length >= WRITE_ANSWERS_AT || performance.now() - run.settleSince >= WRITE_ANSWERS_EVERY_MS)
    );
  }

  /** Sleeps for `ms`, ending early on an answer or when the job is stopped. */
  private async sleepUnlessAnswered(run: Run, ms: number): Promise<void> {
    if (run.signalled) {
      run.signalled = false;
      return;
    }
    const woken = new AbortController();
    const stop = (): void => {
      woken.abort();
    };
    run.abort.signal.addEventListener('abort', stop, { once: true });
    run.wake = () => {
      run.wake = null;
      woken.abort();
    };
    try {
      await this.clock.sleep(ms, woken.signal);
    } finally {
      run.wake = null;
      run.abort.signal.removeEventListener('abort', stop);
      run.signalled = false;
    }
  }

  private signal(run: Run): void {
    run.signalled = true;
    run.wake?.();
  }

  private async send(run: Run, item: ClaimedItem, ticket: number): Promise<void> {
    run.inflight++;
    const sentAt = this.clock.now();
    let outcome: Outcome;
    try {
      // A generate's answer is megabytes: its headers coming say the service answers, before its body is read.
      outcome = await this.perform(run, item, () => {
        run.control.heard(ticket, this.clock.now());
        // Said at once if the run had said the service was not answering (emit never holds that change back).
        if (run.saidSilent) this.emit(run, false);
      });
    } catch (error) {
      // Words for the item and the audit; the exception's own text goes to main's log only.
      const failure = unexpectedFailure('sending a job item', error);
      outcome = {
        kind: 'unknown',
        code: 'INTERNAL',
        message: `${failure.message} The request may or may not have taken effect.`,
        overload: false,
      };
    }
    run.inflight--;
    const now = this.clock.now();
    const action = AUDIT_ACTION[run.job.action];
    const audit = (outcome2: AuditEntry['outcome'], message: string): void => {
      run.audit.push({
        profileId: run.job.profileId,
        profileName: run.profileName,
        action,
        target: run.job.action === 'generate' ? `${keyCount(item.size)} (${item.target} of a job)` : item.target,
        outcome: outcome2,
        message,
      });
    };
    run.counts.sent -= item.size;
    switch (outcome.kind) {
      case 'done':
        run.control.answered(ticket, now - sentAt, now);
        run.counts.done += item.size;
        countCompletion(run, now, item.size);
        settleLater(run, { seq: item.seq, state: 'done', code: null, message: outcome.note ?? null });
        if (run.job.action === 'delete') run.deleted.push(item.target);
        else {
          // A generate answer read off main: its keys are already queued for the ledger; its values go to the export.
          if (outcome.batch) run.generated.push(jsonTextOf(outcome.batch.values));
          else if (run.job.action === 'generate') run.generated.push(toJson(outcome.keys.map((k) => k.value)));
          // A key without its status (the real dialect) would be recorded with a guessed one: only its fields.
          for (const k of outcome.keys) (k.unreported?.includes('status') ? run.reportedKeys : run.seenKeys).push(k);
          if (outcome.hwidCleared) run.hwidCleared.push(item.target);
          if (outcome.expiryStale) run.expiryStale.push(item.target);
        }
        audit('ok', outcome.note ?? '');
        break;
      case 'failed':
      case 'unknown':
        // No answer at all (a timeout) is a hang, not an overload the service stated: held, its pace kept, and
        // counted: probes with none mean the service is hung. A connection that failed is held the same way, and
        // counted: a run of them means the service is gone. An answer Keydesk could not read is held as before,
        // and, an answer, ends both runs.
        if (outcome.kind === 'unknown' && outcome.lost) run.control.connectionLost(ticket, now);
        else if (outcome.kind === 'unknown' && outcome.timedOut) run.control.noAnswer(ticket, now);
        else if (outcome.kind === 'unknown' && outcome.code === 'OUTCOME_UNKNOWN') run.control.unreadable(ticket, now);
        else if (outcome.overload) run.control.overloaded(ticket, now, outcome.retryAfter);
        else run.control.answered(ticket, now - sentAt, now);
        run.counts[outcome.kind] += item.size;
        countCompletion(run, now, item.size);
        settleLater(run, { seq: item.seq, state: outcome.kind, code: outcome.code, message: outcome.message });
        // An act that may have taken effect: All keys must not state the expiry, HWID or status seen before as
        // current (each is marked as not read back until the key is described again).
        if (outcome.kind === 'unknown') {
          if (run.job.action === 'extend') run.expiryStale.push(item.target);
          else if (run.job.action === 'resetHwid') run.hwidStale.push(item.target);
          else if (run.job.action === 'delete') run.statusStale.push(item.target);
        }
        // An item sent with no answer may have taken effect: Activity says unknown, not failed.
        audit(outcome.kind === 'unknown' ? 'unknown' : 'failed', outcome.message);
        if ((run.control.unreachable || run.control.hung) && !run.stop) {
          // Gone (a run of lost connections, a probe among them) or hung (probes that got no answer in time): nothing
          // more is sent into it, as each request would be one more unknown item; the keys left stay pending, for a
          // resume once it answers again.
          run.stop = run.control.unreachable
            ? { state: 'interrupted', reason: null, unreachable: run.control.lostConnections }
            : { state: 'interrupted', reason: null, hung: run.control.unansweredRun };
          run.abort.abort();
        }
        break;
      case 'requeue':
        putBack(run, item, true);
        if (outcome.stopJob) {
          run.stop ??= { state: 'interrupted', reason: outcome.message, whenFixed: true };
          run.abort.abort();
        } else run.control.overloaded(ticket, now, outcome.retryAfter);
        break;
    }
    // A slot is free: the next item claimed goes now, not when the loop next looks.
    this.sendReady(run);
    this.signal(run);
  }

  private async perform(run: Run, item: { target: string; size: number }, heard: () => void): Promise<Outcome> {
    const { client } = run;
    const action: JobAction = run.job.action;
    let r: Result<Key[]>;
    if (action === 'delete') {
      const d = await client.deleteKey(item.target, false);
      r = d.ok ? ok([]) : d;
    } else if (action === 'extend' || action === 'resetHwid') {
      const k = action === 'extend' ? await client.extend(item.target, run.params.days ?? 0) : await client.resetHwid(item.target);
      if (!k.ok) return classify(k);
      if (action === 'extend' && k.data === null) {
        // Extended, answered with {message} alone: the new expiry came back nowhere. Read the key back, so its
        // ledger row does not go on showing the old expiry as current; when that fails too, the item says so.
        const back = await readBack(client, item.target, null);
        return back
          ? { kind: 'done', keys: [back] }
          : {
              kind: 'done',
              keys: [],
              expiryStale: true,
              note: 'Extended. The service did not describe the key and it could not be read back: All keys still shows the expiry seen before, marked as not read back. Look the key up to refresh it.',
            };
      }
      // A reset answered with {message} alone (the real dialect) still cleared the key's HWID.
      return { kind: 'done', keys: k.data ? [k.data] : [], hwidCleared: action === 'resetHwid' && k.data === null };
    } else {
      const g = run.params.generate;
      if (!g) return { kind: 'failed', code: 'INTERNAL', message: 'The job lost its parameters.', overload: false };
      const params = { ...stripUndefined(g), count: item.size };
      const intake = this.deps.generateIntake?.();
      if (intake) {
        // Read off main, as keys.generate reads it: a 2xx body the reader cannot read (or a reader that stops: a
        // crash, a quit) is an unknown outcome, "probably created", never sent again.
        let b: Result<KeyBatch>;
        try {
          b = await client.generateInto(params, intake, heard);
        } catch (error) {
          intake.release();
          throw error;
        }
        if (!b.ok) {
          intake.release();
          return classify(b);
        }
        // The keys exist on the service: they go to the ledger whatever becomes of the job now.
        void intake.record(run.job.profileId);
        return { kind: 'done', keys: [], batch: b.data };
      }
      r = await client.generate(params, heard);
    }
    return r.ok ? { kind: 'done', keys: r.data } : classify(r);
  }

  /**
   * Marks up to `claim` more items sent (committed before they go out); the answers waiting stay unwritten. While
   * another writer holds keydesk.db's lock nothing is claimed and the claim is made again, until the job is stopped
   * or has waited LOCK_WAIT_MS: then it stops, interrupted, in words that say so. Claimed items that come back
   * after a stop are put back at once, so a quit's last writes include them.
   */
  private async claim(run: Run, claim: number): Promise<ClaimedItem[]> {
    if (claim <= 0) return [];
    run.claiming = true;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const claimed = await this.writes.claim(run.job.id, claim, run.retryUnknown);
          if (claimed.length < claim) run.exhausted = true;
          this.lockLetGo(run);
          if (stopped(run)) {
            // Cancelled (or quitting) while the claim was being written: claimed, never sent, so back as they were.
            for (const item of claimed) putBack(run, item, false);
            this.writeAnswers(run);
            return [];
          }
          return claimed;
        } catch (error) {
          if (!isLockWait(error)) throw error;
          if (stopped(run)) return [];
          if (this.lockWaitOver(run)) {
            run.stop ??= { state: 'interrupted', reason: lockWords(this.lockWaitMs) };
            run.abort.abort();
            return [];
          }
          this.emit(run, false);
          await lockPause(attempt, run.abort.signal);
          if (stopped(run)) return [];
        }
      }
    } finally {
      run.claiming = false;
    }
  }

  /** A write of this run went through: the lock is let go, and the answers it held back are written now. */
  private lockLetGo(run: Run): void {
    const waited = run.lockedSince !== null;
    run.lockedSince = null;
    // The screen said the job waits for the records: it hears at once that it does not any more.
    if (waited && this.runs.get(run.job.id) === run) this.emit(run, true);
    for (const batch of run.unwritten.splice(0)) this.track(run, this.settle(run, batch));
  }

  /** Writes what has settled since the last write, through the job writer (in order, after the writes before it). */
  private writeAnswers(run: Run): void {
    const batch = takeAnswers(run);
    if (batch !== null) this.track(run, this.settle(run, batch));
  }

  private track(run: Run, write: Promise<void>): void {
    const written: Promise<void> = write.finally(() => run.writing.delete(written));
    run.writing.add(written);
  }

  /**
   * One group of answers into the file. The requests were made, so the answers are not dropped: while another
   * writer holds keydesk.db's lock the group is written again (the job waits, its claims wait too); past the
   * job's wait (or quitting) it is kept, to be written when the lock is let go or with the job's end. Refused for
   * another cause (the writer thread gone), it is written on main's connection; only if that fails too does the
   * job stop, interrupted: its end then records those items unknown (they may have taken effect).
   */
  private async settle(run: Run, batch: SettleBatch): Promise<void> {
    run.inWrite.add(batch);
    try {
      await this.settleBatch(run, batch);
    } finally {
      run.inWrite.delete(batch);
    }
  }

  private async settleBatch(run: Run, batch: SettleBatch): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.writes.settle(batch);
        this.lockLetGo(run);
        return;
      } catch (error) {
        if (isLockWait(error)) {
          // Stopped (a cancel, a quit): not made again, so the run ends now; kept, it is written with the end.
          if (this.closed || this.lockWaitOver(run) || stopped(run)) {
            run.unwritten.push(batch);
            return;
          }
          this.emit(run, false);
          await lockPause(attempt, run.abort.signal);
          continue;
        }
        // Quitting (the writer was stopped at the end of the quit's budget): main's connection does not wait for
        // the lock either; the next start marks what is left.
        if (this.closed) {
          run.unwritten.push(batch);
          return;
        }
        try {
          this.db.settleJobItems(batch);
          return;
        } catch (again) {
          if (isLockWait(again)) {
            run.unwritten.push(batch);
            return;
          }
          run.stop ??= { state: 'interrupted', reason: unexpectedFailure("recording this job's answers", again).message };
          run.abort.abort();
          this.signal(run);
          return;
        }
      }
    }
  }

  /**
   * A progress event, at most every PROGRESS_EVERY_MS unless `force`: one held back is sent once that has passed
   * (the run's `trailing` timer), so the last change is said even if nothing follows it. The service starting or
   * ending not to answer is said at once.
   */
  private emit(run: Run, force: boolean): void {
    // Closed (quitting): a run still waiting on a hung request says nothing more to a core that is gone.
    if (this.closed || this.runs.get(run.job.id) !== run) return;
    const now = this.clock.now();
    const wait = PROGRESS_EVERY_MS - (now - run.lastEmitAt);
    const silent = !run.stop && run.control.silentSince(now) !== null;
    if (!force && wait > 0 && silent === run.saidSilent) {
      run.trailing ??= setTimeout(() => {
        run.trailing = null;
        this.emit(run, true);
      }, wait);
      return;
    }
    clearTimeout(run.trailing ?? undefined);
    run.trailing = null;
    run.lastEmitAt = now;
    const summary = this.summary(run.job, run);
    run.saidSilent = summary.notAnswering !== undefined;
    this.deps.emit(summary);
  }

  /**
   * Arms the run's `silence` timer for the moment the service would count as not answering if nothing answers
   * before (no answer for SILENT_MS with a request in flight that long): then nothing else happens, so the timer
   * says it. One timer per run, re-armed when it fires early (answers came meanwhile); none with nothing in flight.
   */
  private watchSilence(run: Run): void {
    if (run.silence !== null || run.stop) return;
    const now = this.clock.now();
    const at = run.control.silentAt(now);
    if (at === null) return;
    run.silence = setTimeout(
      () => {
        run.silence = null;
        if (this.runs.get(run.job.id) !== run || run.stop) return;
        if (run.control.silentSince(this.clock.now()) === null) this.watchSilence(run);
        else if (!run.saidSilent) this.emit(run, true);
      },
      Math.max(0, at - now) + 1,
    );
  }

  private summary(stored: StoredJob, run: Run | null): JobSummary {
    // A run's end not yet in the file is shown as the run ended, not as the file's "running".
    const kept = run === null ? this.ends.get(stored.id) : undefined;
    const job = kept ? { ...stored, state: kept.end.state, reason: kept.end.reason, finishedAt: kept.end.finishedAt } : stored;
    const params = JSON.parse(job.params) as JobParams;
    const counts = run ? { ...run.counts } : kept ? { ...kept.counts } : this.db.jobCounts(job.id);
    let ratePerSecond: number | null = null;
    let etaSeconds: number | null = null;
    let pausedUntil: string | null = null;
    let notAnswering: JobSummary['notAnswering'];
    // Reserved to run and getting ready (see run()): main is not done with it, whatever state it stopped in. Cancelled
    // meanwhile: cancelling until its end is written.
    const starting = run ? undefined : this.starting.get(job.id);
    const since = starting?.cancelled === false ? starting.since : undefined;
    const cancelling = starting?.cancelled === true;
    if (run) {
      const now = this.clock.now();
      while (run.completions.length > 0 && (run.completions[0]?.at ?? 0) < now - RATE_WINDOW_MS) run.completions.shift();
      const first = run.completions[0];
      if (first && (run.completions.length > 1 || first.answers > 1)) {
        const span = Math.max(now - first.at, 250);
        ratePerSecond = (run.completions.reduce((n, c) => n + c.size, 0) / span) * 1000;
        const left = counts.pending + counts.sent + (run.retryUnknown ? counts.unknown : 0);
        etaSeconds = ratePerSecond > 0 ? Math.ceil(left / ratePerSecond) : null;
      }
      const until = run.control.pausedUntil(now);
      if (until !== null) pausedUntil = new Date(Date.now() + (until - now)).toISOString();
      const silent = run.stop ? null : run.control.silentSince(now);
      if (silent !== null) notAnswering = { since: new Date(Date.now() - (now - silent)).toISOString(), awaiting: run.inflight };
      // Waiting for another writer to let go of keydesk.db, or for a service that does not answer: nothing goes
      // out, so no rate or time left is true.
      if ((run.lockedSince !== null && !run.stop) || silent !== null) {
        ratePerSecond = null;
        etaSeconds = null;
      }
    }
    const waiting = run && run.lockedSince !== null && !run.stop ? run.lockedSinceIso : undefined;
    return {
      id: job.id,
      profileId: job.profileId,
      action: job.action,
      days: params.days ?? null,
      note: params.generate?.note ?? null,
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
      ...(waiting === undefined ? {} : { waitingForRecordsSince: waiting }),
      ...(notAnswering === undefined ? {} : { notAnswering }),
      total: job.total,
      counts,
      ratePerSecond,
      etaSeconds,
      concurrency: run ? run.control.limit : 0,
      ceiling: job.action === 'generate' ? 1 : this.ceiling(job.profileId).ceiling,
      pausedUntil,
      ...(run ? { runAnswered: run.answered } : {}),
      version: ++this.version,
    };
  }

  // ---- what the handlers ask --------------------------------------------------------------------------

  /**
   * The profile's running and interrupted jobs and its `recent` newest (20 unless asked), newest first. A job main is
   * getting ready to run (a resume waiting for the ledger) is listed however old, as a running one is: its file
   * still says the state it stopped in.
   */
  list(profileId: string, recent?: number): JobSummary[] {
    const stored = this.db.jobs(profileId, recent);
    const listed = new Set(stored.map((j) => j.id));
    const starting = [...this.starting.keys()]
      .filter((id) => !listed.has(id))
      .map((id) => this.db.job(id))
      .filter((j): j is StoredJob => j !== null && j.profileId === profileId);
    const jobs = starting.length === 0 ? stored : [...stored, ...starting].sort(newestFirst);
    return jobs.map((j) => this.summary(this.runs.get(j.id)?.job ?? j, this.runs.get(j.id) ?? null));
  }

  /**
   * Jobs running now for other profiles than this one: only that they run and how far they are (a reload or a
   * profile switch must still say so); following or cancelling one needs its own profile.
   */
  runningElsewhere(profileId: string): JobSummary[] {
    const running = [...this.runs.values()].filter((r) => r.job.profileId !== profileId).map((r) => this.summary(r.job, r));
    // One getting ready to run (a resume waiting for the ledger) is about to send: said too, as starting.
    const starting = [...this.starting.keys()]
      .filter((id) => !this.runs.has(id))
      .map((id) => this.db.job(id))
      .filter((j): j is StoredJob => j !== null && j.profileId !== profileId)
      .map((j) => this.summary(j, null));
    return [...running, ...starting];
  }

  /**
   * The items a running job has claimed and not sent yet (none when it does not run): the file says sent for them,
   * the screen and an export say what they are (LocalDb.jobItems' `unsent`).
   */
  claimedUnsent(jobId: string): number[] {
    const run = this.runs.get(jobId);
    // Put back (a cancel, a stop, a 429) and not yet in the file: the answers waiting, being written, or held back by
    // another writer's lock (with the run's end, once it has ended).
    const groups: SettleBatch[] = [...(run ? [...run.unwritten, ...run.inWrite] : []), ...(this.ends.get(jobId)?.end.batches ?? [])];
    const putBack = [...(run?.settle ?? []), ...groups.flatMap((b) => b.items)].filter((i) => i.state === 'pending' || i.state === 'retry');
    return [...(run?.ready.map((item) => item.seq) ?? []), ...putBack.map((i) => i.seq)];
  }

  /** A job of this profile; another profile's job is not found. */
  get(profileId: string, jobId: string): JobSummary | null {
    const run = this.runs.get(jobId);
    const job = run?.job ?? this.db.job(jobId);
    if (!job || job.profileId !== profileId) return null;
    return this.summary(job, run ?? null);
  }

  /** Stops sending at once; answers already on the wire are still recorded, and then the job is cancelled. */
  cancel(profileId: string, jobId: string): Result<JobSummary> {
    const run = this.runs.get(jobId);
    const starting = run ? undefined : this.starting.get(jobId);
    if (starting) {
      // Getting ready to run (a resume waiting for the ledger): it sends nothing, and ends cancelled (run()).
      const job = this.db.job(jobId);
      if (!job || job.profileId !== profileId) return fail('NOT_FOUND', 'That job was not found for this profile.');
      starting.cancel();
      const s = this.summary(job, null);
      this.deps.emit(s);
      return ok(s);
    }
    if (!run || run.job.profileId !== profileId) {
      const s = this.get(profileId, jobId);
      return s ? ok(s) : fail('NOT_FOUND', 'That job was not found for this profile.');
    }
    run.stop ??= { state: 'cancelled', reason: null };
    run.abort.abort();
    this.signal(run);
    // The job stays "running" in the database until its last answer is recorded (finish() writes "cancelled"):
    // if Keydesk dies first, the next start finds it running and marks its unanswered items unknown.
    const s = this.summary(run.job, run);
    this.deps.emit(s);
    return ok(s);
  }

  /**
   * Sends a stopped job's pending items. Unknown items stay unknown unless `retryUnknown` is the user's choice
   * to send them again, and that choice holds for this run alone: those it does not send (a cancel, a stop, no
   * apiKey, a crash) stay unknown, with what was recorded of them, and a later resume leaves them alone.
   */
  async resume(profileId: string, jobId: string, retryUnknown: boolean, ready?: () => Promise<void>): Promise<Result<JobSummary>> {
    const job = this.db.job(jobId);
    if (!job || job.profileId !== profileId) return fail('NOT_FOUND', 'That job was not found for this profile.');
    if (this.isActive(jobId)) return fail('CONFLICT', 'That job is already running.');
    const busy = this.conflictingJob(profileId, job.action, jobId);
    if (busy) return fail('CONFLICT', busy);
    // The file's counts are not the job's until its end is recorded.
    if (this.endPending(jobId)) return fail('CONFLICT', END_PENDING);
    const counts = this.db.jobCounts(jobId);
    if (counts.pending === 0 && (!retryUnknown || counts.unknown === 0)) {
      const s = this.get(profileId, jobId);
      return s ? ok(s) : fail('NOT_FOUND', 'That job was not found for this profile.');
    }
    return this.run(jobId, retryUnknown, ready);
  }

  /**
   * Removes a stopped job from the profile's list (its items and the record of the keys it made go with it; the
   * keys stay in the ledger and each request in the audit log). A job main still runs, or is starting, is refused:
   * its answers are still to be recorded.
   */
  forget(profileId: string, jobId: string): Result<null> {
    const job = this.runs.get(jobId)?.job ?? this.db.job(jobId);
    if (!job || job.profileId !== profileId) return fail('NOT_FOUND', 'That job was not found for this profile.');
    if (this.isActive(jobId)) return fail('CONFLICT', 'That job is still running: cancel it and wait for it to end, then remove it.');
    if (this.endPending(jobId)) return fail('CONFLICT', END_PENDING);
    if (this.exports.has(jobId))
      return fail('CONFLICT', "That job's results are being exported; wait for the export to finish, then remove it.");
    this.db.forgetJob(jobId);
    this.ends.delete(jobId);
    return ok(null);
  }

  /**
   * An export of a job's rows begins: until the function it returns is called, the job is not removed (its rows
   * would end the file short). Call it once, when the file is written or has failed.
   */
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

  /** Waits until a job stops running and its end is recorded, or given up (tests and the bench). */
  async settled(jobId: string): Promise<void> {
    await this.runs.get(jobId)?.finished;
    await this.ends.get(jobId)?.recorded;
  }

  /**
   * Quitting: stop sending, give answers already on the wire a moment, write what can be written, and leave the
   * rest to the next start, which marks the jobs interrupted and their unanswered items unknown. All of it within
   * QUIT_BUDGET_MS, waits for another writer's lock included: a write the budget does not reach is not made.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const quitAt = new Date().toISOString();
    const deadline = performance.now() + QUIT_BUDGET_MS;
    const left = (): number => Math.max(0, deadline - performance.now());
    const runs = [...this.runs.values()];
    for (const run of runs) {
      run.stop ??= { state: 'interrupted', reason: 'Keydesk quit while this job ran.' };
      run.abort.abort();
      this.signal(run);
    }
    if (runs.length > 0) {
      await within(Promise.all(runs.map((r) => r.finished)), Math.min(QUIT_GRACE_MS, left()));
      // Record what did answer, and put back what was claimed but not sent (a claim may still be coming back);
      // whatever is still on the wire is unknown, and the jobs are interrupted.
      await within(
        (async () => {
          for (
            let round = 0;
            round < 10 && left() > 0 && runs.some((r) => r.claiming || r.settle.length > 0 || r.writing.size > 0);
            round++
          ) {
            await Promise.all(runs.map((r) => this.answersWritten(r)));
            await this.writes.idle();
            await new Promise((r) => setImmediate(r));
          }
        })(),
        left(),
      );
    }
    // What another writer's lock held back gets one last try each, while the budget lasts; what is not written, the
    // next start marks: the jobs interrupted, their items still sent unknown.
    for (const run of runs) {
      for (const batch of run.unwritten.splice(0)) {
        if (left() === 0) break;
        await within(
          this.writes.settle(batch).catch(() => undefined),
          left(),
        );
      }
    }
    // Ends the lock held back (shown as ended): those still not written go with the last statement below.
    const heldBack = [...this.ends].filter(([, kept]) => kept.recorded !== null);
    for (const [jobId, kept] of heldBack) {
      if (left() === 0 || kept.recorded === null) continue;
      await within(kept.recorded, left());
      if (left() === 0 || this.ends.get(jobId) !== kept) continue;
      const written = await within(this.writeEnd(kept.end), left());
      if (written === 'written') this.ends.delete(jobId);
    }
    // The writer's thread goes now, even mid-write (a write waiting for the lock: its transaction goes with it).
    await this.writes.close(left());
    try {
      // Main's connection waits for the lock no longer than the budget leaves (none: it tries once). These jobs
      // stopped when the quit began, or at their last answers written in its grace if later. Ends shown and not
      // written yet (the lock held them back, or the writer closed under them: a start cancelled just before the
      // quit) are written as shown, not as "Keydesk quit while this job ran"; so are the jobs still starting, which
      // sent nothing (startingEnds).
      const shown = [...this.ends.values()].filter((kept) => kept.recorded !== null).map((kept) => kept.end);
      const ends = [...shown, ...this.startingEnds(quitAt)];
      // The runs' send logs tell the items they sent from those claimed and put back by answers not written.
      for (const run of runs) run.log?.close();
      const sent = this.sendLogs === null ? new Map<string, SendLogRead>() : readSendLogs(this.sendLogs);
      this.db.withBusyTimeout(left(), () => this.db.interruptRunningJobs('Keydesk quit while this job ran.', quitAt, ends, sent));
      if (this.sendLogs !== null) removeSendLogs(this.sendLogs, sent.keys());
    } catch (error) {
      // Another writer still holds the lock: the next start does this.
      console.error('keydesk: running jobs could not be marked interrupted on quitting:', error);
    }
    // Runs still waiting on hung requests keep no timer of theirs past the quit.
    for (const run of runs) stopTimers(run);
  }
}

/** The end of a start or resume cancelled before it ran: nothing was sent, its items stand as they were. */
function startCancelledEnd(jobId: string, cancelledAt: string): JobRunEnd {
  return { jobId, state: 'cancelled', reason: null, finishedAt: cancelledAt, batches: [], anyState: true };
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

/** Completions for the rate shown, in buckets of PROGRESS_EVERY_MS: a few dozen entries, not one per answer. */
function countCompletion(run: Run, at: number, size: number): void {
  run.answered += size;
  const last = run.completions.at(-1);
  if (last && at - last.at < PROGRESS_EVERY_MS) {
    last.size += size;
    last.answers++;
  } else run.completions.push({ at, size, answers: 1 });
}

/** What has settled since the last write, as one write (null: nothing); the run's lists start again empty. */
function takeAnswers(run: Run): SettleBatch | null {
  const batch: SettleBatch | null =
    run.settle.length === 0
      ? null
      : {
          jobId: run.job.id,
          profileId: run.job.profileId,
          items: run.settle,
          seenKeys: run.seenKeys,
          reportedKeys: run.reportedKeys,
          hwidCleared: run.hwidCleared,
          expiryStale: run.expiryStale,
          hwidStale: run.hwidStale,
          statusStale: run.statusStale,
          deletedValues: run.deleted,
          generatedValues: run.generated,
          audit: run.audit,
        };
  run.settle = [];
  run.seenKeys = [];
  run.reportedKeys = [];
  run.hwidCleared = [];
  run.expiryStale = [];
  run.hwidStale = [];
  run.statusStale = [];
  run.deleted = [];
  run.generated = [];
  run.audit = [];
  return batch;
}

/**
 * A claimed item that was not sent after all (a cancel came first, or the service refused it unread: a 429, the
 * network): back to pending, or, one of the unknown items the user chose to send again, back to 'retry' with its
 * earlier evidence (this run may still send it; when the run ends it is unknown again). `counted`: the run's
 * counts already had it as sent.
 */
function putBack(run: Run, item: ClaimedItem, counted: boolean): void {
  if (counted) run.counts[item.retry ? 'unknown' : 'pending'] += item.size;
  // Back in the file's pool (once written): a later claim may find it.
  run.exhausted = false;
  settleLater(
    run,
    item.retry
      ? { seq: item.seq, state: 'retry', code: item.retry.code, message: item.retry.message }
      : { seq: item.seq, state: 'pending', code: null, message: null },
  );
}

/** An item's end, written with the next group of answers. */
function settleLater(run: Run, settlement: ItemSettlement): void {
  if (run.settle.length === 0) run.settleSince = performance.now();
  run.settle.push(settlement);
}

/** The run's timers (a held-back progress event, the silence watch): cleared when it ends, so none outlives it. */
function stopTimers(run: Run): void {
  clearTimeout(run.trailing ?? undefined);
  clearTimeout(run.silence ?? undefined);
  run.trailing = null;
  run.silence = null;
}

/** Whether the job was stopped; read after an await, where a cancel may have come in. */
function stopped(run: Run): boolean {
  return run.stop !== null;
}

/** A pause before a write refused for keydesk.db's lock is made again (ends early when `signal` aborts). */
function lockPause(attempt: number, signal: AbortSignal = new AbortController().signal): Promise<void> {
  return realClock.sleep(Math.min(LOCK_RETRY_MS.most, LOCK_RETRY_MS.first * 2 ** attempt), signal);
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
