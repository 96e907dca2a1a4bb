import type { AuditEntry, LedgerRow } from '../../shared/domain.ts';
import { fail, ok, type Result } from '../../shared/result.ts';
import { LIMITS } from '../../shared/rules.ts';
import type { Core } from '../core.ts';
import { writeExport } from '../export.ts';
import type { Handlers } from './types.ts';

const LEDGER_COLUMNS: readonly (keyof LedgerRow)[] = ['value', 'note', 'status', 'isPremium', 'expiresAt', 'daysKey', 'hwid', 'createdAt', 'lastSeenAt'];
const AUDIT_COLUMNS: readonly (keyof AuditEntry)[] = ['id', 'at', 'profileName', 'action', 'target', 'outcome', 'message'];
const stamp = (): string => new Date().toISOString().slice(0, 19).replaceAll(':', '-');

/** Runs `fn` for the active profile's ledger; with none selected, says so. */
const forActive = <T>(core: Core, fn: (profileId: string) => Result<T> | Promise<Result<T>>): Promise<Result<T>> => {
  const id = core.profiles.activeProfileId;
  return Promise.resolve(id === null ? fail('NOT_FOUND', 'No profile is selected.') : fn(id));
};

export const ledgerHandlers = (core: Core): Pick<Handlers, 'ledger.query' | 'ledger.values' | 'ledger.export' | 'keys.export' | 'audit.list' | 'audit.export'> => ({
  'ledger.query': ({ filter, sort, offset, limit }) => forActive(core, (id) => ok(core.db.queryLedger(id, filter, sort, offset, limit))),

  'ledger.values': ({ filter }) => forActive(core, (id) => ok(core.db.ledgerValues(id, filter, LIMITS.countMax))),

  'ledger.export': ({ filter, format }) =>
    forActive(core, (id) => saveExport(core, `keydesk-keys-${stamp()}.${format}`, format, LEDGER_COLUMNS, core.db.iterateLedger(id, filter))),

  'keys.export': ({ keyValues, format }) =>
    forActive(core, (id) => saveExport(core, `keydesk-generated-${stamp()}.${format}`, format, LEDGER_COLUMNS, core.db.iterateLedgerKeys(id, keyValues))),

  'audit.list': ({ filter, offset, limit }) => Promise.resolve(ok(core.db.listAudit(filter, offset, limit))),

  'audit.export': ({ filter, format }) => saveExport(core, `keydesk-activity-${stamp()}.${format}`, format, AUDIT_COLUMNS, core.db.iterateAudit(filter)),
});

/** Asks the user where to save, then writes the rows there; a cancelled dialog is a success with no path. */
async function saveExport<T extends object>(
  core: Core,
  suggestedName: string,
  format: 'csv' | 'json',
  columns: readonly (keyof T & string)[],
  rows: Iterable<T>,
): Promise<Result<{ path: string | null }>> {
  const path = await core.options.askSavePath(suggestedName);
  if (path === null) return ok({ path: null });
  try {
    await writeExport(path, format, columns, rows);
  } catch (error) {
    return fail('INTERNAL', `The export could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  return ok({ path });
}
