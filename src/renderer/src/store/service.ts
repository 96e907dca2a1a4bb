// The service's other parts: keyless entries, identifiers, validation, this machine's HWIDs, and the activity log.
import type { OperationInput } from '../../../shared/contract.ts';
import type { AuditEntry, HwidReading, KeylessEntry, ValidationReport } from '../../../shared/domain.ts';
import { keyMoment, type KeyMoment } from './keys.ts';
import { IDLE, READY, type RequestState } from './request.ts';
import type { ProfileData, StoreContext } from './context.ts';

export interface ServiceSlice {
  /** total: null when the service sent its best match only. */
  keyless: { entries: KeylessEntry[]; total: number | null } | null;
  /** The search the list shows. */
  keylessRequest: RequestState;
  /** The last add, its failure shown with the add form. */
  keylessAddRequest: RequestState;
  /** The last delete, its failure shown above the list (which stays as it was). */
  keylessDeleteRequest: RequestState;
  /** The term of the search the list shows, so a change to the list can show that search again. */
  keylessTerm: string | null;
  lookupKeyless: (term: string) => Promise<void>;
  addKeyless: (input: OperationInput<'keyless.add'>) => Promise<boolean>;
  deleteKeyless: (hwid: string) => Promise<boolean>;
  /** The last check's answer, and when it came (`at`, ISO): an identifier free then may be taken since. */
  identifier: { identifier: string; exists: boolean; service: string | null; at: string } | null;
  identifierRequest: RequestState;
  checkIdentifier: (identifier: string) => Promise<void>;
  /** Forgets the last check's answer and error: a new attempt the form refused is not about that identifier. */
  clearIdentifier: () => void;
  hwids: HwidReading[];
  /** Reading this machine's HWIDs (a failure: main could not run a method at all). */
  hwidsRequest: RequestState;
  loadHwids: () => Promise<void>;
  validation: ValidationReport | null;
  /** When the answer shown came, and for which key (null: keyless); a later change to that key makes it an earlier answer. */
  validationRead: (KeyMoment & { keyValue: string | null }) | null;
  validationRequest: RequestState;
  runValidation: (input: OperationInput<'validation.run'>) => Promise<void>;
  audit: { entries: AuditEntry[]; total: number; offset: number; limit: number } | null;
  auditRequest: RequestState;
  loadAudit: (input: OperationInput<'audit.list'>) => Promise<void>;
  auditExportRequest: RequestState;
  exportAudit: (filter: OperationInput<'audit.export'>['filter'], format: 'csv' | 'json') => Promise<void>;
}

export function createServiceSlice(ctx: StoreContext): Omit<ServiceSlice, keyof ProfileData> {
  const { set, get, request, toastOk } = ctx;
  return {
    lookupKeyless: async (term) => {
      // A newer search makes this one's answer moot; a failed one shows no entries of another search.
      await request('keyless.lookup', { term }, 'keylessRequest', (keyless) => ({ keyless }), {
        before: { keylessTerm: term },
        onFailure: { keyless: null },
        latest: true,
      });
    },
    addKeyless: async (input) => {
      const r = await request('keyless.add', input, 'keylessAddRequest', () => ({}));
      if (!r) return false;
      toastOk('Keyless entry added.');
      // The list shows the current search again, now with the new entry where it matches; with no search yet,
      // the entries added so far, newest first (Keyless heads them as such).
      const term = get().keylessTerm;
      if (term === null) {
        const added = [r.data.entry, ...(get().keyless?.entries ?? []).filter((e) => e.hwid !== r.data.entry.hwid)];
        set({ keylessRequest: READY, keyless: { entries: added, total: added.length } });
      } else await get().lookupKeyless(term);
      return true;
    },
    deleteKeyless: async (hwid) => {
      const r = await request('keyless.delete', { hwid }, 'keylessDeleteRequest', () => {
        const shown = get().keyless;
        return {
          keyless: shown && { entries: shown.entries.filter((e) => e.hwid !== hwid), total: shown.total === null ? null : shown.total - 1 },
        };
      });
      if (!r) return false;
      toastOk('Keyless entry deleted.');
      return true;
    },
    checkIdentifier: async (identifier) => {
      await request(
        'identifier.check',
        { identifier },
        'identifierRequest',
        (data) => ({ identifier: { identifier, ...data, at: new Date().toISOString() } }),
        {
          before: { identifier: null },
          latest: true,
        },
      );
    },
    clearIdentifier: () => {
      set({ identifier: null, identifierRequest: IDLE });
    },
    hwids: [],
    hwidsRequest: IDLE,
    loadHwids: async () => {
      await request('hwid.read', undefined, 'hwidsRequest', (data) => ({ hwids: data.readings }), { global: true, latest: true });
    },
    runValidation: async (input) => {
      // A new question: no earlier answer, good or bad, may stay on screen beside the new one.
      const keyValue = input.mode === 'key' ? (input.keyValue ?? null) : null;
      await request(
        'validation.run',
        input,
        'validationRequest',
        (validation) => {
          const read = keyMoment();
          // A real validation the service let through activated the key and bound it: what Keys showed of it is older.
          const changed = keyValue !== null && validation.success && !validation.dryRun;
          return {
            validation,
            validationRead: { ...read, keyValue },
            ...(changed
              ? { keyChanges: { ...get().keyChanges, [keyValue]: { ...read, what: 'was validated for real in Validate & HWID' } } }
              : {}),
          };
        },
        {
          before: { validation: null, validationRead: null },
          latest: true,
        },
      );
    },
    audit: null,
    auditRequest: IDLE,
    loadAudit: async (input) => {
      // On a failure the old list goes: it answered another filter, and showing it under this one would be untrue.
      await request('audit.list', input, 'auditRequest', (data) => ({ audit: { ...data, offset: input.offset, limit: input.limit } }), {
        global: true,
        onFailure: { audit: null },
        latest: true,
      });
    },
    auditExportRequest: IDLE,
    exportAudit: async (filter, format) => {
      const r = await request('audit.export', { filter, format }, 'auditExportRequest', () => ({}), { global: true, toast: true });
      if (r?.data.path) toastOk(`Saved to ${r.data.path}.`);
    },
  };
}
