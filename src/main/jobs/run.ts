// One run of a job (a start or a resume, until its end is written): its state, grouped by concern, and the small
// moves every room makes on it (an answer kept for the next write, an item put back, a stop).
import type { ParsedInput } from '../../shared/contract.ts';
import type { JobItemState, Key } from '../../shared/domain.ts';
import type { JsonText } from '../../shared/key-batch.ts';
import type { ServiceClient } from '../client/service-client.ts';
import type { ItemSettlement, SettleBatch, StoredJob } from '../store/local-db.ts';
import type { AdaptiveConcurrency } from './concurrency.ts';
import type { ClaimedItem } from './job-writes.ts';
import type { SendLog } from './send-log.ts';

/** A job as jobs.start's input checks it, or an import's keys and their source, or a refresh's keys. */
export type JobRequest =
  | ParsedInput<'jobs.start'>
  | { action: 'import'; source: string; target: { keyValues: string[] } }
  | ({ action: 'refresh' } & ParsedInput<'refresh.start'>);
export type GenerateParams = Omit<Extract<JobRequest, { action: 'generate' }>, 'action' | 'count' | 'label'>;

/** A job's parameters as stored with it (JSON). */
export interface JobParams {
  days?: number;
  /** An import's source: the file's name, or "pasted keys". */
  source?: string;
  generate?: GenerateParams;
  /** An edit's fields, and the endpoints to try in order (those the capability check found). */
  edit?: Extract<JobRequest, { action: 'edit' }>['edit'] & { states: ('active' | 'generated')[] };
}

/**
 * Why the run stopped. Worded at the end from what is left: `whenFixed` (the way on once fixed), `unreachable` (the
 * service gone: requests in a row that lost their connection), `hung` (requests in a row that got no answer).
 */
export interface Stop {
  state: 'cancelled' | 'interrupted';
  reason: string | null;
  whenFixed?: true;
  unreachable?: number;
  hung?: { requests: number; timedOut: number; probes: number };
}

/** Items claimed (marked sent in the file) ahead of their requests. */
interface Claims {
  /** Claimed and not sent yet, lowest first: sent as slots free. */
  ready: ClaimedItem[];
  /** A claim came back short: nothing left to claim, until an item is put back (then there may be). */
  exhausted: boolean;
  /** The run's send log: an item's number goes in before its request goes out. Null: claims are made as slots free. */
  log: SendLog | null;
}

/** The requests out and the loop's wake-ups. */
interface Wire {
  inflight: number;
  abort: AbortController;
  /** Aborted by a cancel alone: it cuts the requests on the wire off (a quit or a stop lets them answer). */
  cut: AbortController;
  /** Requests the cancel cut off: their items are unknown. */
  cutOff: number;
  wake: (() => void) | null;
  /** Set by an answer or a cancel; cleared when the loop has looked. */
  signalled: boolean;
}

/** The next group of answers for the job writer: a SettleBatch's lists (documented there), filled as answers come. */
export interface NextAnswers {
  items: ItemSettlement[];
  seenKeys: Key[];
  reportedKeys: Key[];
  hwidCleared: string[];
  expiryStale: string[];
  hwidStale: string[];
  statusStale: string[];
  deletedValues: string[];
  generatedValues: JsonText<string[]>[];
}

/** Answers on their way into the file. */
interface Answers {
  next: NextAnswers;
  /** When the first of `next` arrived (performance.now()). */
  since: number;
  /** Groups handed to the writer and not yet written. */
  writing: Set<Promise<void>>;
  /** Groups being written now: the items they put back count as unsent. */
  inWrite: Set<SettleBatch>;
}

/** What the rate shown is read from. */
interface Pace {
  /** Per bucket of answers: when its first came, the keys and the answers in it. */
  completions: { at: number; size: number; answers: number }[];
  /** Keys answered in this run (not the runs before a resume): a rate is shown once enough of them have come. */
  answered: number;
}

