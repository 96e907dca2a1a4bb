// The run loop: claims items ahead, sends them as the limit and the pace let them, takes their answers, stops
// when the service is gone or hung (its probes unanswered), and records the run's end.
import type { JobState } from '../../shared/domain.ts';
import { cutOffWords, hungWords, UNNOTED, unreachableWords, whenFixed } from '../../shared/job-words.ts';
import { jsonTextOf, toJson } from '../../shared/key-batch.ts';
import { unexpectedFailure } from '../failures.ts';
import type { Engine } from './engine.ts';
import type { ClaimedItem, JobRunEnd } from './job-writes.ts';
import { countCompletion, emit, summarize, watchSilence } from './progress.ts';
import { perform, type Outcome } from './requests.ts';
import { halt, putBack, settleLater, signal, stopped, stopTimers, type Run } from './run.ts';
import { answersDue, answersWritten, claim, keepEnd, removeSendLog, writeAnswers, writeEnd, WRITE_ANSWERS_EVERY_MS } from './run-writes.ts';

/**
 * With a send log, items are claimed this many (or twice the limit) ahead of their requests: a freed slot is filled
 * at once, with no wait for a commit on the job writer's thread, and claims are a few commits per thousand keys.
 */
const CLAIM_AHEAD = 64;

/** Runs `run` until nothing is left to send or await, or it is stopped; then records its end. */
export async function drive(e: Engine, run: Run): Promise<void> {
  try {
    for (;;) {
      if (run.stop) {
        // Claimed and never sent: back as they were.
        for (const item of run.claims.ready.splice(0)) putBack(run, item, false);
        writeAnswers(e, run);
        emit(e, run, false);
        if (run.wire.inflight === 0) break;
        await waitForAnswer(run);
        continue;
      }
      const wait = run.control.waitMs(e.clock.now());
      if (wait > 0) {
        // A Retry-After pause or pacing: nothing new goes out until it ends (or the job is stopped). An answer
        // ends the sleep early so it is saved now; the loop then sleeps again for what is left of the pause.
        writeAnswers(e, run);
        emit(e, run, true);
        await sleepUnlessAnswered(e, run, wait);
        continue;
      }
      // Items already claimed go out first, as far as the limit lets them.
      sendReady(e, run);
      // While the service is not answering, nothing more is opened into the hang but one probe at a time.
      const limit = run.control.limitAt(e.clock.now());
      // Answers wait to be written in groups, after the next requests have gone out (a generate job's too: its
      // batches' values go to the writer thread, off main, as a bulk job's do).
      const claimed = await claim(e, run, claimSize(run, limit));
      if (stopped(run)) {
        // Cancelled (or quitting) as the claim came back: claimed, never sent, so back as they were.
        for (const item of claimed) putBack(run, item, false);
        continue;
      }
      if (claimed.length === 0 && run.wire.inflight === 0 && run.claims.ready.length === 0) {
        // Answers not yet written may put items back to pending (a 429 with no Retry-After), unseen by the claim
        // above: write them and look again. The job ends only when nothing is pending, in flight or unwritten.
        if (run.answers.next.items.length > 0 || run.answers.writing.size > 0) {
          await answersWritten(e, run);
          // A claim that came back short could not see items those answers put back: look again.
          run.claims.exhausted = false;
          continue;
        }
        break;
      }
      run.claims.ready.push(...claimed);
      sendReady(e, run);
      if (answersDue(run)) {
        // The requests just claimed reach the socket first (their sending continues in microtasks).
        await new Promise((r) => setImmediate(r));
        writeAnswers(e, run);
        emit(e, run, false);
      }
      // Paced (or paused): the loop sleeps until the next may go, without waiting for an answer first.
      if ((run.claims.ready.length > 0 || claimed.length > 0) && run.control.waitMs(e.clock.now()) > 0) continue;
      await waitForAnswer(run);
    }
  } catch (error) {
    run.stop ??= { state: 'interrupted', reason: unexpectedFailure('this job', error).message };
  } finally {
    await finish(e, run);
  }
}

async function finish(e: Engine, run: Run): Promise<void> {
  // Nothing is said of the run as running any more: its timers go before its end is said.
  stopTimers(run);
  // Claimed and never sent: back as they were, written with the answers (and said so by the send log until then).
  for (const item of run.claims.ready.splice(0)) putBack(run, item, false);
  run.claims.log?.close();
  if (e.closed && run.stop?.state === 'interrupted') {
    // Quitting: close() writes what it can and the next start marks what is left.
    e.runs.delete(run.job.id);
    return;
  }
  const state: JobState = run.stop?.state ?? 'finished';
  const reason = endReason(run);
  const finishedAt = new Date().toISOString();
  const end: JobRunEnd = { jobId: run.job.id, state, reason, finishedAt };
  let written: Awaited<ReturnType<typeof writeEnd>> = null;
  try {
    // Every answer is in the file before the job is recorded as ended.
    await answersWritten(e, run);
    written = await writeEnd(e, end);
  } finally {
    // Whatever the file says, the run is over, and the screen hears it ended: an end the writer refused is kept,
    // so the job does not read "running" with nothing running.
    run.job = { ...run.job, state, reason, finishedAt };
    // Its end is in the file with every answer and every item put back: the send log has nothing more to say.
    if (written !== null) removeSendLog(e, run.job.id);
    else keepEnd(e, end, run.counts);
    e.runs.delete(run.job.id);
    // A progress event held back while the end was written is not sent now: the end is what is said.
    stopTimers(run);
    if (e.runs.size === 0) e.writes.release();
    e.deps.emit(summarize(e, run.job, null, written ?? undefined));
  }
}

