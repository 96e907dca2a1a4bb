// Input rules shared by the sandbox, main and the renderer's forms: plain predicates and limits first (the
// sandbox's hot path needs no zod), then the zod schemas built from them.
import { z } from 'zod';

/** A filtered ledger count stops here: past it the screen says "more than 10,000", and counts exactly on request. */
export const LEDGER_COUNT_CAP = 10_000;

/** Sample thinning: past `olderThanMs` (for `spanMs`), the lowest and highest count per `slotMs` slot (ISO `prefix`). */
export const SAMPLE_RETENTION = [
  { olderThanMs: 86_400_000, spanMs: 29 * 86_400_000, prefix: 16, slotMs: 60_000 },
  { olderThanMs: 30 * 86_400_000, spanMs: 100 * 365 * 86_400_000, prefix: 13, slotMs: 3_600_000 },
] as const;

/**
 * Lone probes in a row with no answer (at least one a timeout) after which a job calls the service hung and stops:
 * each probe's outcome is unknown, and extend is not idempotent. A service merely pausing answers one of three.
 */
export const HUNG_AFTER_PROBES = 3;

/** The execution history's bounded ranges (executions.history), in ms back from now; 'all' has no bound. */
export const HISTORY_RANGE_MS = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;

export const LIMITS = {
  noteMaxChars: 1_000,
  /** keyValue, hwid, service, search term. */
  textMaxChars: 256,
  countMin: 1,
  countMax: 100_000,
  daysMin: 1,
  daysMax: 999_999,
  pageLimitMin: 1,
  pageLimitMax: 1_000,
  pageLimitDefault: 100,
  pageOffsetMax: 1_000_000,
  bodyMaxBytes: 64 * 1024,
  urlMaxBytes: 8 * 1024,
  serviceNameMaxChars: 100,
  /** Buckets one history answer holds at most (a chart several thousand pixels wide); 600 when not asked. */
  historyPointsMax: 4_000,
  historyPointsDefault: 600,
} as const;

export const IDENTIFIER_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
/** The last instant a key may expire: 9999-12-31T23:59:59.999Z. */
export const MAX_EXPIRES_AT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A `YYYY-MM-DD` string naming a real calendar day (2023-02-29 is not one), years 0001 to 9999. */
export function isCalendarDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

export const isIdentifier = (value: string): boolean => IDENTIFIER_PATTERN.test(value);

export function isIntInRange(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The last millisecond of a calendar day, UTC. The caller has checked `isCalendarDate`. */
export function endOfUtcDay(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(2000, m - 1, d, 23, 59, 59, 999));
  t.setUTCFullYear(y);
  return t.getTime();
}

export const addDays = (ms: number, days: number): number => ms + days * DAY_MS;

/** Characters a person can count: code points, so an emoji is one, as a person would count it. */
export function charLength(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++, n++) {
    const c = value.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
}

/** The identifier a service name gets when none is given: lowercase, runs of other characters become `-`. */
export function slugIdentifier(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64);
}

// ---- zod schemas, for IPC inputs and forms -------------------------------------------------------------

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .min(1, { error: `${label} is required.` })
    // No longer in UTF-16 units than allowed: no longer in characters either, without counting them.
    .refine((v) => v.length <= max || charLength(v) <= max, {
      error: `${label} must be at most ${max.toLocaleString('en-US')} characters.`,
    });

const intIn = (label: string, min: number, max: number) => {
  // One sentence for every way to break the rule: it says which numbers are accepted.
  const error = `${label} must be a whole number from ${min} to ${max.toLocaleString('en-US')}.`;
  return z.int({ error }).min(min, { error }).max(max, { error });
};

/** Whether keyValue takes `v`, without zod: the same three rules in plain code. */
const isKeyValue = (v: unknown): boolean =>
  typeof v === 'string' && v.length > 0 && (v.length <= LIMITS.textMaxChars || charLength(v) <= LIMITS.textMaxChars);

/**
 * A list of 1 to `max` key values, each as keyValue takes it, checked in one loop: zod's check of each value cost
 * main 20–70 ms for 100,000 picked keys. A wrong value gets keyValue's own words, at its place in the list.
 */
export const keyValueList = (max: number) =>
  z.custom<string[]>().check((ctx) => {
    const list: unknown = ctx.value;
    // Issues without words: the parse's own error map words them, as for any list.
    if (!Array.isArray(list)) return void ctx.issues.push({ code: 'invalid_type', expected: 'array', input: list });
    // A list too long is refused whole, unread, as zod's own size check does.
    if (list.length > max) return void ctx.issues.push({ code: 'too_big', origin: 'array', maximum: max, inclusive: true, input: list });
    // `continue`: in a union of forms, these words are this list's, not the form's.
    if (list.length < 1) ctx.issues.push({ code: 'too_small', origin: 'array', minimum: 1, inclusive: true, input: list, continue: true });
    // By index: a hole in the list is a value that is not text.
    for (let i = 0; i < list.length; i++) {
      const v: unknown = list[i];
      if (isKeyValue(v)) continue;
      for (const issue of schemas.keyValue.safeParse(v).error?.issues ?? [])
        ctx.issues.push({ code: 'custom', message: issue.message, input: v, path: [i], continue: true });
    }
  });

export const schemas = {
  keyValue: text('Key', LIMITS.textMaxChars),
  hwid: text('HWID', LIMITS.textMaxChars),
  searchTerm: text('Search term', LIMITS.textMaxChars),
  serviceName: text('Service', LIMITS.textMaxChars),
  note: z.string({ error: 'Note must be text.' }).refine((v) => charLength(v) <= LIMITS.noteMaxChars, {
    error: `Note must be at most ${LIMITS.noteMaxChars.toLocaleString('en-US')} characters.`,
  }),
  identifier: z.string({ error: 'Identifier must be text.' }).regex(IDENTIFIER_PATTERN, {
    error: 'Identifier must be 1 to 64 letters, digits, dots, underscores or hyphens.',
  }),
  date: z
    .string({ error: 'Date must be text.' })
    .refine(isCalendarDate, { error: 'Date must be a real calendar date written YYYY-MM-DD.' }),
  count: intIn('Count', LIMITS.countMin, LIMITS.countMax),
  days: intIn('Days', LIMITS.daysMin, LIMITS.daysMax),
  pageLimit: intIn('Limit', LIMITS.pageLimitMin, LIMITS.pageLimitMax),
  pageOffset: intIn('Offset', 0, LIMITS.pageOffsetMax),
} as const;

/** The fixed-date rule: a fixed expiry may not lie before today (UTC). Days keys only check the format. */
export function fixedExpiryProblem(expire: string, nowMs: number): string | null {
  if (!isCalendarDate(expire)) return 'expire must be a real calendar date written YYYY-MM-DD.';
  if (expire < utcDate(nowMs)) return `expire (${expire}) is before today (${utcDate(nowMs)}, UTC).`;
  return null;
}
