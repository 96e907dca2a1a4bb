// How many requests a job keeps in flight, and when the next may go: growth while answers are fast, easing down as
// latency rises, halving and pacing on overload, a pause for Retry-After, the hung and gone counts. Time comes in.
import { HUNG_AFTER_PROBES } from '../../shared/rules.ts';

/** Requests in flight at the start of a job. */
export const START_CONCURRENCY = 4;
/** Slow start ends here (then one more per round trip): a rate limit's bucket running dry refuses about 16 at once. */
const SLOW_START_UNTIL = 16;
/** A round trip's average over twice the baseline latency and 25 ms more: queueing. The limit eases (Gradient2Limit). */
const QUEUEING_RATIO = 2;
const QUEUEING_SLACK_MS = 25;
/** Latency alone never eases the limit below HEADROOM ÷ (1 − gradient): 8 at worst, as answers still come. */
const HEADROOM = 4;
/** Share of the way the limit eases per round trip (Gradient2's smoothing), spread over its answers. */
const SMOOTHING = 0.2;
/** Round trips over which the baseline rises to a lasting latency: slow, so the service's queue is not the norm. */
const BASELINE_ROUND_TRIPS = 100;
/** After an overload, pace at this share of the rate the service was seen to accept. */
const PACE_SHARE = 0.95;
/** Paced rate growth per second without an overload (probing for more). */
const PACE_PROBE_PER_SECOND = 0.01;
/** The window over which accepted answers are counted to estimate the service's rate. */
const RATE_WINDOW_MS = 2_000;

/** No answer for this long, with a request in flight that long: the service is not answering (hung). */
export const SILENT_MS = 20_000;
/** Clean answers after a hang that bring back the pace from before it. */
export const RECOVER_ANSWERS = 8;
/** Lost connections in a row, a probe among them, after which the service is gone: five with a probe is no accident. */
export const UNREACHABLE_AFTER = 5;

export class AdaptiveConcurrency {
  /** Requests in flight: ticket → when sent. */
  private readonly inflightAt = new Map<number, number>();
  /** Requests in flight whose answer has begun (its headers came; a large body may still be arriving). */
  private readonly heardTickets = new Set<number>();
  private lastAnswerAtMs = Number.NEGATIVE_INFINITY;
  /** Since when requests have gone unanswered (a timeout); null once an answer comes. */
  private noAnswerSinceMs: number | null = null;
  /** The pace before a hang, and the clean answers since it ended: the hang says nothing of the service's rate. */
  private beforeHang: { current: number; threshold: number; paceRate: number } | null = null;
  private cleanSinceHang = 0;
  /**
   * Requests in a row whose connection failed, with no answer between them (UNREACHABLE_AFTER); the ticket count when
   * the first of them failed (a ticket at or past it was sent after: a probe), and whether a probe failed too.
   */
  private lostInRow = 0;
  private lostFromTicket = 0;
  private probeLost = false;
  /**
   * Requests in a row with no answer of any kind (timed out or lost their connection), the ticket count when the
   * first of them ended (a ticket at or past it: a probe), how many probes among them, and how many timed out.
   */
  private unansweredInRow = 0;
  private unansweredFromTicket = 0;
  private probesUnanswered = 0;
  private timedOutInRow = 0;

  private current: number;
  private ceiling: number;
  private threshold = SLOW_START_UNTIL;
  /** Latency: a round trip's moving average, and the baseline (that average at its lowest, rising slowly). */
  private recentMs = Number.NaN;
  private baselineMs = Number.NaN;
  private pausedUntilMs = 0;
  private lastOverloadAtMs = Number.NEGATIVE_INFINITY;
  /** Requests sent so far, and how many had been sent at the last halving: a ticket below it predates it. */
  private tickets = 0;
  private overloadTicket = 0;
  /** Requests per second while pacing; Infinity until the service first refuses. */
  private paceRate = Number.POSITIVE_INFINITY;
  private paceFromMs = 0;
  private nextSendAtMs = 0;
  /** When recent answers were accepted, for the rate estimate. */
  private readonly accepted: number[] = [];

