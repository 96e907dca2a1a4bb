// All keys' words, apart from React so they can be tested alone: the columns and the sort said, what a row marks
// as not read back, and what a bulk action's confirmation says of the keys it will touch.
import type { LedgerRow, LedgerSortField } from '../../../../shared/domain.ts';
import { fmt, NOUNS } from '../../lib/format.ts';
import type { BulkAction, BulkEdit, LedgerFilter } from '../../store/types.ts';

/** What the last column means: when Keydesk last read or changed the key, never when a customer used it. */
export const CHECKED_TITLE =
  'When Keydesk last read or changed this key on the service (generated, looked up or acted on here); not when a customer used it.';

/** The grid's columns in order; Premium and HWID cannot be sorted (the ledger's sorts do not include them). */
export const COLUMNS: { field: LedgerSortField | null; label: string; title?: string }[] = [
  { field: 'value', label: 'Key' },
  { field: 'status', label: 'Status' },
  { field: null, label: 'Premium' },
  { field: 'note', label: 'Note' },
  { field: null, label: 'HWID' },
  { field: 'expiresAt', label: 'Expires' },
  { field: 'createdAt', label: 'Created' },
  // Keydesk's own bookkeeping, not customer activity: a key no client ever validated is checked when it is generated.
  { field: 'lastSeenAt', label: 'Last checked', title: CHECKED_TITLE },
];

/** Each sort's order in words: a date column newest or soonest first, a text column A to Z. */
const ORDER_WORDS: Record<LedgerSortField, { asc: string; desc: string }> = {
  createdAt: { asc: 'oldest first', desc: 'newest first' },
  expiresAt: { asc: 'soonest first', desc: 'latest first' },
  lastSeenAt: { asc: 'least recently checked first', desc: 'most recently checked first' },
  value: { asc: 'A to Z', desc: 'Z to A' },
  note: { asc: 'A to Z', desc: 'Z to A' },
  status: { asc: 'in status order', desc: 'in reverse status order' },
};

/** The sort in words above the table: in a narrow window the sorted column's arrow may be scrolled out of sight. */
export function sortWords(sort: { field: LedgerSortField; dir: 'asc' | 'desc' }): string {
  const label = COLUMNS.find((c) => c.field === sort.field)?.label ?? sort.field;
  return `Sorted by ${label}, ${ORDER_WORDS[sort.field][sort.dir]}.`;
}

/** What a row whose new expiry was not read back says: an answer with no readable key, or no answer (unknown). */
export const STALE_EXPIRY = 'An extend was sent and the new expiry not read back — look the key up.';
/** What a row says whose HWID reset was sent with no answer (the ledger's hwidStale mark): it may have been cleared. */
export const STALE_HWID = 'An HWID reset was sent with no answer, so this HWID may already be cleared — look the key up.';
/** What a row says whose delete was sent with no answer (the ledger's statusStale mark): the key may be deleted. */
export const STALE_STATUS = 'A delete was sent with no answer, so this key may already be deleted — look the key up.';

export const STATUS_WORD: Record<LedgerRow['status'], string> = { generated: 'Generated', active: 'Active', deleted: 'Deleted' };

/** A bulk action waiting for the person's yes, with the days an extend would add. */
export type Confirming = { action: BulkAction; days?: number; edit?: BulkEdit };

/** A bulk edit's changes in words: "note set to “VIP”, premium on". */
export function editWords(edit: BulkEdit | undefined): string {
  const parts: string[] = [];
  if (edit?.note !== undefined) parts.push(edit.note === '' ? 'note cleared' : `note set to “${edit.note}”`);
  if (edit?.isPremium !== undefined) parts.push(`premium ${edit.isPremium ? 'on' : 'off'}`);
  if (edit?.noHwidValidation !== undefined) parts.push(edit.noHwidValidation ? 'works on any machine' : 'bound to one machine');
  return parts.join(', ');
}

export function confirmTitle(c: Confirming | null, what: string): string {
  if (c?.action === 'delete') return `Delete ${what}?`;
  if (c?.action === 'extend') return `Extend ${what} by ${fmt.count(c.days ?? 0, NOUNS.day)}?`;
  if (c?.action === 'edit') return `Edit ${what}?`;
  return `Reset the HWID of ${what}?`;
}

/** How many of the keys a reset is asked for are active (and bound, when on screen); null while not known. */
export type Known = { active: number; bound: number | null; of: number } | null;

/** The rule a reset goes by, said honestly: the ledger's Status, as Keydesk last saw each key. */
const RESET_RULE =
  'Keydesk goes by the Status its ledger shows: a key a customer activated since Keydesk last saw it still shows as generated and is left out; look it up in Keys to refresh it, then reset it.';

