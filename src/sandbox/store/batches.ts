// Key batches: one generate request writes its whole batch in one transaction, and its answer is serialised
// without building a key object per key.
import { endOfUtcDay } from '../../shared/rules.ts';
import type { WireKey } from '../../shared/wire.ts';
import { generateKeyBlock, KEY_LENGTH, type KeyValueBlock } from '../keygen.ts';
import type { Db } from './db.ts';
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
  /** Validates on any machine, never bound (default false). */
  noHwidValidation?: boolean;
}

type BatchShared = Omit<WireKey, 'id' | 'value'>;

/** A generated batch, kept compact: 100,000 keys differ only in id and value. */
export interface GeneratedBatch {
  shared: BatchShared;
  /** Row ids; the public id is keyPublicId(row id). */
  ids: number[];
  values: KeyValueBlock;
}

export function batchKeys(batch: GeneratedBatch): WireKey[] {
  return batch.ids.map((id, i) => ({ id: keyPublicId(id), value: batch.values.value(i), ...batch.shared }));
}

/** Where a chunk is written: a new buffer by default, or one the caller reuses once it has sent the last. */
export type ChunkBuffer = (size: number) => Buffer;

/**
 * `prefix` + the batch as a JSON array + `suffix` in chunks of about `chunkBytes`, byte-identical to JSON.stringify
 * of batchKeys (or the real dialect's objects); the length is known up front. Ids and values never need escaping.
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
  // Made per key as written: 100,000 strings held for the whole answer would grow the old generation.
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

/** Keys inserted per statement: 66 KB of JSON text, reused in the same few blocks of memory. */
const INSERT_PART = 2_048;

/** The id of a note's text for a service, stored once per text; call inside a transaction. */
export function noteIdOf(db: Db, serviceId: number, note: string): number {
  db.run('INSERT INTO notes (service_id, text) VALUES (?, ?) ON CONFLICT (service_id, text) DO NOTHING', serviceId, note);
  const row = db.get<{ id: number }>('SELECT id FROM notes WHERE service_id = ? AND text = ?', serviceId, note);
  if (!row) throw new Error('The note just written is missing.');
  return row.id;
}

export class Batches extends ServiceScoped {
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
      noHwidValidation: params.noHwidValidation ?? false,
    };
    const premium = params.isPremium ? 1 : 0;
    const byDays = params.expiresByDaysKey ? 1 : 0;
    const anyMachine = shared.noHwidValidation ? 1 : 0;
    const batch = this.db.transaction(() => {
      const noteId = noteIdOf(this.db, serviceId, params.note);
      for (let attempt = 1; ; attempt++) {
        const block = generateKeyBlock(params.count);
        let last: number;
        try {
          // One attempt is all or nothing: a later part refused takes the parts before it back with it.
          last = this.db.savepoint('generate_batch', () => {
            let lastId = 0;
            // Each part is inserted from a JSON array: per-row work stays in SQLite, and no one text is large
            // enough to fragment the malloc heap an embedded sandbox keeps.
            for (let from = 0; from < block.count; from += INSERT_PART) {
              const inserted = this.db.run(
                `INSERT INTO keys (service_id, value, note_id, status, is_premium, expires_by_days, days_key, expires_at, created_at,
                   no_hwid_validation)
                 SELECT ?, j.value, ?, 0, ?, ?, ?, ?, ?, ? FROM json_each(?) AS j`,
                serviceId,
                noteId,
                premium,
                byDays,
                daysKey,
                expiresAt,
                now,
                anyMachine,
                block.json(from, from + INSERT_PART),
              );
              lastId = Number(inserted.lastInsertRowid);
            }
            return lastId;
          });
        } catch (error) {
          // A repeated 125-bit value is never expected; draw again if the transaction survived the error.
          if (isUniqueViolation(error) && attempt < 3 && this.db.inTransaction()) continue;
          throw error;
        }
        return { shared, ids: this.batchIds(block, last), values: block };
      }
    });
    this.db.wrote(params.count);
    return batch;
  }

  /** Ids of a batch just inserted, in order: consecutive rowids, checked at both ends, else read back by value. */
  private batchIds(block: KeyValueBlock, last: number): number[] {
    const first = last - block.count + 1;
    const idOf = (i: number) => this.db.get<{ id: number }>('SELECT id FROM keys WHERE value = ?', block.value(i))?.id;
    if (idOf(0) === first && idOf(block.count - 1) === last) return Array.from({ length: block.count }, (_, i) => first + i);
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