  /** No answer for this long, with a request in flight that long: not answering (SILENT_MS unless a test sets it). */
  private readonly silentMs: number;

  constructor(ceiling: number, silentMs: number = SILENT_MS) {
    this.silentMs = silentMs;
    this.ceiling = Math.max(1, ceiling);
    this.current = Math.min(START_CONCURRENCY, this.ceiling);
  }

  /** Requests that may be in flight now. */
  get limit(): number {
    return Math.max(1, Math.floor(this.current));
  }

  /** Requests that may be in flight at `nowMs`: one (a probe) while the service is not answering, so a hang gets no more. */
  limitAt(nowMs: number): number {
    return this.silentSince(nowMs) === null ? this.limit : 1;
  }

  /** Since when the service has not answered (a timeout, or no answer for SILENT_MS with a request in flight that long); null: it answers. */
  silentSince(nowMs: number): number | null {
    if (this.noAnswerSinceMs !== null) return this.noAnswerSinceMs;
    let oldest = Number.POSITIVE_INFINITY;
    for (const [ticket, at] of this.inflightAt) if (!this.heardTickets.has(ticket)) oldest = Math.min(oldest, at);
    if (!Number.isFinite(oldest) || nowMs - oldest < this.silentMs || nowMs - this.lastAnswerAtMs < this.silentMs) return null;
    return Math.max(oldest, this.lastAnswerAtMs);
  }

  /** When the service will count as not answering unless an answer comes first; null if nothing awaits one, or it already does. */
  silentAt(nowMs: number): number | null {
    if (this.silentSince(nowMs) !== null) return null;
    let oldest = Number.POSITIVE_INFINITY;
    for (const [ticket, at] of this.inflightAt) if (!this.heardTickets.has(ticket)) oldest = Math.min(oldest, at);
    return Number.isFinite(oldest) ? Math.max(oldest, this.lastAnswerAtMs) + this.silentMs : null;
  }

  /** Requests in flight with no answer yet. */
  get awaiting(): number {
    return this.inflightAt.size;
  }

  setCeiling(ceiling: number): void {
    this.ceiling = Math.max(1, ceiling);
    this.current = Math.min(this.current, this.ceiling);
  }

  /** Milliseconds until the next request may go (a Retry-After pause or pacing); 0 when it may go now. */
  waitMs(nowMs: number): number {
    return Math.max(0, this.pausedUntilMs - nowMs, this.nextSendAtMs - nowMs);
  }

  pausedUntil(nowMs: number): number | null {
    return this.pausedUntilMs > nowMs ? this.pausedUntilMs : null;
  }

  /** A request is going out now; the ticket goes back with its answer. */
  sent(nowMs: number): number {
    const ticket = this.tickets++;
    this.inflightAt.set(ticket, nowMs);
    if (!Number.isFinite(this.paceRate)) return ticket;
    // Probe upward slowly while nothing is refused.
    const rate = this.paceRate * (1 + (PACE_PROBE_PER_SECOND * Math.max(0, nowMs - this.paceFromMs)) / 1000);
    // A late send (a busy event loop, a slow timer) may catch up by two gaps, so lateness does not lower the rate.
    const gap = 1000 / rate;
    this.nextSendAtMs = Math.max(nowMs - 2 * gap, this.nextSendAtMs) + gap;
    return ticket;
  }

  /**
   * The answer to a request in flight has begun (its headers came): the service is answering, whatever time its
   * body takes (a generate's is megabytes). The request no longer counts toward a silence; its own timeouts still hold.
   */
  heard(ticket: number, nowMs: number): void {
    if (!this.inflightAt.has(ticket)) return;
    this.heardTickets.add(ticket);
    this.lastAnswerAtMs = Math.max(this.lastAnswerAtMs, nowMs);
    this.noAnswerSinceMs = null;
  }

