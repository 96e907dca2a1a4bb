// Handlers for the local ledger and audit log: queries, exports, and generates an earlier session cut short.
import type { AuditEntry, LedgerRow } from '../../shared/domain.ts';
import { fail, ok, type Result } from '../../shared/result.ts';
import { LIMITS } from '../../shared/rules.ts';
import type { Core } from '../core.ts';
import type { LocalDb } from '../store/local-db.ts';
import { writeExport } from '../export.ts';
import { exportFailure } from '../failures.ts';
import { orEmpty } from './keys.ts';
import { needsKey, needsProfile, type Handlers } from './types.ts';
import { CUSTOMER_COLUMNS, withCustomers } from './customer-exports.ts';

export const LEDGER_COLUMNS: readonly (keyof LedgerRow)[] = [
  'value',
  'note',
  'status',
  'isPremium',
  'expiresAt',
  'daysKey',
  'hwid',
  'createdAt',
  'lastSeenAt',
];
/** An All keys row as exported, with the "not read back" marks as columns, so a file never passes off the old as current. */
export type LedgerExportRow = Omit<LedgerRow, 'expiryStale' | 'hwidStale' | 'statusStale'> & {
  expiryNotReadBack: boolean;
  hwidNotReadBack: boolean;
  statusNotReadBack: boolean;
};
const ALL_KEYS_COLUMNS: readonly (keyof LedgerExportRow)[] = [
  'value',
  'note',
  'status',
  'statusNotReadBack',
  'isPremium',
  'expiresAt',
  'expiryNotReadBack',
  'daysKey',
  'hwid',
  'hwidNotReadBack',
  'createdAt',
  'lastSeenAt',
];
function* allKeysRows(rows: Iterable<LedgerRow>): Generator<LedgerExportRow> {
  for (const { expiryStale, hwidStale, statusStale, ...row } of rows) {
    yield { ...row, expiryNotReadBack: expiryStale === true, hwidNotReadBack: hwidStale === true, statusNotReadBack: statusStale === true };
  }
}
/** lastSeenAt is when Keydesk last read or changed the key, not customer activity: the file says so. */
export const LEDGER_NAMES = { lastSeenAt: 'checkedByKeydeskAt' } satisfies Partial<Record<keyof LedgerRow, string>>;
const AUDIT_COLUMNS: readonly (keyof AuditEntry)[] = ['id', 'at', 'profileName', 'action', 'target', 'outcome', 'message', 'job', 'change'];
export const stamp = (): string => new Date().toISOString().slice(0, 19).replaceAll(':', '-');

export const ledgerHandlers = (
  core: Core,
): Pick<
  Handlers,
  | 'ledger.query'
  | 'ledger.export'
  | 'ledger.cutShort'
  | 'ledger.findCutShort'
  | 'ledger.dismissCutShort'
  | 'keys.export'
  | 'audit.list'
  | 'audit.export'
