// A batch of keys in a compact shape (what keys.generate answers): shared fields stated once, differing fields
// as columns of JSON bytes that cross threads and IPC as a few buffers rather than 100,000 objects.
import type { Key, UnreportedKeyField } from './domain.ts';

/** Every field of a Key but its value; `unreported` always present (empty: every field was reported), any machine null when not said. */
export interface KeyFields extends Omit<Key, 'value' | 'unreported' | 'noHwidValidation'> {
  unreported: readonly UnreportedKeyField[];
  noHwidValidation: boolean | null;
}
export type KeyFieldName = keyof KeyFields;

/** The JSON text of a T (JSON.stringify of it): typed, so only fromJson reads it, as a T. */
declare const jsonOf: unique symbol;
export type JsonText<T> = string & { readonly [jsonOf]: T };
export const toJson = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;
export const fromJson = <T>(text: JsonText<T>): T => JSON.parse(text) as T;

/** The UTF-8 bytes of a T's JSON text: typed, so only fromJsonBytes (or jsonTextOf) reads them, as a T. */
export type JsonBytes<T> = Uint8Array & { readonly [jsonOf]: T };
const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const toJsonBytes = <T>(value: T): JsonBytes<T> => encoder.encode(JSON.stringify(value)) as JsonBytes<T>;
/** The JSON text the bytes hold (for a statement that reads JSON text, say). */
export const jsonTextOf = <T>(bytes: JsonBytes<T>): JsonText<T> => decoder.decode(bytes) as JsonText<T>;
export const fromJsonBytes = <T>(bytes: JsonBytes<T>): T => fromJson(jsonTextOf(bytes));

/** The batch as it crosses main and IPC. */
export interface KeyBatch {
  /** How many keys. */
  count: number;
  /** The keys' values, in the order the service listed them. */
  values: JsonBytes<string[]>;
  /** The fields every key of the batch has alike. */
  same: Partial<KeyFields>;
  /** The fields that differ between keys: one entry per key, in the order of `values`. */
  each: { [F in KeyFieldName]?: JsonBytes<KeyFields[F][]> };
}

/** A batch opened: its columns as arrays (where the keys are made whole: the ledger writer, the renderer). */
export interface KeyColumns {
  values: string[];
  same: Partial<KeyFields>;
  each: { [F in KeyFieldName]?: KeyFields[F][] };
}

/** Each field of KeyFields once (a Key field missing here does not compile). */
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
  noHwidValidation: true,
  unreported: true,
};
export const KEY_FIELDS = Object.keys(FIELD_SET) as readonly KeyFieldName[];

const NONE: readonly UnreportedKeyField[] = [];

function fieldOf<F extends KeyFieldName>(key: Key, field: F): KeyFields[F] {
  // Key and KeyFields differ only in `unreported` and any machine (optional there): every other field reads as it is.
  if (field === 'unreported') return (key.unreported ?? NONE) as KeyFields[F];
  if (field === 'noHwidValidation') return (key.noHwidValidation ?? null) as KeyFields[F];
  return (key as unknown as KeyFields)[field];
}

