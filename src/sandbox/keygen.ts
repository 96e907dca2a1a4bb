import { randomFillSync } from 'node:crypto';

// Crockford base32: no I, L, O or U, so a key read aloud or retyped is unambiguous, and every character is URL-safe.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 5;
const GROUP_LEN = 5;
/** Bits of entropy in one key value: 25 characters x 5 bits. */
export const KEY_ENTROPY_BITS = GROUPS * GROUP_LEN * 5;

/** `count` key values `XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`, 125 bits each from the OS CSPRNG. */
export function generateKeyValues(count: number): string[] {
  const bytes = randomFillSync(Buffer.allocUnsafe(count * 16));
  const out = new Array<string>(count);
  for (let k = 0; k < count; k++) {
    let acc = 0;
    let bits = 0;
    let at = k * 16;
    let s = '';
    for (let c = 0; c < GROUPS * GROUP_LEN; c++) {
      if (bits < 5) {
        acc = ((acc << 8) | (bytes[at++] ?? 0)) & 0xffff;
        bits += 8;
      }
      bits -= 5;
      s += ALPHABET.charAt((acc >> bits) & 31);
      if (c % GROUP_LEN === GROUP_LEN - 1 && c < GROUPS * GROUP_LEN - 1) s += '-';
    }
    out[k] = s;
  }
  return out;
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
export function newApiKey(): string {
  return 'kd_' + randomFillSync(Buffer.allocUnsafe(32)).toString('base64url');
}
