// The store with an injected clock: expiry and cooldowns without waiting, and the query plans behind search.
import { beforeEach, describe, expect, it } from 'vitest';
import { WireError } from '../../src/sandbox/errors.ts';
import { batchJsonBytes, batchJsonChunks, batchKeys, SandboxStore, type ServiceRecord } from '../../src/sandbox/store.ts';

const DAY = 86_400_000;
let now: number;
let store: SandboxStore;
let service: ServiceRecord;

beforeEach(() => {
  now = Date.UTC(2026, 10, 22, 12);
  store = new SandboxStore(':memory:', { now: () => now });
  service = store.createService('Clocked', 'clocked').service;
});

const gen = (over: Partial<Parameters<SandboxStore['generateKeys']>[1]> = {}) =>
  batchKeys(
    store.generateKeys(service.id, {
      count: 1,
      isPremium: false,
      note: 'n',
      expire: '2026-11-30',
      expiresByDaysKey: false,
      daysKey: null,
      ...over,
    }),
  )[0]!;

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    if (e instanceof WireError) return e.code;
    throw e;
  }
  return undefined;
};

describe('expiry', () => {
  it("a fixed key is valid through its day's last millisecond only", () => {
    const k = gen({ isPremium: true });
    now = Date.UTC(2026, 10, 30, 23, 59, 59, 999);
    expect(store.validate('clocked', k.value, 'H', false, 'keyless').V2_Authentication).toBe('success');
    now += 1;
    const v = store.validate('clocked', k.value, 'H', false, 'keyless');
    expect(v.V2_Authentication).toBe('expired');
    expect(v.success).toBe(false);
    // The key's expiry is shown, but a premium key that has expired grants no premium (wire.md, validation).
    expect(v.Key_Information).toMatchObject({ Premium_Mode: false, expiresAt: '2026-11-30T23:59:59.999Z', NoKey_Requirement: false });
    expect(v.Key_Information.Notes).toMatch(/expired on 2026-11-30/);
  });

  it('a days key runs from activation, not generation', () => {
    const k = gen({ expiresByDaysKey: true, daysKey: 3 });
    now += 10 * DAY;
    const v = store.validate('clocked', k.value, 'H', false, 'keyless');
    expect(v.Key_Information.expiresAt).toBe(new Date(now + 3 * DAY).toISOString());
    now += 3 * DAY + 1;
    expect(store.validate('clocked', k.value, 'H', false, 'keyless').V2_Authentication).toBe('expired');
  });

  it('extending an already expired key moves expiresAt from its current value', () => {
    const k = gen();
    now = Date.UTC(2027, 0, 10);
    const extended = store.extendKey(service.id, k.value, 5);
    expect(extended.expiresAt).toBe('2026-12-05T23:59:59.999Z');
    expect(store.validate('clocked', k.value, 'H', false, 'keyless').V2_Authentication).toBe('expired');
  });

  it('a keyless entry with days expires; without days it never does', () => {
    store.addKeyless(service.id, 'TEMP', false, 2);
    store.addKeyless(service.id, 'FOREVER', true, null);
    now += 2 * DAY + 1;
    const temp = store.validate('clocked', 'keyless', 'TEMP', false, 'keyless');
    expect(temp.V2_Authentication).toBe('not_whitelisted');
    expect(temp.Key_Information.NoKey_Requirement).toBe(false);
    const forever = store.validate('clocked', 'keyless', 'FOREVER', false, 'keyless');
    expect(forever.V2_Authentication).toBe('success');
    expect(forever.Key_Information).toMatchObject({ NoKey_Requirement: true, Premium_Mode: true });
  });
});

