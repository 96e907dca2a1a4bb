// The service's other parts: keyless entries, identifiers, validation, this machine's HWIDs, and the activity log.
import type { OperationInput } from '../../../shared/contract.ts';
import type { AuditEntry, HwidReading, KeylessEntry, ValidationReport } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import type { Status } from './index.ts';
import type { ProfileData, StoreContext } from './context.ts';

export interface ServiceSlice {
  /** total: null when the service sent its best match only. */
  keyless: { entries: KeylessEntry[]; total: number | null } | null;
  keylessStatus: Status;
  keylessError: Failure | null;
  /** The last add's failure, shown with the add form (the search's own failure is keylessError). */
  keylessAddError: Failure | null;
  /** The term of the search the list shows, so a change to the list can show that search again. */
  keylessTerm: string | null;
  lookupKeyless: (term: string) => Promise<void>;
  addKeyless: (input: OperationInput<'keyless.add'>) => Promise<boolean>;
  deleteKeyless: (hwid: string) => Promise<boolean>;
  identifier: { identifier: string; exists: boolean; service: string | null } | null;
  identifierStatus: Status;
  identifierError: Failure | null;
  checkIdentifier: (identifier: string) => Promise<void>;
  /** Forgets the last check's answer and error: a new attempt the form refused is not about that identifier. */
  clearIdentifier: () => void;
  hwids: HwidReading[];
  hwidsStatus: Status;
  /** Reading this machine's HWIDs failed (main could not run a method at all). */
  hwidsError: Failure | null;
  loadHwids: () => Promise<void>;
  validation: ValidationReport | null;
  validationStatus: Status;
  validationError: Failure | null;
  runValidation: (input: OperationInput<'validation.run'>) => Promise<void>;
  audit: { entries: AuditEntry[]; total: number; offset: number; limit: number } | null;
  auditStatus: Status;
  auditError: Failure | null;
  loadAudit: (input: OperationInput<'audit.list'>) => Promise<void>;
  exportAudit: (filter: OperationInput<'audit.export'>['filter'], format: 'csv' | 'json') => Promise<void>;
}

export function createServiceSlice(ctx: StoreContext): Omit<ServiceSlice, keyof ProfileData> {
  const { set, get, run, runGlobal, request, toastOk } = ctx;
  return {
    lookupKeyless: async (term) => {
      set({ keylessStatus: 'loading', keylessError: null, keylessTerm: term });
      const r = await run('keyless.lookup', { term });
      if (!r || get().keylessTerm !== term) return;
      if ('failure' in r) {
        set({ keylessStatus: 'error', keylessError: r.failure, keyless: null });
        return;
      }
      set({ keylessStatus: 'ready', keyless: r.data });
    },
    addKeyless: async (input) => {
      const r = await run('keyless.add', input);
      if (!r) return false;
      if ('failure' in r) {
        set({ keylessAddError: r.failure });
        return false;
      }
      set({ keylessAddError: null });
      toastOk('Keyless entry added.');
      // The list shows the current search again, now with the new entry where it matches; with no search yet,
      // the new entry alone.
      const term = get().keylessTerm;
      if (term === null) set({ keylessError: null, keylessStatus: 'ready', keyless: { entries: [r.data.entry], total: 1 } });
      else await get().lookupKeyless(term);
      return true;
    },
    deleteKeyless: async (hwid) => {
      const r = await run('keyless.delete', { hwid });
      if (!r) return false;
      if ('failure' in r) {
        set({ keylessError: r.failure });
        return false;
      }
      set((s) => ({ keylessError: null, keyless: s.keyless && { entries: s.keyless.entries.filter((e) => e.hwid !== hwid), total: s.keyless.total === null ? null : s.keyless.total - 1 } }));
      toastOk('Keyless entry deleted.');
      return true;
    },
    checkIdentifier: async (identifier) => {
      await request('identifier.check', { identifier }, { status: 'identifierStatus', error: 'identifierError' }, (data) => ({ identifier: { identifier, ...data } }), {
        before: { identifier: null },
      });
    },
    clearIdentifier: () => {
      set({ identifier: null, identifierError: null, identifierStatus: 'idle' });
    },
    hwids: [],
    hwidsStatus: 'idle',
    hwidsError: null,
    loadHwids: async () => {
      await request('hwid.read', undefined, { status: 'hwidsStatus', error: 'hwidsError' }, (data) => ({ hwids: data.readings }), { global: true });
    },
    runValidation: async (input) => {
      // A new question: no earlier answer, good or bad, may stay on screen beside the new one.
      await request('validation.run', input, { status: 'validationStatus', error: 'validationError' }, (validation) => ({ validation }), {
        before: { validation: null },
      });
    },
    audit: null,
    auditStatus: 'idle',
    auditError: null,
    loadAudit: async (input) => {
      // On a failure the old list goes: it answered another filter, and showing it under this one would be untrue.
      await request('audit.list', input, { status: 'auditStatus', error: 'auditError' }, (data) => ({ audit: { ...data, offset: input.offset, limit: input.limit } }), {
        global: true,
        onFailure: { audit: null },
      });
    },
    exportAudit: async (filter, format) => {
      const r = await runGlobal('audit.export', { filter, format });
      if ('failure' in r) get().notify('error', r.failure.message);
      else if (r.data.path) toastOk(`Saved to ${r.data.path}.`);
    },
  };
}
