// The store's truth rules (issue 8 §1): no view shows what an earlier call, an earlier profile or a failed call
// left behind. A fake bridge typed by the contract stands in for main.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failed, IDLE } from '../../src/renderer/src/store/request.ts';
import type { Key, ValidationReport } from '../../src/shared/domain.ts';
import { fake, freshStore, key, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { OFFLINE_PROBE_MS } from '../../src/renderer/src/store/index.ts';

const state = () => useKeydesk.getState();

const report = (patch: Partial<ValidationReport>): ValidationReport => ({
  outcome: 'success',
  success: true,
  message: 'The key is valid.',
  dryRun: true,
  hwid: 'HW-A',
  premium: false,
  expiresAt: '2099-01-01T23:59:59.999Z',
  notes: '',
  keyless: false,
  registeredServiceId: 'demo',
  raw: JSON.stringify({ V2_Authentication: 'success' }, null, 2),
  ...patch,
});
const mismatch = report({
  outcome: 'hwid_mismatch',
  success: false,
  message: 'The key is bound to another device.',
  hwid: 'HW-B',
  expiresAt: null,
  notes: 'The key is bound to another HWID.',
  raw: JSON.stringify({ V2_Authentication: 'hwid_mismatch', Key_Information: { Notes: 'The key is bound to another HWID.' } }, null, 2),
});
/** What main answers to a search: the two fetches the Keys view makes. */
const fakeSearch = (active: Key[], generated: Key[] = []) => {
  fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: active, total: active.length } });
  fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: generated, total: generated.length } });
};
const validateInput = { mode: 'key', keyValue: 'K', hwid: { custom: 'HW-B' }, dryRun: true } as const;

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile, remoteProfile] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Validate & HWID', () => {
  it('keeps a refusal after a success as an answer, not an error', async () => {
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: report({}) });
    await state().runValidation({ ...validateInput, hwid: { custom: 'HW-A' } });
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: mismatch });
    await state().runValidation(validateInput);
    expect(state()).toMatchObject({
      validationRequest: { status: 'ready', error: null },
      validation: { outcome: 'hwid_mismatch', success: false, notes: 'The key is bound to another HWID.' },
    });
  });

  it('shows nothing of an earlier answer while a new one is asked', async () => {
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: report({}) });
    await state().runValidation(validateInput);
    let answer: () => void = () => undefined;
    fake.impl['validation.run'] = () =>
      new Promise((r) => {
        answer = () => {
          r({ ok: false, code: 'INVALID_INPUT', message: 'Enter the service identifier to validate against.' });
        };
      });
    const pending = state().runValidation(validateInput);
    expect(state()).toMatchObject({ validationRequest: { status: 'loading', error: null }, validation: null });
    answer();
    await pending;
    expect(state()).toMatchObject({ validationRequest: { status: 'error', error: { code: 'INVALID_INPUT' } }, validation: null });
  });
});

