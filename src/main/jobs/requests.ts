// One item's request to the service, and what its answer, or its failure, means for the item and for the job.
import type { JobAction, Key, LedgerRow } from '../../shared/domain.ts';
import { EXTENDED_UNREAD } from '../../shared/job-words.ts';
import type { KeyBatch } from '../../shared/key-batch.ts';
import { fail, ok, type ErrorCode, type Result } from '../../shared/result.ts';
import { showsAbsent } from '../client/capabilities.ts';
import { editKey } from '../client/edit.ts';
import { readBack } from '../client/read-back.ts';
import { changesOf, importFind, lookUp, refreshFind } from './lookup.ts';
import type { Call } from '../client/service-client.ts';
import type { GenerateIntake } from './engine.ts';
import type { Run } from './run.ts';

export type Outcome =
  // code: what a lookup found (an import's find, a refresh's changes); gone: the key is on neither of the service's lists.
  | {
      kind: 'done';
      keys: Key[];
      batch?: KeyBatch;
      hwidCleared?: boolean;
      expiryStale?: boolean;
      note?: string;
      code?: string;
      gone?: true;
    }
  // lost: no answer came because the connection failed (Failure.connectionLost); timedOut: none came in time (Failure.timedOut).
  | {
      kind: 'failed' | 'unknown';
      code: ErrorCode;
      message: string;
      overload: boolean;
      retryAfter?: number | undefined;
      lost?: true;
      timedOut?: true;
      cutOff?: true;
    }
  | { kind: 'requeue'; code: ErrorCode; message: string; retryAfter?: number | undefined; stopJob: boolean };

/** What a failed request means for its item and for the job. */
function classify(r: Result<unknown> & { ok: false }): Outcome {
  const { code, message, retryAfterSeconds: retryAfter } = r;
  switch (code) {
    // The service refused before acting on it: the item is safe to send again, after the pause.
    case 'RATE_LIMITED':
      return { kind: 'requeue', code, message, retryAfter, stopJob: false };
    // Never reached the service, or it refuses this profile's key: nothing was done; stop and let the user resume.
    case 'NETWORK':
    case 'TIMEOUT':
    case 'API_KEY_INVALID':
    case 'API_KEY_MISSING':
      return { kind: 'requeue', code, message, retryAfter, stopJob: true };
    // Sent, and no trustworthy answer: it may or may not have taken effect.
    case 'OUTCOME_UNKNOWN':
    case 'INTERNAL':
    case 'HTTP_ERROR':
    case 'BAD_RESPONSE':
      return {
        kind: 'unknown',
        code,
        message,
        overload: true,
        retryAfter,
        ...(r.connectionLost ? { lost: true as const } : {}),
        ...(r.timedOut ? { timedOut: true as const } : {}),
        ...(r.cutOff ? { cutOff: true as const } : {}),
      };
    default:
      return { kind: 'failed', code, message, overload: false };
  }
}

/**
 * Sends one item's request and reads its outcome. `heard`: the answer's headers came (the service answers), before
 * a generate's body of megabytes is read. `intake`: where a generate's answer is read off main, when there is one.
 * `ledgerRow`: the key as the ledger holds it now, which a refresh compares with what it reads.
 */
export async function perform(
  run: Run,
  item: { target: string; size: number },
  heard: () => void,
  intake: () => GenerateIntake | undefined,
  ledgerRow: (value: string) => LedgerRow | null,
): Promise<Outcome> {
  const { client } = run;
  const action: JobAction = run.job.action;
  // A cancel cuts a bulk request off on the wire; a generate's answer is its keys, awaited (within its deadline).
  const call = action === 'generate' ? {} : { signal: run.wire.cut.signal };
  let r: Result<Key[]>;
  if (action === 'import' || action === 'refresh') {
    const found = await lookUp(client, item.target, call);
    // A read a cancel cut off changed nothing: its key is pending again, for a resume to look up.
    if (!found.ok && found.code === 'CANCELLED') return { kind: 'requeue', code: found.code, message: found.message, stopJob: true };
    if (!found.ok) return classify(found);
    const key = found.key;
    const said = action === 'import' ? importFind(key) : refreshFind(changesOf(ledgerRow(item.target), key));
    return {
      kind: 'done',
      keys: key ? [key] : [],
      ...(said.code === null ? {} : { code: said.code }),
      ...(said.message === null ? {} : { note: said.message }),
      ...(key ? {} : { gone: true as const }),
    };
  } else if (action === 'delete') {
    const d = await client.deleteKey(item.target, false, call);
    r = d.ok ? ok([]) : d;
  } else if (action === 'extend' || action === 'resetHwid') {
    const k =
      action === 'extend' ? await client.extend(item.target, run.params.days ?? 0, call) : await client.resetHwid(item.target, call);
    if (!k.ok) return classify(k);
    if (action === 'extend' && k.data === null) {
      // Extended, answered with {message} alone: the new expiry came back nowhere. Read the key back, so its
      // ledger row does not go on showing the old expiry as current; when that fails too, the item says so.
      const back = await readBack(client, item.target, null, call);
      return back ? { kind: 'done', keys: [back] } : { kind: 'done', keys: [], expiryStale: true, note: EXTENDED_UNREAD };
    }
    // A reset answered with {message} alone (the real dialect) still cleared the key's HWID.
    return { kind: 'done', keys: k.data ? [k.data] : [], hwidCleared: action === 'resetHwid' && k.data === null };
  } else if (action === 'edit') {
    const e = await editOne(run, item.target, call);
    return e.ok ? { kind: 'done', keys: e.data ? [e.data] : [] } : classify(e);
  } else {
    const g = run.params.generate;
    if (!g) return { kind: 'failed', code: 'INTERNAL', message: 'The job lost its parameters.', overload: false };
    const params = { ...stripUndefined(g), count: item.size };
    const reader = intake();
    if (reader) {
      // Read off main, as keys.generate reads it: a 2xx body the reader cannot read (or a reader that stops: a
      // crash, a quit) is an unknown outcome, "probably created", never sent again.
      let b: Result<KeyBatch>;
      try {
        b = await client.generateInto(params, reader, { ...call, onHeaders: heard });
      } catch (error) {
        reader.release();
        throw error;
      }
      if (!b.ok) {
        reader.release();
        return classify(b);
      }
      // The keys exist on the service: they go to the ledger whatever becomes of the job now.
      void reader.record(run.job.profileId);
      return { kind: 'done', keys: [], batch: b.data };
    }
    r = await client.generate(params, { ...call, onHeaders: heard });
  }
  return r.ok ? { kind: 'done', keys: r.data } : classify(r);
}

/**
 * Edits one key where it is: an active key's endpoint first, then a generated key's (a 404 there is "not this
 * state", not a failure). An answer without the key is read back, so the ledger records the new values.
 */
async function editOne(run: Run, keyValue: string, call: Call): Promise<Result<Key | null>> {
  const edit = run.params.edit;
  if (!edit) return fail('INTERNAL', 'The job lost its parameters.');
  const { states, ...fields } = edit;
  let last: Result<Key | null> = fail('NOT_FOUND', 'No such key.');
  for (const state of states) {
    last = await editKey(run.client, keyValue, state, stripUndefined(fields), call);
    if (last.ok) return ok(await readBack(run.client, keyValue, last.data, call));
    if (last.code !== 'NOT_FOUND' || showsAbsent(last)) return last;
  }
  return last;
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
