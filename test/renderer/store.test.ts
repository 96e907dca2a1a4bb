// The renderer's store with a fake bridge typed by the contract: what each action does with success,
// failure and loss of connection, without a main process.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobSummary } from '../../src/shared/domain.ts';
import { appStatus, emit, fake, freshStore, key, ledgerRow, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { toKeyBatch } from '../../src/shared/key-batch.ts';
import { selectJob, selectJobElsewhere } from '../../src/renderer/src/store/job-selectors.ts';
import { OFFLINE_PROBE_MS } from '../../src/renderer/src/store/index.ts';

const sandbox = sandboxProfile;

const JOB_A = '0b7e4a52-6a0f-4b7e-9a43-1f0f6f0c2a11';
const COUNTS: JobSummary['counts'] = { pending: 100, sent: 0, done: 0, failed: 0, unknown: 0 };
let version = 0;
const job = (over: Partial<JobSummary>): JobSummary => ({
  id: JOB_A,
  profileId: 'sandbox',
  action: 'extend',
  days: 7,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  total: 100,
  counts: COUNTS,
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 4,
  ceiling: 64,
  pausedUntil: null,
  version: ++version,
  ...over,
});

beforeEach(() => {
  vi.useRealTimers();
  freshStore();
});

describe('session', () => {
  it('loads status and profiles, then is ready', async () => {
    fake.impl['app.status'] = () => Promise.resolve({ ok: true, data: appStatus('sandbox') });
    fake.impl['profiles.list'] = () => Promise.resolve({ ok: true, data: { profiles: [sandbox], activeProfileId: 'sandbox' } });
    await useKeydesk.getState().loadSession();
    expect(useKeydesk.getState()).toMatchObject({
      sessionRequest: { status: 'ready', error: null },
      activeProfileId: 'sandbox',
      profiles: [sandbox],
    });
  });

  it('reports a failed start with the message main gave', async () => {
    fake.impl['app.status'] = () => Promise.resolve({ ok: false, code: 'INTERNAL', message: 'The local sandbox could not start: EACCES.' });
    fake.impl['profiles.list'] = () => Promise.resolve({ ok: true, data: { profiles: [], activeProfileId: null } });
    await useKeydesk.getState().loadSession();
    expect(useKeydesk.getState()).toMatchObject({
      sessionRequest: { status: 'error', error: { message: 'The local sandbox could not start: EACCES.' } },
    });
  });
});

describe('keys', () => {
  it("keeps a failed generate's error and a good one's keys", async () => {
    fake.impl['keys.generate'] = () =>
      Promise.resolve({ ok: false, code: 'INVALID_INPUT', message: 'count must be a whole number from 1 to 100000.' });
    expect(await useKeydesk.getState().generate({ expire: '2099-01-01', count: 1, isPremium: false })).toBe(false);
    expect(useKeydesk.getState()).toMatchObject({ generateRequest: { status: 'error', error: { code: 'INVALID_INPUT' } } });
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: true, data: { generated: toKeyBatch([key('A'), key('B')]) } });
    expect(await useKeydesk.getState().generate({ expire: '2099-01-01', count: 2, isPremium: false })).toBe(true);
    expect(useKeydesk.getState().lastGenerated).toEqual(['A', 'B']);
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Generated 2 keys.' });
  });

  it('shows only the newest lookup when an older one answers last', async () => {
    let releaseOld: () => void = () => {};
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    fake.impl['keys.fetchGenerated'] = (input) => {
      const term = (input as { term: string }).term;
      const data = { keys: [key(term)], total: 1 };
      if (term === 'old')
        return new Promise((r) => {
          releaseOld = () => {
            r({ ok: true, data });
          };
        });
      return Promise.resolve({ ok: true, data });
    };
    const old = useKeydesk.getState().runLookup('old');
    await useKeydesk.getState().runLookup('new');
    releaseOld();
    await old;
    expect(useKeydesk.getState().lookupResult?.generated.map((k) => k.value)).toEqual(['new']);
  });

  it("asks for one page of each state, keeping the service's totals", async () => {
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [key('A', 'active')], total: 51 } });
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [key('B')], total: null } });
    await useKeydesk.getState().runLookup('shop', 1);
    expect(fake.calls.filter((c) => c.name.startsWith('keys.')).map((c) => c.input)).toEqual([
      { term: 'shop', limit: 50, offset: 50 },
      { term: 'shop', limit: 50, offset: 50 },
    ]);
    expect(useKeydesk.getState().lookupResult).toMatchObject({ page: 1, totals: { active: 51, generated: null } });
  });

  it('drops a deleted key from the results and the selection', async () => {
    useKeydesk.setState({ lookupResult: { active: [key('A', 'active')], generated: [key('B')] }, selectedKey: key('B') });
    fake.impl['keys.delete'] = () => Promise.resolve({ ok: true, data: { deletedKey: 'B' } });
    expect(await useKeydesk.getState().deleteKey(key('B'))).toBe(true);
    expect(fake.calls.at(-1)).toEqual({ name: 'keys.delete', input: { keyValue: 'B', state: 'generated' } });
    expect(useKeydesk.getState()).toMatchObject({ selectedKey: null, lookupResult: { active: [key('A', 'active')], generated: [] } });
  });

  it('keeps the selection when a change comes back undescribed', async () => {
    useKeydesk.setState({ selectedKey: key('A', 'active') });
    fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: null } });
    expect(await useKeydesk.getState().resetHwid('A')).toBe(true);
    expect(useKeydesk.getState()).toMatchObject({ keyActionRequest: { status: 'ready', error: null }, selectedKey: key('A', 'active') });
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      text: 'HWID reset. The service did not describe the key: look it up to see it.',
    });
    fake.impl['keys.extend'] = () => Promise.resolve({ ok: true, data: { key: null } });
    expect(await useKeydesk.getState().extendKey('A', 3)).toBe(true);
    expect(useKeydesk.getState().selectedKey?.value).toBe('A');
    expect(useKeydesk.getState().toasts.at(-1)?.text).toMatch(/^Extended by 3 days\. The service did not describe the key/);
  });

  it('keeps the last count when a push reports no total', async () => {
    useKeydesk.setState({ executionCount: 41 });
    useKeydesk.setState({ sampledAt: '2026-01-01T00:00:00.000Z' });
    fake.impl['executions.push'] = () => Promise.resolve({ ok: true, data: { executionCount: null, sampledAt: null } });
    await useKeydesk.getState().pushExecution();
    expect(useKeydesk.getState()).toMatchObject({ executionCount: 41, sampledAt: '2026-01-01T00:00:00.000Z', countBeforePush: true });
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      text: 'Execution counted. The service did not report the new total; refresh to read it.',
    });
  });

  it('deleting from a best-match-only result keeps the note that it is one', async () => {
    // Unknown totals are how a page says the service gave its best match only.
    const totals = { active: null, generated: null };
    useKeydesk.setState({ lookupResult: { active: [key('A', 'active')], generated: [key('B')], page: 0, totals }, selectedKey: key('B') });
    fake.impl['keys.delete'] = () => Promise.resolve({ ok: true, data: { deletedKey: 'B' } });
    await useKeydesk.getState().deleteKey(key('B'));
    expect(useKeydesk.getState().lookupResult).toEqual({ active: [key('A', 'active')], generated: [], page: 0, totals });
  });

  it('keeps a cooldown failure with its time left', async () => {
    fake.impl['keys.resetHwid'] = () =>
      Promise.resolve({ ok: false, code: 'COOLDOWN', message: 'Try again in 6 min.', retryAfterSeconds: 360 });
    expect(await useKeydesk.getState().resetHwid('A')).toBe(false);
    expect(useKeydesk.getState().keyActionRequest.error).toEqual({
      ok: false,
      code: 'COOLDOWN',
      message: 'Try again in 6 min.',
      retryAfterSeconds: 360,
    });
  });
});

