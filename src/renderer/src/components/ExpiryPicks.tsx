// A calendar and presets beside a typed expiry date: each fills the typed field, which stays the one value checked and sent.
import { isCalendarDate, utcDate } from '../../../shared/rules.ts';

const DAY_MS = 86_400_000;

/** Dates from today, UTC (as the service judges a fixed expiry). */
export const EXPIRY_PRESETS: { label: string; date: (now: number) => string }[] = [
  { label: '+30 days', date: (now) => utcDate(now + 30 * DAY_MS) },
  { label: '+90 days', date: (now) => utcDate(now + 90 * DAY_MS) },
  {
    label: '+1 year',
    date: (now) => {
      const d = new Date(now);
      d.setUTCFullYear(d.getUTCFullYear() + 1);
      return utcDate(d.getTime());
    },
  },
];

export function ExpiryPicks({ value, onPick, now }: { value: string; onPick: (date: string) => void; now: () => number }) {
  const typed = value.trim();
  return (
    <div className="inline date-picks" role="group" aria-label="Quick dates">
      <input
        type="date"
        aria-label="Pick on a calendar"
        value={isCalendarDate(typed) ? typed : ''}
        onChange={(e) => {
          if (e.target.value !== '') onPick(e.target.value);
        }}
      />
      {EXPIRY_PRESETS.map((p) => (
        <button key={p.label} type="button" className="small" onClick={() => onPick(p.date(now()))}>
          {p.label}
        </button>
      ))}
    </div>
  );
}