describe('a failed call clears the earlier result or marks it stale', () => {
  it('identifier check: an earlier answer goes when the next check fails', async () => {
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: true, data: { exists: true, service: 'Demo' } });
    await state().checkIdentifier('demo');
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: false, code: 'HTTP_ERROR', message: 'The service answered HTTP 500.' });
    await state().checkIdentifier('other');
    expect(state()).toMatchObject({
      identifier: null,
      identifierRequest: { status: 'error', error: { message: 'The service answered HTTP 500.' } },
    });
  });

  it('keyless search: the earlier list goes when the next search fails', async () => {
    fake.impl['keyless.lookup'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          entries: [
            { hwid: 'KL-1', isPremium: false, expiresAt: null, lastUsedAt: null, createdAt: null, id: 'e1', serviceId: 's' } as never,
          ],
          total: 1,
        },
      });
    await state().lookupKeyless('KL');
    fake.impl['keyless.lookup'] = () => Promise.resolve({ ok: false, code: 'API_KEY_INVALID', message: 'The service refused the apiKey.' });
    await state().lookupKeyless('KL');
    expect(state()).toMatchObject({ keyless: null, keylessRequest: { status: 'error', error: { code: 'API_KEY_INVALID' } } });
  });

  it('executions: a failed read keeps the last count, marked failed', async () => {
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 41, sampledAt: '2026-01-01T00:00:00.000Z' } });
    await state().refreshExecutions();
    fake.impl['executions.get'] = () => Promise.resolve({ ok: false, code: 'HTTP_ERROR', message: 'HTTP 502' });
    await state().refreshExecutions();
    expect(state()).toMatchObject({
      executionCount: 41,
      sampledAt: '2026-01-01T00:00:00.000Z',
      countRequest: { status: 'error', error: { message: 'HTTP 502' } },
    });
  });

  it('generate: the previous batch goes when a new one is asked for', async () => {
    useKeydesk.setState({ lastGenerated: ['OLD'] });
    fake.impl['keys.generate'] = () =>
      Promise.resolve({ ok: false, code: 'INVALID_INPUT', message: 'expire (2020-01-01) is before today (2026-01-01, UTC).' });
    await state().generate({ expire: '2020-01-01', count: 1, isPremium: false });
    expect(state()).toMatchObject({ lastGenerated: [], generateRequest: { status: 'error' } });
    state().clearGenerateError();
    expect(state()).toMatchObject({ generateRequest: { status: 'idle', error: null } });
  });

  it('activity: a refused filter shows its reason and no other list', async () => {
    fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries: [], total: 250 } });
    await state().loadAudit({ filter: {}, offset: 100, limit: 100 });
    expect(state().audit).toMatchObject({ total: 250, offset: 100, limit: 100 });
    fake.impl['audit.list'] = () =>
      Promise.resolve({ ok: false, code: 'INVALID_INPUT', message: 'The filter must be at most 256 characters.' });
    await state().loadAudit({ filter: { text: 'x'.repeat(257) }, offset: 0, limit: 100 });
    expect(state()).toMatchObject({
      audit: null,
      auditRequest: { status: 'error', error: { message: 'The filter must be at most 256 characters.' } },
    });
  });
});

describe('search results follow the detail panel', () => {
  it('shows the new expiry and no HWID in the result row', async () => {
    const bound = key('A', 'active', { hwid: 'HW-1', expire: '2099-01-01' });
    useKeydesk.setState({ lookupResult: { active: [bound], generated: [key('B')] }, selectedKey: bound });
    fake.impl['keys.extend'] = () => Promise.resolve({ ok: true, data: { key: { ...bound, expire: '2099-01-06' } } });
    await state().extendKey('A', 5);
    expect(state().lookupResult?.active[0]).toMatchObject({ value: 'A', expire: '2099-01-06', hwid: 'HW-1' });
    fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: { ...bound, expire: '2099-01-06', hwid: null } } });
    await state().resetHwid('A');
    expect(state().lookupResult?.active[0]).toMatchObject({ value: 'A', expire: '2099-01-06', hwid: null });
    expect(state().lookupResult?.generated.map((k) => k.value)).toEqual(['B']);
    expect(state().selectedKey).toMatchObject({ hwid: null, expire: '2099-01-06' });
  });
});

describe('search results after a change the service did not describe', () => {
  it('reads the search again so the row shows the key now', async () => {
    const bound = key('A', 'active', { hwid: 'HW-1' });
    fakeSearch([bound]);
    await state().runLookup('A');
    state().selectKey(bound);
    fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: null } });
    fakeSearch([{ ...bound, hwid: null }]);
    expect(await state().resetHwid('A')).toBe(true);
    expect(state().lookupResult?.active[0]?.hwid).toBeNull();
    expect(state().selectedKey?.hwid).toBeNull();
    expect(state().toasts.at(-1)?.text).toBe('HWID reset. The service did not describe the key: the search is read again.');
  });
});