  /** The service answered (success or a definite refusal of the item itself, e.g. NOT_FOUND). */
  answered(ticket: number, latencyMs: number, nowMs: number): void {
    this.inflightAt.delete(ticket);
    this.heardTickets.delete(ticket);
    this.lastAnswerAtMs = nowMs;
    this.noAnswerSinceMs = null;
    this.endRuns();
    if (this.beforeHang && ++this.cleanSinceHang >= RECOVER_ANSWERS) {
      // Answering again: back to the pace from before the hang, which said nothing of the service's rate.
      this.current = Math.min(this.ceiling, Math.max(this.current, this.beforeHang.current));
      this.threshold = this.beforeHang.threshold;
      this.paceRate = this.beforeHang.paceRate;
      this.paceFromMs = nowMs;
      this.beforeHang = null;
    }
    this.accepted.push(nowMs);
    while (this.accepted.length > 0 && (this.accepted[0] ?? 0) < nowMs - RATE_WINDOW_MS) this.accepted.shift();
    const gradient = this.gradient(latencyMs);
    // An answer to a request sent before the last halving says nothing about the new limit.
    if (ticket < this.overloadTicket) return;
    if (gradient < 1) {
      // Queueing: toward limit × gradient + HEADROOM, never up; growth is one per round trip from here on.
      const eased = this.current + ((this.current * gradient + HEADROOM - this.current) * SMOOTHING) / this.current;
      this.current = Math.max(1, Math.min(this.current, eased));
      this.threshold = Math.min(this.threshold, this.current);
      return;
    }
    // Slow start (one more per answer: doubling per round trip) up to the last halving, then one per round trip.
    this.current += this.current < this.threshold ? 1 : 1 / this.current;
    this.current = Math.min(this.current, this.ceiling);
  }

  /** Takes in a latency; the gradient: tolerated latency ÷ a round trip's average, from 0.5 to 1 (not queueing). */
  private gradient(latencyMs: number): number {
    const ms = Math.max(latencyMs, 0.1);
    const answers = Math.max(1, this.current);
    this.recentMs = Number.isNaN(this.recentMs) ? ms : this.recentMs + (ms - this.recentMs) / answers;
    const rise = (this.recentMs - this.baselineMs) / (BASELINE_ROUND_TRIPS * answers);
    this.baselineMs = Number.isNaN(this.baselineMs) ? ms : Math.min(this.recentMs, this.baselineMs + rise);
    const tolerated = Math.max(QUEUEING_RATIO * this.baselineMs, this.baselineMs + QUEUEING_SLACK_MS);
    return Math.max(0.5, Math.min(1, tolerated / this.recentMs));
  }

  /**
   * The service is overloaded (429 or 5xx): halves once per round trip, pauses for Retry-After, and paces at the rate
   * the service was seen to accept.
   */
  overloaded(ticket: number, nowMs: number, retryAfterSeconds: number | undefined): void {
    this.inflightAt.delete(ticket);
    this.heardTickets.delete(ticket);
    this.lastAnswerAtMs = nowMs;
    this.noAnswerSinceMs = null;
    this.endRuns();
    // The service answers, and says it is overloaded: that, not the pace before a hang, is what holds now.
    this.beforeHang = null;
    if (retryAfterSeconds !== undefined && retryAfterSeconds > 0) {
      this.pausedUntilMs = Math.max(this.pausedUntilMs, nowMs + retryAfterSeconds * 1000);
    }
    if (ticket < this.overloadTicket) return;
    const windowMs = Math.min(RATE_WINDOW_MS, nowMs - Math.max(this.lastOverloadAtMs, this.accepted[0] ?? nowMs));
    const seen = this.accepted.filter((t) => t >= nowMs - RATE_WINDOW_MS).length;
    if (seen > 0) {
      // Answers accepted over the window (at least a second: a burst into a full token bucket is not a rate).
      this.paceRate = Math.max(1, (seen / Math.max(windowMs, 1000)) * 1000 * PACE_SHARE);
      this.paceFromMs = Math.max(nowMs, this.pausedUntilMs);
    } else if (Number.isFinite(this.paceRate)) {
      this.paceRate = Math.max(1, this.paceRate / 2);
      this.paceFromMs = Math.max(nowMs, this.pausedUntilMs);
    }
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.threshold = this.current;
    this.lastOverloadAtMs = nowMs;
    this.overloadTicket = this.tickets;
    this.accepted.length = 0;
  }