describe('HWID reset cooldown', () => {
  it('refuses a reset inside the cooldown with the seconds left', () => {
    const k = gen();
    store.validate('clocked', k.value, 'H1', false, 'keyless');
    store.resetHwid(service.id, k.value, { cooldownMinutes: 10, limit: 0 });
    now += 4 * 60_000;
    try {
      store.resetHwid(service.id, k.value, { cooldownMinutes: 10, limit: 0 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(WireError);
      expect((e as WireError).code).toBe('COOLDOWN');
      expect((e as WireError).retryAfterSeconds).toBe(360);
      expect((e as WireError).message).toBe("This key's HWID was reset recently; try again in 6 min.");
    }
    now += 6 * 60_000;
    expect(store.resetHwid(service.id, k.value, { cooldownMinutes: 10, limit: 0 }).lastResetAt).toBe(new Date(now).toISOString());
  });
});

describe('services and isolation', () => {
  it('keeps apiKeys as SHA-256 digests only', () => {
    const { apiKey } = store.createService('Other', 'other');
    const rows = store.inspect('SELECT * FROM services');
    expect(JSON.stringify(rows)).not.toContain(apiKey);
    expect(store.serviceByApiKey(apiKey)?.identifier).toBe('other');
    expect(store.serviceByApiKey(`${apiKey}x`)).toBeNull();
  });

  it("never lets one service see, extend, delete or validate another service's keys", () => {
    const other = store.createService('Other', 'other').service;
    const k = gen({ note: 'shared words' });
    expect(store.searchKeys(other.id, 'generated', 'shared', 10, 0).total).toBe(0);
    expect(codeOf(() => store.deleteKey(other.id, k.value, false))).toBe('NOT_FOUND');
    expect(codeOf(() => store.extendKey(other.id, k.value, 1))).toBe('NOT_FOUND');
    expect(store.validate('other', k.value, 'H', false, 'keyless').V2_Authentication).toBe('invalid_key');
  });

  it('refuses a second service with the same identifier in another case', () => {
    expect(codeOf(() => store.createService('Dup', 'CLOCKED'))).toBe('CONFLICT');
  });
});

describe('search uses indexes, never a scan of keys', () => {
  it.each([
    ['active', 'a note term'],
    ['generated', 'a note term'],
    ['active', 'te'],
  ] as const)('%s keys, term "%s"', (status, term) => {
    const made = gen({ note: 'a note term here' });
    if (status === 'active') store.validate('clocked', made.value, 'H', false, 'keyless');
    // The plans of the statements the search really ran, with its parameters: not a copy of its SQL.
    const { result, plans } = store.db.plans(() => store.searchKeys(service.id, status, term, 10, 0));
    expect(result.total).toBe(1);
    expect(plans.length).toBeGreaterThan(3);
    for (const step of plans.flat()) expect(step).not.toMatch(/^SCAN (k|keys)\b/);
    if (term.length >= 3) expect(plans[0]?.[0]).toMatch(/^SCAN f VIRTUAL TABLE INDEX \d+:M/);
  });

  it('pages across the ranked segments in order', () => {
    const keys = batchKeys(
      store.generateKeys(service.id, {
        count: 4,
        isPremium: false,
        note: 'seg test',
        expire: '2026-12-31',
        expiresByDaysKey: false,
        daysKey: null,
      }),
    );
    for (const k of keys) store.validate('clocked', k.value, k === keys[0] ? 'seg test' : `H-${k.value}`, false, 'keyless');
    const page = store.searchKeys(service.id, 'active', 'seg test', 10, 0);
    expect(page.total).toBe(4);
    expect(page.items.map((k) => k.value)).toEqual([keys[0]!.value, keys[3]!.value, keys[2]!.value, keys[1]!.value]);
    expect(store.searchKeys(service.id, 'active', 'seg test', 2, 1).items.map((k) => k.value)).toEqual([keys[3]!.value, keys[2]!.value]);
  });
});

describe('generated batches', () => {
  it('serialise byte-identically to JSON.stringify of the key objects, whatever the note holds', () => {
    for (const note of ['', 'plain', 'quote " backslash \\ newline \n tab \t', '🔑 ünïcödé \u2028', '</script>']) {
      const batch = store.generateKeys(service.id, {
        count: 3,
        isPremium: true,
        note,
        expire: '2026-12-31',
        expiresByDaysKey: false,
        daysKey: null,
      });
      expect(batchJsonBytes(batch).toString('utf8')).toBe(JSON.stringify(batchKeys(batch)));
      expect(batchJsonBytes(batch, '{"a":', '}').toString('utf8')).toBe(`{"a":${JSON.stringify(batchKeys(batch))}}`);
      expect((JSON.parse(batchJsonBytes(batch).toString('utf8')) as { note: string }[]).map((k) => k.note)).toEqual([note, note, note]);
    }
  });

  it('serialise to the same bytes in any chunk size, length declared', () => {
    const batch = store.generateKeys(service.id, {
      count: 57,
      isPremium: false,
      note: 'chunked "note" ü',
      expire: '2026-12-31',
      expiresByDaysKey: false,
      daysKey: null,
    });
    const whole = JSON.stringify(batchKeys(batch));
    for (const size of [1, 64, 1_000, 1 << 20]) {
      const body = batchJsonChunks(batch, '{"k":', '}', size);
      const chunks = [...body.chunks()];
      const text = Buffer.concat(chunks).toString('utf8');
      expect(text).toBe(`{"k":${whole}}`);
      expect(body.length).toBe(Buffer.byteLength(text));
      if (size === 1) expect(chunks).toHaveLength(57);
    }
  });

  it("store a batch over one statement with each key's own id", () => {
    gen({ note: 'before' });
    const batch = store.generateKeys(service.id, {
      count: 5_000,
      isPremium: false,
      note: 'parts',
      expire: '2026-12-31',
      expiresByDaysKey: false,
      daysKey: null,
    });
    const rows = store.inspect("SELECT k.id, k.value FROM keys k JOIN notes n ON n.id = k.note_id WHERE n.text = 'parts' ORDER BY k.id");
    expect(rows).toHaveLength(5_000);
    expect(rows.map((r) => Number(r.id))).toEqual(batch.ids);
    expect(rows.map((r) => String(r.value))).toEqual(batch.ids.map((_, i) => batch.values.value(i)));
  });

  it('store a batch in one piece, every key readable by value', () => {
    const batch = batchKeys(
      store.generateKeys(service.id, {
        count: 50,
        isPremium: false,
        note: 'whole',
        expire: '2026-12-31',
        expiresByDaysKey: true,
        daysKey: 9,
      }),
    );
    expect(new Set(batch.map((k) => k.id)).size).toBe(50);
    const found = store.searchKeys(service.id, 'generated', 'whole', 100, 0);
    expect(found.total).toBe(50);
    expect(found.items.map((k) => k.value).sort()).toEqual(batch.map((k) => k.value).sort());
    const one = store.searchKeys(service.id, 'generated', batch[7]!.value, 1, 0).best;
    expect(one).toEqual(batch[7]);
  });
});
