// The store with an injected clock: --hwid-reset-limit's 30-day window, shared by both reset forms, and
// keys that work on any machine still expiring.
import { beforeEach, describe, expect, it } from 'vitest';
import { WireError } from '../../src/sandbox/errors.ts';
import { batchKeys, SandboxStore, type ServiceRecord } from '../../src/sandbox/store.ts';

const DAY = 86_400_000;
let now: number;
let store: SandboxStore;
let service: ServiceRecord;

beforeEach(() => {
  now = Date.UTC(2026, 10, 22, 12);
  store = new SandboxStore(':memory:', { now: () => now });
  service = store.createService('Clocked', 'clocked').service;
});

const activeKey = (noHwidValidation = false): string => {
  const [k] = batchKeys(
    store.generateKeys(service.id, {
      count: 1,
      isPremium: false,
      note: 'n',
      expire: '2027-06-30',
      expiresByDaysKey: false,
      daysKey: null,
      noHwidValidation,
    }),
  );
  store.validate('clocked', k?.value ?? '', 'H1', false, 'keyless');
  return k?.value ?? '';
};

const refusal = (fn: () => unknown): WireError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof WireError) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('--hwid-reset-limit N', () => {
  const rules = { cooldownMinutes: 0, limit: 2 };

  it('allows N resets in any 30 days, end user’s and vendor’s alike', () => {
    const value = activeKey();
    store.resetHwidPublic('clocked', value, rules);
    now += 10 * DAY;
    store.resetHwid(service.id, value, rules);
    now += 5 * DAY;
    const third = refusal(() => store.resetHwidPublic('clocked', value, rules));
    expect(third.code).toBe('COOLDOWN');
    // The first reset leaves the window 15 days from now.
    expect(third.retryAfterSeconds).toBe((15 * DAY) / 1000);
    expect(refusal(() => store.resetHwid(service.id, value, rules)).retryAfterSeconds).toBe((15 * DAY) / 1000);
    now += 15 * DAY;
    expect(store.resetHwid(service.id, value, rules).lastResetAt).toBe(new Date(now).toISOString());
  });

  it('counts each key on its own and nothing with no limit', () => {
    const a = activeKey();
    const b = activeKey();
    for (let i = 0; i < 2; i++) store.resetHwid(service.id, a, rules);
    expect(store.resetHwid(service.id, b, rules).hwid).toBeNull();
    for (let i = 0; i < 5; i++) expect(store.resetHwid(service.id, a, { cooldownMinutes: 0, limit: 0 }).hwid).toBeNull();
  });

  it('answers with the later of the cooldown and the limit', () => {
    const value = activeKey();
    store.resetHwid(service.id, value, { cooldownMinutes: 60, limit: 1 });
    now += 30 * 60_000;
    expect(refusal(() => store.resetHwid(service.id, value, { cooldownMinutes: 60, limit: 1 })).retryAfterSeconds).toBe(
      (30 * DAY) / 1000 - 30 * 60,
    );
    expect(refusal(() => store.resetHwid(service.id, value, { cooldownMinutes: 60, limit: 5 })).retryAfterSeconds).toBe(30 * 60);
  });
});

describe('noHwidValidation', () => {
  it('a key that works on any machine still expires', () => {
    const value = activeKey(true);
    expect(store.validate('clocked', value, 'H2', false, 'keyless').V2_Authentication).toBe('success');
    now = Date.UTC(2027, 6, 1);
    expect(store.validate('clocked', value, 'H3', false, 'keyless').V2_Authentication).toBe('expired');
  });

  it('an unknown service is 404 for the end user’s reset', () => {
    expect(refusal(() => store.resetHwidPublic('nobody', activeKey(), { cooldownMinutes: 0, limit: 0 })).code).toBe('NOT_FOUND');
  });
});