  /** A request timed out: halves once per round trip and holds new requests to a probe until an answer (see hold). */
  noAnswer(ticket: number, nowMs: number): void {
    this.timedOutInRow++;
    this.unanswered(ticket, nowMs);
  }

  /** An answer Keydesk could not read (its outcome unknown): held as a timeout is, but the service is neither hung nor gone. */
  unreadable(ticket: number, nowMs: number): void {
    this.endRuns();
    this.hold(ticket, nowMs);
  }

  /** A request got no answer (timed out, or its connection failed): counted, and held (see noAnswer). */
  private unanswered(ticket: number, nowMs: number): void {
    if (this.unansweredInRow === 0) this.unansweredFromTicket = this.tickets;
    else if (ticket >= this.unansweredFromTicket) this.probesUnanswered++;
    this.unansweredInRow++;
    this.hold(ticket, nowMs);
  }

  /**
   * Halves once per round trip and holds new requests to one probe until an answer; the pace from before comes back
   * after RECOVER_ANSWERS clean answers, as a hang says nothing of the service's rate.
   */
  private hold(ticket: number, nowMs: number): void {
    const sentAt = this.inflightAt.get(ticket) ?? nowMs;
    this.inflightAt.delete(ticket);
    this.heardTickets.delete(ticket);
    this.noAnswerSinceMs ??= Math.max(sentAt, this.lastAnswerAtMs);
    this.beforeHang ??= { current: this.current, threshold: this.threshold, paceRate: this.paceRate };
    this.cleanSinceHang = 0;
    if (ticket < this.overloadTicket) return;
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.threshold = this.current;
    this.overloadTicket = this.tickets;
  }

  /** A request's connection failed (refused, reset, closed before an answer): held as a timeout is, and counted. */
  connectionLost(ticket: number, nowMs: number): void {
    if (this.lostInRow === 0) this.lostFromTicket = this.tickets;
    else if (ticket >= this.lostFromTicket) this.probeLost = true;
    this.lostInRow++;
    this.unanswered(ticket, nowMs);
  }

  /**
   * Whether the service is gone: UNREACHABLE_AFTER lost connections in a row, a probe among them, no answer between.
   * A timeout neither adds to the run nor ends it (that is `hung`); any answer ends it.
   */
  get unreachable(): boolean {
    return this.lostInRow >= UNREACHABLE_AFTER && this.probeLost;
  }

  /** Requests in a row whose connection failed, with no answer between them. */
  get lostConnections(): number {
    return this.lostInRow;
  }

  /**
   * Whether the service is hung: HUNG_AFTER_PROBES probes in a row unanswered, a timeout among the run. Any answer,
   * even one Keydesk cannot read, ends the run; its headers alone do not (a body that never ends is no answer).
   */
  get hung(): boolean {
    return this.timedOutInRow > 0 && this.probesUnanswered >= HUNG_AFTER_PROBES;
  }

  /** Requests in a row with no answer (timed out or lost their connection), how many timed out, and the probes among them. */
  get unansweredRun(): { requests: number; timedOut: number; probes: number } {
    return { requests: this.unansweredInRow, timedOut: this.timedOutInRow, probes: this.probesUnanswered };
  }

  /** Any answer ends the runs of no answers that make a service hung or gone. */
  private endRuns(): void {
    this.lostInRow = 0;
    this.probeLost = false;
    this.unansweredInRow = 0;
    this.probesUnanswered = 0;
    this.timedOutInRow = 0;
  }

  /** Requests per second being paced at, or null when not pacing. */
  get pacedRate(): number | null {
    return Number.isFinite(this.paceRate) ? this.paceRate : null;
  }
}
