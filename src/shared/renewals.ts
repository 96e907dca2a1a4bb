// Renewals' weeks and message: the next weeks from Monday to Sunday (UTC) that expiries are grouped by, and the
// per-profile message template a renewal copies ({key}, {expires}, {days}, {note}).
import { utcDate } from './rules.ts';

/** Weeks the Renewals strip shows, this one first. */
export const RENEWAL_WEEKS = 12;
const DAY_MS = 86_400_000;

/** A week of expiries: its Monday and Sunday (YYYY-MM-DD, UTC), and how many ledger keys expire in it. */
export interface ExpiryWeek {
  from: string;
  to: string;
  count: number;
}

/** The RENEWAL_WEEKS weeks from the one holding `nowMs`, each Monday to Sunday. */
export function renewalWeeks(nowMs: number): { from: string; to: string }[] {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  // 1970-01-01 was a Thursday: days since the Monday before it, modulo 7.
  const monday = today - ((Math.floor(today / DAY_MS) + 3) % 7) * DAY_MS;
  return Array.from({ length: RENEWAL_WEEKS }, (_, i) => ({
    from: utcDate(monday + i * 7 * DAY_MS),
    to: utcDate(monday + (i * 7 + 6) * DAY_MS),
  }));
}

export const DEFAULT_RENEWAL_TEMPLATE =
  'Hello,\n\nYour license key {key} has been renewed by {days} days. It now expires on {expires}.\n\nThank you!';
export const RENEWAL_TEMPLATE_MAX = 4_000;

/** The template with its placeholders filled for one key; an unknown placeholder stays as written. */
export function fillTemplate(template: string, fields: { key: string; expires: string; days: number; note: string }): string {
  const values: Record<string, string> = { key: fields.key, expires: fields.expires, days: String(fields.days), note: fields.note };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
