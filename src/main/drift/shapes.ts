// Answer shapes for the drift watch: each field's path and JSON type (never its value), what wire.md documents for
// the reads the watch makes, and the difference between two shapes in fields gained, lost and retyped.

/** A field path (`key.hwid`, `keys[].value`) → its JSON type: string, number, boolean, null, object or array. */
export type Shape = Record<string, string>;

/** The reads the watch makes, each read-only. */
export type DriftCheck = 'executionCount' | 'keyLookup' | 'generatedKeyLookup' | 'identifierCheck';

export const CHECK_WORDS: Record<DriftCheck, string> = {
  executionCount: 'the execution count',
  keyLookup: 'a lookup of an active key',
  generatedKeyLookup: 'a lookup of a generated key',
  identifierCheck: 'the identifier check',
};

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every field path of a JSON value with its type; an array's elements are merged under `name[]`. */
export function shapeOf(value: unknown, prefix = '', out: Shape = {}): Shape {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'object' && item !== null) shapeOf(item, `${prefix}[].`, out);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const path = `${prefix}${k}`;
      // null says nothing of a field's type: a nullable field keeps the type it was seen with.
      if (!(path in out) || out[path] === 'null') out[path] = typeOf(v);
      shapeOf(v, Array.isArray(v) ? path : `${path}.`, out);
    }
  }
  return out;
}

const REAL_KEY: Shape = {
  id: 'string',
  value: 'string',
  note: 'string',
  hwid: 'string',
  expiresAt: 'string',
  isPremium: 'boolean',
  lastResetAt: 'string',
  serviceId: 'string',
};
const nested = (name: string, fields: Shape): Shape => ({
  [name]: 'object',
  ...Object.fromEntries(Object.entries(fields).map(([k, t]) => [`${name}.${k}`, t])),
});

/** wire.md's real-dialect bodies of the reads the watch makes (a documented nullable field may also be null). */
export const DOCUMENTED: Record<DriftCheck, Shape> = {
  executionCount: { executionCount: 'number' },
  keyLookup: nested('key', REAL_KEY),
  generatedKeyLookup: nested('generatedKey', { id: 'string', value: 'string', note: 'string', expiresAt: 'string', isPremium: 'boolean' }),
  identifierCheck: { message: 'string', service: 'string' },
};

/** What Keydesk cannot read without a documented field, for "says what it can no longer read". */
const READS: Record<string, string> = {
  executionCount: 'the execution count',
  'key.value': "an active key's value",
  'key.hwid': "an active key's HWID",
  'key.expiresAt': "an active key's expiry",
  'key.isPremium': 'whether an active key is premium',
  'key.note': "an active key's note",
  'key.lastResetAt': "when an active key's HWID was last reset",
  'generatedKey.value': "a generated key's value",
  'generatedKey.expiresAt': "a generated key's expiry",
  'generatedKey.isPremium': 'whether a generated key is premium',
  'generatedKey.note': "a generated key's note",
  service: 'which service holds an identifier',
};

export interface ShapeDiff {
  gained: string[];
  lost: string[];
  /** `path: before → after`. */
  retyped: string[];
}

/** The fields `after` has that `before` lacks, the reverse, and those whose type changed (null matches any type). */
export function diffShapes(before: Shape, after: Shape): ShapeDiff {
  const gained = Object.keys(after).filter((p) => !(p in before));
  const lost = Object.keys(before).filter((p) => !(p in after));
  const retyped = Object.keys(after)
    .filter((p) => p in before && before[p] !== after[p] && before[p] !== 'null' && after[p] !== 'null')
    .map((p) => `${p}: ${before[p] ?? ''} → ${after[p] ?? ''}`);
  return { gained: gained.sort(), lost: lost.sort(), retyped: retyped.sort() };
}

export const sameShape = (d: ShapeDiff): boolean => d.gained.length + d.lost.length + d.retyped.length === 0;

/** What Keydesk can no longer read from an answer of this shape: documented fields missing or of another type. */
export function unreadable(check: DriftCheck, shape: Shape): string[] {
  const { lost, retyped } = diffShapes(DOCUMENTED[check], shape);
  const fields = [...lost, ...retyped.map((r) => r.split(':')[0] ?? r)];
  return fields.filter((f) => READS[f] !== undefined).map((f) => `${READS[f] ?? f} (${f})`);
}
