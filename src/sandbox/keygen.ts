// Key values, public ids and apiKeys, all from the OS CSPRNG.
import { randomFillSync } from 'node:crypto';

// Crockford base32: no I, L, O or U, so a key read aloud or retyped is unambiguous, and every character is URL-safe.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 5;
const GROUP_LEN = 5;
/** Bits of entropy in one key value: 25 characters x 5 bits. */
export const KEY_ENTROPY_BITS = GROUPS * GROUP_LEN * 5;

const ALPHABET_CODES = Buffer.from(ALPHABET, 'latin1');
/** Characters in a key value, dashes included. */
export const KEY_LENGTH = GROUPS * GROUP_LEN + GROUPS - 1;
const DASH = 0x2d;
const QUOTE = 0x22;
const COMMA = 0x2c;

/** Key values as ASCII bytes `KEY_LENGTH` apart, sorted by their first 16 bits so inserts land on neighbouring index pages. */
export interface KeyValueBlock {
  readonly count: number;
  readonly bytes: Buffer;
  value(index: number): string;
  /** Values `from` to `to` (not included; all by default) as a JSON array of strings. */
  json(from?: number, to?: number): string;
}

/** `count` key values `XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`, 125 bits each from the OS CSPRNG. */
export function generateKeyBlock(count: number): KeyValueBlock {
  const random = randomFillSync(Buffer.allocUnsafe(count * 16));
  // Counting sort on the first 16 bits: O(n), and value order follows them.
  const lead = (k: number): number => ((random[k * 16] ?? 0) << 8) | (random[k * 16 + 1] ?? 0);
  const next = new Uint32Array(65_537); // next[b]: where the next value with leading bits b goes
  for (let k = 0; k < count; k++) next[lead(k) + 1] = (next[lead(k) + 1] ?? 0) + 1;
  for (let b = 1; b <= 65_536; b++) next[b] = (next[b] ?? 0) + (next[b - 1] ?? 0);
  const order = new Uint32Array(count);
  for (let k = 0; k < count; k++) {
    const b = lead(k);
    const slot = next[b] ?? 0;
    order[slot] = k;
    next[b] = slot + 1;
  }

  const bytes = Buffer.allocUnsafe(count * KEY_LENGTH);
  for (let slot = 0; slot < count; slot++) {
    let at = (order[slot] ?? 0) * 16;
    let w = slot * KEY_LENGTH;
    let acc = 0;
    let bits = 0;
    for (let c = 0; c < GROUPS * GROUP_LEN; c++) {
      if (bits < 5) {
        acc = ((acc << 8) | (random[at++] ?? 0)) & 0xffff;
        bits += 8;
      }
      bits -= 5;
      bytes[w++] = ALPHABET_CODES[(acc >> bits) & 31] ?? 0;
      if (c % GROUP_LEN === GROUP_LEN - 1 && c < GROUPS * GROUP_LEN - 1) bytes[w++] = DASH;
    }
  }
  return {
    count,
    bytes,
    value: (i) => bytes.toString('latin1', i * KEY_LENGTH, (i + 1) * KEY_LENGTH),
    json: (from = 0, to = count) => {
      const stride = KEY_LENGTH + 3;
      const n = Math.max(0, Math.min(to, count) - from);
      const out = Buffer.allocUnsafe(Math.max(2, n * stride + 1));
      out[0] = 0x5b; // [
      for (let k = 0; k < n; k++) {
        const i = from + k;
        const w = k * stride + 1;
        out[w] = QUOTE;
        bytes.copy(out, w + 1, i * KEY_LENGTH, (i + 1) * KEY_LENGTH);
        out[w + KEY_LENGTH + 1] = QUOTE;
        out[w + KEY_LENGTH + 2] = COMMA;
      }
      out[out.length - 1] = 0x5d; // ] (replaces the last comma, or closes an empty array)
      return out.toString('latin1');
    },
  };
}

/** Key values as strings (tests, and callers that need a few). */
export function generateKeyValues(count: number): string[] {
  const block = generateKeyBlock(count);
  return Array.from({ length: count }, (_, i) => block.value(i));
}

const ID_ALPHABET = ALPHABET.toLowerCase();
/** A short random public id (60 bits), e.g. `svc_4k2m9x0q7d1z`. */
export function publicId(prefix: string): string {
  const bytes = randomFillSync(Buffer.allocUnsafe(12));
  let s = prefix;
  for (const b of bytes) s += ID_ALPHABET.charAt(b & 31);
  return s;
}

/** A new service apiKey: 256 bits, URL-safe. */
export const newApiKey = (): string => 'kd_' + randomFillSync(Buffer.allocUnsafe(32)).toString('base64url');
