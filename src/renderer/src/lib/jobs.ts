// A bulk or generate job in the words a person reads first: shared by All keys' jobs panel and the Generate form.
import type { JobAction, JobSummary } from '../../../shared/domain.ts';
import { fmt, NOUNS } from './format.ts';
import { JOB_STATE_WORDS, jobTitle as titleOf, NOT_ANSWERING_RULE } from '../../../shared/job-words.ts';

const n = (x: number): string => x.toLocaleString();

/** Seconds as "45 s", "3 min", "2 h 5 min". */
function duration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  const min = Math.round(seconds / 60);
  return min < 90 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/**
 * Main still runs the job: it is sending, or it was stopped (cancelled, say) and answers to requests already
 * sent are still to come. Main records its end (finishedAt) only after the last of them.
 */
export const isLive = (j: JobSummary): boolean => j.finishedAt === null;

/**
 * The state in words: a stopped job still awaiting answers is "cancelling", not yet "cancelled"; a cancel that
 * came after the last request went out stopped nothing, and the job says it finished.
 */
function stateWord(j: JobSummary): string {
  if (j.state !== 'running' && isLive(j)) return j.state === 'cancelled' ? 'cancelling' : 'stopping';
  if (j.state === 'cancelled' && j.counts.pending === 0 && j.counts.sent === 0) return 'finished (the cancel came after the last request)';
  return JOB_STATE_WORDS[j.state].toLowerCase();
}

/** What the job does, in words: "Extend by 7 days", "Reset HWID". */
export const jobTitle = (j: Pick<JobSummary, 'action' | 'days' | 'source'>): string => titleOf(j, (d) => fmt.count(d, NOUNS.day));

/**
 * Before main sends, it waits for its ledger to record keys still coming in (a generate's last batches: 27–47 s
 * after hundreds of thousands of keys, measured on a loaded machine); a new job then lists the requests it will send.
 */
const HOW_LONG = 'up to about a minute after hundreds of thousands of keys';
const RESUMING = `Keydesk first finishes recording keys already made (${HOW_LONG})`;
const STARTING = `Keydesk first finishes recording keys already made, then lists the requests it will send (${HOW_LONG})`;

/**
 * What a stopped job's Resume does, in words: the button's label names the act and how many keys it reaches, and
 * an act that changes keys for good (delete, extend, reset HWID) has the words of the yes it asks for first.
 */
export function resumeWords(j: Pick<JobSummary, 'action' | 'days' | 'counts'>): {
  label: string;
  confirm: { title: string; body: string; confirmLabel: string } | null;
} {
  const left = j.counts.pending;
  const keys = fmt.count(left, NOUNS.key);
  const these = left === 1 ? 'the 1 key not sent' : `the ${keys} not sent`;
  const stopped = `The job was stopped before ${left === 1 ? 'it was' : 'these were'} sent.`;
  switch (j.action) {
    case 'delete':
      return {
        label: `Resume deleting ${keys}…`,
        confirm: {
          title: `Delete ${these}?`,
          body: `${stopped} Resuming deletes ${left === 1 ? 'it' : 'each of them'} on the service; a deleted key cannot be brought back.`,
          confirmLabel: `Delete ${keys}`,
        },
      };
    case 'extend': {
      const by = j.days === null ? '' : ` by ${fmt.count(j.days, NOUNS.day)}`;
      return {
        label: `Resume extending ${keys}${by}…`,
        confirm: {
          title: `Extend ${these}${by}?`,
          body: `${stopped} Resuming extends ${left === 1 ? 'it' : 'each of them'}${by}; an extension is not taken back.`,
          confirmLabel: `Extend ${keys}`,
        },
      };
    }
    case 'resetHwid':
      return {
        label: `Resume resetting the HWID of ${keys}…`,
        confirm: {
          title: `Reset the HWID of ${these}?`,
          body: `${stopped} Resuming unbinds ${left === 1 ? 'it from its machine; it binds' : 'each from its machine; each binds'} to the next machine that validates it.`,
          confirmLabel: `Reset the HWID of ${keys}`,
        },
      };
    case 'generate':
      return { label: `Resume generating ${keys}`, confirm: null };
    // Lookups change nothing on the service: no yes is asked.
    case 'import':
      return { label: `Resume looking up ${keys}`, confirm: null };
    case 'refresh':
      return { label: `Resume reading ${keys} again`, confirm: null };
    case 'edit':
      // An edit sets the same values again: sending it twice changes nothing more.
      return { label: `Resume editing ${keys}`, confirm: null };
  }
}

/** A job asked of main and not answered yet: said with how long it has been (StartingLine adds it, ticking). */
export function startingLine(s: { action: JobAction; days: number | null; resume: boolean }): string {
  return `${jobTitle(s)}: ${s.resume ? 'resuming' : 'starting'} the job… ${s.resume ? RESUMING : STARTING}; nothing new has been sent yet.`;
}

/** Main has reserved the job to run and is getting ready (JobSummary.startingSince): nothing new sent yet. */
export const isStarting = (j: JobSummary): boolean => j.startingSince !== undefined;

/**
 * A job Cancel can stop now: sending, or getting ready to send (a resume waiting for the ledger: it then sends
 * nothing and ends cancelled, its items as they stood).
 */
export const canCancel = (j: JobSummary): boolean => j.state === 'running';