describe('keyless add', () => {
  it("keeps its failure apart from the search's", async () => {
    fake.impl['keyless.lookup'] = () => Promise.resolve({ ok: true, data: { entries: [], total: 0 } });
    await state().lookupKeyless('SHOP');
    fake.impl['keyless.add'] = () =>
      Promise.resolve({ ok: false, code: 'CONFLICT', message: 'That HWID is already authorized without a key.' });
    expect(await state().addKeyless({ hwid: 'SHOP-1' })).toBe(false);
    expect(state()).toMatchObject({
      keylessAddRequest: { status: 'error', error: { code: 'CONFLICT' } },
      keylessRequest: { error: null },
      keyless: { entries: [], total: 0 },
    });
  });

  it('shows the current search again with the new entry', async () => {
    const entry = (hwid: string) => ({ hwid, isPremium: false, expiresAt: null, lastUsedAt: null }) as never;
    fake.impl['keyless.lookup'] = () => Promise.resolve({ ok: true, data: { entries: [entry('SHOP-1')], total: 1 } });
    await state().lookupKeyless('SHOP');
    fake.impl['keyless.add'] = () => Promise.resolve({ ok: true, data: { entry: entry('SHOP-2') } });
    fake.impl['keyless.lookup'] = () => Promise.resolve({ ok: true, data: { entries: [entry('SHOP-1'), entry('SHOP-2')], total: 2 } });
    expect(await state().addKeyless({ hwid: 'SHOP-2' })).toBe(true);
    expect(state().keyless?.entries.map((e) => e.hwid)).toEqual(['SHOP-1', 'SHOP-2']);
    expect(fake.calls.filter((c) => c.name === 'keyless.lookup').map((c) => c.input)).toEqual([{ term: 'SHOP' }, { term: 'SHOP' }]);
  });
});

describe('switching profile', () => {
  it('resets every view’s data, selection, bulk job and error to nothing', async () => {
    useKeydesk.setState({
      executionCount: 5,
      sampledAt: '2026-01-01T00:00:00.000Z',
      countRequest: failed({ ok: false, code: 'NETWORK', message: 'x' }),
      lastGenerated: ['G'],
      generateRequest: failed({ ok: false, code: 'INVALID_INPUT', message: 'count' }),
      lookupTerm: 'x',
      lookupResult: { active: [], generated: [key('X')] },
      lookupRequest: failed({ ok: false, code: 'NETWORK', message: 'x' }),
      selectedKey: key('X'),
      keyActionRequest: failed({ ok: false, code: 'COOLDOWN', message: 'wait' }),
      keyless: { entries: [], total: 0 },
      keylessRequest: failed({ ok: false, code: 'NETWORK', message: 'x' }),
      keylessTerm: 'k',
      keylessAddRequest: failed({ ok: false, code: 'CONFLICT', message: 'x' }),
      identifier: { identifier: 'demo', exists: true, service: 'Demo', at: '2026-01-01T00:00:00.000Z' },
      identifierRequest: failed({ ok: false, code: 'NETWORK', message: 'x' }),
      validation: mismatch,
      validationRequest: failed({ ok: false, code: 'INVALID_INPUT', message: 'x' }),
      online: false,
      offlineReason: { ok: false, code: 'NETWORK', message: 'refused' },
      selection: new Set(['A', 'B']),
      selectedAll: { text: 'spring' },
      ledgerFilter: { text: 'spring', premium: true },
      keylessDeleteRequest: failed({ ok: false, code: 'NOT_FOUND', message: 'x' }),
      testKeyRequest: failed({ ok: false, code: 'NETWORK', message: 'x' }),
      historyRequest: failed({ ok: false, code: 'NETWORK', message: 'x' }),
      toasts: [{ id: 1, kind: 'error', text: '0 of 2 done.' }],
    });
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    await state().selectProfile('p2');
    expect(state()).toMatchObject({
      activeProfileId: 'p2',
      executionCount: null,
      sampledAt: null,
      countRequest: IDLE,
      lastGenerated: [],
      generateRequest: IDLE,
      lookupTerm: '',
      lookupResult: null,
      lookupRequest: IDLE,
      selectedKey: null,
      keyActionRequest: IDLE,
      keyless: null,
      keylessRequest: IDLE,
      keylessTerm: null,
      keylessAddRequest: IDLE,
      identifier: null,
      identifierRequest: IDLE,
      validation: null,
      validationRequest: IDLE,
      online: true,
      offlineReason: null,
      selectedAll: null,
      currentJobId: null,
      // What was typed in All keys' filter was about the other profile's keys.
      ledgerFilter: {},
      keylessDeleteRequest: IDLE,
      testKeyRequest: IDLE,
      historyRequest: IDLE,
    });
    expect(state().toasts.map((t) => t.text)).toEqual(['Now working on Remote Shop.']);
    expect(state().selection.size).toBe(0);
  });

  it('drops an answer for the profile switched away from', async () => {
    let answer: () => void = () => undefined;
    fakeSearch([]);
    fake.impl['keys.fetchGenerated'] = () =>
      new Promise((r) => {
        answer = () => {
          r({ ok: true, data: { keys: [key('FROM-SANDBOX')], total: 1 } });
        };
      });
    const pending = state().runLookup('x');
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    await state().selectProfile('p2');
    answer();
    await pending;
    expect(state()).toMatchObject({ activeProfileId: 'p2', lookupResult: null, lookupRequest: IDLE });
  });
});

