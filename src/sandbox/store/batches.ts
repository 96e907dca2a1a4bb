// Key batches: one generate request writes its whole batch in one transaction, 2,048 keys per statement (all
// or none), and its answer is serialised without building 100,000 key objects.
import { endOfUtcDay } from '../../shared/rules.ts';
import type { WireKey } from '../../shared/wire.ts';
import { generateKeyBlock, KEY_LENGTH, type KeyValueBlock } from '../keygen.ts';
import { iso, isUniqueViolation, keyPublicId } from './rows.ts';
import { ServiceScoped } from './scoped.ts';

export interface GenerateParams {
  count: number;
  isPremium: boolean;
  note: string;
  /** Checked calendar date; the fixed expiry day. Ignored for days keys. */
  expire: string;
  expiresByDaysKey: boolean;
  daysKey: number | null;
}

type BatchShared = Omit<WireKey, 'id' | 'value'>;

/** A generated batch, kept compact: 100,000 keys differ only in id and value. */
export interface GeneratedBatch {
  shared: BatchShared;
  /** Row ids; the public id is keyPublicId(row id). */
  ids: number[];
  values: KeyValueBlock;
}

/** The batch as key objects. */
export function batchKeys(batch: GeneratedBatch): WireKey[] {
  return batch.ids.map((id, i) => ({ id: keyPublicId(id), value: batch.values.value(i), ...batch.shared }));
}

/**
 * Where a chunk is written: a new buffer of `size` bytes by default, or a reused one that the caller has
 * finished with (the server sends one chunk at a time, so one buffer serves a 33 MB answer).
 */
export type ChunkBuffer = (size: number) => Buffer;

/**
 * `prefix` + the batch as a JSON array + `suffix`, as UTF-8 bytes in chunks of about `chunkBytes`:
 * byte-identical to JSON.stringify(batchKeys(batch)) between them (or, for `real`, to the real dialect's
 * `[{value, note, expiresAt, isPremium}]`), and several times faster, because the shared fields are encoded once
 * and keys are copied into buffers. The length is known before the first chunk is built, so a response can
 * declare it and start sending while the rest is being written. Ids and values come from ASCII URL-safe
 * alphabets, so they never need escaping.
 */
export function batchJsonChunks(
  batch: GeneratedBatch,
  prefix = '',
  suffix = '',
  chunkBytes = 1 << 20,
  dialect: 'detail' | 'real' = 'detail',
): { length: number; chunks: (into?: ChunkBuffer) => Generator<Buffer> } {
  const real = dialect === 'real';
  const { note, expiresAt, isPremium } = batch.shared;
  const head = Buffer.from(`${prefix}[`);
  const open = Buffer.from(real ? '{"value":"' : '{"id":"');
  const mid = Buffer.from(real ? '' : '","value":"');
  const tail = Buffer.from(`",${JSON.stringify(real ? { note, expiresAt, isPremium } : batch.shared).slice(1)}`);
  const end = Buffer.from(`]${suffix}`);
  // Public ids are made as each key is written, not all first: 100,000 strings kept for the whole answer would
  // outlive the sandbox's process's young generation and grow it.
  const publicId = (i: number): string => (real ? '' : keyPublicId(batch.ids[i] ?? 0));
  const count = batch.ids.length;
  const values = batch.values.bytes;
  const itemBytes = (i: number) => open.length + publicId(i).length + mid.length + KEY_LENGTH + tail.length;
  let length = head.length + end.length + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) length += itemBytes(i);

  function* chunks(into: ChunkBuffer = (size) => Buffer.allocUnsafe(size)): Generator<Buffer> {
    let i = 0;
    let first = true;
    while (first || i < count) {
      // Size this chunk exactly, then fill it.
      let size = first ? head.length : 0;
      let j = i;
      while (j < count && (size < chunkBytes || j === i)) {
        size += itemBytes(j) + (j > 0 ? 1 : 0);
        j++;
      }
      const last = j >= count;
      if (last) size += end.length;
      const out = into(size);
      let at = 0;
      if (first) {
        out.set(head, 0);
        at = head.length;
      }
      for (; i < j; i++) {
        if (i > 0) out[at++] = 0x2c; // ,
        out.set(open, at);
        at += open.length;
        const id = publicId(i);
        for (let c = 0; c < id.length; c++) out[at++] = id.charCodeAt(c);
        out.set(mid, at);
        at += mid.length;
        values.copy(out, at, i * KEY_LENGTH, (i + 1) * KEY_LENGTH);
        at += KEY_LENGTH;
        out.set(tail, at);
        at += tail.length;
      }
      if (last) out.set(end, at);
      first = false;
      yield out;
    }
  }
  return { length, chunks };
}

