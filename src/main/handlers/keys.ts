// Handlers for single-key operations: generate, lookups, delete, extend and HWID reset.
import type { Key } from '../../shared/domain.ts';
import { keyCount } from '../../shared/operation-words.ts';
import { ok, type Result } from '../../shared/result.ts';
import { readBack } from '../client/read-back.ts';
import type { Page } from '../client/service-client.ts';
import type { Core } from '../core.ts';
import { recordHwidEvent } from '../hwid-history.ts';
import type { StaleMark } from '../store/local-db.ts';
import { audited, needsKey, type Handlers, type KeyChange } from './types.ts';

/** A lookup that found nothing (a 404, with or without a code) is an empty list, not a failure. */
export const orEmpty = (r: Result<Page<Key>>): Result<Page<Key>> => (!r.ok && r.code === 'NOT_FOUND' ? ok({ keys: [], total: 0 }) : r);

/** Records a key the user changed, awaited so the ledger shows it when the handler answers; partial keys in part. */
async function record(core: Core, profileId: string, key: Key): Promise<void> {
  if (key.unreported?.includes('status')) await core.writer.recordReportedFields(profileId, key);
  else await core.writer.recordKeys(profileId, [key]);
}

/** Marks a ledger row's field as not read back, queued behind the writes before it (which would clear it). */
async function markStale(core: Core, profileId: string, what: StaleMark, keyValue: string): Promise<void> {
  try {
    await core.writer.markStale(profileId, what, [keyValue]);
  } catch (error) {
    // The mark never changes what is said of the act: reported as failed, it would be sent again.
    console.error(`keydesk: the ledger row of ${keyValue} could not be marked as not read back:`, error);
  }
}

/** An act sent with no answer leaves the field seen before, marked as not read back (as a bulk job's unknown items). */
async function markIfUnknown(core: Core, profileId: string, what: StaleMark, keyValue: string, r: Result<unknown>): Promise<void> {
  if (!r.ok && r.code === 'OUTCOME_UNKNOWN') await markStale(core, profileId, what, keyValue);
}

// What Activity says each act changed: the ledger's fields before, and the key read back after (none: not read).
const DELETED: KeyChange<unknown> = { fields: ['note', 'isPremium', 'expiresAt', 'hwid'], after: () => ({}) };
const EXTENDED: KeyChange<{ key: Key | null }> = { fields: ['expiresAt'], after: ({ key }) => (key ? { expiresAt: key.expiresAt } : {}) };
// A reset not read back left the key with no HWID, as the ledger records it.
const RESET: KeyChange<{ key: Key | null }> = { fields: ['hwid'], after: ({ key }) => ({ hwid: key?.hwid ?? null }) };

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
          // The body is read on the ledger writer's thread, which keeps the keys; main holds only the batch.
          const intake = core.writer.intake();
          const r = await a.client.generateInto(input, intake);
          if (!r.ok) {
            intake.release();
            return r;
          }
          // Not awaited: 100,000 rows take the writer seconds; ledger.query and 'ledger.changed' report progress.
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
      // Not awaited: the queue may hold a large batch before it.
      void core.writer.recordKeys(a.profile.id, [...active.data.keys, ...generated.data.keys]);
      // No key of that value exists on the service: its ledger row, if any, is deleted (settling an unanswered delete).
      if (active.data.total === 0 && generated.data.total === 0 && active.data.keys.length === 0 && generated.data.keys.length === 0) {
        void core.writer.markDeleted(a.profile.id, term);
      }
      const bestMatchOnly = active.data.total === null || generated.data.total === null;
      return ok({ active: active.data.keys, generated: generated.data.keys, ...(bestMatchOnly ? { bestMatchOnly } : {}) });
    }),

    'keys.fetchActive': needsKey(core, async ({ term, limit, offset }, a) => {
      const r = orEmpty(await a.client.fetchActive(term, limit, offset));
      if (r.ok) void core.writer.recordKeys(a.profile.id, r.data.keys);
      return r;
    }),

    'keys.fetchGenerated': needsKey(core, async ({ term, limit, offset }, a) => {
      const r = orEmpty(await a.client.fetchGenerated(term, limit, offset));
      if (r.ok) void core.writer.recordKeys(a.profile.id, r.data.keys);
      return r;
    }),

    'keys.delete': needsKey(core, async ({ keyValue, state }, a) => {
      return audited(
        core,
        a.profile,
        'keys.delete',
        keyValue,
        async () => {
          const r = await a.client.deleteKey(keyValue, state === 'generated');
          await markIfUnknown(core, a.profile.id, 'status', keyValue, r);
          if (!r.ok) return r;
          await core.writer.markDeleted(a.profile.id, keyValue);
          return ok({ deletedKey: r.data });
        },
        DELETED,
      );
    }),

    'keys.extend': needsKey(core, async ({ keyValue, days }, a) => {
      return audited(
        core,
        a.profile,
        'keys.extend',
        keyValue,
        async () => {
          const r = await a.client.extend(keyValue, days);
          await markIfUnknown(core, a.profile.id, 'expiry', keyValue, r);
          if (!r.ok) return r;
          const key = await readBack(a.client, keyValue, r.data);
          if (key) await record(core, a.profile.id, key);
          // The new expiry came back nowhere: the row's old expiry says so.
          else await markStale(core, a.profile.id, 'expiry', keyValue);
          return ok({ key });
        },
        EXTENDED,
      );
    }),

    'keys.resetHwid': needsKey(core, async ({ keyValue }, a) => {
      return audited(
        core,
        a.profile,
        'keys.resetHwid',
        keyValue,
        async () => {
          const r = await a.client.resetHwid(keyValue);
          await markIfUnknown(core, a.profile.id, 'hwid', keyValue, r);
          const at = new Date().toISOString();
          if (!r.ok && r.code === 'COOLDOWN') {
            const next = r.retryAfterSeconds === undefined ? null : new Date(Date.now() + r.retryAfterSeconds * 1000).toISOString();
            await recordHwidEvent(core, {
              profileId: a.profile.id,
              value: keyValue,
              at,
              kind: 'cooldown',
              hwid: null,
              nextResetAt: next,
              source: 'reset',
            });
          }
          if (!r.ok) return r;
          // The sandbox logs its own resets (hwid-history.ts reads them); a remote service's are recorded here.
          if (a.profile.kind !== 'sandbox')
            await recordHwidEvent(core, { profileId: a.profile.id, value: keyValue, at, kind: 'reset', hwid: null, source: 'reset' });
          const key = await readBack(a.client, keyValue, r.data);
          if (key) await record(core, a.profile.id, key);
          // Reset, and not read back: the key has no HWID now, as in a bulk job.
          else await core.writer.markHwidCleared(a.profile.id, keyValue);
          return ok({ key });
        },
        RESET,
      );
    }),
  };
};
