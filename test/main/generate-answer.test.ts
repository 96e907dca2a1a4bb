// A generate answer read off main (src/main/store/generate-answer.ts, on the ledger writer's thread): the real
// sandbox's answers in both dialects give exactly the keys the client's plain reading gives (JSON.parse, then
// readKeys), the writer records them, and odd bodies are read as JSON.parse reads them.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { isObject, readKeys } from '../../src/main/client/read.ts';
import { readGenerateAnswer } from '../../src/main/store/generate-answer.ts';
import { Writer } from '../../src/main/store/writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { keysOf, packColumns } from '../../src/shared/key-batch.ts';
import type { Key } from '../../src/shared/domain.ts';
import { DETAIL_FULL, DETAIL_HEADER, ROUTES } from '../../src/shared/wire.ts';
import { startTestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { tempDir } from '../support/temp-dir.ts';

/** What the client read before: the whole body parsed, its keys read as generated keys. */
function plainReading(text: string): { body: unknown; keys: Key[] | null } {
  const json: unknown = JSON.parse(text);
  if (!isObject(json) || !Array.isArray(json.generatedKeys)) return { body: json, keys: null };
  const { generatedKeys, ...body } = json;
  return { body, keys: readKeys(generatedKeys, 'generated') };
}

function offMainReading(text: string): { body: unknown; keys: Key[] | null } {
  const { body, batch } = readGenerateAnswer(text);
  return { body, keys: batch && keysOf(packColumns(batch)) };
}

let sandbox: RemoteSandbox;
/** One real generate answer's body, in the detail dialect (Keydesk's header) or the real one (none). */
async function answer(dialect: 'detail' | 'real', count: number, note: string): Promise<string> {
  const res = await request(`${sandbox.url}${ROUTES.generateKeyPost.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(dialect === 'detail' ? { [DETAIL_HEADER]: DETAIL_FULL } : {}) },
    body: JSON.stringify({ apiKey: sandbox.apiKey, expire: '2099-03-31', count, isPremium: true, note }),
  });
  expect(res.statusCode).toBe(201);
  return res.body.text();
}

beforeAll(async () => {
  sandbox = await startRemoteSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe('a generate answer read key by key', () => {
  it.each(['detail', 'real'] as const)("gives the %s dialect's keys and body exactly as plain reading does", async (dialect) => {
    const text = await answer(dialect, 2_500, `read ${dialect}`);
    const read = offMainReading(text);
    expect(read).toEqual(plainReading(text));
    expect(read.keys).toHaveLength(2_500);
    expect(read.keys?.[0]).toMatchObject({ status: 'generated', isPremium: true, note: `read ${dialect}`, expire: '2099-03-31' });
    // The real dialect leaves fields out, and says so; the detail one reports them all.
    expect(read.keys?.[0]?.unreported).toEqual(
      dialect === 'real' ? ['id', 'createdAt', 'activatedAt', 'daysKey', 'lastResetAt'] : undefined,
    );
  });

  it.each([
    [
      'spaces and newlines everywhere',
      ' \n{ "message" : "ok" ,\n "generatedKeys" : [ { "value" : "A-1" , "note" : "x" } ,\n{"value":"A-2","note":"x"} ] , "success" : true }\n ',
    ],
    ['an escaped member name', '{"generated\\u004beys":[{"value":"E-1"}],"message":"escaped"}'],
    ['a second list (the last one counts)', '{"generatedKeys":[{"value":"F-1"}],"generatedKeys":[{"value":"S-1"},{"value":"S-2"}]}'],
    [
      'items it cannot read among them (left out)',
      '{"generatedKeys":[{"value":"G-1"},{"nope":1},7,null,{"value":"G-2","extra":{"deep":[1,{"x":"]}"}]}}]}',
    ],
    ['an empty list', '{"success":true,"generatedKeys":[]}'],
    ['no list', '{"success":false,"message":"Cooldown active","code":"COOLDOWN"}'],
    ['a list that is not one', '{"generatedKeys":{"value":"N-1"}}'],
    ['a list, then the same member as null (the last one counts: no keys)', '{"generatedKeys":[{"value":"F-1"}],"generatedKeys":null}'],
    ['a list, then the same member as an object', '{"generatedKeys":[{"value":"F-1"}],"generatedKeys":{}}'],
    ['a list, then the same member escaped, as a string', '{"generatedKeys":[{"value":"F-1"}],"generated\\u004beys":"x"}'],
    ['a string first, then the list', '{"generatedKeys":"x","generatedKeys":[{"value":"L-1"}]}'],
    ['not an object', '[{"value":"X-1"}]'],
    [
      'strings with escaped quotes and brackets',
      '{"message":"a \\"quoted\\" ] }","generatedKeys":[{"value":"Q-1","note":"say \\"hi\\" [ ]"}]}',
    ],
    [
      'keys alike but for an escaped value',
      '{"generatedKeys":[{"id":"1","value":"A-1","note":"x"},{"id":"2","value":"A\\"2","note":"x"},{"id":"3","value":"A-3","note":"x"}]}',
    ],
    [
      'another note among alike keys',
      '{"generatedKeys":[{"id":"1","value":"B-1","note":"x"}, {"id":"2","value":"B-2","note":"y"},{"id":"3","value":"B-3","note":"x"}]}',
    ],
    ['a number as id after the value', '{"generatedKeys":[{"value":"C-1","id":"1"},{"value":"C-2","id":2},{"value":"C-3","id":"3"}]}'],
    ['two values in each key', '{"generatedKeys":[{"id":"1","value":"D-0","value":"D-1"},{"id":"2","value":"D-0","value":"D-2"}]}'],
    [
      'alike keys that also carry key_value',
      '{"generatedKeys":[{"id":"1","value":"E-1","key_value":"x"},{"id":"2","value":"E-2","key_value":"x"}]}',
    ],
  ])('reads %s as JSON.parse does', (_what, text) => {
    expect(offMainReading(text)).toEqual(plainReading(text));
  });

  it('reads a large list with "}," inside strings and objects as JSON.parse does', () => {
    const items = Array.from({ length: 8_000 }, (_, i) =>
      i % 2 === 0
        ? { value: `N-${i}`, note: 'a note with },{"value":"FAKE"}, in it', extra: { nested: { deep: [i, '},'] } } }
        : { value: `K-${i}`, note: `batch ${i % 3}`, isPremium: i % 2 === 0, expiresAt: '2099-01-31T23:59:59.999Z' },
    );
    const text = JSON.stringify({ message: 'Generated', generatedKeys: items, after: { x: '},' } });
    expect(text.length).toBeGreaterThan(2 * 256 * 1024);
    const read = offMainReading(text);
    expect(read).toEqual(plainReading(text));
    expect(read.keys).toHaveLength(8_000);
  });

  it.each([
    ['cut off', '{"message":"Keys generated","generatedKeys":[{"value":"AB'],
    ['a trailing comma in the list', '{"generatedKeys":[{"value":"T-1"},]}'],
    ['a trailing comma after the last member', '{"generatedKeys":[{"value":"T-1"}],}'],
    ['garbage after the body', '{"generatedKeys":[{"value":"T-1"}]} x'],
    ['an HTML page', '<html><title>502 Bad Gateway</title></html>'],
    ['nothing', ''],
    ['keys without commas', '{"generatedKeys":[{"id":"1","value":"M-1"}{"id":"2","value":"M-2"}]}'],
    ['a tab in a value', '{"generatedKeys":[{"id":"1","value":"M-1"},{"id":"2","value":"M\t2"}]}'],
  ])('refuses a body that is %s, as JSON.parse does', (_what, text) => {
    expect(() => {
      JSON.parse(text);
    }).toThrow(SyntaxError);
    expect(() => readGenerateAnswer(text)).toThrow(SyntaxError);
  });
});

describe('the ledger writer reading an answer for main', () => {
  let dir: string;
  let db: LocalDb;
  let writer: Writer;
  beforeAll(() => {
    dir = tempDir('keydesk-intake-');
    db = new LocalDb(join(dir, 'keydesk.db'));
    writer = new Writer({ file: join(dir, 'keydesk.db') });
  });
  afterAll(async () => {
    await writer.close();
    db.close();
  });
  const ledgerValues = (profileId: string) =>
    db.queryLedger(profileId, {}, { field: 'value', dir: 'asc' }, 0, 10_000).rows.map((r) => r.value);

  it.each(['detail', 'real'] as const)('hands main the %s answer as a batch, then records those keys', async (dialect) => {
    const text = await answer(dialect, 4_321, `intake ${dialect}`);
    const intake = writer.intake();
    const reading = await intake.read(new TextEncoder().encode(text).buffer);
    const expected = plainReading(text);
    expect(reading).toEqual({ json: true, value: expected.body });
    expect(intake.batch && keysOf(intake.batch)).toEqual(expected.keys);
    const outcome = await intake.record(`p-${dialect}`);
    expect(outcome).toEqual({ written: 4_321, failed: 0, failure: null });
    expect(ledgerValues(`p-${dialect}`)).toEqual((expected.keys ?? []).map((k) => k.value).sort());
  });

  it('records nothing of an answer main let go', async () => {
    const intake = writer.intake();
    await intake.read(new TextEncoder().encode(await answer('detail', 10, 'let go')).buffer);
    expect(intake.batch?.count).toBe(10);
    intake.release();
    await writer.idle();
    expect(ledgerValues('p-let-go')).toEqual([]);
    expect(await intake.record('p-let-go')).toEqual({ written: 0, failed: 0, failure: null });
    expect(ledgerValues('p-let-go')).toEqual([]);
  });

  it('says what a body that is not JSON begins with', async () => {
    const html = writer.intake();
    expect(await html.read(new TextEncoder().encode('<html><title>Bad Gateway</title></html>').buffer)).toEqual({
      json: false,
      head: '<html><title>Bad Gateway</title></html>',
    });
    expect(html.batch).toBeNull();
    await writer.idle();
  });
});

describe('keys.generate through the core', () => {
  it('answers a compact batch, shared fields once, and records its keys', async () => {
    const t = await startTestCore();
    try {
      const profileId = t.core.profiles.activeProfileId ?? '';
      const { generated } = await t.must('keys.generate', { expire: '2099-04-30', count: 3_000, isPremium: false, note: 'compact' });
      expect(generated.count).toBe(3_000);
      // The column bytes the writer's thread transferred: main holds them as they came, outside its V8 heap.
      expect(generated.values).toBeInstanceOf(Uint8Array);
      expect(generated.values.byteLength).toBeGreaterThan(3_000 * 20);
      expect(Object.keys(generated.each)).toEqual(['id']);
      expect(generated.same).toMatchObject({
        note: 'compact',
        status: 'generated',
        isPremium: false,
        expire: '2099-04-30',
        hwid: null,
        unreported: [],
      });
      await t.core.writer.idle();
      const keys = keysOf(generated);
      const page = t.core.db.queryLedger(profileId, { text: 'compact' }, { field: 'value', dir: 'asc' }, 0, 5_000, { exact: true });
      expect(page.total).toBe(3_000);
      expect(page.rows.map((r) => r.value)).toEqual(keys.map((k) => k.value).sort());
    } finally {
      await t.close();
    }
  });
});