/** What the progress events have said, and their timers. */
interface Said {
  lastAt: number;
  /** A progress event held back: sent when its wait has passed, so the last change is always said. */
  trailing: NodeJS.Timeout | null;
  /** Fires when the service would count as not answering: no answer comes to say so, so this timer does. */
  silence: NodeJS.Timeout | null;
  /** Whether the last event said the service was not answering: a change of that is said at once. */
  silent: boolean;
}

export interface Run {
  job: StoredJob;
  params: JobParams;
  /** The user's yes to send the unknown items again, for this run only: claimed (as 'retry') once none is pending. */
  retryUnknown: boolean;
  client: ServiceClient;
  profileName: string;
  control: AdaptiveConcurrency;
  counts: Record<JobItemState, number>;
  stop: Stop | null;
  claims: Claims;
  wire: Wire;
  answers: Answers;
  pace: Pace;
  said: Said;
  finished: Promise<void>;
}

export function newRun(
  init: Pick<Run, 'job' | 'params' | 'retryUnknown' | 'client' | 'profileName' | 'control' | 'counts'>,
  log: SendLog | null,
): Run {
  return {
    ...init,
    stop: null,
    claims: { ready: [], exhausted: false, log },
    wire: { inflight: 0, abort: new AbortController(), cut: new AbortController(), cutOff: 0, wake: null, signalled: false },
    answers: { next: noAnswers(), since: 0, writing: new Set(), inWrite: new Set() },
    pace: { completions: [], answered: 0 },
    said: { lastAt: Number.NEGATIVE_INFINITY, trailing: null, silence: null, silent: false },
    finished: Promise.resolve(),
  };
}

function noAnswers(): NextAnswers {
  return {
    items: [],
    seenKeys: [],
    reportedKeys: [],
    hwidCleared: [],
    expiryStale: [],
    hwidStale: [],
    statusStale: [],
    deletedValues: [],
    generatedValues: [],
  };
}

/** What has settled since the last write, as one write (null: nothing); the next group starts empty. */
export function takeAnswers(run: Run): SettleBatch | null {
  const next = run.answers.next;
  run.answers.next = noAnswers();
  return next.items.length === 0 ? null : { jobId: run.job.id, profileId: run.job.profileId, ...next };
}

/** An item's end, written with the next group of answers. */
export function settleLater(run: Run, settlement: ItemSettlement): void {
  if (run.answers.next.items.length === 0) run.answers.since = performance.now();
  run.answers.next.items.push(settlement);
}

/**
 * A claimed item not sent after all (a cancel came first, or a 429 or the network refused it unread): back to
 * pending, or to 'retry' with its earlier evidence. `counted`: the run's counts already had it as sent.
 */
export function putBack(run: Run, item: ClaimedItem, counted: boolean): void {
  if (counted) run.counts[item.retry ? 'unknown' : 'pending'] += item.size;
  // Back in the file's pool (once written): a later claim may find it.
  run.claims.exhausted = false;
  settleLater(
    run,
    item.retry
      ? { seq: item.seq, state: 'retry', code: item.retry.code, message: item.retry.message }
      : { seq: item.seq, state: 'pending', code: null, message: null },
  );
}

/** Stops the run (the first stop's reason stands) and aborts what waits on it. */
export function halt(run: Run, stop: Stop): void {
  run.stop ??= stop;
  run.wire.abort.abort();
}

/** Wakes the loop: an answer came, or the run was stopped. */
export function signal(run: Run): void {
  run.wire.signalled = true;
  run.wire.wake?.();
}

/** Whether the job was stopped; read after an await, where a cancel may have come in. */
export function stopped(run: Run): boolean {
  return run.stop !== null;
}

/** The run's timers (a held-back progress event, the silence watch): cleared when it ends, so none outlives it. */
export function stopTimers(run: Run): void {
  clearTimeout(run.said.trailing ?? undefined);
  clearTimeout(run.said.silence ?? undefined);
  run.said.trailing = null;
  run.said.silence = null;
}