/** The run's end in words: why it stopped, and the requests a cancel cut off. */
function endReason(run: Run): string | null {
  const why = stopWords(run);
  return run.wire.cutOff === 0 ? why : [why, cutOffWords(run.wire.cutOff)].filter((w) => w !== null).join(' ');
}

/** Why the run stopped, from what it left. */
function stopWords(run: Run): string | null {
  const stop = run.stop;
  if (stop?.unreachable !== undefined) return unreachableWords(run.profileName, stop.unreachable, run.counts);
  if (stop?.hung !== undefined) return hungWords(run.profileName, stop.hung, run.counts);
  if (stop?.whenFixed) return whenFixed(stop.reason ?? '', run.counts);
  return stop?.reason ?? null;
}

/**
 * How many more items to claim now: with a send log, a batch ahead once fewer than a limit's worth are unsent;
 * without one (a commit before each claim's requests), free slots a quarter of the limit at a time, one when paced.
 */
function claimSize(run: Run, limit: number): number {
  const { ready } = run.claims;
  if (run.claims.exhausted || !(run.counts.pending - ready.length > 0 || run.retryUnknown)) return 0;
  if (run.claims.log !== null) return ready.length < limit ? Math.max(CLAIM_AHEAD, 2 * limit) - ready.length : 0;
  const free = limit - run.wire.inflight - ready.length;
  return free <= 0 || (free < Math.ceil(limit / 4) && run.wire.inflight > 0) ? 0 : run.control.pacedRate !== null ? 1 : free;
}

/**
 * Sends items already claimed while the limit and the pace let them: each one's number goes into the send log
 * first (one write for those going together), and if that cannot be written, none of them goes and the job stops.
 */
function sendReady(e: Engine, run: Run): void {
  const { ready, log } = run.claims;
  if (run.stop || ready.length === 0) return;
  const now = e.clock.now();
  const room = run.control.limitAt(now) - run.wire.inflight;
  if (room <= 0 || run.control.waitMs(now) > 0) return;
  // Paced: one, then the pace says when the next may go.
  const going = ready.splice(0, run.control.pacedRate !== null ? 1 : room);
  if (log !== null) {
    try {
      log.record(going.map((item) => item.seq));
    } catch (error) {
      for (const item of [...going, ...ready.splice(0)]) putBack(run, item, false);
      const why = unexpectedFailure('noting the keys this job sends', error).message;
      halt(run, { state: 'interrupted', reason: `${why} ${UNNOTED}`, whenFixed: true });
      signal(run);
      return;
    }
  }
  for (const item of going) {
    run.counts[item.retry ? 'unknown' : 'pending'] -= item.size;
    run.counts.sent += item.size;
    void send(e, run, item, run.control.sent(e.clock.now()));
  }
  watchSilence(e, run);
}

/** Resolves after the next answer (or a cancel), and after every other answer that arrived with it. */
async function waitForAnswer(run: Run): Promise<void> {
  // An answer (or a cancel) that came while the loop was busy elsewhere is not waited for again.
  if (!run.wire.signalled) {
    await new Promise<void>((resolve) => {
      // Answers waiting to be written are written in time even if no other answer comes (a slow service).
      const timer =
        run.answers.next.items.length > 0
          ? setTimeout(() => run.wire.wake?.(), Math.max(0, run.answers.since + WRITE_ANSWERS_EVERY_MS - performance.now()))
          : undefined;
      run.wire.wake = () => {
        clearTimeout(timer);
        run.wire.wake = null;
        resolve();
      };
    });
  }
  await new Promise((r) => setImmediate(r));
  run.wire.signalled = false;
}

/** Sleeps for `ms`, ending early on an answer or when the job is stopped. */
async function sleepUnlessAnswered(e: Engine, run: Run, ms: number): Promise<void> {
  const { wire } = run;
  if (wire.signalled) {
    wire.signalled = false;
    return;
  }
  const woken = new AbortController();
  const stop = (): void => {
    woken.abort();
  };
  wire.abort.signal.addEventListener('abort', stop, { once: true });
  wire.wake = () => {
    wire.wake = null;
    woken.abort();
  };
  try {
    await e.clock.sleep(ms, woken.signal);
  } finally {
    wire.wake = null;
    wire.abort.signal.removeEventListener('abort', stop);
    wire.signalled = false;
  }
}

