// The service's other parts: keyless entries, identifiers, validation, this machine's HWIDs, and the activity log.
import { IDLE, moment, READY } from './request.ts';
import type { ServiceSlice, StoreContext } from './types.ts';

/** The keys of a bulk entry opened in Activity, shown a page at a time. */
export const AUDIT_ITEMS_PAGE = 50;

/** What a profile starts with: no search, check or validation answered yet. */
export const SERVICE_INITIAL = {
  keyless: null,
  keylessRequest: IDLE,
  keylessAddRequest: IDLE,
  keylessDeleteRequest: IDLE,
  keylessTerm: null,
  keylessValidated: null,
  identifier: null,
  identifierRequest: IDLE,
  validation: null,
  validationRead: null,
  validationRequest: IDLE,
  auditItems: null,
  auditItemsRequest: IDLE,
} satisfies Partial<ServiceSlice>;

export function createServiceSlice(ctx: StoreContext): ServiceSlice {
  const { set, get, request, toastOk } = ctx;
  return {
    ...SERVICE_INITIAL,
    lookupKeyless: async (term) => {
      // A newer search makes this one's answer moot; a failed one shows no entries of another search.
      await request('keyless.lookup', { term }, 'keylessRequest', (keyless) => ({ keyless: { ...keyless, read: moment() } }), {
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
        set({ keylessRequest: READY, keyless: { entries: added, total: added.length, read: moment() } });
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
    clearIdentifier: () => set({ identifier: null, identifierRequest: IDLE }),
    hwids: [],
    hwidsRequest: IDLE,
    loadHwids: async () => {
      await request('hwid.read', undefined, 'hwidsRequest', (data) => ({ hwids: data.readings }), { global: true, latest: true });
    },
    runValidation: async (input) => {
      // A new question: no earlier answer, good or bad, may stay on screen beside the new one.
      const keyValue = input.mode === 'key' ? (input.keyValue ?? null) : null;
      const r = await request(
        'validation.run',
        input,
        'validationRequest',
        (validation) => {
          const read = moment();
          // A real validation the service let through activated the key and bound it: what Keys showed of it is older.
          const real = validation.success && !validation.dryRun;
          const changed = keyValue !== null && real;
          return {
            validation,
            validationRead: { ...read, keyValue },
            ...(real && keyValue === null ? { keylessValidated: read } : {}),
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
      // The open key panel takes the key as the validation left it (bound, activated), read again.
      if (r?.data.success && !r.data.dryRun && keyValue !== null && get().selectedKey?.value === keyValue) await get().refreshKey(keyValue);
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
    auditItems: null,
    auditItemsRequest: IDLE,
    loadAuditItems: async (jobId, offset) => {
      // A bulk entry opened in Activity: its job's keys a page at a time, from main's record of the job.
      await request(
        'jobs.items',
        { jobId, offset, limit: AUDIT_ITEMS_PAGE },
        'auditItemsRequest',
        (d) => ({ auditItems: { jobId, offset, items: d.items, total: d.total } }),
        { before: get().auditItems?.jobId === jobId ? {} : { auditItems: null }, onFailure: { auditItems: null }, latest: true },
      );
    },
    auditExportRequest: IDLE,
    exportAudit: async (filter, format) => {
      const r = await request('audit.export', { filter, format }, 'auditExportRequest', () => ({}), { global: true, toast: true });
      if (r?.data.path) toastOk(`Saved to ${r.data.path}.`);
    },
  };
}
