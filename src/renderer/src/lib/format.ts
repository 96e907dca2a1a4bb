// The one formatter for dates, numbers and counts on screen, on Intl in the user's locale (the OS locale in
// Electron). Views never call toLocaleString or build plurals by hand: "1 key", "10,000 keys", never "key(s)".

export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { one: string; other: string };

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** An ISO value that does not parse is shown as it came, never as "Invalid Date". */
const parse = (iso: string): number | null => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

export function createFormatter(locale?: string) {
  const resolved = new Intl.NumberFormat(locale).resolvedOptions().locale;
  const numbers = new Intl.NumberFormat(resolved);
  const compacts = new Intl.NumberFormat(resolved, { notation: 'compact', maximumFractionDigits: 1 });
  const plurals = new Intl.PluralRules(resolved);
  const dates = new Intl.DateTimeFormat(resolved, { dateStyle: 'medium' });
  const dateTimes = new Intl.DateTimeFormat(resolved, { dateStyle: 'medium', timeStyle: 'short' });
  const dateTimeSeconds = new Intl.DateTimeFormat(resolved, { dateStyle: 'medium', timeStyle: 'medium' });
  const times = new Intl.DateTimeFormat(resolved, { timeStyle: 'medium' });
  const relatives = new Intl.RelativeTimeFormat(resolved, { numeric: 'auto' });
  const axisSeconds = new Intl.DateTimeFormat(resolved, { hour: 'numeric', minute: '2-digit', second: '2-digit' });
  const axisMinutes = new Intl.DateTimeFormat(resolved, { hour: 'numeric', minute: '2-digit' });
  const axisDays = new Intl.DateTimeFormat(resolved, { day: 'numeric', month: 'short' });
  const axisMonths = new Intl.DateTimeFormat(resolved, { month: 'short', year: 'numeric' });
  /** The noun alone, in the form the number asks for. */
  const noun = (n: number, forms: PluralForms) => forms[plurals.select(n)] ?? forms.other;
  const withDate = (iso: string, f: (t: number) => string) => {
    const t = parse(iso);
    return t === null ? iso : f(t);
  };
  return {
    number: (n: number) => numbers.format(n),
    /** 12500 → "13K" (en): for axis ticks, never for a figure someone reads as exact. */
    compact: (n: number) => compacts.format(n),
    /** A count with its noun in the right plural form: count(1, KEY) → "1 key", count(10000, KEY) → "10,000 keys". */
    count: (n: number, forms: PluralForms) => `${numbers.format(n)} ${noun(n, forms)}`,
    noun,
    /** A calendar date: "30 Jun 2027" (en-GB), "Jun 30, 2027" (en-US). */
    date: (iso: string) => withDate(iso, (t) => dates.format(t)),
    dateTime: (iso: string) => withDate(iso, (t) => dateTimes.format(t)),
    /** To the second, for points less than a minute apart. */
    dateTimeSeconds: (iso: string) => withDate(iso, (t) => dateTimeSeconds.format(t)),
    time: (iso: string) => withDate(iso, (t) => times.format(t)),
    /** "3 minutes ago", "in 2 days", relative to `now` (ms). */
    relative: (iso: string, now = Date.now()) =>
      withDate(iso, (t) => {
        const diff = t - now;
        for (const [unit, ms] of UNITS) {
          if (Math.abs(diff) >= ms || unit === 'second') return relatives.format(Math.round(diff / ms), unit);
        }
        return relatives.format(0, 'second');
      }),
    /** A time-axis tick as fine as the step between ticks needs; a tick at midnight between time ticks shows its date. */
    axisTime: (ms: number, stepMs: number) => {
      const day = 24 * 3600_000;
      if (stepMs >= 28 * day) return axisMonths.format(ms);
      if (stepMs >= day) return axisDays.format(ms);
      const d = new Date(ms);
      if (d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0) return axisDays.format(ms);
      return stepMs < 60_000 ? axisSeconds.format(ms) : axisMinutes.format(ms);
    },
  };
}

export const fmt = createFormatter();

export const NOUNS = {
  key: { one: 'key', other: 'keys' },
  keyPerSecond: { one: 'key/s', other: 'keys/s' },
  entry: { one: 'entry', other: 'entries' },
  operation: { one: 'operation', other: 'operations' },
  day: { one: 'day', other: 'days' },
  year: { one: 'year', other: 'years' },
  execution: { one: 'execution', other: 'executions' },
  match: { one: 'match', other: 'matches' },
  character: { one: 'character', other: 'characters' },
  request: { one: 'request', other: 'requests' },
  item: { one: 'item', other: 'items' },
} as const satisfies Record<string, PluralForms>;