async function send(e: Engine, run: Run, item: ClaimedItem, ticket: number): Promise<void> {
  run.wire.inflight++;
  const sentAt = e.clock.now();
  let outcome: Outcome;
  try {
    // A generate's answer is megabytes: its headers coming say the service answers, before its body is read.
    const heard = (): void => {
      run.control.heard(ticket, e.clock.now());
      // Said at once if the run had said the service was not answering (emit never holds that change back).
      if (run.said.silent) emit(e, run, false);
    };
    outcome = await perform(
      run,
      item,
      heard,
      () => e.deps.generateIntake?.(),
      // Read to its end: a statement left open would pin main's connection to this snapshot.
      (value) => [...e.db.iterateLedgerKeys(run.job.profileId, [value])][0] ?? null,
    );
  } catch (error) {
    // Words for the item; the exception's own text goes to main's log only.
    const failure = unexpectedFailure('sending a job item', error);
    outcome = {
      kind: 'unknown',
      code: 'INTERNAL',
      message: `${failure.message} The request may or may not have taken effect.`,
      overload: false,
    };
  }
  run.wire.inflight--;
  if (outcome.kind === 'unknown' && outcome.cutOff) run.wire.cutOff++;
  const now = e.clock.now();
  run.counts.sent -= item.size;
  if (outcome.kind === 'requeue') {
    putBack(run, item, true);
    if (outcome.stopJob) halt(run, { state: 'interrupted', reason: outcome.message, whenFixed: true });
    else run.control.overloaded(ticket, now, outcome.retryAfter);
  } else {
    answered(run, item, outcome, ticket, now - sentAt, now);
    if (outcome.kind !== 'done' && (run.control.unreachable || run.control.hung) && !run.stop) {
      // Gone or hung: each request sent into it would be one more unknown item, so the keys left stay pending.
      halt(
        run,
        run.control.unreachable
          ? { state: 'interrupted', reason: null, unreachable: run.control.lostConnections }
          : { state: 'interrupted', reason: null, hung: run.control.unansweredRun },
      );
    }
  }
  // A slot is free: the next item claimed goes now, not when the loop next looks.
  sendReady(e, run);
  signal(run);
}

/** An answer (or its lack) taken into the run: the pace, the counts and the next group of writes. */
function answered(
  run: Run,
  item: ClaimedItem,
  outcome: Exclude<Outcome, { kind: 'requeue' }>,
  ticket: number,
  took: number,
  now: number,
): void {
  const next = run.answers.next;
  if (outcome.kind === 'done') {
    run.control.answered(ticket, took, now);
    run.counts.done += item.size;
    countCompletion(run, now, item.size);
    settleLater(run, { seq: item.seq, state: 'done', code: outcome.code ?? null, message: outcome.note ?? null });
    if (run.job.action === 'delete' || outcome.gone) next.deletedValues.push(item.target);
    else {
      // A generate answer read off main: its keys are already queued for the ledger; its values go to the export.
      if (outcome.batch) next.generatedValues.push(jsonTextOf(outcome.batch.values));
      else if (run.job.action === 'generate') next.generatedValues.push(toJson(outcome.keys.map((k) => k.value)));
      // A key without its status (the real dialect) would be recorded with a guessed one: only its fields.
      for (const k of outcome.keys) (k.unreported?.includes('status') ? next.reportedKeys : next.seenKeys).push(k);
      if (outcome.hwidCleared) next.hwidCleared.push(item.target);
      if (outcome.expiryStale) next.expiryStale.push(item.target);
    }
    return;
  }
  // A timeout is a hang and a lost connection a sign the service is gone, not an overload it stated: each is counted
  // towards the hung or gone stop. An answer Keydesk could not read is still an answer, and ends both counts.
  const unknown = outcome.kind === 'unknown';
  if (unknown && outcome.lost) run.control.connectionLost(ticket, now);
  else if (unknown && outcome.timedOut) run.control.noAnswer(ticket, now);
  else if (unknown && outcome.code === 'OUTCOME_UNKNOWN') run.control.unreadable(ticket, now);
  else if (outcome.overload) run.control.overloaded(ticket, now, outcome.retryAfter);
  else run.control.answered(ticket, took, now);
  run.counts[outcome.kind] += item.size;
  countCompletion(run, now, item.size);
  settleLater(run, { seq: item.seq, state: outcome.kind, code: outcome.code, message: outcome.message });
  // An act that may have taken effect: All keys marks the expiry, HWID or status seen before as not read back.
  if (unknown) {
    if (run.job.action === 'extend') next.expiryStale.push(item.target);
    else if (run.job.action === 'resetHwid') next.hwidStale.push(item.target);
    else if (run.job.action === 'delete') next.statusStale.push(item.target);
  }
}
