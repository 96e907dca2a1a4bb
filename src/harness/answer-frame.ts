// How the harness writes an operation's answer and the page reads it back: JSON, or, for byte columns (a
// KeyBatch's), a JSON head followed by the bytes as they are. Runs in the browser too: no Node APIs.

/** The content type of a framed answer; a plain one is application/json. */
export const FRAMED_ANSWER_TYPE = 'application/vnd.keydesk.answer';
/** In a framed answer's head, an object of this one key stands for a Uint8Array: [offset, length] of its bytes. */
const BYTES_KEY = 'keydesk.bytes';
/** The head's length, a 32-bit big-endian count of bytes, comes first. */
const PREFIX_BYTES = 4;

export type EncodedAnswer = { kind: 'json'; text: string } | { kind: 'framed'; chunks: Uint8Array[]; length: number };

/** The answer as the harness writes it: plain JSON when it holds no bytes, framed when it does. */
export function encodeAnswer(answer: unknown): EncodedAnswer {
  const parts: Uint8Array[] = [];
  let at = 0;
  const head = JSON.stringify(answer, (_key, value: unknown) => {
    if (!(value instanceof Uint8Array)) return value;
    parts.push(value);
    const place = { [BYTES_KEY]: [at, value.byteLength] };
    at += value.byteLength;
    return place;
  });
  if (parts.length === 0) return { kind: 'json', text: head };
  const headBytes = new TextEncoder().encode(head);
  const prefix = new Uint8Array(PREFIX_BYTES);
  new DataView(prefix.buffer).setUint32(0, headBytes.byteLength);
  return { kind: 'framed', chunks: [prefix, headBytes, ...parts], length: PREFIX_BYTES + headBytes.byteLength + at };
}

function placeOf(value: unknown): [number, number] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== BYTES_KEY) return null;
  const place: unknown = (value as Record<string, unknown>)[BYTES_KEY];
  if (!Array.isArray(place) || place.length !== 2 || !place.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) return null;
  return place as [number, number];
}

/** A framed answer's value, its byte columns as views of `body` (nothing is copied); throws if it is not one. */
export function decodeFramedAnswer(body: ArrayBuffer): unknown {
  if (body.byteLength < PREFIX_BYTES) throw new Error('A framed answer shorter than its head length.');
  const headLength = new DataView(body).getUint32(0);
  const base = PREFIX_BYTES + headLength;
  if (base > body.byteLength) throw new Error('A framed answer shorter than its head.');
  const head = new TextDecoder().decode(new Uint8Array(body, PREFIX_BYTES, headLength));
  return JSON.parse(head, (_key, value: unknown) => {
    const place = placeOf(value);
    if (place === null) return value;
    const [offset, length] = place;
    if (base + offset + length > body.byteLength) throw new Error('A framed answer shorter than the bytes its head names.');
    return new Uint8Array(body, base + offset, length);
  });
}

/** What readAnswer needs of a fetch Response. */
export interface AnswerResponse {
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** An answer the harness wrote (encodeAnswer), read back. */
export async function readAnswer(res: AnswerResponse): Promise<unknown> {
  return res.headers.get('content-type') === FRAMED_ANSWER_TYPE ? decodeFramedAnswer(await res.arrayBuffer()) : res.json();
}
