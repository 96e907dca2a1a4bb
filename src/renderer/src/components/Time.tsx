import { fmt } from '../lib/format.ts';

/**
 * A moment on screen in the user's locale, with the exact ISO value on hover and in the markup. `relative`
 * reads "3 minutes ago"; `date` and `dateTime` the calendar form. Never wraps inside a table cell (it may in the key panel).
 */
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
