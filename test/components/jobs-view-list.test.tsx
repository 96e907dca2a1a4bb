// The Jobs view's list as a person meets it in jsdom against the fake bridge: loading, failed, empty, older jobs on
// request, a running job's row moving, a profile switch, a job panel's link, and another profile's running job.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import { emit, fake, remoteProfile, useKeydesk } from '../support/fake-bridge.ts';
import { deferred, jobRowTexts as rowTexts, jobsTable as table, listed } from '../support/fake-jobs.ts';
import { GENERATE, readyJobsView, RESET, summary } from '../support/jobs-view-fixtures.ts';
import { Jobs } from '../../src/renderer/src/views/Jobs/Jobs.tsx';

beforeEach(readyJobsView);

describe('Jobs: the list', () => {
  it("says loading until main answers, then lists each job's counts", async () => {
    const answer = deferred<OperationResult<'jobs.list'>>();
    fake.impl['jobs.list'] = () => answer.promise;
    render(<Jobs />);
    expect(screen.getByRole('heading', { level: 1, name: 'Jobs' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading jobs…');
    expect(screen.queryByRole('table', { name: 'Jobs' })).toBeNull();
    act(() => {
      answer.resolve({
        ok: true,
        data: {
          jobs: [
            summary({
              id: RESET,
              action: 'resetHwid',
              days: null,
              state: 'interrupted',
              createdAt: '2026-01-03T09:00:00.000Z',
              finishedAt: '2026-01-03T09:01:00.000Z',
              total: 10,
              counts: { pending: 6, sent: 0, done: 2, failed: 1, unknown: 1 },
              reason: 'Keydesk stopped while this job ran.',
            }),
            summary({
              id: GENERATE,
              action: 'generate',
              days: null,
              note: 'spring',
              state: 'cancelled',
              createdAt: '2026-01-02T09:00:00.000Z',
              total: 300_000,
              counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 },
            }),
            summary({}),
          ],
          elsewhere: [],
        },
      });
    });
    await screen.findByRole('table', { name: 'Jobs' });
    const rows = rowTexts();
    expect(rows.map((r) => [r[0], r[1], r[3], r[4], r[5], r[6]])).toEqual([
      ['Reset HWID10 keys', 'Interrupted', '2', '1', '1', '6'],
      ['Generate (“spring”)300,000 keys', 'Cancelled', '200,000', '0', '0', '100,000'],
      ['Extend by 1 day5 keys', 'Finished', '5', '0', '0', '0'],
    ]);
    // Started and ended as dates a person reads, the exact moment in the markup.
    const when = within(table()).getAllByRole('row')[3]?.querySelectorAll('time');
    expect([...(when ?? [])].map((t) => t.getAttribute('datetime'))).toEqual(['2026-01-01T10:00:00.000Z', '2026-01-01T10:05:00.000Z']);
    expect(rows[2]?.[2]).toMatch(/ended /);
    expect(screen.getByText(/Listed for Local sandbox: every running or interrupted job, and the 20 most recent\./)).toBeTruthy();
  });

  it('says why main cannot list the jobs and offers Try again', async () => {
    fake.impl['jobs.list'] = () =>
      Promise.resolve({ ok: false, code: 'INTERNAL', message: 'Keydesk could not read its local database.', detail: 'SQLITE_BUSY' });
    const user = userEvent.setup();
    render(<Jobs />);
    expect((await screen.findByRole('alert')).textContent).toContain('Keydesk could not read its local database.');
    expect(screen.queryByRole('table', { name: 'Jobs' })).toBeNull();
    expect(screen.queryByText('No jobs yet')).toBeNull();
    fake.impl['jobs.list'] = () => listed([summary({})]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('table', { name: 'Jobs' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(rowTexts()).toHaveLength(1);
  });

  it('says No jobs yet and where jobs come from', async () => {
    fake.impl['jobs.list'] = () => listed([]);
    const user = userEvent.setup();
    render(<Jobs />);
    expect(await screen.findByText('No jobs yet')).toBeTruthy();
    expect(
      screen.getByText(/A bulk action on keys in All keys, or a generate of more than 100,000 keys in Keys, runs as a job/),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to All keys' }));
    expect(useKeydesk.getState().view).toBe('ledger');
  });

  it('counts older jobs not shown and lists 20 more on request', async () => {
    const older = summary({ id: GENERATE, action: 'delete', days: null, createdAt: '2025-12-01T00:00:00.000Z' });
    fake.impl['jobs.list'] = (input) =>
      (input as { recent?: number } | undefined)?.recent === 40
        ? listed([summary({}), older])
        : Promise.resolve({ ok: true, data: { jobs: [summary({})], elsewhere: [], unlisted: 1, next: 40 } });
    const user = userEvent.setup();
    render(<Jobs />);
    expect(await screen.findByText('1 older job is not shown.')).toBeTruthy();
    expect(screen.getByText(/and the 20 most recent \(older ones on request, below\)\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show 1 older' }));
    await waitFor(() => {
      expect(rowTexts().map((r) => r[0])).toEqual(['Extend by 1 day5 keys', 'Delete5 keys']);
    });
    expect(fake.calls.filter((c) => c.name === 'jobs.list').map((c) => c.input)).toEqual([undefined, { recent: 40 }]);
    expect(screen.queryByText(/older job/)).toBeNull();
    expect(screen.getByText(/and the 40 most recent\./)).toBeTruthy();
  });

  it("moves a running job's row with main's progress events", async () => {
    fake.impl['jobs.list'] = () =>
      listed([
        summary({ state: 'running', finishedAt: null, total: 1_000, counts: { pending: 900, sent: 50, done: 50, failed: 0, unknown: 0 } }),
      ]);
    render(<Jobs />);
    await screen.findByRole('table', { name: 'Jobs' });
    expect(rowTexts()[0]?.slice(0, 2)).toEqual(['Extend by 1 day1,000 keys', 'Running']);
    expect(rowTexts()[0]?.[2]).toMatch(/not ended yet$/);
    expect(rowTexts()[0]?.[6]).toBe('900 (+50 awaiting an answer)');
    act(() => {
      emit(
        'jobs.progress',
        summary({ state: 'running', finishedAt: null, total: 1_000, counts: { pending: 400, sent: 0, done: 590, failed: 10, unknown: 0 } }),
      );
    });
    expect(rowTexts()[0]?.slice(3, 7)).toEqual(['590', '10', '0', '400']);
    // An older summary arriving late does not move the row back.
    act(() => {
      emit('jobs.progress', {
        ...summary({
          state: 'running',
          finishedAt: null,
          total: 1_000,
          counts: { pending: 900, sent: 50, done: 50, failed: 0, unknown: 0 },
        }),
        version: 1,
      });
    });
    expect(rowTexts()[0]?.[3]).toBe('590');
    act(() => {
      emit('jobs.progress', summary({ total: 1_000, counts: { pending: 0, sent: 0, done: 990, failed: 10, unknown: 0 } }));
    });
    expect(rowTexts()[0]?.slice(1, 2)).toEqual(['Finished']);
    expect(within(table()).getAllByRole('row')[1]?.querySelector('.badge')?.getAttribute('title')).toBe(
      'Finished: some keys failed or have an unknown outcome',
    );
    act(() => {
      emit('jobs.progress', summary({ id: RESET, profileId: 'p2', action: 'resetHwid', state: 'running', finishedAt: null }));
      emit(
        'jobs.progress',
        summary({
          id: GENERATE,
          action: 'generate',
          days: null,
          state: 'running',
          finishedAt: null,
          createdAt: '2026-01-05T00:00:00.000Z',
          total: 150_000,
          counts: { pending: 150_000, sent: 0, done: 0, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(rowTexts().map((r) => r[0])).toEqual(['Generate150,000 keys', 'Extend by 1 day1,000 keys']);
  });

  it("shows only the new profile's jobs after a switch", async () => {
    const late = deferred<OperationResult<'jobs.list'>>();
    fake.impl['jobs.list'] = () => late.promise;
    render(<Jobs />);
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    fake.impl['jobs.list'] = () => listed([summary({ id: RESET, profileId: 'p2', action: 'delete', days: null })]);
    await act(() => useKeydesk.getState().selectProfile('p2'));
    await screen.findByRole('table', { name: 'Jobs' });
    expect(rowTexts().map((r) => r[0])).toEqual(['Delete5 keys']);
    // The first profile's answer arrives now: it belongs to no view any more.
    await act(async () => {
      late.resolve(listed([summary({})]) as unknown as OperationResult<'jobs.list'>);
      await late.promise;
    });
    expect(rowTexts().map((r) => r[0])).toEqual(['Delete5 keys']);
    expect(screen.getByText(/Listed for Remote Shop:/)).toBeTruthy();
  });
});

describe('Jobs: reached from a job panel, and beside another profile', () => {
  it("opens on the job a panel's link names", async () => {
    const { GenerateForm } = await import('../../src/renderer/src/views/Keys/GenerateForm.tsx');
    const gen = summary({
      id: GENERATE,
      action: 'generate',
      days: null,
      total: 150_000,
      counts: { pending: 0, sent: 0, done: 150_000, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([gen, summary({})]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    const user = userEvent.setup();
    const keys = render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    await user.click(within(panel).getByRole('button', { name: 'See every result in Jobs' }));
    expect(useKeydesk.getState()).toMatchObject({ view: 'jobs', openJobId: GENERATE });
    keys.unmount();
    render(<Jobs />);
    const detail = await screen.findByRole('region', { name: 'Generate' });
    expect(within(detail).getAllByRole('status')[0]?.textContent).toBe('Generate, finished: 150,000 of 150,000 done.');
    await waitFor(() => {
      expect(document.activeElement).toBe(within(detail).getByRole('heading', { level: 2 }));
    });
  });

  it("says another profile's job still runs, and lists none of its rows", async () => {
    fake.impl['jobs.list'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          jobs: [],
          elsewhere: [
            summary({
              id: RESET,
              profileId: 'p2',
              action: 'delete',
              days: null,
              state: 'running',
              finishedAt: null,
              total: 10,
              counts: { pending: 6, sent: 0, done: 4, failed: 0, unknown: 0 },
            }),
          ],
        },
      });
    render(<Jobs />);
    expect(await screen.findByText('No jobs yet')).toBeTruthy();
    expect(screen.getByText(/^A job is running for profile Remote Shop: Delete, running: 4 of 10 done/).textContent).toMatch(
      /Switch to that profile to follow or cancel it\.$/,
    );
  });
});
