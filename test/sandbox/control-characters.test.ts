// Control characters (every code point below U+0020) in every text parameter: never a 5xx. NUL is refused
// with a clear 400 INVALID_INPUT (SQLite's text functions and FTS5 end a string there); every other control
// character is data, and a search for a term holding it finds exactly the notes that contain it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireKey } from '../../src/shared/wire.ts';
import { failure, futureDate, get, postJson, uniqueNote } from './api.ts';
import { openTarget, type Target } from './target.ts';

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

const CONTROL = Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c));
const name = (ch: string): string => `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
const plain = fc
  .array(fc.constantFrom('a', 'b', 'c', 'x', 'y', 'z', '0', '1', '9', ' ', '-', '_'), { minLength: 0, maxLength: 6 })
  .map((a) => a.join(''));

/** One request per text parameter of the contract, each holding `text`. */
function everyTextParameter(text: string): { label: string; run: () => ReturnType<typeof get> }[] {
  return [
    { label: 'key/fetch fetch', run: () => get(t, '/api/key/fetch', { fetch: text }) },
    { label: 'generated-key/fetch fetch', run: () => get(t, '/api/generated-key/fetch', { fetch: text }) },
    { label: 'keyless/fetch fetch', run: () => get(t, '/api/keyless/fetch', { fetch: text }) },
    { label: 'identifier-check identifier', run: () => get(t, '/api/identifier-check', { identifier: text }) },
    { label: 'key/delete keyValue (JSON)', run: () => postJson(t, '/api/key/delete', { keyValue: text }) },
    { label: 'reset-hwid keyValue (JSON)', run: () => postJson(t, '/api/reset-hwid', { keyValue: text }) },
    { label: 'keyless/delete hwid (JSON)', run: () => postJson(t, '/api/keyless/delete', { hwid: text }) },
    {
      label: 'generate note (JSON)',
      run: () => postJson(t, '/api/generate-key/post', { expire: futureDate(), count: 1, isPremium: false, note: text }),
    },
    { label: 'validation key', run: () => get(t, '/v2_validation', { key: text, service: t.service, hwid: 'H' }, false) },
    { label: 'validation hwid', run: () => get(t, '/v2_validation', { key: 'K', service: t.service, hwid: text }, false) },
    { label: 'validation service', run: () => get(t, '/v2_validation', { key: 'K', service: text, hwid: 'H' }, false) },
  ];
}

describe('control characters in text parameters', () => {
  it('never give a 5xx for any code point below U+0020', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CONTROL), plain, plain, fc.nat(10), async (ch, before, after, which) => {
        const text = `${before}${ch}${after}`;
        const request = everyTextParameter(text)[which % 11];
        if (!request) throw new Error('no request');
        const res = await request.run();
        expect(res.status, `${request.label} with ${name(ch)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        if (ch === '\u0000' && t.local) {
          expect(res.status, request.label).toBe(400);
          const { code, message } = failure(res);
          expect(code).toBe('INVALID_INPUT');
          expect(message).toMatch(/must not contain the NUL character \(U\+0000\)/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuse NUL with 400 INVALID_INPUT naming the parameter', async (ctx) => {
    if (!t.local) ctx.skip();
    for (const request of everyTextParameter('ab\u0000cd')) {
      const res = await request.run();
      expect(res.status, request.label).toBe(400);
      expect(failure(res).message, request.label).toMatch(/^\w+ must not contain the NUL character \(U\+0000\)\.$/);
    }
  });

  it('are found by a search term holding them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CONTROL.slice(1)), plain, plain, async (ch, before, after) => {
        // A unique tag keeps other tests' notes out of the long-term result.
        const tag = uniqueNote('cc').replaceAll(' ', '');
        const note = `${tag}${before}${ch}${after}!`;
        const gen = await postJson(t, '/api/generate-key/post', { expire: futureDate(), count: 1, isPremium: false, note });
        expect(gen.status, gen.text.slice(0, 200)).toBe(201);
        const [key] = gen.json.generatedKeys as WireKey[];
        expect(key?.note).toBe(note);
        // A long term (trigram index) and a short one (the short-term path), both holding the control character.
        for (const term of [`${tag}${before}${ch}${after}`, `${before.slice(-1)}${ch}`]) {
          const res = await get(t, '/api/generated-key/fetch', { fetch: term, limit: 1000 });
          expect(res.status, `${name(ch)} in ${JSON.stringify(term)}`).toBe(200);
          const found = (res.json.generatedKeys as WireKey[]).map((k) => k.value);
          if (term.startsWith(tag)) expect(found).toEqual([key?.value]);
          else expect(found).toContain(key?.value);
          for (const k of res.json.generatedKeys as WireKey[]) expect(k.note.toLowerCase()).toContain(term.toLowerCase());
        }
      }),
      { numRuns: 64 },
    );
  });
});
