// A batch of keys in a compact shape: what keys.generate answers. The keys of one generate request share almost
// every field (note, expiry, premium, creation time, service), so a batch is their values, each shared field
// stated once, and only the fields that differ from key to key as columns. 100,000 generated keys are then a
// list of values and a few strings to main and over IPC, not 100,000 objects; keyAt / keysOf give Keys back.
import type { Key, UnreportedKeyField } from './domain.ts';

/** Every field of a Key but its value; `unreported` always present (empty: every field was reported). */
export interface KeyFields extends Omit<Key, 'value' | 'unreported'> {
  unreported: readonly UnreportedKeyField[];
}
export type KeyFieldName = keyof KeyFields;

export interface KeyBatch {
  /** The keys' values, in the order the service listed them. */
  values: string[];
  /** The fields every key of the batch has alike. */
  same: Partial<KeyFields>;
  /** The fields that differ between keys: one entry per key, in the order of `values`. */
  each: { [F in KeyFieldName]?: KeyFields[F][] };
}

/** Each field of KeyFields once (a field added to Key and not listed here does not compile): a batch states every one, in `same` or `each`. */
const FIELD_SET: Record<KeyFieldName, true> = {
  id: true,
  note: true,
  status: true,
  isPremium: true,
  expire: true,
  expiresByDaysKey: true,
  daysKey: true,
  expiresAt: true,
  hwid: true,
  createdAt: true,
  activatedAt: true,
  lastResetAt: true,
  serviceId: true,
  unreported: true,
};
export const KEY_FIELDS = Object.keys(FIELD_SET) as readonly KeyFieldName[];

const NONE: readonly UnreportedKeyField[] = [];

function fieldOf<F extends KeyFieldName>(key: Key, field: F): KeyFields[F] {
  // Key and KeyFields differ only in `unreported` (optional there): every other field reads as it is.
  if (field === 'unreported') return (key.unreported ?? NONE) as KeyFields[F];
  return (key as unknown as KeyFields)[field];
}

function alike(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

/**
 * Builds a batch one key at a time (the ledger writer reads a 100,000-key answer key by key, holding none of
 * them whole): a field stays in `same` until a key differs, then becomes a column.
 */
export class KeyBatchBuilder {
  private readonly values: string[] = [];
  private readonly same: Partial<Record<KeyFieldName, unknown>> = {};
  private readonly each: Partial<Record<KeyFieldName, unknown[]>> = {};

  add(key: Key): void {
    const n = this.values.length;
    this.values.push(key.value);
    for (const field of KEY_FIELDS) {
      const value = fieldOf(key, field);
      const column = this.each[field];
      if (column) column.push(value);
      else if (n === 0) this.same[field] = value;
      // Once a column, `same` keeps the first key's value unused (batch() leaves it out).
      else if (!alike(this.same[field], value)) {
        // The first key that differs: the field becomes a column, the keys before it all had the shared value.
        const before = this.same[field];
        this.each[field] = [...Array.from({ length: n }, () => before), value];
      }
    }
  }

  get size(): number {
    return this.values.length;
  }

  /** The batch so far. Each value was read from its own field, so the wider views above hold each field's type. */
  batch(): KeyBatch {
    const same: Partial<Record<KeyFieldName, unknown>> = {};
    for (const field of KEY_FIELDS) if (!this.each[field] && this.values.length > 0) same[field] = this.same[field];
    return { values: this.values, same: same as Partial<KeyFields>, each: this.each as KeyBatch['each'] };
  }
}

/** The batch of these keys (in their order); keyAt(toKeyBatch(keys), i) equals keys[i]. */
export function toKeyBatch(keys: readonly Key[]): KeyBatch {
  const builder = new KeyBatchBuilder();
  for (const key of keys) builder.add(key);
  return builder.batch();
}

function fieldAt<F extends KeyFieldName>(batch: KeyBatch, i: number, field: F): KeyFields[F] {
  const column = batch.each[field];
  const value = column ? column[i] : batch.same[field];
  if (value === undefined) throw new Error(`A key batch without its ${field} field for key ${i}.`);
  return value;
}

/** The i-th key of a batch, as the service described it. */
export function keyAt(batch: KeyBatch, i: number): Key {
  const value = batch.values[i];
  if (value === undefined) throw new RangeError(`A key batch of ${batch.values.length} has no key ${i}.`);
  const unreported = fieldAt(batch, i, 'unreported');
  const key: Key = {
    id: fieldAt(batch, i, 'id'),
    value,
    note: fieldAt(batch, i, 'note'),
    status: fieldAt(batch, i, 'status'),
    isPremium: fieldAt(batch, i, 'isPremium'),
    expire: fieldAt(batch, i, 'expire'),
    expiresByDaysKey: fieldAt(batch, i, 'expiresByDaysKey'),
    daysKey: fieldAt(batch, i, 'daysKey'),
    expiresAt: fieldAt(batch, i, 'expiresAt'),
    hwid: fieldAt(batch, i, 'hwid'),
    createdAt: fieldAt(batch, i, 'createdAt'),
    activatedAt: fieldAt(batch, i, 'activatedAt'),
    lastResetAt: fieldAt(batch, i, 'lastResetAt'),
    serviceId: fieldAt(batch, i, 'serviceId'),
  };
  return unreported.length > 0 ? { ...key, unreported: [...unreported] } : key;
}

/** Every key of a batch (for a few; a large batch is best read by value or with keyAt). */
export function keysOf(batch: KeyBatch): Key[] {
  return batch.values.map((_, i) => keyAt(batch, i));
}