/** The whole of batchJsonChunks in one buffer. */
export function batchJsonBytes(batch: GeneratedBatch, prefix = '', suffix = ''): Buffer {
  return Buffer.concat([...batchJsonChunks(batch, prefix, suffix).chunks()]);
}

/**
 * Keys inserted per statement: 2,048 values are 66 KB of JSON text, small enough to be made, bound and parsed
 * again and again in the same few blocks of memory.
 */
const INSERT_PART = 2_048;

export class Batches extends ServiceScoped {
  private noteId(serviceId: number, note: string): number {
    this.db.run('INSERT INTO notes (service_id, text) VALUES (?, ?) ON CONFLICT (service_id, text) DO NOTHING', serviceId, note);
    const row = this.db.get<{ id: number }>('SELECT id FROM notes WHERE service_id = ? AND text = ?', serviceId, note);
    if (!row) throw new Error('The note just written is missing.');
    return row.id;
  }

  /** Generates one batch in one transaction: all of it is written, or none. */
  generate(serviceId: number, params: GenerateParams): GeneratedBatch {
    const now = this.now();
    const expiresAt = params.expiresByDaysKey ? null : endOfUtcDay(params.expire);
    const daysKey = params.expiresByDaysKey ? params.daysKey : null;
    // Every key of a batch shares all fields but id and value (field order is the wire's).
    const shared: BatchShared = {
      note: params.note,
      status: 'generated',
      isPremium: params.isPremium,
      expire: expiresAt === null ? null : params.expire,
      expiresByDaysKey: params.expiresByDaysKey,
      daysKey,
      expiresAt: iso(expiresAt),
      hwid: null,
      createdAt: iso(now) as string,
      activatedAt: null,
      lastResetAt: null,
      serviceId: this.services.publicId(serviceId),
    };
    const premium = params.isPremium ? 1 : 0;
    const byDays = params.expiresByDaysKey ? 1 : 0;
    const batch = this.db.transaction(() => {
      const noteId = this.noteId(serviceId, params.note);
      for (let attempt = 1; ; attempt++) {
        const block = generateKeyBlock(params.count);
        let last: number;
        try {
          // One attempt is all or nothing: a later part refused takes the parts before it back with it.
          last = this.db.savepoint('generate_batch', () => {
            let lastId = 0;
            // A statement per part inserts it from a JSON array: the per-row work stays inside SQLite, and no
            // part's text is large (one text of the whole batch, 3.3 MB per 100,000 keys, was made, copied for
            // SQLite twice and parsed there: 15 MB of short-lived allocations that left holes in the process's
            // malloc heap, which an embedded sandbox's process keeps).
            for (let from = 0; from < block.count; from += INSERT_PART) {
              const inserted = this.db.run(
                `INSERT INTO keys (service_id, value, note_id, status, is_premium, expires_by_days, days_key, expires_at, created_at)
                 SELECT ?, j.value, ?, 0, ?, ?, ?, ?, ? FROM json_each(?) AS j`,
                serviceId,
                noteId,
                premium,
                byDays,
                daysKey,
                expiresAt,
                now,
                block.json(from, from + INSERT_PART),
              );
              lastId = Number(inserted.lastInsertRowid);
            }
            return lastId;
          });
        } catch (error) {
          // A repeated 125-bit value is never expected; the attempt alone was undone, so draw again (while the
          // transaction is still there: after an error that ended it, there is nothing to retry in).
          if (isUniqueViolation(error) && attempt < 3 && this.db.inTransaction()) continue;
          throw error;
        }
        return { shared, ids: this.batchIds(block, last), values: block };
      }
    });
    this.db.wrote(params.count);
    return batch;
  }

  /**
   * Ids of a batch just inserted, in order. SQLite gives rows inserted one after another in one transaction
   * consecutive rowids; that is checked at both ends, and the ids are read back by value should it ever not hold.
   */
  private batchIds(block: KeyValueBlock, last: number): number[] {
    const first = last - block.count + 1;
    const idOf = (i: number) => this.db.get<{ id: number }>('SELECT id FROM keys WHERE value = ?', block.value(i))?.id;
    if (idOf(0) === first && idOf(block.count - 1) === last) {
      return Array.from({ length: block.count }, (_, i) => first + i);
    }
    const ids: number[] = [];
    for (let from = 0; from < block.count; from += INSERT_PART) {
      const part = block.json(from, from + INSERT_PART);
      for (const r of this.db.all<{ id: number }>(
        'SELECT k.id FROM json_each(?) AS j JOIN keys k ON k.value = j.value ORDER BY j.key',
        part,
      ))
        ids.push(r.id);
    }
    return ids;
  }
}
