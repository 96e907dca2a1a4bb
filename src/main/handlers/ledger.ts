import type { AuditEntry, LedgerRow } from '../../shared/domain.ts';
import { fail, ok } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import { writeExport } from '../export.ts';
import type { Handlers } from './types.ts';

const LEDGER_COLUMNS: readonly (keyof LedgerRow)[] = ['value', 'note', 'status', 'isPremium', 'expiresAt', 'hwid', 'createdAt', 'lastSeenAt'];
const AUDIT_COLUMNS: readonly (keyof AuditEntry)[] = ['id', 'at', 'profileName', 'action', 'target', 'outcome', 'message'];
const stamp = (): string => new Date().toISOString().slice(0, 19).replaceAll(':', '-');

export const ledgerHandlers = (core: Core): Pick<Handlers, 'ledger.query' | 'ledger.export' | 'audit.list' | 'audit.export'> => ({
  'ledger.query': ({ filter, sort, offset, limit }) => {
    const id = core.profiles.activeProfileId;
    if (id === null) return Promise.resolve(fail('NOT_FOUND', 'No profile is selected.'));
    return Promise.resolve(ok(core.db.queryLedger(id, filter, sort, offset, limit)));
  },

  'ledger.export': async ({ filter, format }) => {
    const id = core.profiles.activeProfileId;
    if (id === null) return fail('NOT_FOUND', 'No profile is selected.');
    const path = await core.options.askSavePath(`keydesk-keys-${stamp()}.${format}`);
    if (path === null) return ok({ path: null });
    try {
      await writeExport(path, format, LEDGER_COLUMNS, core.db.iterateLedger(id, filter));
    } catch (error) {
      return fail('INTERNAL', `The export could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
    }
    return ok({ path });
  },

  'audit.list': ({ filter, offset, limit }) => Promise.resolve(ok(core.db.listAudit(filter, offset, limit))),

  'audit.export': async ({ format }) => {
    const path = await core.options.askSavePath(`keydesk-activity-${stamp()}.${format}`);
    if (path === null) return ok({ path: null });
    try {
      const { entries } = core.db.listAudit({}, 0, Number.MAX_SAFE_INTEGER);
      await writeExport(path, format, AUDIT_COLUMNS, entries);
    } catch (error) {
      return fail('INTERNAL', `The export could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
    }
    return ok({ path });
  },
});
