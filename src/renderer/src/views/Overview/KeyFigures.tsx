// Overview's keys from the ledger: each figure a button that opens All keys with its filter, and keys activated
// and generated per day, with when the figures were read and how old the ledger's knowledge of the keys is.
import { useEffect } from 'react';
import { Skeleton } from '../../components/Skeleton.tsx';
import { Time } from '../../components/Time.tsx';
import { fmt } from '../../lib/format.ts';
import { useKeydesk } from '../../store/index.ts';
import type { LedgerFilter } from '../../store/types.ts';
import type { KeyActivityDay, OverviewFigures } from '../../../../shared/domain.ts';

/** How often the figures are read again while Overview is open and the window shown. */
const FIGURES_EVERY_MS = 15_000;

interface Figure {
  label: string;
  value: number;
  filter: LedgerFilter;
}

/** Each figure, its words and the All keys filter that lists its keys. */
export function figureList(f: OverviewFigures): Figure[] {
  const w = f.windows;
  const expiry = (from: string | undefined, to: string): LedgerFilter => ({
    span: from === undefined ? { of: 'expiresAt', to } : { of: 'expiresAt', from, to },
  });
  return [
    { label: 'Active', value: f.active, filter: { status: 'active' } },
    { label: 'Generated, not activated', value: f.generated, filter: { status: 'generated' } },
    { label: 'Expired', value: f.expired, filter: expiry(undefined, w.now) },
    { label: 'Deleted', value: f.deleted, filter: { status: 'deleted' } },
    {
      label: 'Activated, last 7 days',
      value: f.activated7,
      filter: { span: { of: 'activatedAt', from: w.ago7 } },
    },
    {
      label: 'Activated, last 30 days',
      value: f.activated30,
      filter: { span: { of: 'activatedAt', from: w.ago30 } },
    },
    { label: 'Expiring, next 7 days', value: f.expiring7, filter: expiry(w.now, w.in7) },
    { label: 'Expiring, next 30 days', value: f.expiring30, filter: expiry(w.now, w.in30) },
  ];
}

/** The premium share: premium keys of all the ledger holds, as a whole percentage (a share under 1% reads "<1%"). */
export function premiumShare(f: Pick<OverviewFigures, 'premium' | 'total'>): string {
  if (f.total === 0) return '—';
  const pct = (100 * f.premium) / f.total;
  return pct > 0 && pct < 1 ? '<1%' : `${Math.round(pct)}%`;
}

export function KeyFigures() {
  const figures = useKeydesk((s) => s.figures);
  const request = useKeydesk((s) => s.figuresRequest);
  const days = useKeydesk((s) => s.keyActivity);
  const loadFigures = useKeydesk((s) => s.loadFigures);
  const setLedgerFilter = useKeydesk((s) => s.setLedgerFilter);
  const setView = useKeydesk((s) => s.setView);
  const profileId = useKeydesk((s) => s.activeProfileId);
  const remote = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId)?.kind === 'remote');

  useEffect(() => {
    void loadFigures();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void loadFigures();
    }, FIGURES_EVERY_MS);
    return () => clearInterval(timer);
  }, [loadFigures, profileId]);

  const open = (filter: LedgerFilter) => {
    setLedgerFilter(filter);
    setView('ledger');
  };
  return (
    <div className="card">
      <h2>Keys</h2>
      {figures === null ? (
        request.status === 'error' && request.error ? (
          <p role="alert">The keys' figures could not be read: {request.error.message}</p>
        ) : (
          <Skeleton label="Reading the keys' figures…" lines={2} />
        )
      ) : (
        <>
          <ul className="figures" aria-label="Keys' figures">
            {figureList(figures).map((f) => (
              <li key={f.label}>
                <button type="button" className="figure" onClick={() => open(f.filter)}>
                  <span className="figure-value">{fmt.number(f.value)}</span> <span className="figure-label">{f.label}</span>
                  <span className="visually-hidden">: list them in All keys</span>
                </button>
              </li>
            ))}
            <li>
              <button type="button" className="figure" onClick={() => open({ premium: true })}>
                <span className="figure-value">{premiumShare(figures)}</span>{' '}
                <span className="figure-label">
                  Premium ({fmt.number(figures.premium)} of {fmt.number(figures.total)})
                </span>
                <span className="visually-hidden">: list them in All keys</span>
              </button>
            </li>
          </ul>
          <p className="muted">
            From Keydesk's ledger of this service's keys, counted at <Time iso={figures.windows.now} mode="time" />
            {figures.newestSeenAt ? (
              <>
                ; each key as Keydesk last read or changed it (most recently at <Time iso={figures.newestSeenAt} mode="dateTime" />
                ). Activations made since a key was last read show once Keydesk reads it again.
              </>
            ) : (
              '.'
            )}
          </p>
          {remote && (
            <p className="muted">
              Activated: the activation time the service sends. The real service sends none; then it is when Keydesk first saw the key turn
              from generated to active (a lookup, a validation, a refresh), and keys already active when first seen are left out.
            </p>
          )}
          <KeyActivityChart days={days} />
        </>
      )}
    </div>
  );
}

/** Keys activated and generated per day as paired bars, with the same figures as a table. */
export function KeyActivityChart({ days }: { days: readonly KeyActivityDay[] }) {
  if (days.length === 0) return null;
  const most = Math.max(1, ...days.map((d) => Math.max(d.activated, d.generated)));
  const activated = days.reduce((n, d) => n + d.activated, 0);
  const generated = days.reduce((n, d) => n + d.generated, 0);
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const summary = `Keys per day from ${first} to ${last}: ${fmt.number(activated)} activated, ${fmt.number(generated)} generated; the busiest day had ${fmt.number(most)}.`;
  const step = 100 / days.length;
  return (
    <figure className="activity-chart">
      <figcaption>
        Keys per day, last {days.length} days (UTC): <span className="legend-activated">activated</span> and{' '}
        <span className="legend-generated">generated</span>
      </figcaption>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label={summary}>
        {days.map((d, i) => (
          <g key={d.day}>
            <rect
              className="bar-activated"
              x={i * step + step * 0.1}
              width={step * 0.4}
              y={40 - (40 * d.activated) / most}
              height={(40 * d.activated) / most}
            >
              <title>{`${d.day}: ${fmt.number(d.activated)} activated`}</title>
            </rect>
            <rect
              className="bar-generated"
              x={i * step + step * 0.5}
              width={step * 0.4}
              y={40 - (40 * d.generated) / most}
              height={(40 * d.generated) / most}
            >
              <title>{`${d.day}: ${fmt.number(d.generated)} generated`}</title>
            </rect>
          </g>
        ))}
      </svg>
      <div className="activity-axis muted" aria-hidden="true">
        <span>{first}</span>
        <span>most in a day: {fmt.number(most)}</span>
        <span>{last}</span>
      </div>
      <details className="chart-table">
        <summary>Show keys per day as a table</summary>
        <div className="table-wrap" role="region" aria-label="Keys per day" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Activated</th>
                <th scope="col">Generated</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <td>{d.day}</td>
                  <td className="num">{fmt.number(d.activated)}</td>
                  <td className="num">{fmt.number(d.generated)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
