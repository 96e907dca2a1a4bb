// The Jobs view's slice with a fake bridge typed by the contract: the list main gives, kept current by progress
// events, one profile's only; a job from the list acted on (resume, cancel, export); a removed job gone from every
// place that showed it; an open job's items never answered with another job's.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { emit, fake, freshStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { selectBulkJob, selectJobList } from '../../src/renderer/src/store/job-selectors.ts';

const A = '0b7e4a52-6a0f-4b7e-9a43-1f0f6f0c2a11';
const B = '1c8f5b63-7b1a-4c8f-8b54-2a1a7a1d3b22';
let version = 0;
const job = (over: Partial<JobSummary>): JobSummary => ({
  id: A,
  profileId: 'sandbox',
  action: 'delete',
  days: null,
  note: null,
  state: 'finished',
  reason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:01:00.000Z',
  total: 10,
  counts: { pending: 0, sent: 0, done: 10, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 0,
  ceiling: 64,
  pausedUntil: null,
  version: ++version,
  ...over,
});
const listed = (jobs: JobSummary[]): Promise<OperationResult<'jobs.list'>> => Promise.resolve({ ok: true, data: { jobs, elsewhere: [] } });

beforeEach(() => {
  vi.useRealTimers();
  freshStore({ activeProfileId: 'sandbox' });
});

describe('the jobs list', () => {
  it('holds the jobs newest first, taking newer summaries only', async () => {
    fake.impl['jobs.list'] = () =>
      listed([
        job({ id: A, createdAt: '2026-01-01T00:00:00.000Z' }),
        job({ id: B, createdAt: '2026-01-02T00:00:00.000Z', state: 'running', finishedAt: null }),
      ]);
    await useKeydesk.getState().loadJobList();
    expect(useKeydesk.getState().jobListRequest.status).toBe('ready');
    expect(selectJobList(useKeydesk.getState()).map((j) => j.id)).toEqual([B, A]);
    const stale = job({ id: B, state: 'running', finishedAt: null, counts: { pending: 10, sent: 0, done: 0, failed: 0, unknown: 0 } });
    emit(
      'jobs.progress',
      job({
        id: B,
        createdAt: '2026-01-02T00:00:00.000Z',
        state: 'running',
        finishedAt: null,
        counts: { pending: 4, sent: 0, done: 6, failed: 0, unknown: 0 },
      }),
    );
    emit('jobs.progress', { ...stale, version: 0 });
    expect(selectJobList(useKeydesk.getState())[0]?.counts.done).toBe(6);
    const C = '2d9a6c74-8c2b-4d9a-9c65-3b2b8b2e4c33';
    emit('jobs.progress', job({ id: C, createdAt: '2026-01-03T00:00:00.000Z', state: 'running', finishedAt: null }));
    emit('jobs.progress', job({ id: '3e0b7d85-9d3c-4e0b-8d76-4c3c9c3f5d44', profileId: 'p2' }));
    expect(selectJobList(useKeydesk.getState()).map((j) => j.id)).toEqual([C, B, A]);
  });

  it('is emptied by a profile switch, dropping a late answer', async () => {
    fake.impl['jobs.list'] = () => listed([job({})]);
    await useKeydesk.getState().loadJobList();
    useKeydesk.getState().openJob(A);
    let answer: (r: OperationResult<'jobs.list'>) => void = () => undefined;
    fake.impl['jobs.list'] = () => new Promise((r) => (answer = r));
    const loading = useKeydesk.getState().loadJobList();
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: { ...sandboxProfile, id: 'p2', name: 'Other' } });
    await useKeydesk.getState().selectProfile('p2');
    expect(useKeydesk.getState()).toMatchObject({ jobListIds: [], openJobId: null, jobItems: null, jobListRequest: { status: 'idle' } });
    answer({ ok: true, data: { jobs: [job({})], elsewhere: [] } });
    await loading;
    expect(selectJobList(useKeydesk.getState())).toEqual([]);
  });
});

describe('a job from the list', () => {
  it('is resumed, cancelled and exported by id without a panel', async () => {
    const stopped = job({
      id: B,
      action: 'extend',
      days: 3,
      state: 'cancelled',
      counts: { pending: 4, sent: 0, done: 6, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([stopped]);
    await useKeydesk.getState().loadJobList();
    expect(selectBulkJob(useKeydesk.getState())).toBeNull();
    fake.impl['jobs.resume'] = () =>
      Promise.resolve({ ok: true, data: { ...stopped, state: 'running', finishedAt: null, version: ++version } });
    await useKeydesk.getState().resumeJob(false, B);
    expect(fake.calls.filter((c) => c.name === 'jobs.resume').map((c) => c.input)).toEqual([{ jobId: B, retryUnknown: false }]);
    // All keys' panel follows the job resumed from the list.
    expect(selectBulkJob(useKeydesk.getState())).toMatchObject({ id: B, state: 'running' });
    fake.impl['jobs.cancel'] = () =>
      Promise.resolve({ ok: true, data: { ...stopped, state: 'cancelled', finishedAt: null, version: ++version } });
    await useKeydesk.getState().cancelBulk(B);
    expect(fake.calls.filter((c) => c.name === 'jobs.cancel').map((c) => c.input)).toEqual([{ jobId: B }]);
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/x.json' } });
    expect(await useKeydesk.getState().exportJob('json', B)).toBe('/tmp/x.json');
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([{ jobId: B, format: 'json' }]);
  });

  it('once removed, is gone from the list and the panel', async () => {
    const gen = job({ id: A, action: 'generate', total: 200_000, counts: { pending: 0, sent: 0, done: 200_000, failed: 0, unknown: 0 } });
    fake.impl['jobs.list'] = () => listed([gen]);
    await useKeydesk.getState().loadJobList();
    useKeydesk.setState({ generateJobId: gen.id, currentJobId: gen.id });
    useKeydesk.getState().openJob(A);
    fake.impl['jobs.forget'] = () => Promise.resolve({ ok: true, data: null });
    expect(await useKeydesk.getState().forgetJob(A)).toBe(true);
    expect(useKeydesk.getState()).toMatchObject({ jobListIds: [], openJobId: null, generateJobId: null, currentJobId: null });
    expect(useKeydesk.getState().toasts.at(-1)?.text).toBe(
      'Job removed from the list. Its keys stay in All keys, and its line with its counts stays in Activity.',
    );
  });

  it("never shows one job's items under another opened since", async () => {
    fake.impl['jobs.list'] = () => listed([job({ id: A }), job({ id: B })]);
    await useKeydesk.getState().loadJobList();
    useKeydesk.getState().openJob(A);
    let answer: (r: OperationResult<'jobs.items'>) => void = () => undefined;
    fake.impl['jobs.items'] = () => new Promise((r) => (answer = r));
    const loading = useKeydesk.getState().loadJobItems(null, 0);
    useKeydesk.getState().openJob(B);
    answer({ ok: true, data: { items: [{ seq: 1, target: 'KD-A', size: 1, state: 'done', code: null, message: null }], total: 1 } });
    await loading;
    expect(useKeydesk.getState().jobItems).toBeNull();
  });
});
