import type { Key } from '../../shared/domain.ts';
import { keyCount } from '../../shared/operation-words.ts';
import { ok, type Result } from '../../shared/result.ts';
import { readBack } from '../client/read-back.ts';
import type { Page } from '../client/service-client.ts';
import type { Core } from '../core.ts';
import type { StaleMark } from '../store/local-db.ts';
import { audited, needsKey, type Handlers } from './types.ts';

/** A lookup that found nothing (a 404, with or without a code) is an empty list, not a failure. */
const orEmpty = (r: Result<Page<Key>>): Result<Page<Key>> => (!r.ok && r.code === 'NOT_FOUND' ? ok({ keys: [], total: 0 }) : r);

/**
 * Into the ledger: a whole key as it is, or, when its status went unreported, only the fields that came back.
 * A change the user made is awaited (one row, behind whatever was queued first): when the handler answers, the
 * ledger shows it. Keys only read (lookups) are queued and not awaited.
 */
async function record(core: Core, profileId: string, key: Key): Promise<void> {
  if (key.unreported?.includes('status')) await core.ledger.recordReportedFields(profileId, key);
  else await core.ledger.recordKeys(profileId, [key]);
}

/**
 * A ledger row's expiry, HWID or status marked as not read back (LocalDb.markStale), once the ledger writes queued
 * before it are in: a description of the key queued earlier (a lookup's, or a generate's still being recorded
 * behind thousands of keys) would otherwise land after the mark and clear it, or the row would not exist yet.
 */
async function markStale(core: Core, profileId: string, what: StaleMark, keyValue: string): Promise<void> {
  try {
    await core.ledger.flushed();
    core.db.markStale(profileId, what, [keyValue]);
  } catch (error) {
    // The mark never changes what is said of the act (another writer holding keydesk.db's lock past main's wait):
    // an extend done stays done, one with no answer "unknown: check before retrying", never a failure, which
    // would invite sending it again.
    console.error(`keydesk: the ledger row of ${keyValue} could not be marked as not read back:`, error);
  }
}

/**
 * An act on one key sent with no answer (unknown: it may or may not have taken effect): the ledger row's expiry,
 * HWID or status is the one seen before, and is marked as not read back until the key is described again, as a
 * bulk job's unknown items are.
 */
async function markIfUnknown(core: Core, profileId: string, what: StaleMark, keyValue: string, r: Result<unknown>): Promise<void> {
  if (!r.ok && r.code === 'OUTCOME_UNKNOWN') await markStale(core, profileId, what, keyValue);
}

export const keyHandlers = (
  core: Core,
): Pick<
  Handlers,
  'keys.generate' | 'keys.lookup' | 'keys.fetchActive' | 'keys.fetchGenerated' | 'keys.delete' | 'keys.extend' | 'keys.resetHwid'
> => {
  return {
    'keys.generate': needsKey(core, async (input, a) => {
      return audited(
        core,
        a.profile,
        'keys.generate',
        `${keyCount(input.count)}${input.note ? `: ${input.note.slice(0, 60)}` : ''}`,
        async () => {
          // The answer's body is read on the ledger writer's thread, which keeps the keys to record them: main
          // holds only the batch (values, and the fields the keys share once), and so does the renderer.
          const intake = core.ledger.intake();
          const r = await a.client.generateInto(input, intake);
          if (!r.ok) {
            intake.release();
            return r;
          }
          // Not awaited: the keys exist on the service now, and up to 100,000 rows take the writer seconds.
          // ledger.query says how many are still being recorded; a failure is reported in words there, by
          // 'ledger.changed' and in the audit log.
          void intake.record(a.profile.id);
          return ok({ generated: r.data });
        },
      );
    }),

    'keys.lookup': needsKey(core, async ({ term }, a) => {
      const active = orEmpty(await a.client.fetchActive(term));
      if (!active.ok) return active;
      const generated = orEmpty(await a.client.fetchGenerated(term));
      if (!generated.ok) return generated;
      // Not awaited: the answer does not come from the ledger, and the queue may hold a large batch before it.
      void core.ledger.recordKeys(a.profile.id, [...active.data.keys, ...generated.data.keys]);
      // Nothing at all, in either list (a term matches a key's own value): no key of that value exists on the
      // service, and "a deleted key no longer exists". Its ledger row, if any, is deleted, which also settles a
      // delete sent with no answer (its row's status not read back) that did take effect.
      if (active.data.total === 0 && generated.data.total === 0 && active.data.keys.length === 0 && generated.data.keys.length === 0) {
        void core.ledger.markDeleted(a.profile.id, term);
      }
      const bestMatchOnly = active.data.total === null || generated.data.total === null;
      return ok({ active: active.data.keys, generated: generated.data.keys, ...(bestMatchOnly ? { bestMatchOnly } : {}) });
    }),

    'keys.fetchActive': needsKey(core, async ({ term, limit, offset }, a) => {
      const r = orEmpty(await a.client.fetchActive(term, limit, offset));
      if (r.ok) void core.ledger.recordKeys(a.profile.id, r.data.keys);
      return r;
    }),

    'keys.fetchGenerated': needsKey(core, async ({ term, limit, offset }, a) => {
      const r = orEmpty(await a.client.fetchGenerated(term, limit, offset));
      if (r.ok) void core.ledger.recordKeys(a.profile.id, r.data.keys);
      return r;
    }),

    'keys.delete': needsKey(core, async ({ keyValue, state }, a) => {
      return audited(core, a.profile, 'keys.delete', keyValue, async () => {
        const r = await a.client.deleteKey(keyValue, state === 'generated');
        await markIfUnknown(core, a.profile.id, 'status', keyValue, r);
        if (!r.ok) return r;
        await core.ledger.markDeleted(a.profile.id, keyValue);
        return ok({ deletedKey: r.data });
      });
    }),

    'keys.extend': needsKey(core, async ({ keyValue, days }, a) => {
      return audited(core, a.profile, 'keys.extend', keyValue, async () => {
        const r = await a.client.extend(keyValue, days);
        await markIfUnknown(core, a.profile.id, 'expiry', keyValue, r);
        if (!r.ok) return r;
        const key = await readBack(a.client, keyValue, r.data);
        if (key) await record(core, a.profile.id, key);
        // Extended, and the new expiry came back nowhere: the ledger row's expiry is the old one, and says so.
        else await markStale(core, a.profile.id, 'expiry', keyValue);
        return ok({ key });
      });
    }),

    'keys.resetHwid': needsKey(core, async ({ keyValue }, a) => {
      return audited(core, a.profile, 'keys.resetHwid', keyValue, async () => {
        const r = await a.client.resetHwid(keyValue);
        await markIfUnknown(core, a.profile.id, 'hwid', keyValue, r);
        if (!r.ok) return r;
        const key = await readBack(a.client, keyValue, r.data);
        if (key) await record(core, a.profile.id, key);
        // Reset (the service said so) and not described, nor read back: the key has no HWID now, whatever the
        // ledger saw before. The bulk job does the same (hwidCleared).
        else await core.ledger.markHwidCleared(a.profile.id, keyValue);
        return ok({ key });
      });
    }),
  };
};
