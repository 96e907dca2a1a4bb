import { useEffect, useState } from 'react';
import type { ExecutionSample } from '../../../../shared/domain.ts';
import { useKeydesk } from '../../store/index.ts';

const RANGES = [
  ['1h', 'Last hour'],
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['all', 'All time'],
] as const;
type Range = (typeof RANGES)[number][0];
const REFRESH_MS = 5_000;

function Chart({ samples }: { samples: ExecutionSample[] }) {
  if (samples.length < 2) return <p className="muted">Not enough samples yet: the count is sampled each time it is read.</p>;
  const xs = samples.map((s) => Date.parse(s.at));
  const ys = samples.map((s) => s.count);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  const w = 600;
  const h = 140;
  const px = (x: number) => (x1 === x0 ? 0 : ((x - x0) / (x1 - x0)) * w);
  const py = (y: number) => (y1 === y0 ? h / 2 : h - ((y - y0) / (y1 - y0)) * h);
  const points = samples.map((s, i) => `${px(xs[i] ?? 0).toFixed(1)},${py(s.count).toFixed(1)}`).join(' ');
  return (
    <svg className="chart" viewBox={`-4 -4 ${w + 8} ${h + 8}`} role="img" aria-label={`Execution count from ${y0} to ${y1}`}>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

export function Overview() {
  const count = useKeydesk((s) => s.executionCount);
  const sampledAt = useKeydesk((s) => s.sampledAt);
  const status = useKeydesk((s) => s.executions);
  const error = useKeydesk((s) => s.executionsError);
  const history = useKeydesk((s) => s.history);
  const refresh = useKeydesk((s) => s.refreshExecutions);
  const push = useKeydesk((s) => s.pushExecution);
  const loadHistory = useKeydesk((s) => s.loadHistory);
  const profileId = useKeydesk((s) => s.activeProfileId);
  const [range, setRange] = useState<Range>('24h');

  // Refreshes on its own while visible; pauses while the window is hidden.
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | null = null;
    const tick = () => {
      void refresh().then(() => loadHistory(range));
    };
    const start = () => {
      if (timer === null && document.visibilityState === 'visible') {
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

  const first = history[0]?.count;
  const last = history.at(-1)?.count;
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <div className="card">
        <h2>Executions</h2>
        {status === 'error' && <p role="alert" className="error">{error}</p>}
        <p className="big" aria-label="Execution count">
          {count === null ? '…' : count.toLocaleString()}
        </p>
        <p className="muted">{sampledAt ? `Read at ${new Date(sampledAt).toLocaleTimeString()}` : 'Reading…'}</p>
        <button type="button" className="primary" onClick={() => void push()}>
          Push +1
        </button>
      </div>
      <div className="card">
        <h2>History</h2>
        <label>
          Range{' '}
          <select value={range} onChange={(e) => { setRange(e.target.value as Range); }}>
            {RANGES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {first !== undefined && last !== undefined && (
          <p>
            Change over the range: <strong>{last - first >= 0 ? `+${(last - first).toLocaleString()}` : (last - first).toLocaleString()}</strong>
          </p>
        )}
        <Chart samples={history} />
      </div>
    </section>
  );
}