/** Answers a rate and a time left are read from: fewer, and the first figures (a slow first request, say) mislead. */
const PACE_ANSWERS = 1_000;
const PACE_SHARE = 0.05;

/** Whether a running job's rate rests on enough answers to be shown as a figure. */
export const paceSettled = (j: JobSummary): boolean => {
  // A resumed run's rate rests on its own answers, not on the done counts of the runs before it.
  if (j.runAnswered !== undefined) {
    const left = j.runAnswered + j.counts.pending + j.counts.sent;
    return j.runAnswered >= Math.min(PACE_ANSWERS, left * PACE_SHARE) || settledOf(j) >= j.total;
  }
  const settled = settledOf(j);
  return settled >= Math.min(PACE_ANSWERS, j.total * PACE_SHARE) || settled >= j.total;
};

/** Items answered so far: done, failed or of unknown outcome. */
export const settledOf = (j: JobSummary): number => j.counts.done + j.counts.failed + j.counts.unknown;

/** Where this window first saw a job running: the base its own rate is measured from. */
export interface PaceBase {
  id: string;
  /** ms since the epoch. */
  at: number;
  settled: number;
}

/**
 * A running job's rate and time left, as main gives them (over its last few seconds) or, while main has none
 * (it needs two answers in a few seconds, and one generate request can take longer), measured here: the answers
 * since this window first saw the job running, over the time since. Never a figure before an answer has come.
 */
export function withPace(j: JobSummary, base: PaceBase | null, now: number): JobSummary {
  if (j.state !== 'running' || j.ratePerSecond !== null || j.notAnswering !== undefined || base?.id !== j.id) return j;
  const answered = settledOf(j) - base.settled;
  const seconds = (now - base.at) / 1000;
  if (answered <= 0 || seconds <= 0) return j;
  const rate = answered / seconds;
  return { ...j, ratePerSecond: rate, etaSeconds: Math.ceil((j.counts.pending + j.counts.sent) / rate) };
}

/**
 * Since when (ms since the epoch) the service has not answered a running job, when that is what its line says
 * (jobLine: not while it starts); null otherwise.
 */
export function notAnsweringSince(j: JobSummary): number | null {
  if (j.state !== 'running' || isStarting(j) || j.notAnswering === undefined) return null;
  const since = Date.parse(j.notAnswering.since);
  return Number.isNaN(since) ? null : since;
}

/**
 * A job main was running (or stopping) when Keydesk itself stopped answering this window: whether it still runs is
 * not known (it may have stopped with Keydesk), only how far it was last seen.
 */
export function stateNotKnownLine(j: JobSummary): string {
  return `${jobTitle(j)}, state not known: Keydesk stopped answering. Last seen: ${n(j.counts.done)} of ${n(j.total)} done.`;
}

/** One line that says where a job stands, in the words a person reads first. */
export function jobLine(j: JobSummary): string {
  const { done, failed, unknown, pending, sent } = j.counts;
  if (isStarting(j)) {
    const before = done + failed + unknown > 0 ? ` Before: ${n(done)} of ${n(j.total)} done.` : '';
    return `${jobTitle(j)}, starting: ${RESUMING}; nothing new has been sent yet.${before}`;
  }
  if (j.state === 'running' && j.notAnswering !== undefined) {
    const { since, awaiting } = j.notAnswering;
    const waits = awaiting === 1 ? '1 request awaits an answer' : `${n(awaiting)} requests await an answer`;
    const so = [failed > 0 ? `, ${n(failed)} failed` : '', unknown > 0 ? `, ${n(unknown)} unknown` : ''].join('');
    // Once those on the wire time out, one request at a time goes out to see whether it answers (concurrency.ts
    // limitAt): each is a real act, so the line never says nothing is sent, and says when the job gives up.
    return `${jobTitle(j)}, running: ${n(done)} of ${n(j.total)} done${so}; the service has not answered since ${fmt.time(since)}; ${waits}; ${NOT_ANSWERING_RULE}.`;
  }
  // Nothing has answered yet: "0 of N done" alone reads as stuck; say what is happening instead.
  if (j.state === 'running' && settledOf(j) === 0) {
    const one = j.action === 'generate' || j.total === 1;
    return `${jobTitle(j)}, running: sending the first request${one ? '' : 's'}, 0 of ${n(j.total)} done until ${one ? 'it answers' : 'they answer'}.`;
  }
  const parts = [`${n(done)} of ${n(j.total)} done`];
  if (failed > 0) parts.push(`${n(failed)} failed`);
  if (unknown > 0) parts.push(`${n(unknown)} unknown`);
  if (j.state === 'running') {
    // Until enough answers have come, a rate (and the time left from it) is a guess: say it is being estimated.
    if (!paceSettled(j)) {
      if (pending + sent > 0) parts.push('estimating the time left');
    } else {
      if (j.ratePerSecond !== null) parts.push(fmt.count(Math.round(j.ratePerSecond), NOUNS.keyPerSecond));
      if (j.etaSeconds !== null && pending + sent > 0) parts.push(`about ${duration(j.etaSeconds)} left`);
    }
  } else {
    // A stopped job may still have answers on the wire: never leave them out of the sum.
    if (sent > 0) parts.push(`${n(sent)} sent, awaiting an answer`);
    if (pending > 0) parts.push(`${n(pending)} not sent`);
  }
  return `${jobTitle(j)}, ${stateWord(j)}: ${parts.join(', ')}.`;
}
