// What an act on one key changed, in words for its Activity line: "HWID ABC… → none", "expires 1 Dec 2026 → 1 Jan 2027".
import type { AuditEntry, KeyFields } from '../../../../shared/domain.ts';
import { fmt } from '../../lib/format.ts';

/** An HWID is cut to this many characters in a line; the whole value is in its title. */
const HWID_SHOWN = 10;

const hwidWords = (v: string | null | undefined): string =>
  v === undefined ? 'unknown' : v === null ? 'none' : v.length > HWID_SHOWN ? `${v.slice(0, HWID_SHOWN)}…` : v;
const expiryWords = (v: string | null | undefined): string => (v === undefined ? 'unknown' : v === null ? 'none' : fmt.date(v));

/** A field before → after; `after` null: the act did not happen, so the field is as it was. */
function changed(
  label: string,
  words: (v: string | null | undefined) => string,
  before: string | null | undefined,
  after: KeyFields | null,
  field: keyof KeyFields,
): string {
  return `${label} ${words(before)} → ${after === null ? 'unchanged' : words(after[field] as string | null | undefined)}`;
}

/** The line's words, or null for an act that records no change. */
export function changeWords(entry: AuditEntry): string | null {
  const change = entry.change;
  if (!change) return null;
  const { before, after } = change;
  if (entry.action === 'keys.resetHwid') return changed('HWID', hwidWords, before.hwid, after, 'hwid');
  if (entry.action === 'keys.extend') return changed('expires', expiryWords, before.expiresAt, after, 'expiresAt');
  // A delete: what the key was, as far as Keydesk had read it.
  const was = [
    before.note === undefined ? null : before.note === '' ? 'no note' : `note “${before.note}”`,
    before.isPremium === true ? 'premium' : null,
    'expiresAt' in before ? `expires ${expiryWords(before.expiresAt)}` : null,
    'hwid' in before ? `HWID ${hwidWords(before.hwid)}` : null,
  ].filter((w) => w !== null);
  return `Was: ${was.length > 0 ? was.join(', ') : 'unknown (never read)'}`;
}

/** The whole HWIDs of a line, for its title (a cut one is read there). */
export function changeTitle(entry: AuditEntry): string | undefined {
  const c = entry.change;
  if (!c) return undefined;
  const whole = [c.before.hwid, c.after?.hwid].filter((h): h is string => typeof h === 'string' && h.length > HWID_SHOWN);
  return whole.length > 0 ? whole.join(' → ') : undefined;
}
