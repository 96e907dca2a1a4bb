// Overview, the home view: the first-run checklist, the keys' figures from the ledger, and the execution count
// with its history (sampled by main while Keydesk runs, and every few seconds while this view is open).
import { useEffect, useMemo, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { backOnlineNote, FailureMessage } from '../../components/FailureMessage.tsx';
import { HistoryChart } from '../../components/HistoryChart.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { Time } from '../../components/Time.tsx';
import { fmt } from '../../lib/format.ts';
import { toChartBuckets } from '../../lib/history.ts';
import { HISTORY_RANGE_MS, LIMITS } from '../../../../shared/rules.ts';
import { useKeydesk } from '../../store/index.ts';
import { FirstRun } from './FirstRun.tsx';
import { KeyFigures } from './KeyFigures.tsx';

const RANGES = [
  ['1h', 'Last hour'],
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['all', 'All time'],
] as const;
type Range = (typeof RANGES)[number][0];
const REFRESH_MS = 5_000;
/** One unchanged count read within this span is the view's opening reads, not a history: no flat line or "+0". */
const FLAT_SPAN_MS = 60_000;
/** A count read with no answer for this long is said to be so: the count shown is no longer given as current. */
export const SLOW_READ_MS = 5_000;

/** How long the count read still out has had no answer (ms), kept current each second; null when none is out. */
function useUnanswered(askedAt: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (askedAt === null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [askedAt]);
  // Until the first tick, `now` may be from before the read was sent: that counts as no wait yet.
  return askedAt === null ? null : Math.max(0, now - askedAt);
}

/** A reading's time: the time of day when it is today's, else with its date (a count held from an earlier day). */
const readMode = (iso: string): 'time' | 'dateTime' => (new Date(iso).toDateString() === new Date().toDateString() ? 'time' : 'dateTime');

/** How many buckets the chart can show: about one per device pixel of the window's width, within the contract. */
const chartPoints = (): number =>
  Math.min(LIMITS.historyPointsMax, Math.max(2, Math.round(window.innerWidth * (window.devicePixelRatio || 1))));

export function Overview() {
  const count = useKeydesk((s) => s.executionCount);
  const sampledAt = useKeydesk((s) => s.sampledAt);
  const beforePush = useKeydesk((s) => s.countBeforePush);
  /** The count shown is the last one Keydesk holds, read on an earlier visit to this profile, not since. */
  const earlier = useKeydesk((s) => s.countEarlier);
  const asked = useKeydesk((s) => s.countAskedAt) !== null;
  const { status, error } = useKeydesk((s) => s.countRequest);
  const unanswered = useUnanswered(useKeydesk((s) => s.countAskedAt));
  /** The read out has had no answer for a while: the count shown may be old, and the service may be away. */
  const slow = unanswered !== null && unanswered >= SLOW_READ_MS;
  const history = useKeydesk((s) => s.history);
  const historyClosed = useKeydesk((s) => s.historyClosed);
  const followSamples = useKeydesk((s) => s.followSamples);
  const historyError = useKeydesk((s) => s.historyRequest.error);
  /** No answer yet for this range and profile: the chart says it is reading (a poll's read keeps the chart shown). */
  const historyReading = useKeydesk((s) => s.historyRequest.status === 'idle' || s.historyRequest.status === 'loading');
  const refresh = useKeydesk((s) => s.refreshExecutions);
  const push = useKeydesk((s) => s.pushExecution);
  const online = useKeydesk((s) => s.online);
  /** The service (or Keydesk itself) does not answer: a push would only fail, so it waits. */
  const waits = useServiceWait() !== null;
  /** A push waits for its answer: no second one (it would count twice), and the button says why. */
  const pushing = useKeydesk((s) => s.pushRequest.status === 'loading');
  const loadHistory = useKeydesk((s) => s.loadHistory);
  const profileId = useKeydesk((s) => s.activeProfileId);
  const [range, setRange] = useState<Range>('24h');

  // Refreshes on its own while visible; pauses while the window is hidden.
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | null = null;
    const tick = () => {
      // One count read at a time: while one is out this tick adds nothing; the history follows each read that ends.
      if (useKeydesk.getState().countAskedAt !== null) return;
      void refresh().then(() => loadHistory(range, chartPoints()));
    };
    const start = () => {
      if (timer === null && document.visibilityState === 'visible') {
        // The history is Keydesk's own (a local read): it shows at once, whether or not the service answers the count.
        void loadHistory(range, chartPoints());
        tick();
        timer = setInterval(tick, REFRESH_MS);
      }
    };
    const stop = () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') start();
      else stop();
    };
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [refresh, loadHistory, range, profileId]);

  useEffect(() => followSamples(), [followSamples]);

  const buckets = useMemo(() => toChartBuckets(history), [history]);
  const closed = useMemo(() => historyClosed.map((c) => ({ from: Date.parse(c.from), to: Date.parse(c.to) })), [historyClosed]);
  // A bounded range the samples reach only partly: the chart starts at its first sample, and says so.
  const firstAt = buckets[0]?.at;
  const readAt = sampledAt === null ? buckets.at(-1)?.at : Date.parse(sampledAt);
  const partial = (from: number | undefined): from is number =>
    range !== 'all' &&
    from !== undefined &&
    readAt !== undefined &&
    from - (readAt - HISTORY_RANGE_MS[range]) > HISTORY_RANGE_MS[range] / 20;
  const rangeLabel = RANGES.find(([value]) => value === range)?.[1].toLowerCase() ?? 'range';
  const first = buckets[0]?.total;
  // The range ends now: the headline count is the newest figure (a push shows in it before the chart reads again).
  const last = count ?? buckets.at(-1)?.total;
  const lastAt = buckets.at(-1)?.at;
  const flat = first !== undefined && buckets.every((b) => b.total === first) && (last === undefined || last === first);
  // A chart (and a change) needs two samples, and more than the view's own first reads of a count that has not moved.
  const hasHistory = buckets.length >= 2 && firstAt !== undefined && lastAt !== undefined && !(flat && lastAt - firstAt < FLAT_SPAN_MS);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <FirstRun />
      <KeyFigures />
      <div className="card">
        <h2>Executions</h2>
        <p className="muted" id="execution-meaning">
          An execution is one run of your protected app that the service counted: the count is the service's total.
        </p>
        {/* An outage is said once, by the offline notice above the view; anything else is said here, with a way to read again. */}
        {status === 'error' && error && !(!online && (error.code === 'NETWORK' || error.code === 'TIMEOUT')) && (
          <>
            <FailureMessage failure={error} stale={backOnlineNote(error, online)} />
            <button type="button" onClick={() => void refresh()}>
              Try again
            </button>
          </>
        )}
        {count === null && status !== 'error' ? (
          <Skeleton label="Reading the execution count…" lines={1} />
        ) : (
          // After a failed read the last count stays, plainly marked as no longer current.
          <p className={`big${status === 'error' || beforePush || slow || earlier ? ' stale' : ''}`} aria-label="Execution count">
            {count === null ? '—' : fmt.number(count)}
          </p>
        )}
        <p className="muted">
          {slow ? (
            <>
              Checking the count… no answer for {fmt.number(Math.floor(unanswered / 1_000))} s.
              {sampledAt && (
                <>
                  {' '}
                  Last read at <Time iso={sampledAt} mode={readMode(sampledAt)} />: it may have changed since.
                </>
              )}
            </>
          ) : status === 'error' ? (
            sampledAt ? (
              <>
                Last known count, read at <Time iso={sampledAt} mode={readMode(sampledAt)} />: it may have changed since.
              </>
            ) : (
              'No count could be read.'
            )
          ) : sampledAt && earlier ? (
            <>
              Last count Keydesk holds, read earlier at <Time iso={sampledAt} mode={readMode(sampledAt)} />
              {asked ? ': reading it again…' : ': it may have changed since.'}
            </>
          ) : sampledAt && beforePush ? (
            <>
              Read at <Time iso={sampledAt} mode="time" />, before the last push: the new count is read in a few seconds.
            </>
          ) : sampledAt ? (
            <>
              Read at <Time iso={sampledAt} mode="time" />
            </>
          ) : (
            'Reading…'
          )}
        </p>
        {/* Offline, a push would only fail: the button says why it waits instead. */}
        <button
          type="button"
          className="primary"
          disabled={waits || pushing}
          aria-describedby={waits ? 'push-offline' : undefined}
          onClick={() => void push()}
        >
          {pushing ? 'Counting…' : 'Push +1'}
        </button>
        <ServiceWait id="push-offline" what="Push" />
        <p className="muted">Push +1 adds one execution to the service's count, as a run of your app would: a way to see the count move.</p>
      </div>
      <div className="card">
        <h2>History</h2>
        <fieldset className="segmented">
          <legend className="visually-hidden">Range</legend>
          {RANGES.map(([value, label]) => (
            <label key={value}>
              <input type="radio" name="history-range" value={value} checked={range === value} onChange={() => setRange(value)} />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
        {hasHistory && first !== undefined && last !== undefined && (
          <p>
            {partial(firstAt) ? 'Change since the first sample in the range' : 'Change over the range'}:{' '}
            <strong>{last - first >= 0 ? `+${fmt.number(last - first)}` : fmt.number(last - first)}</strong>
          </p>
        )}
        {historyError && <FailureMessage failure={historyError} />}
        {hasHistory ? (
          <>
            <HistoryChart buckets={buckets} closed={closed} />
            {partial(firstAt) && (
              <p className="muted">
                The {rangeLabel} shown from its first sample, at about <Time iso={new Date(firstAt).toISOString()} mode="dateTime" />: the
                count is sampled only while Keydesk runs (every minute, and every few seconds while this view is open), and none was read
                earlier in the range.
              </p>
            )}
          </>
        ) : historyReading ? (
          <Skeleton label="Reading the history…" lines={1} variant="block" />
        ) : historyError ? null : (
          // One rule for every profile: a chart needs two samples in the range (after a failed read, the failure says so).
          <EmptyState
            title="No history in this range yet"
            // The same rule as Push +1: offline, a push would only fail.
            action={
              <>
                <button
                  type="button"
                  disabled={waits || pushing}
                  aria-describedby={waits ? 'count-offline' : undefined}
                  onClick={() => void push()}
                >
                  {pushing ? 'Counting…' : 'Count an execution now'}
                </button>
                <ServiceWait id="count-offline" what="Counting" />
              </>
            }
          >
            {buckets.length === 1 && buckets[0] ? (
              <>
                One sample so far: {fmt.number(buckets[0].total)} at <Time iso={new Date(buckets[0].at).toISOString()} mode="dateTime" />
                .{' '}
              </>
            ) : buckets[0] ? (
              <>
                {fmt.number(buckets.length)} samples so far, all {fmt.number(buckets[0].total)}, since{' '}
                <Time iso={new Date(buckets[0].at).toISOString()} mode="dateTime" />.{' '}
              </>
            ) : null}
            The count is sampled while Keydesk runs (every minute, and every few seconds while this view is open), so the chart fills in as
            you work.
            {range === 'all' ? '' : ' A longer range may hold earlier samples.'}
          </EmptyState>
        )}
      </div>
    </section>
  );
}