> => ({
  'ledger.query': needsProfile(core, async ({ filter, sort, offset, limit, cursor, exactCount }, p) => {
    // What the ledger does not hold yet, so a partial ledger is never shown as whole: taken before the read, which
    // sees at least every row written by then.
    const recording = core.writer.recording(p.id);
    // A cursor page is a seek from a row the renderer holds: no count (the first page gave it), no OFFSET. Pages
    // are read on the reader's thread; an exact count (seconds at a million keys) on the counter's, never main's.
    const page = cursor
      ? { rows: await core.reader.seekLedger(p.id, filter, sort, cursor, limit), total: null, totalCapped: false }
      : exactCount === true
        ? await core.counter.queryLedger(p.id, filter, sort, offset, limit, { exact: true })
        : await core.reader.queryLedger(p.id, filter, sort, offset, limit);
    const failed = core.writer.failure(p.id);
    const busy = recording > 0 && core.writer.busy ? { recordingBusy: true } : {};
    // Who holds each row's key: one lookup per row of the page, none for a profile with no customers.
    if (page.rows.length > 0 && core.db.customerCount(p.id) > 0) {
      const held = core.db.customersOfKeys(
        p.id,
        page.rows.map((r) => r.value),
      );
      page.rows = page.rows.map((r) => {
        const c = held.get(r.value);
        return c === undefined ? r : { ...r, customer: c.name };
      });
    }
    return ok({ ...page, ...(recording > 0 ? { recording } : {}), ...(failed === null ? {} : { recordingFailed: failed }), ...busy });
  }),

  // Exports wait for the writes queued before the click (not an empty queue, which a running job would hold up).
  'ledger.export': needsProfile(core, async ({ filter, sort, format }, p) => {
    await core.writer.flushed();
    return saveExport(
      core,
      `keydesk-keys-${stamp()}.${format}`,
      format,
      [...ALL_KEYS_COLUMNS, ...CUSTOMER_COLUMNS],
      (db) => withCustomers(db, p.id, allKeysRows(db.iterateLedger(p.id, filter, sort))),
      LEDGER_NAMES,
    );
  }),

  'ledger.cutShort': needsProfile(core, (_input, p) => ok({ generates: core.writer.marks.cutShort(p.id) })),

  // Every key, generated or active, whose note holds the generate's, page by page; the mark goes once they are written.
  'ledger.findCutShort': needsKey(core, async ({ id }, a) => {
    const mark = core.writer.marks.find(a.profile.id, id);
    if (!mark) return fail('NOT_FOUND', 'That generate is no longer listed as cut short.');
    if (mark.note === '') return fail('INVALID_INPUT', 'These keys have no note: on the service they are found by value only.');
    // The service matches notes that contain the term: the note's start (in code points, as the rules count) finds them.
    const term = Array.from(mark.note).slice(0, LIMITS.textMaxChars).join('');
    const writes = [];
    let found = 0;
    let bestMatchOnly = false;
    for (const fetch of ['fetchGenerated', 'fetchActive'] as const) {
      for (let offset = 0; ;) {
        const r = orEmpty(await a.client[fetch](term, LIMITS.pageLimitMax, offset));
        if (!r.ok) return r;
        writes.push(core.writer.recordKeys(a.profile.id, r.data.keys));
        found += r.data.keys.length;
        offset += r.data.keys.length;
        bestMatchOnly ||= r.data.total === null;
        if (r.data.total === null || r.data.keys.length === 0 || offset >= r.data.total) break;
      }
    }
    // A write that failed says so in All keys, and a best match is not all of them: the mark stays then.
    if ((await Promise.all(writes)).every((w) => w.failed === 0) && !bestMatchOnly) core.writer.marks.end(id);
    return ok({ found, ...(bestMatchOnly ? { bestMatchOnly } : {}) });
  }),

  'ledger.dismissCutShort': needsProfile(core, ({ id }, p) => {
    if (core.writer.marks.find(p.id, id)) core.writer.marks.end(id);
    return ok(null);
  }),

  // keys.generate queued its keys before answering, so the writes queued before this export hold them all.
  'keys.export': needsProfile(core, async ({ keyValues, format }, p) => {
    await core.writer.flushed();
    return saveExport(
      core,
      `keydesk-generated-${stamp()}.${format}`,
      format,
      [...LEDGER_COLUMNS, ...CUSTOMER_COLUMNS],
      (db) => withCustomers(db, p.id, db.iterateLedgerKeys(p.id, keyValues)),
      LEDGER_NAMES,
    );
  }),

  'audit.list': ({ filter, offset, limit }) => Promise.resolve(ok(core.db.listAudit(filter, offset, limit))),

  'audit.export': ({ filter, format }) =>
    saveExport(core, `keydesk-activity-${stamp()}.${format}`, format, AUDIT_COLUMNS, (db) => db.iterateAudit(filter)),
});

/** Asks the user where to save, then writes the rows there; a cancelled dialog is a success with no path. */
export async function saveExport<T extends object>(
  core: Core,
  suggestedName: string,
  format: 'csv' | 'json',
  columns: readonly (keyof T & string)[],
  rows: (db: LocalDb) => Iterable<T>,
  names: Partial<Record<NoInfer<keyof T> & string, string>> = {},
): Promise<Result<{ path: string | null }>> {
  const path = await core.options.askSavePath(suggestedName);
  if (path === null) return ok({ path: null });
  try {
    await core.db.withReader((db) => writeExport(path, format, columns, rows(db), names));
  } catch (error) {
    return exportFailure(error, path);
  }
  return ok({ path });
}
