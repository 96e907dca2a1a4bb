// JSON text in pieces, for answers too large to build as one string: a generate of 100,000 keys answers with
// about 16 MB of JSON. Built whole, that string, and the buffer the socket write copies it into, are two large
// short-lived allocations that outlast the answer in the process's memory (V8's large-object space, and the
// malloc arena) until the next garbage collection. In pieces, each is a few tens of KiB.

/** Arrays longer than this are written element by element; anything smaller is one JSON.stringify. */
const SPLIT_ARRAYS_OVER = 256;

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** Whether `v` holds an array worth splitting, anywhere inside plain objects and arrays. */
function holdsLargeArray(v: unknown, depth = 0): boolean {
  if (typeof v !== 'object' || v === null || depth > 8) return false;
  if (Array.isArray(v)) return v.length > SPLIT_ARRAYS_OVER || v.some((e) => holdsLargeArray(e, depth + 1));
  if (!isPlainObject(v) || 'toJSON' in v) return false;
  return Object.values(v).some((e) => holdsLargeArray(e, depth + 1));
}

/**
 * Pieces whose concatenation is exactly `JSON.stringify(value)` (for what JSON can say: plain objects, arrays,
 * strings, numbers, booleans, null; a value with toJSON or another prototype is stringified whole). Each piece
 * is at most about `pieceChars` long, except a single array element or value that is larger on its own.
 */
export function* jsonChunks(value: unknown, pieceChars = 64 * 1024): Generator<string> {
  let pending = '';
  function* put(text: string): Generator<string> {
    pending += text;
    if (pending.length >= pieceChars) {
      yield pending;
      pending = '';
    }
  }
  function* walk(v: unknown): Generator<string> {
    if (!holdsLargeArray(v)) {
      // Undefined only at the top (inside arrays and objects the callers below decide how it is written), where
      // JSON.stringify gives no text at all.
      const text = JSON.stringify(v) as string | undefined;
      if (text !== undefined) yield* put(text);
      return;
    }
    if (Array.isArray(v)) {
      yield* put('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) yield* put(',');
        const e: unknown = v[i];
        // As JSON.stringify writes an array element it cannot represent.
        if (e === undefined || typeof e === 'function' || typeof e === 'symbol') yield* put('null');
        else yield* walk(e);
      }
      yield* put(']');
      return;
    }
    yield* put('{');
    let first = true;
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) {
      // As JSON.stringify skips a property it cannot represent.
      if (e === undefined || typeof e === 'function' || typeof e === 'symbol') continue;
      yield* put(`${first ? '' : ','}${JSON.stringify(k)}:`);
      first = false;
      yield* walk(e);
    }
    yield* put('}');
  }
  yield* walk(value);
  if (pending !== '') yield pending;
}
