// The Integration view's slice: one fresh test key per profile, its status as the service reports it now
// (so a vendor can watch it activate), and whether the embedded sandbox is running.
import { keyAt } from '../../../shared/key-batch.ts';
import { addDays, utcDate } from '../../../shared/rules.ts';
import { call, subscribe } from '../lib/api.ts';
import { IDLE } from './request.ts';
import type { IntegrationSlice, StoreContext } from './types.ts';

export const TEST_KEY_NOTE = 'integration test';
const TEST_KEY_DAYS = 30;

/** A profile starts with no test key asked for. */
export const INTEGRATION_INITIAL = { testKeyRequest: IDLE } satisfies Partial<IntegrationSlice>;

export function createIntegrationSlice(ctx: StoreContext): IntegrationSlice {
  const { set, get, run, requestWith, toastOk } = ctx;
  return {
    ...INTEGRATION_INITIAL,
    testKey: null,
    sandboxState: null,
    generateTestKey: async (profileId) => {
      // An answer for a profile that is no longer active is dropped, not shown under the new one.
      const r = await requestWith(
        async () => {
          const answer = await run('keys.generate', {
            expire: utcDate(addDays(Date.now(), TEST_KEY_DAYS)),
            count: 1,
            isPremium: false,
            note: TEST_KEY_NOTE,
          });
          if (!answer || get().activeProfileId !== profileId) return null;
          if ('failure' in answer) return answer;
          const batch = answer.data.generated;
          return batch.count > 0
            ? { data: keyAt(batch, 0) }
            : { failure: { ok: false, code: 'BAD_RESPONSE', message: 'The service answered without a key.' } };
        },
        'testKeyRequest',
        (key) => ({ testKey: { profileId, key } }),
      );
      if (r) toastOk('Generated a test key.');
    },
    refreshTestKey: async () => {
      const current = get().testKey;
      if (!current) return;
      await requestWith(
        async () => {
          const answer = await run('keys.lookup', { term: current.key.value });
          if (!answer || 'failure' in answer) return answer;
          const found = [...answer.data.active, ...answer.data.generated].find((k) => k.value === current.key.value);
          return found
            ? { data: found }
            : { failure: { ok: false, code: 'NOT_FOUND', message: 'The service no longer has this key: it was deleted.' } };
        },
        'testKeyRequest',
        // A newer test key replaced this one meanwhile: the answer is about a key no longer shown.
        (key) => (get().testKey === current ? { testKey: { profileId: current.profileId, key } } : {}),
        { latest: true },
      );
    },
    watchSandbox: () => {
      let live = true;
      void call('app.status', undefined).then((r) => {
        if (live && r.ok) set({ sandboxState: r.data.sandbox });
      });
      const off = subscribe('sandbox.stateChanged', (state) => set({ sandboxState: state }));
      return () => {
        live = false;
        off();
      };
    },
  };
}
