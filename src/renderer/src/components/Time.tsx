import { fmt } from '../lib/format.ts';

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
  if (!iso) return <span className="muted">—</span>;
  const text =
    mode === 'relative' ? fmt.relative(iso, now) : mode === 'date' ? fmt.date(iso) : mode === 'time' ? fmt.time(iso) : fmt.dateTime(iso);
  return (
    <time className="time" dateTime={iso} title={iso}>
      {text}
    </time>
  );
}