/** `one`: the dialog is about a single key, and says "it", not "they" or "each". */
export function confirmBody(c: Confirming | null, known: Known, one: boolean): string {
  if (c?.action === 'delete') return `${one ? 'It stops' : 'They stop'} working at once. This cannot be undone.`;
  if (c?.action === 'edit') return `${one ? 'The key' : 'Each key'}: ${editWords(c.edit)}. The term of each key stays as it is.`;
  if (c?.action === 'extend') {
    return `${one ? "The key's" : "Each key's"} expiry moves ${fmt.count(c.days ?? 0, NOUNS.day)} later. This cannot be undone.`;
  }
  // Only an active key has an HWID to reset: main sends the reset for those only; the service would refuse the rest.
  if (known === null) {
    return one
      ? `Only an active key has an HWID to reset: if this key shows as generated (never activated) or deleted, nothing is sent for it. If active, it will bind to the next machine that validates it. ${RESET_RULE}`
      : `Only an active key has an HWID to reset: keys shown as generated (never activated) or deleted are left out, and nothing is sent for them. Each active key will bind to the next machine that validates it. ${RESET_RULE}`;
  }
  if (known.of === 1) {
    if (known.active === 0) return `This key is not active: nothing to reset, and nothing will be sent. ${RESET_RULE}`;
    const boundNow = known.bound === null ? '' : known.bound === 1 ? ' (bound to a machine now)' : ' (bound to no machine now)';
    return `This key is active${boundNow}: the reset is sent for it, and it will bind to the next machine that validates it. ${RESET_RULE}`;
  }
  const these = known.of === 1 ? 'this key' : `these ${fmt.count(known.of, NOUNS.key)}`;
  if (known.active === 0) return `None of ${these} is active: nothing to reset, and nothing will be sent. ${RESET_RULE}`;
  const bound = known.bound === null ? '' : ` (${fmt.number(known.bound)} bound to a machine now)`;
  const rest = known.of - known.active;
  const leftOut =
    rest === 0
      ? ''
      : ` The other ${fmt.number(rest)} (generated or deleted) ${rest === 1 ? 'is' : 'are'} left out: nothing is sent for ${rest === 1 ? 'it' : 'them'}.`;
  return `${fmt.number(known.active)} of the ${fmt.count(known.of, NOUNS.key)} ${known.active === 1 ? 'is' : 'are'} active${bound}: the reset is sent for ${known.active === 1 ? 'that one only, and it' : `those ${fmt.number(known.active)} only, and each`} will bind to the next machine that validates it.${leftOut} ${RESET_RULE}`;
}

/** Counts the picked keys' statuses from the pages loaded, when every one of them is there (else null: not known). */
export function knownOf(values: ReadonlySet<string>, pages: ReadonlyMap<number, LedgerRow[]>): Known {
  if (values.size === 0) return null;
  let active = 0;
  let bound = 0;
  let found = 0;
  for (const rows of pages.values()) {
    for (const r of rows) {
      if (!values.has(r.value)) continue;
      found++;
      if (r.status === 'active') {
        active++;
        if (r.hwid) bound++;
      }
    }
  }
  return found === values.size ? { active, bound, of: values.size } : null;
}

/** A filter as it selects: a term without its surrounding spaces (as main gets it), nothing blank or unset. */
export const trimmed = (f: LedgerFilter): string =>
  JSON.stringify([
    f.text?.trim() ?? '',
    f.status ?? null,
    f.premium ?? null,
    f.expired ?? null,
    f.expiresWithin ?? null,
    f.expiresFrom ?? null,
    f.expiresTo ?? null,
    f.createdFrom ?? null,
    f.createdTo ?? null,
    f.unactivated ?? null,
    f.span ?? null,
    f.customer?.trim() ?? '',
    f.customerId ?? null,
  ]);

/** "Select all" as a button and as the offer under the rows shown, for `count` matches (`capped`: more than that). */
export function selectAllWords(count: number, capped: boolean, targets: { count: number; capped: boolean } | null) {
  // Select all names what a job will act on: deleted keys stay out unless the filter is for deleted keys.
  const all = targets ?? { count, capped };
  const leftOut = !capped && !all.capped && count > all.count ? ` (${fmt.number(count - all.count)} deleted left out)` : '';
  // One key is "the 1 key", not "all 1"; none offers no select-all at all (matches that are all deleted say so).
  const canSelectAll = all.count > 0 || all.capped;
  const button = all.capped
    ? `Select all matching (more than ${fmt.number(all.count)})`
    : all.count === 1
      ? `Select the 1 key${leftOut}`
      : `Select all ${fmt.number(all.count)}${leftOut}`;
  const offer = all.capped
    ? button
    : all.count === 1
      ? `Select the 1 matching key${leftOut}`
      : `Select all ${fmt.number(all.count)} matching${leftOut}`;
  return { canSelectAll, allDeleted: !canSelectAll && count > 0, button, offer };
}

/** Why no select-all is offered when every match is deleted. */
export const allDeletedWords = (count: number, capped: boolean): string =>
  capped
    ? `every matching key (more than ${fmt.number(count)}) is deleted`
    : count === 1
      ? 'the matching key is deleted'
      : `all ${fmt.number(count)} matching keys are deleted`;

/** The line above the grid: how many keys match, or why the rows shown are earlier ones. */
export function countLine(s: {
  failed: boolean;
  loading: boolean;
  count: number;
  capped: boolean;
  filtered: boolean;
  stale: { at?: string | null; sameFilter: boolean; sameQuery: boolean } | null;
}): string {
  const { count, stale } = s;
  if (s.failed) {
    if (!stale) return '';
    return stale.sameQuery
      ? `Reading this filter again failed: still showing its results as read${stale.at ? ` at ${fmt.time(stale.at)}` : ' earlier'} (${fmt.count(count, NOUNS.key)}).`
      : `Still showing the earlier results (${fmt.count(count, NOUNS.key)}${stale.at ? `, read at ${fmt.time(stale.at)}` : ''}), not this ${stale.sameFilter ? 'order' : "filter's"}.`;
  }
  if (s.loading) return 'Loading…';
  if (count === 0)
    return s.filtered ? 'No key matches these filters.' : 'No keys yet: the keys this app generates or looks up are listed here.';
  return s.capped ? `More than ${fmt.count(count, NOUNS.key)} match` : fmt.count(count, NOUNS.key);
}