function alike(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

/** Every field but the id and value alike (plain comparisons: the batch's hot path). */
function alikeButId(a: Key, b: Key): boolean {
  return (
    a.note === b.note &&
    a.status === b.status &&
    a.isPremium === b.isPremium &&
    a.expire === b.expire &&
    a.expiresByDaysKey === b.expiresByDaysKey &&
    a.daysKey === b.daysKey &&
    a.expiresAt === b.expiresAt &&
    a.hwid === b.hwid &&
    a.createdAt === b.createdAt &&
    a.activatedAt === b.activatedAt &&
    a.lastResetAt === b.lastResetAt &&
    a.serviceId === b.serviceId &&
    (a.noHwidValidation ?? null) === (b.noHwidValidation ?? null) &&
    alike(a.unreported ?? NONE, b.unreported ?? NONE)
  );
}

/** Builds a batch one key at a time: a field stays in `same` until a key differs, then becomes a column. */
export class KeyBatchBuilder {
  private readonly values: string[] = [];
  private readonly same: Partial<Record<KeyFieldName, unknown>> = {};
  private readonly each: Partial<Record<KeyFieldName, unknown[]>> = {};

  /** The first key: the common case (every field alike but the id) is checked against it field by field. */
  private first: Key | null = null;
  /** No column yet but the ids': the common case applies. */
  private idsOnly = true;

  add(key: Key): void {
    const f = this.first;
    if (f !== null && this.idsOnly && alikeButId(key, f)) {
      const ids = this.each.id;
      if (ids) {
        ids.push(key.id);
        this.values.push(key.value);
        return;
      }
      if (key.id === f.id) {
        this.values.push(key.value);
        return;
      }
    }
    this.first ??= key;
    this.addField(key);
    this.idsOnly = KEY_FIELDS.every((field) => field === 'id' || this.each[field] === undefined);
  }

  private addField(key: Key): void {
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

  /** The batch so far, as a KeyBatch. */
  batch(): KeyBatch {
    return packColumns(this.columns());
  }

  /** The columns so far. */
  columns(): KeyColumns {
    const same: Partial<Record<KeyFieldName, unknown>> = {};
    for (const field of KEY_FIELDS) if (!this.each[field] && this.values.length > 0) same[field] = this.same[field];
    return { values: this.values, same: same as Partial<KeyFields>, each: this.each as KeyColumns['each'] };
  }
}

/** The batch of these keys (in their order); keyAt(toKeyBatch(keys), i) equals keys[i]. */
export function toKeyBatch(keys: readonly Key[]): KeyBatch {
  const builder = new KeyBatchBuilder();
  for (const key of keys) builder.add(key);
  return builder.batch();
}

/** The columns as they cross threads and IPC: each one the bytes of its JSON text. */
export function packColumns(columns: KeyColumns): KeyBatch {
  const each: Partial<Record<KeyFieldName, Uint8Array>> = {};
  for (const field of KEY_FIELDS) {
    const column = columns.each[field];
    if (column) each[field] = toJsonBytes(column);
  }
  return { count: columns.values.length, values: toJsonBytes(columns.values), same: columns.same, each: each as KeyBatch['each'] };
}

/** The buffers a batch's columns are in: a postMessage transfer list (the sender gives them up, nothing is copied). */
export function batchBuffers(batch: KeyBatch): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const column of [batch.values, ...Object.values(batch.each)]) {
    // TextEncoder's bytes are a whole ArrayBuffer of their own, never a view into a shared one.
    if (column.buffer instanceof ArrayBuffer && column.byteLength === column.buffer.byteLength) buffers.add(column.buffer);
  }
  return [...buffers];
}

/** A batch's columns as arrays (parses every column: open a batch once, then read its keys). */
export function openBatch(batch: KeyBatch): KeyColumns {
  const each: Partial<Record<KeyFieldName, unknown[]>> = {};
  for (const field of KEY_FIELDS) {
    const column = batch.each[field];
    if (column !== undefined) each[field] = fromJsonBytes<unknown[]>(column as JsonBytes<unknown[]>);
  }
  return { values: fromJsonBytes(batch.values), same: batch.same, each: each as KeyColumns['each'] };
}

/** The values of a batch's keys, in order. */
export const batchValues = (batch: KeyBatch): string[] => fromJsonBytes(batch.values);

function fieldAt<F extends KeyFieldName>(columns: KeyColumns, i: number, field: F): KeyFields[F] {
  const column = columns.each[field];
  const value = column ? column[i] : columns.same[field];
  if (value === undefined) throw new Error(`A key batch without its ${field} field for key ${i}.`);
  return value;
}

/** The i-th key of opened columns, as the service described it. */
export function keyOf(columns: KeyColumns, i: number): Key {
  const value = columns.values[i];
  if (value === undefined) throw new RangeError(`A key batch of ${columns.values.length} has no key ${i}.`);
  const unreported = fieldAt(columns, i, 'unreported');
  const key: Key = {
    id: fieldAt(columns, i, 'id'),
    value,
    note: fieldAt(columns, i, 'note'),
    status: fieldAt(columns, i, 'status'),
    isPremium: fieldAt(columns, i, 'isPremium'),
    expire: fieldAt(columns, i, 'expire'),
    expiresByDaysKey: fieldAt(columns, i, 'expiresByDaysKey'),
    daysKey: fieldAt(columns, i, 'daysKey'),
    expiresAt: fieldAt(columns, i, 'expiresAt'),
    hwid: fieldAt(columns, i, 'hwid'),
    createdAt: fieldAt(columns, i, 'createdAt'),
    activatedAt: fieldAt(columns, i, 'activatedAt'),
    lastResetAt: fieldAt(columns, i, 'lastResetAt'),
    serviceId: fieldAt(columns, i, 'serviceId'),
  };
  // Not said (null), or a batch made before the field existed (absent): the key leaves it out.
  const anyMachine = columns.each.noHwidValidation ? columns.each.noHwidValidation[i] : columns.same.noHwidValidation;
  const read = typeof anyMachine === 'boolean' ? { ...key, noHwidValidation: anyMachine } : key;
  return unreported.length > 0 ? { ...read, unreported: [...unreported] } : read;
}

/** The i-th key of a batch (opens it: for more than one key, keysOf or openBatch and keyOf). */
export const keyAt = (batch: KeyBatch, i: number): Key => keyOf(openBatch(batch), i);

/** Every key of a batch, in order. */
export function keysOf(batch: KeyBatch): Key[] {
  const columns = openBatch(batch);
  return columns.values.map((_, i) => keyOf(columns, i));
}
