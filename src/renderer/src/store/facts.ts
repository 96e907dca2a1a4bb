// What each service can do (its optional endpoints, as main last checked them), key edits where it can, and the
// open key's HWID history.
import { moment } from './request.ts';
import { IDLE } from './request.ts';
import type { FactsSlice, StoreContext } from './types.ts';

/** What a profile switch puts back: the open key's history is another service's. */
export const FACTS_INITIAL = { hwidHistory: null, hwidHistoryRequest: IDLE, keyEditRequest: IDLE } satisfies Partial<FactsSlice>;

export function createFactsSlice(ctx: StoreContext): FactsSlice {
  const { get, request, toastOk } = ctx;
  const keep = (profileId: string) => (d: { capabilities: FactsSlice['capabilities'][string] }) => ({
    capabilities: { ...get().capabilities, [profileId]: d.capabilities },
  });
  return {
    ...FACTS_INITIAL,
    capabilities: {},
    capabilitiesRequest: IDLE,
    capabilityCheckRequest: IDLE,
    capabilityCheckOf: null,
    loadCapabilities: async (profileId) => {
      await request('service.capabilities', { profileId }, 'capabilitiesRequest', keep(profileId), { global: true });
    },
    checkCapabilities: async (profileId) => {
      const r = await request('service.checkCapabilities', { profileId }, 'capabilityCheckRequest', keep(profileId), {
        global: true,
        toast: true,
        before: { capabilityCheckOf: profileId },
      });
      if (r) toastOk('Checked what the service can do.');
    },
    loadHwidHistory: async (keyValue) => {
      await request('keys.hwidHistory', { keyValue }, 'hwidHistoryRequest', (d) => ({ hwidHistory: { keyValue, events: d.events } }), {
        latest: true,
      });
    },
    editKey: async (key, fields) => {
      const r = await request('keys.edit', { keyValue: key.value, state: key.status, ...fields }, 'keyEditRequest', (d) => {
        const m = moment();
        const shown = d.key ?? { ...key, ...fields };
        const what = 'was edited in Keys';
        return {
          ...(get().selectedKey?.value === key.value ? { selectedKey: shown, selectedRead: m } : {}),
          keyChanges: { ...get().keyChanges, [key.value]: { ...m, what } },
        };
      });
      if (!r) return false;
      toastOk(r.data.key ? 'Key edited.' : 'Key edited. The service did not describe it: search again to see it.');
      if (!r.data.key) await ctx.refreshAfterChange(key.value);
      return true;
    },
  };
}
