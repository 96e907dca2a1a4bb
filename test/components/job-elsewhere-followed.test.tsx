// Another profile's job keeps sending while unseen, and every view says so until it ends. A window reloaded
// straight onto Jobs (no All keys or Keys visited) must hear that job's progress too. Each test takes a
// fresh store, as a reloaded window does: a subscription an earlier test made must not hide a missing one.
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { emit, fake, fakeStartedMain, remoteProfile, resetFake, sandboxProfile } from '../support/fake-bridge.ts';
import { selectJobElsewhere } from '../../src/renderer/src/store/job-selectors.ts';

const ELSEWHERE = '44444444-4444-4444-8444-444444444444';
let version = 0;
const remoteDelete = (over: Partial<JobSummary>): JobSummary => ({
  id: ELSEWHERE,
  profileId: remoteProfile.id,
  action: 'delete',
  days: null,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  finishedAt: null,
  total: 10,
  counts: { pending: 6, sent: 0, done: 4, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 1,
  ceiling: 8,
  pausedUntil: null,
  version: ++version,
  ...over,
});

/** A store and views as a freshly loaded window has them: no subscription made yet. */
async function freshWindow() {
  vi.resetModules();
  const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
  const { Jobs } = await import('../../src/renderer/src/views/Jobs/Jobs.tsx');
  return { useKeydesk, Jobs };
}

beforeEach(() => {
  resetFake();
  fake.impl['jobs.list'] = (): Promise<OperationResult<'jobs.list'>> =>
    Promise.resolve({ ok: true, data: { jobs: [], elsewhere: [remoteDelete({})] } });
});

describe("another profile's running job", () => {
  it('is followed on the Jobs view alone after a reload onto it', async () => {
    const { useKeydesk, Jobs } = await freshWindow();
    useKeydesk.setState({
      sessionRequest: { status: 'ready', error: null },
      activeProfileId: sandboxProfile.id,
      profiles: [sandboxProfile, remoteProfile],
    });
    render(<Jobs />);
    expect((await screen.findByText(/A job is running for profile Remote Shop/)).textContent).toBe(
      'A job is running for profile Remote Shop: Delete, running: 4 of 10 done. Switch to that profile to follow or cancel it.',
    );
    act(() => {
      emit('jobs.progress', remoteDelete({ counts: { pending: 2, sent: 0, done: 8, failed: 0, unknown: 0 } }));
    });
    expect(screen.getByText(/A job is running for profile Remote Shop/).textContent).toContain('8 of 10 done');
    act(() => {
      emit(
        'jobs.progress',
        remoteDelete({
          state: 'finished',
          finishedAt: '2026-01-01T10:01:00.000Z',
          counts: { pending: 0, sent: 0, done: 10, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(screen.queryByText(/A job is running for profile/)).toBeNull();
  });

  it('is heard from session start, whatever view is shown', async () => {
    const { useKeydesk } = await freshWindow();
    fakeStartedMain();
    await useKeydesk.getState().loadSession();
    await waitFor(() => {
      expect(useKeydesk.getState().sessionRequest.status).toBe('ready');
    });
    act(() => {
      emit('jobs.progress', remoteDelete({}));
    });
    expect(selectJobElsewhere(useKeydesk.getState())).toMatchObject({ id: ELSEWHERE, counts: { done: 4 } });
    act(() => {
      emit('jobs.progress', remoteDelete({ state: 'cancelled', finishedAt: '2026-01-01T10:01:00.000Z' }));
    });
    expect(selectJobElsewhere(useKeydesk.getState())).toBeNull();
  });
});
