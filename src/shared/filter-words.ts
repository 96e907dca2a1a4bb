// A ledger filter and a job's target in words, for a job's label ("keys containing launch-2026, expiring within 30
// days") and wherever a filter is named; the week of a date ("the week of Dec 7").
import type { OperationInput } from './contract.ts';
import { keyCount } from './operation-words.ts';

type Filter = OperationInput<'ledger.query'>['filter'];
type JobStart = OperationInput<'jobs.start'>;
/** A job over keys: a bulk act, or an import's or a refresh's lookups. */
type Targeted = {
  action: Exclude<JobStart['action'], 'generate'> | 'import' | 'refresh';
  target: Extract<JobStart, { target: unknown }>['target'];
};

const day = (d: string): string =>
  new Date(`${d}T00:00:00.000Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

const range = (from: string | undefined, to: string | undefined): string =>
  from !== undefined && to !== undefined
    ? `${day(from)} to ${day(to)}`
    : from !== undefined
      ? `from ${day(from)}`
      : `up to ${day(to ?? '')}`;

/** "active premium keys containing launch-2026, expiring within 30 days": every part of the filter, or "all keys". */
export function filterWords(f: Filter): string {
  const kind = [
    f.status,
    f.premium === undefined ? undefined : f.premium ? 'premium' : 'standard',
    f.unactivated ? 'unactivated days' : undefined,
  ]
    .filter((w) => w !== undefined)
    .join(' ');
  const parts: string[] = [];
  const text = f.text?.trim();
  if (text) parts.push(`containing ${text}`);
  if (f.expired) parts.push('expired');
  if (f.expiresWithin !== undefined) parts.push(`expiring within ${keyDays(f.expiresWithin)}`);
  if (f.expiresFrom !== undefined || f.expiresTo !== undefined) parts.push(`expiring ${range(f.expiresFrom, f.expiresTo)}`);
  if (f.createdFrom !== undefined || f.createdTo !== undefined) parts.push(`created ${range(f.createdFrom, f.createdTo)}`);
  // Overview's windows are instants: named by their UTC days.
  if (f.span !== undefined)
    parts.push(`${f.span.of === 'expiresAt' ? 'expiring' : 'activated'} ${range(f.span.from?.slice(0, 10), f.span.to?.slice(0, 10))}`);
  if (f.customerId !== undefined) parts.push('of one customer');
  const customer = f.customer?.trim();
  if (customer) parts.push(`of customers matching ${customer}`);
  const keys = kind === '' ? 'keys' : `${kind} keys`;
  if (parts.length === 0) return `all ${keys}`;
  const [first, ...rest] = parts;
  return [`${keys} ${first ?? ''}`, ...rest].join(', ');
}

const keyDays = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'day' : 'days'}`;

/** A job's target as main words it when its maker gave none: "3 keys picked", "key ABC-123", "expired keys". */
export function jobTargetWords(request: Extract<JobStart, { action: 'generate' }> | Targeted): string {
  if (request.action === 'generate') return `${keyCount(request.count)} new${request.note ? `: ${request.note}` : ''}`;
  const { target } = request;
  if ('filter' in target) return filterWords(target.filter);
  const [only] = target.keyValues;
  return target.keyValues.length === 1 && only !== undefined ? `key ${only}` : `${keyCount(target.keyValues.length)} picked`;
}

/** "the week of Dec 7": a week named by its first day (YYYY-MM-DD). */
export const weekWords = (monday: string): string =>
  `the week of ${new Date(`${monday}T00:00:00.000Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })}`;