describe('the offline notice', () => {
  it('is cleared only by a call the service answered', async () => {
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'refused the connection' });
    await state().checkIdentifier('x');
    expect(state()).toMatchObject({ online: false, offlineReason: { message: 'refused the connection' } });
    fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries: [], total: 0 } });
    fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
    await state().loadAudit({ filter: {}, offset: 0, limit: 100 });
    await state().loadHistory('24h');
    expect(state().online).toBe(false);
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: true, data: { exists: false, service: null } });
    await state().checkIdentifier('demo');
    expect(state()).toMatchObject({ online: true, offlineReason: null });
  });

  it('goes when the service answers, even with a refusal', async () => {
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'refused the connection' });
    await state().checkIdentifier('x');
    fake.impl['identifier.check'] = () =>
      Promise.resolve({
        ok: false,
        code: 'INVALID_INPUT',
        message: 'Identifier must be 1 to 64 letters, digits, dots, underscores or hyphens.',
      });
    await state().checkIdentifier('y');
    expect(state().online).toBe(false);
    fake.impl['identifier.check'] = () =>
      Promise.resolve({ ok: false, code: 'API_KEY_INVALID', message: 'The service refused the apiKey.' });
    await state().checkIdentifier('z');
    expect(state()).toMatchObject({ online: true, offlineReason: null });
  });

  it('goes within 5 s of the service coming back, by a probe', async () => {
    vi.useFakeTimers();
    fake.impl['executions.get'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'refused the connection' });
    await state().refreshExecutions(); // what the Overview's poll calls
    expect(state().online).toBe(false);
    await vi.advanceTimersByTimeAsync(OFFLINE_PROBE_MS * 2);
    expect(state().online).toBe(false);
    const probesWhileDown = fake.calls.filter((c) => c.name === 'executions.get').length;
    expect(probesWhileDown).toBeGreaterThanOrEqual(2);
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 9, sampledAt: '2026-01-01T00:00:00.000Z' } });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(state()).toMatchObject({ online: true, offlineReason: null, executionCount: 9, countRequest: { status: 'ready', error: null } });
    // Once back, the probing stops.
    const probes = fake.calls.length;
    await vi.advanceTimersByTimeAsync(OFFLINE_PROBE_MS * 3);
    expect(fake.calls.length).toBe(probes);
  });

  it('asks at once on Check now, keeping one probe at a time', async () => {
    vi.useFakeTimers();
    fake.impl['executions.get'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'refused the connection' });
    await state().refreshExecutions();
    const reads = () => fake.calls.filter((c) => c.name === 'executions.get').length;
    const before = reads();
    state().checkService();
    state().checkService(); // a second click while the first probe is out asks nothing more
    expect(reads()).toBe(before + 1);
    await vi.advanceTimersByTimeAsync(OFFLINE_PROBE_MS - 1);
    expect(reads()).toBe(before + 1);
    // Still down: the probes go on at their pace, one at a time.
    await vi.advanceTimersByTimeAsync(OFFLINE_PROBE_MS * 2);
    expect(reads()).toBe(before + 3);
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 9, sampledAt: '2026-01-01T00:00:00.000Z' } });
    state().checkService();
    await vi.advanceTimersByTimeAsync(0);
    expect(state()).toMatchObject({ online: true, offlineReason: null, executionCount: 9 });
  });
});
