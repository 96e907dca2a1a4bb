// Renewals: the live keys expiring in each of the next 12 weeks as a strip, the chosen week's keys, their export,
// and "Extend these…" as a job, with a message per extended key to copy for the customer from the profile's template.
import { useCallback, useEffect, useState } from 'react';
import type { LedgerRow } from '../../../../shared/domain.ts';
import { weekWords } from '../../../../shared/filter-words.ts';
import type { ExpiryWeek } from '../../../../shared/renewals.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { call } from '../../lib/api.ts';
import { fmt, NOUNS } from '../../lib/format.ts';
import { useKeydesk } from '../../store/index.ts';
import type { LedgerFilter } from '../../store/types.ts';
import { RenewalMessage, RenewalStarted, type Started } from './RenewalMessage.tsx';

/** Keys listed for the chosen week; the export and the job take every one of them. */
const WEEK_ROWS = 200;

/** A week's live keys (an expiry span leaves deleted keys out): from its Monday's start to the next Monday's. */
const weekFilter = (w: ExpiryWeek): LedgerFilter => ({
  span: { of: 'expiresAt', from: `${w.from}T00:00:00.000Z`, to: new Date(Date.parse(`${w.to}T00:00:00.000Z`) + DAY_MS).toISOString() },
});
const DAY_MS = 86_400_000;
const shortDay = (d: string): string => fmt.date(`${d}T12:00:00.000Z`);

export function Renewals() {
  const profileId = useKeydesk((s) => s.activeProfileId);
  const generation = useKeydesk((s) => s.ledgerGeneration);
  const jobs = useKeydesk((s) => s.jobs);
  const [weeks, setWeeks] = useState<ExpiryWeek[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState(0);
  const [rows, setRows] = useState<{ rows: LedgerRow[]; total: number; targets: number } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [started, setStarted] = useState<Started | null>(null);
  const finished = Object.values(jobs).filter((j) => j.state !== 'running').length;

  useEffect(() => {
    let live = true;
    void call('renewals.weeks', undefined).then((r) => {
      if (!live) return;
      if (r.ok) setWeeks(r.data.weeks);
      else setProblem(r.message);
    });
    return () => {
      live = false;
    };
  }, [profileId, generation, finished]);

  const week = weeks?.[chosen] ?? null;
  useEffect(() => {
    if (week === null) return;
    let live = true;
    void call('ledger.query', {
      filter: weekFilter(week),
      sort: { field: 'expiresAt', dir: 'asc' },
      offset: 0,
      limit: WEEK_ROWS,
      exactCount: true,
    }).then((r) => {
      if (!live) return;
      if (r.ok) setRows({ rows: r.data.rows, total: r.data.total ?? r.data.rows.length, targets: r.data.targets ?? r.data.rows.length });
      else setProblem(r.message);
    });
    return () => {
      live = false;
    };
  }, [week?.from, week?.count, generation, finished]); // eslint-disable-line react-hooks/exhaustive-deps

  const exportWeek = useCallback(async () => {
    if (week === null) return;
    const r = await call('ledger.export', { filter: weekFilter(week), sort: { field: 'expiresAt', dir: 'asc' }, format: 'csv' });
    if (!r.ok) setProblem(r.message);
    else if (r.data.path !== null) setSaved(r.data.path);
  }, [week]);

  const most = Math.max(1, ...(weeks ?? []).map((w) => w.count));
  return (
    <section aria-labelledby="renewals-title">
      <h1 id="renewals-title">Renewals</h1>
      <p className="muted">Ledger keys expiring in each of the next 12 weeks (Monday to Sunday, UTC), deleted keys left out.</p>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      {weeks === null ? (
        <p className="muted" aria-busy="true">
          Counting…
        </p>
      ) : (
        <div className="week-strip" role="group" aria-label="Weeks">
          {weeks.map((w, i) => (
            <button
              key={w.from}
              type="button"
              className="week"
              aria-pressed={i === chosen}
              onClick={() => {
                setChosen(i);
                setSaved(null);
              }}
            >
              {/* Its name is what a screen reader says: the week in words and its count of keys. */}
              <span className="visually-hidden">{weekWords(w.from)}:</span>{' '}
              <span className="week-day" aria-hidden="true">
                {shortDay(w.from)}
              </span>
              <span className="week-bar" aria-hidden="true">
                <span style={{ height: `${Math.round((w.count / most) * 100)}%` }} />
              </span>
              <strong className="week-count">{fmt.number(w.count)}</strong>{' '}
              <span className="visually-hidden">{w.count === 1 ? NOUNS.key.one : NOUNS.key.other}</span>
            </button>
          ))}
        </div>
      )}
      {started && <RenewalStarted key={started.job.id} started={started} />}
      {week !== null && (
        <div className="card week-keys">
          <h2>
            Expiring {weekWords(week.from)} ({shortDay(week.from)} to {shortDay(week.to)})
          </h2>
          {rows === null ? (
            <p className="muted" aria-busy="true">
              Loading…
            </p>
          ) : rows.total === 0 ? (
            <EmptyState title="No key expires this week">Pick another week in the strip above.</EmptyState>
          ) : (
            <>
              <div className="toolbar">
                <span>{fmt.count(rows.total, NOUNS.key)}</span>
                <button type="button" onClick={() => void exportWeek()}>
                  Export CSV
                </button>
                {saved && <span className="muted">Saved to {saved}</span>}
              </div>
              <RenewalMessage
                filter={weekFilter(week)}
                label={`expiring ${weekWords(week.from)}`}
                rows={rows.rows}
                targets={rows.targets}
                onStarted={setStarted}
              />
              <WeekTable rows={rows.rows} />
              {rows.total > rows.rows.length && (
                <p className="muted">
                  The first {fmt.number(rows.rows.length)} are listed; the export and the extend take all {fmt.number(rows.total)}.
                </p>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}

function WeekTable({ rows }: { rows: LedgerRow[] }) {
  return (
    <table className="week-table">
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Expires</th>
          <th scope="col">Customer</th>
          <th scope="col">Note</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.value}>
            <td className="mono">
              {r.value} <CopyButton value={r.value} label={`Copy key ${r.value}`} />
            </td>
            <td>{r.expiresAt ? fmt.dateTime(r.expiresAt) : '—'}</td>
            <td>{r.customer ?? <span className="muted">—</span>}</td>
            <td>{r.note || <span className="muted">none</span>}</td>
            <td>{r.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