describe('connectivity and feedback', () => {
  it('goes offline on a network failure and back on success', async () => {
    fake.impl['executions.get'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'refused the connection' });
    await useKeydesk.getState().refreshExecutions();
    expect(useKeydesk.getState()).toMatchObject({
      online: false,
      countRequest: { status: 'error', error: { code: 'NETWORK', message: 'refused the connection' } },
    });
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 7, sampledAt: '2026-01-01T00:00:00.000Z' } });
    await useKeydesk.getState().refreshExecutions();
    expect(useKeydesk.getState()).toMatchObject({ online: true, countRequest: { status: 'ready', error: null }, executionCount: 7 });
  });

  it('raises no offline notice for an outdated read that fails', async () => {
    vi.useFakeTimers();
    fake.impl['keyless.lookup'] = () =>
      Promise.resolve({ ok: false, code: 'TIMEOUT', message: 'The service did not answer in time. Try again.' });
    await useKeydesk.getState().lookupKeyless('x');
    expect(useKeydesk.getState().online).toBe(false);
    let failLate: () => void = () => undefined;
    fake.impl['executions.get'] = () =>
      new Promise((resolve) => {
        failLate = () => {
          resolve({ ok: false, code: 'TIMEOUT', message: 'The service did not answer in time. Try again.' });
        };
      });
    const early = useKeydesk.getState().refreshExecutions();
    // One read at a time: a second refresh while it is out waits for it.
    const joined = useKeydesk.getState().refreshExecutions();
    expect(fake.calls.filter((c) => c.name === 'executions.get')).toHaveLength(1);
    // The offline probe reads the count, and the service answers it: a newer reading than the one still out.
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 7, sampledAt: '2026-01-01T00:00:05.000Z' } });
    await vi.advanceTimersByTimeAsync(OFFLINE_PROBE_MS);
    expect(useKeydesk.getState()).toMatchObject({ online: true, executionCount: 7, countAskedAt: null });
    failLate();
    await Promise.all([early, joined]);
    expect(useKeydesk.getState()).toMatchObject({
      online: true,
      offlineReason: null,
      countRequest: { status: 'ready', error: null },
      executionCount: 7,
    });
    // A failure of a read started after the last answer is news: the notice goes up.
    await useKeydesk.getState().lookupKeyless('y');
    expect(useKeydesk.getState().online).toBe(false);
  });

  it('drops an outage toast once the service answers again', async () => {
    fake.impl['executions.push'] = () =>
      Promise.resolve({
        ok: false,
        code: 'OUTCOME_UNKNOWN',
        message: 'The service did not confirm the outcome: it may or may not have taken effect. Check before retrying.',
      });
    await useKeydesk.getState().pushExecution();
    // Refused at the door: a push that surely was not sent.
    fake.impl['executions.push'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' });
    await useKeydesk.getState().pushExecution();
    expect(useKeydesk.getState().toasts.map((t) => t.text)).toEqual([
      'Push an execution: The service did not confirm the outcome: it may or may not have taken effect. Check before retrying.',
      'Push an execution: Keydesk could not reach the service.',
    ]);
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 7, sampledAt: '2026-01-01T00:00:05.000Z' } });
    await useKeydesk.getState().refreshExecutions();
    // The outage is over; whether the push took effect is still unknown, so that one stays.
    expect(useKeydesk.getState().toasts.map((t) => t.text)).toEqual([
      'Push an execution: The service did not confirm the outcome: it may or may not have taken effect. Check before retrying.',
    ]);
  });

  it('drops a missing API key toast once the job resumes', async () => {
    useKeydesk.setState({ activeProfileId: 'sandbox' });
    const stopped = job({
      id: JOB_A,
      state: 'interrupted',
      finishedAt: '2026-01-01T00:01:00.000Z',
      counts: { ...COUNTS, pending: 92, done: 8 },
    });
    useKeydesk.setState({ jobs: { [stopped.id]: stopped }, currentJobId: stopped.id, bulkJobId: stopped.id });
    fake.impl['jobs.resume'] = () =>
      Promise.resolve({
        ok: false,
        code: 'KEYCHAIN_UNAVAILABLE',
        message: 'No apiKey is available for this profile; enter it again, then resume.',
      });
    fake.impl['jobs.get'] = () => Promise.resolve({ ok: true, data: stopped });
    await useKeydesk.getState().resumeJob(false);
    expect(useKeydesk.getState().toasts.map((t) => t.text)).toEqual([
      'Resume a bulk action: No apiKey is available for this profile; enter it again, then resume.',
    ]);
    fake.impl['jobs.resume'] = () =>
      Promise.resolve({ ok: true, data: job({ id: JOB_A, state: 'running', counts: { ...COUNTS, pending: 92, done: 8 } }) });
    await useKeydesk.getState().resumeJob(false);
    expect(useKeydesk.getState().toasts.filter((t) => t.kind === 'error')).toEqual([]);
  });

  it('keeps an error toast until it is dismissed', () => {
    vi.useFakeTimers();
    useKeydesk.getState().notify('success', 'done');
    useKeydesk.getState().notify('error', 'failed');
    vi.advanceTimersByTime(60_000);
    expect(useKeydesk.getState().toasts.map((t) => t.text)).toEqual(['done', 'failed']);
    const error = useKeydesk.getState().toasts.find((t) => t.kind === 'error');
    if (error) useKeydesk.getState().dismiss(error.id);
    expect(useKeydesk.getState().toasts.map((t) => t.text)).toEqual(['done']);
  });

  it("clears the previous profile's data and selection on a switch", async () => {
    useKeydesk.setState({
      activeProfileId: 'sandbox',
      executionCount: 5,
      lookupResult: { active: [], generated: [key('X')] },
      selectedKey: key('X'),
    });
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [ledgerRow('X')], total: 1, totalCapped: false } });
    await useKeydesk.getState().loadLedgerPage(0);
    useKeydesk.getState().toggleSelected('X');
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: { ...sandbox, id: 'p2', name: 'Other' } });
    await useKeydesk.getState().selectProfile('p2');
    expect(useKeydesk.getState()).toMatchObject({
      activeProfileId: 'p2',
      executionCount: null,
      lookupResult: null,
      selectedKey: null,
      ledgerTotal: null,
      ledgerStale: null,
    });
    expect(useKeydesk.getState().ledgerPages.size).toBe(0);
    expect(useKeydesk.getState().selection.size).toBe(0);
  });

  it('selects all matching as the filter, sent with a bulk action', async () => {
    useKeydesk.setState({ activeProfileId: 'sandbox' });
    useKeydesk.getState().setLedgerFilter({ text: 'spring' });
    useKeydesk.getState().selectAllMatching();
    expect(useKeydesk.getState().selectedAll).toEqual({ text: 'spring' });
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: job({ id: JOB_A }) });
    await useKeydesk.getState().runBulk('extend', 7);
    expect(fake.calls.filter((c) => c.name === 'jobs.start').map((c) => c.input)).toEqual([
      { action: 'extend', target: { filter: { text: 'spring' } }, days: 7 },
    ]);
    expect(useKeydesk.getState().selectedAll).toBeNull();
    expect(selectJob(useKeydesk.getState())).toMatchObject({ id: JOB_A, state: 'running' });
    // A new filter is a new question: "all matching" does not carry over.
    useKeydesk.getState().selectAllMatching();
    useKeydesk.getState().setLedgerFilter({ text: 'autumn' });
    expect(useKeydesk.getState().selectedAll).toBeNull();
  });

  it('keeps the newer of an answer and an out-of-order event', async () => {
    useKeydesk.setState({ activeProfileId: 'sandbox' });
    await useKeydesk.getState().attachJobs();
    const running = job({ id: JOB_A }); // made first: the older summary
    const finished = job({
      id: JOB_A,
      state: 'finished',
      finishedAt: '2026-01-01T00:01:00.000Z',
      counts: { ...COUNTS, pending: 0, done: 100 },
    });
    // The job finished before jobs.start's own answer came back.
    fake.impl['jobs.start'] = () => {
      emit('jobs.progress', finished);
      return Promise.resolve({ ok: true, data: running });
    };
    useKeydesk.getState().toggleSelected('A');
    await useKeydesk.getState().runBulk('delete');
    expect(selectJob(useKeydesk.getState())).toMatchObject({ state: 'finished', counts: { done: 100 } });
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Extend by 7 days: 100 of 100 done.' });
  });

  it('saves a profile ceiling through main and says what it is now', async () => {
    fake.impl['jobs.setCeiling'] = (input) =>
      Promise.resolve({ ok: true, data: { ceiling: (input as { ceiling: number }).ceiling, isDefault: false } });
    expect(await useKeydesk.getState().saveCeiling('sandbox', 12)).toEqual({ ceiling: 12, isDefault: false });
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Bulk jobs send at most 12 requests at a time.' });
    fake.impl['jobs.setCeiling'] = () => Promise.resolve({ ok: false, code: 'NOT_FOUND', message: 'That profile no longer exists.' });
    expect(await useKeydesk.getState().saveCeiling('gone', 3)).toBeNull();
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      text: 'Set the bulk request limit: That profile no longer exists.',
    });
  });

  it('finds the running job after a reload, follows and cancels it', async () => {
    useKeydesk.setState({ activeProfileId: 'sandbox' });
    fake.impl['jobs.list'] = () =>
      Promise.resolve({ ok: true, data: { jobs: [job({ id: JOB_A, counts: { ...COUNTS, done: 10, pending: 90 } })], elsewhere: [] } });
    await useKeydesk.getState().attachJobs();
    expect(selectJob(useKeydesk.getState())).toMatchObject({ id: JOB_A, counts: { done: 10 } });
    emit('jobs.progress', job({ id: JOB_A, counts: { ...COUNTS, done: 40, pending: 60 } }));
    expect(selectJob(useKeydesk.getState())?.counts.done).toBe(40);
    // Cancel's own answer comes while 4 requests are still on the wire: the job has not ended yet.
    fake.impl['jobs.cancel'] = () =>
      Promise.resolve({ ok: true, data: job({ id: JOB_A, state: 'cancelled', counts: { ...COUNTS, done: 41, sent: 4, pending: 55 } }) });
    const toastsBefore = useKeydesk.getState().toasts.length;
    const generation = useKeydesk.getState().ledgerGeneration;
    await useKeydesk.getState().cancelBulk();
    expect(fake.calls.filter((c) => c.name === 'jobs.cancel').map((c) => c.input)).toEqual([{ jobId: JOB_A }]);
    expect(selectJob(useKeydesk.getState())).toMatchObject({ state: 'cancelled', counts: { done: 41, sent: 4, pending: 55 } });
    expect(useKeydesk.getState().toasts).toHaveLength(toastsBefore);
    expect(useKeydesk.getState().ledgerGeneration).toBe(generation);
    // The last answers are recorded, and main records the end: now the toast, and the table refreshes.
    emit(
      'jobs.progress',
      job({ id: JOB_A, state: 'cancelled', finishedAt: '2026-01-01T00:01:00.000Z', counts: { ...COUNTS, done: 45, pending: 55 } }),
    );
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      text: 'Extend by 7 days: 45 of 100 done, 55 not sent (cancelled).',
    });
    expect(useKeydesk.getState().ledgerGeneration).toBe(generation + 1);
    expect(useKeydesk.getState().toasts).toHaveLength(toastsBefore + 1);
  });

  it("says when an ended job's items cannot be read", async () => {
    useKeydesk.setState({ activeProfileId: 'sandbox' });
    fake.impl['jobs.list'] = () => Promise.resolve({ ok: true, data: { jobs: [job({ id: JOB_A })], elsewhere: [] } });
    await useKeydesk.getState().attachJobs();
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: false, code: 'INTERNAL', message: 'Keydesk could not read the job.' });
    emit(
      'jobs.progress',
      job({
        id: JOB_A,
        state: 'finished',
        finishedAt: '2026-01-01T00:01:00.000Z',
        counts: { ...COUNTS, pending: 0, done: 95, unknown: 5 },
      }),
    );
    await vi.waitFor(() => {
      expect(useKeydesk.getState().jobProblems).toMatchObject({
        unknown: [],
        error: expect.stringMatching(/could not be read: Keydesk could not read the job/) as unknown,
      });
    });
  });

  it("shows another profile's job running until main records its end", () => {
    useKeydesk.setState({ activeProfileId: 'sandbox' });
    emit('jobs.progress', job({ id: JOB_A, profileId: 'p2', counts: { ...COUNTS, done: 10, pending: 90 } }));
    expect(selectJob(useKeydesk.getState())).toBeNull();
    expect(selectJobElsewhere(useKeydesk.getState())).toMatchObject({ id: JOB_A, profileId: 'p2', counts: { done: 10 } });
    emit(
      'jobs.progress',
      job({
        id: JOB_A,
        profileId: 'p2',
        state: 'finished',
        finishedAt: '2026-01-01T00:01:00.000Z',
        counts: { ...COUNTS, pending: 0, done: 100 },
      }),
    );
    expect(selectJobElsewhere(useKeydesk.getState())).toBeNull();
  });

  it("finds another profile's running job from jobs.list after a reload", async () => {
    useKeydesk.setState({ activeProfileId: 'sandbox', elsewhereJobId: null });
    fake.impl['jobs.list'] = () =>
      Promise.resolve({
        ok: true,
        data: { jobs: [], elsewhere: [job({ id: JOB_A, profileId: 'p2', counts: { ...COUNTS, done: 30, pending: 70 } })] },
      });
    await useKeydesk.getState().attachJobs();
    expect(selectJob(useKeydesk.getState())).toBeNull();
    expect(selectJobElsewhere(useKeydesk.getState())).toMatchObject({ id: JOB_A, profileId: 'p2', state: 'running', counts: { done: 30 } });
    // Once main's list no longer has it (it ended while unseen), nothing says it runs.
    fake.impl['jobs.list'] = () => Promise.resolve({ ok: true, data: { jobs: [], elsewhere: [] } });
    await useKeydesk.getState().attachJobs();
    expect(selectJobElsewhere(useKeydesk.getState())).toBeNull();
  });

  it("never shows another profile's job, forgetting it on a switch", async () => {
    useKeydesk.setState({ activeProfileId: 'sandbox' });
    emit('jobs.progress', job({ id: JOB_A, profileId: 'p2' }));
    expect(selectJob(useKeydesk.getState())).toBeNull();
    emit('jobs.progress', job({ id: JOB_A }));
    expect(selectJob(useKeydesk.getState())?.id).toBe(JOB_A);
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: { ...sandbox, id: 'p2', name: 'Other' } });
    fake.impl['jobs.list'] = () => Promise.resolve({ ok: true, data: { jobs: [], elsewhere: [] } });
    await useKeydesk.getState().selectProfile('p2');
    expect(selectJob(useKeydesk.getState())).toBeNull();
  });

  it('counts down the keys main is recording, then reloads the table', async () => {
    useKeydesk.setState({ activeProfileId: 'sandbox' });
    fake.impl['jobs.list'] = () => Promise.resolve({ ok: true, data: { jobs: [], elsewhere: [] } });
    await useKeydesk.getState().attachJobs();
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [ledgerRow('A')], total: 1, totalCapped: false, recording: 10_000 } });
    await useKeydesk.getState().loadLedgerPage(0);
    expect(useKeydesk.getState()).toMatchObject({ ledgerRecording: 10_000, ledgerTotal: 1 });
    emit('ledger.changed', { profileId: 'other', recording: 0, failure: null });
    expect(useKeydesk.getState().ledgerRecording).toBe(10_000);
    emit('ledger.changed', { profileId: 'sandbox', recording: 5_000, failure: null });
    expect(useKeydesk.getState()).toMatchObject({ ledgerRecording: 5_000, ledgerTotal: 1 });
    const generation = useKeydesk.getState().ledgerGeneration;
    emit('ledger.changed', { profileId: 'sandbox', recording: 0, failure: null });
    // The pages shown are now short of what the ledger holds: a new generation loads them again.
    expect(useKeydesk.getState()).toMatchObject({ ledgerRecording: 0, ledgerTotal: null, ledgerGeneration: generation + 1 });
    const failure =
      '3 key(s) could not be recorded in the ledger: the disk is full. The service has them: look them up in Keys to bring them into the ledger.';
    emit('ledger.changed', { profileId: 'sandbox', recording: 0, failure });
    expect(useKeydesk.getState().ledgerRecordingFailed).toBe(failure);
    // Toasts say it in product words (lib/words.ts plain()): "3 keys", never "3 key(s)".
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'error', text: failure.replace('3 key(s)', '3 keys') });
  });

  it('seeks the next page from the last row, far pages by offset', async () => {
    const page0 = Array.from({ length: 200 }, (_, i) => ({
      ...ledgerRow(`K${String(i).padStart(3, '0')}`),
      createdAt: `2026-01-0${(i % 9) + 1}`,
    }));
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: page0, total: 1_000, totalCapped: false } });
    await useKeydesk.getState().loadLedgerPage(0);
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [ledgerRow('NEXT')], total: null, totalCapped: false } });
    await useKeydesk.getState().loadLedgerPage(1);
    await useKeydesk.getState().loadLedgerPage(2);
    const inputs = fake.calls.filter((c) => c.name === 'ledger.query').map((c) => c.input as { offset: number; cursor?: unknown });
    expect(inputs[1]?.cursor).toEqual({ after: { key: page0[199]?.createdAt, value: 'K199' } });
    expect(inputs[2]).toMatchObject({ offset: 400 });
    expect(inputs[2]?.cursor).toBeUndefined();
    // A seek page brings no count: the one the first page gave stays.
    expect(useKeydesk.getState().ledgerTotal).toBe(1_000);
  });

  it('reads a far-half page from the end, in the reverse sort', async () => {
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ledgerRow(`K${String(from + i).padStart(7, '0')}`));
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: rows(0, 200), total: 1_000_050, totalCapped: false } });
    await useKeydesk.getState().loadLedgerPage(0);
    // The reverse sort's first rows are the last ones, last first.
    fake.impl['ledger.query'] = (input) => {
      const { offset, limit } = input as { offset: number; limit: number };
      return Promise.resolve({
        ok: true,
        data: { rows: rows(0, limit).map((_, i) => rows(1_000_049 - offset - i, 1)[0]!), total: 1_000_050, totalCapped: false },
      });
    };
    await useKeydesk.getState().loadLedgerPage(5_000);
    await useKeydesk.getState().loadLedgerPage(4_990);
    const inputs = fake.calls
      .filter((c) => c.name === 'ledger.query')
      .map((c) => c.input as { offset: number; limit: number; sort: unknown });
    expect(inputs.slice(1)).toMatchObject([
      { sort: { field: 'createdAt', dir: 'asc' }, offset: 0, limit: 50 },
      { sort: { field: 'createdAt', dir: 'asc' }, offset: 1_850, limit: 200 },
    ]);
    const pages = useKeydesk.getState().ledgerPages;
    expect(pages.get(5_000)?.map((r) => r.value)).toEqual(rows(1_000_000, 50).map((r) => r.value));
    expect(pages.get(4_990)?.map((r) => r.value)).toEqual(rows(998_000, 200).map((r) => r.value));
  });

  it('keeps a capped count as more than until counted exactly', async () => {
    const full = Array.from({ length: 200 }, (_, i) => ledgerRow(`K${String(i).padStart(5, '0')}`));
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: full, total: 10_000, totalCapped: true } });
    useKeydesk.getState().setLedgerFilter({ text: 'k' });
    await useKeydesk.getState().loadLedgerPage(0);
    expect(useKeydesk.getState()).toMatchObject({ ledgerTotal: 10_000, ledgerTotalCapped: true });
    // A seek page carries no count: "more than 10,000" stays.
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: full, total: null, totalCapped: false } });
    await useKeydesk.getState().loadLedgerPage(1);
    expect(useKeydesk.getState()).toMatchObject({ ledgerTotal: 10_000, ledgerTotalCapped: true });
    // Page 60 holds 13 rows: the matches end at 60 × 200 + 13.
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: full.slice(0, 13), total: 10_000, totalCapped: true } });
    await useKeydesk.getState().loadLedgerPage(60);
    expect(useKeydesk.getState()).toMatchObject({ ledgerTotal: 12_013, ledgerTotalCapped: false });

    useKeydesk.getState().setLedgerFilter({ text: 'kd' });
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: full, total: 10_000, totalCapped: true } });
    await useKeydesk.getState().loadLedgerPage(0);
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: full.slice(0, 1), total: 654_321, totalCapped: false } });
    await useKeydesk.getState().countLedgerExactly();
    expect(fake.calls.at(-1)).toMatchObject({ name: 'ledger.query', input: { filter: { text: 'kd' }, exactCount: true } });
    expect(useKeydesk.getState()).toMatchObject({ ledgerTotal: 654_321, ledgerTotalCapped: false, ledgerCounting: false });
    // The rows shown stay the pages loaded; the count alone changed.
    expect(useKeydesk.getState().ledgerPages.get(0)).toHaveLength(200);
  });

  it('keeps an exact count when a later page brings a capped one', async () => {
    const full = Array.from({ length: 200 }, (_, i) => ledgerRow(`K${String(i).padStart(5, '0')}`));
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: full, total: 10_000, totalCapped: true } });
    useKeydesk.getState().setLedgerFilter({ text: 'k' });
    await useKeydesk.getState().loadLedgerPage(0);
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: full.slice(0, 1), total: 100_000, totalCapped: false } });
    await useKeydesk.getState().countLedgerExactly();
    // A page read by position counts only up to the cap; the grid's range must not shrink back to it.
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: full, total: 10_000, totalCapped: true } });
    await useKeydesk.getState().loadLedgerPage(250);
    expect(useKeydesk.getState()).toMatchObject({ ledgerTotal: 100_000, ledgerTotalCapped: false });
    expect(useKeydesk.getState().ledgerPages.get(250)).toHaveLength(200);
  });

  it('keeps the previous rows while a new filter loads', async () => {
    let answer: (rows: string[]) => void = () => undefined;
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [ledgerRow('A'), ledgerRow('B')], total: 2, totalCapped: false } });
    await useKeydesk.getState().loadLedgerPage(0);
    fake.impl['ledger.query'] = () =>
      new Promise((resolve) => {
        answer = (rows) => {
          resolve({ ok: true, data: { rows: rows.map((v) => ledgerRow(v)), total: rows.length, totalCapped: false } });
        };
      });
    useKeydesk.getState().setLedgerFilter({ text: 'b' });
    const loading = useKeydesk.getState().loadLedgerPage(0);
    expect(useKeydesk.getState()).toMatchObject({ ledgerTotal: null, ledgerStale: { total: 2 } });
    expect(
      useKeydesk
        .getState()
        .ledgerStale?.pages.get(0)
        ?.map((r) => r.value),
    ).toEqual(['A', 'B']);
    answer(['B']);
    await loading;
    expect(useKeydesk.getState()).toMatchObject({ ledgerTotal: 1, ledgerStale: null });
    expect(
      useKeydesk
        .getState()
        .ledgerPages.get(0)
        ?.map((r) => r.value),
    ).toEqual(['B']);
  });
});

