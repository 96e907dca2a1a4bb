// The store's one request helper (issue 12 §5): every loader and action records where it stands and its failure
// in a RequestState named `<what>Request`; a newer request makes an older one's answer moot; a background poll
// keeps the last answer on screen. A fake bridge typed by the contract stands in for main.
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { Failure } from '../../src/shared/result.ts';
import { fake, freshStore, key, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';

type State = ReturnType<typeof useKeydesk.getState>;
const state = () => useKeydesk.getState();

/** What main answers to every call in the first test: a refusal only an answering service gives. */
const refusal: Failure = { ok: false, code: 'HTTP_ERROR', message: 'The service could not do that right now.', detail: 'HTTP 500' };

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile, remoteProfile] });
});

/** Every loader and action of the store's own slices (the ledger's are the All keys slice's), with the state it writes. */
const REQUESTS: [string, (s: State) => Promise<unknown>, keyof State][] = [
  ['loadSession', (s) => s.loadSession(), 'sessionRequest'],
  ['selectProfile', (s) => s.selectProfile('p2'), 'profileRequest'],
  [
    'addProfile',
    (s) => s.addProfile({ name: 'Shop', baseUrl: 'https://shop.example.com', serviceIdentifier: 'shop', apiKey: 'k'.repeat(32) }),
    'profileRequest',
  ],
  ['updateProfile', (s) => s.updateProfile({ id: 'p2', name: 'Shop 2' }), 'profileRequest'],
  ['removeProfile', (s) => s.removeProfile('p2'), 'profileRequest'],
  ['refreshExecutions', (s) => s.refreshExecutions(), 'countRequest'],
  ['pushExecution', (s) => s.pushExecution(), 'pushRequest'],
  ['loadHistory', (s) => s.loadHistory('24h', 100), 'historyRequest'],
  ['generate', (s) => s.generate({ expire: '2099-01-01', count: 1, isPremium: false, note: '' }), 'generateRequest'],
  ['exportGenerated', (s) => s.exportGenerated('csv'), 'exportGeneratedRequest'],
  ['runLookup', (s) => s.runLookup('shop'), 'lookupRequest'],
  ['runLookup in Keydesk’s records', (s) => s.runLookup('shop'), 'lookupLedgerRequest'],
  ['extendKey', (s) => s.extendKey('A', 7), 'keyActionRequest'],
  ['resetHwid', (s) => s.resetHwid('A'), 'keyActionRequest'],
  ['deleteKey', (s) => s.deleteKey(key('A')), 'keyActionRequest'],
  ['refreshKey', (s) => s.refreshKey('A'), 'keyReadRequest'],
  ['lookupKeyless', (s) => s.lookupKeyless('HW'), 'keylessRequest'],
  ['addKeyless', (s) => s.addKeyless({ hwid: 'HW-1' }), 'keylessAddRequest'],
  ['deleteKeyless', (s) => s.deleteKeyless('HW-1'), 'keylessDeleteRequest'],
  ['checkIdentifier', (s) => s.checkIdentifier('demo'), 'identifierRequest'],
  ['loadHwids', (s) => s.loadHwids(), 'hwidsRequest'],
  ['runValidation', (s) => s.runValidation({ mode: 'key', keyValue: 'K', hwid: { custom: 'HW-B' }, dryRun: true }), 'validationRequest'],
  ['loadAudit', (s) => s.loadAudit({ filter: {}, offset: 0, limit: 50 }), 'auditRequest'],
  ['loadAuditItems', (s) => s.loadAuditItems('6f1c2a8e-5b0d-4c47-9d53-0c3f6a9e2b11', 0), 'auditItemsRequest'],
  ['exportAudit', (s) => s.exportAudit({}, 'csv'), 'auditExportRequest'],
  ['generateTestKey', (s) => s.generateTestKey('sandbox'), 'testKeyRequest'],
  ['refreshTestKey', (s) => s.refreshTestKey(), 'testKeyRequest'],
  ['loadJobList', (s) => s.loadJobList(), 'jobListRequest'],
  ['loadCutShort', (s) => s.loadCutShort(), 'cutShortRequest'],
  ['loadSettings', (s) => s.loadSettings(), 'settingsRequest'],
  ['changeSetting', (s) => s.changeSetting({ theme: 'dark' }), 'settingsRequest'],
  ['setSandboxPort', (s) => s.setSandboxPort(9000), 'sandboxPortRequest'],
  ['findCutShort', (s) => s.findCutShort('m-1'), 'cutShortRequest'],
  ['dismissCutShort', (s) => s.dismissCutShort('m-1'), 'cutShortRequest'],
  ['loadCapabilities', (s) => s.loadCapabilities('sandbox'), 'capabilitiesRequest'],
  ['checkCapabilities', (s) => s.checkCapabilities('sandbox'), 'capabilityCheckRequest'],
  ['loadHwidHistory', (s) => s.loadHwidHistory('KD-1'), 'hwidHistoryRequest'],
  ['editKey', (s) => s.editKey(key('KD-1'), { note: 'x' }), 'keyEditRequest'],
  ['loadFigures', (s) => s.loadFigures(), 'figuresRequest'],
  [
    'loadJobItems',
    (s) => {
      s.openJob('0b7e4a52-6a0f-4b7e-9a43-1f0f6f0c2a11');
      return s.loadJobItems(null, 0);
    },
    'jobItemsRequest',
  ],
];

