import { useEffect, useState } from 'react';
import { fmt } from '../lib/format.ts';

/** How often a relative time ("2 minutes ago") is said again while it is on screen. */
export const TICK_MS = 15_000;

/** A moment in the user's locale, the ISO value on hover; `relative`, `date` or `dateTime` form. Never wraps in a table cell. */
export function Time({
  iso,
  mode = 'dateTime',
  now,
}: {
  iso: string | null | undefined;
  mode?: 'date' | 'dateTime' | 'time' | 'relative';
  now?: number;
}) {
  // A relative time with no `now` given ticks on its own, so "read now" does not stay "now"; a moment newer than the
  // last tick reads as now.
  const ticking = mode === 'relative' && now === undefined && !!iso;
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setTick(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [ticking]);
  if (!iso) return <span className="muted">—</span>;
  const text =
    mode === 'relative'
      ? fmt.relative(iso, now ?? Math.max(tick, Date.parse(iso)))
      : mode === 'date'
        ? fmt.date(iso)
        : mode === 'time'
          ? fmt.time(iso)
          : fmt.dateTime(iso);
  return (
    <time className="time" dateTime={iso} title={iso}>
      {text}
    </time>
  );
}