describe('loaders record their error', () => {
  const failure = { ok: false as const, code: 'INTERNAL' as const, message: 'The local database could not be read.' };
  it("keeps the history read's failure with no chart of another range", async () => {
    useKeydesk.setState({ history: [{ at: '2026-01-01T00:00:00.000Z', min: 1, max: 2 }] });
    fake.impl['executions.history'] = () => Promise.resolve(failure);
    await useKeydesk.getState().loadHistory('24h');
    expect(useKeydesk.getState()).toMatchObject({ historyRequest: { status: 'error', error: failure }, history: [] });
  });
  it('reading this machine’s HWIDs keeps its failure, then clears it on success', async () => {
    fake.impl['hwid.read'] = () => Promise.resolve(failure);
    await useKeydesk.getState().loadHwids();
    expect(useKeydesk.getState()).toMatchObject({ hwidsRequest: { status: 'error', error: failure } });
    fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
    await useKeydesk.getState().loadHwids();
    expect(useKeydesk.getState()).toMatchObject({ hwidsRequest: { status: 'ready', error: null }, hwids: [] });
  });
  it("keeps the activity failure and drops another filter's list", async () => {
    useKeydesk.setState({ audit: { entries: [], total: 3, offset: 0, limit: 50 } });
    fake.impl['audit.list'] = () => Promise.resolve(failure);
    await useKeydesk.getState().loadAudit({ filter: {}, offset: 0, limit: 50 });
    expect(useKeydesk.getState()).toMatchObject({ auditRequest: { status: 'error', error: failure }, audit: null });
  });
});