describe('one request helper', () => {
  it.each(REQUESTS)('%s records its failure under its own RequestState', async (_name, invoke, field) => {
    fake.impl = new Proxy({}, { get: () => () => Promise.resolve(refusal) });
    useKeydesk.setState({ lastGenerated: ['A'], testKey: { profileId: 'sandbox', key: key('T') } });
    await invoke(state());
    expect(fake.calls.length).toBeGreaterThan(0);
    // With when it came: a failure shown says when, and a later answer of the service makes it an earlier one.
    expect(state()[field]).toEqual({
      status: 'error',
      error: refusal,
      failedAt: { seq: expect.any(Number) as number, at: expect.any(String) as string },
    });
  });

  it('names every status field with Request, each with a loader', () => {
    const fields = Object.entries(state()).filter(([, v]) => typeof v !== 'function');
    const requestShaped = fields.filter(([, v]) => typeof v === 'object' && v !== null && 'status' in v && 'error' in v).map(([k]) => k);
    expect([...requestShaped].sort()).toEqual([...new Set(REQUESTS.map(([, , field]) => field))].sort());
    for (const name of requestShaped) expect(name).toMatch(/Request$/);
    expect(fields.map(([k]) => k).filter((k) => k.endsWith('Request'))).toEqual(requestShaped);
    // The old names, one per slice, each meaning "status" its own way, are gone. Left: the All keys slice's own error
    // and main's reports (data, not where a request stands): appStatus, and whether recording waits for the file.
    const stray = fields.map(([k]) => k).filter((k) => /(Status|Error|Busy)$|^(generating|lookup|executions|session|keyAction)$/.test(k));
    expect(stray.sort()).toEqual(['appStatus', 'ledgerError', 'ledgerRecordingBusy']);
  });

  it('drops a search answer that arrives after a newer search started', async () => {
    const answers: ((r: OperationResult<'keys.fetchActive'>) => void)[] = [];
    fake.impl['keys.fetchActive'] = () => new Promise((resolve) => answers.push(resolve));
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    const first = state().runLookup('old');
    const second = state().runLookup('new');
    answers[1]?.({ ok: true, data: { keys: [key('NEW')], total: 1 } });
    await second;
    answers[0]?.({ ok: true, data: { keys: [key('OLD')], total: 1 } });
    await first;
    expect(state().lookupResult?.active.map((k) => k.value)).toEqual(['NEW']);
    expect(state()).toMatchObject({ lookupTerm: 'new', lookupRequest: { status: 'ready', error: null } });
  });

  it('keeps the count on screen through a background refresh', async () => {
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 41, sampledAt: '2026-01-01T00:00:00.000Z' } });
    await state().refreshExecutions();
    let answer: (r: OperationResult<'executions.get'>) => void = () => undefined;
    fake.impl['executions.get'] = () => new Promise((resolve) => (answer = resolve));
    const pending = state().refreshExecutions();
    expect(state()).toMatchObject({ executionCount: 41, countRequest: { status: 'ready', error: null } });
    answer(refusal);
    await pending;
    expect(state()).toMatchObject({ executionCount: 41, countRequest: { status: 'error', error: refusal } });
  });

  it("says an action's failure in a toast when its view cannot", async () => {
    fake.impl['executions.push'] = () => Promise.resolve(refusal);
    await state().pushExecution();
    expect(state().toasts.map((t) => [t.kind, t.text])).toEqual([['error', `Push an execution: ${refusal.message}`]]);
  });
});
