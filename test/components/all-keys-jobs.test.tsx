// All keys beside jobs that run or have ended, in jsdom against the fake bridge: another profile's job found after
// a reload, a generate job beside a cancelled bulk job, bulk actions off while one runs, and what a job left unsure.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { emit, fake, readyState, reloadedStore, useKeydesk } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { readyWithNoJobs, row, summary } from '../support/job-fixtures.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

beforeEach(readyWithNoJobs);

describe('All keys: jobs', () => {
  it("finds another profile's running job after a reload", async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A')], total: 1, totalCapped: false } });
    const elsewhere = summary({
      profileId: 'p2',
      action: 'delete',
      total: 500,
      counts: { pending: 400, sent: 0, done: 100, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([], { elsewhere: [elsewhere] });
    render(<AllKeys />);
    const notice = await screen.findByText(/A job is running for profile Remote Shop:/);
    expect(notice.textContent).toBe(
      'A job is running for profile Remote Shop: Delete, running: 100 of 500 done. Switch to that profile to follow or cancel it.',
    );
  });

  it("keeps a cancelled bulk job's Resume while a generate job runs", async () => {
    localStorage.clear();
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A')], total: 1, totalCapped: false } });
    const extend = summary({
      id: 'ext-1',
      action: 'extend',
      days: 2,
      state: 'cancelled',
      finishedAt: '2026-01-01T00:05:00.000Z',
      total: 741_267,
      counts: { pending: 661_686, sent: 0, done: 79_581, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([extend]);
    render(<AllKeys />);
    const bar = await screen.findByRole('region', { name: 'Bulk actions' });
    await within(bar).findByRole('button', { name: 'Resume extending 661,686 keys by 2 days…' });
    // A generate job (from Keys) runs and finishes: said here while it runs, and the extend's panel stays.
    act(() => {
      emit(
        'jobs.progress',
        summary({ id: 'gen-1', total: 120_000, counts: { pending: 20_000, sent: 0, done: 100_000, failed: 0, unknown: 0 } }),
      );
    });
    expect(
      within(bar).getByText(
        /^A generate job is running for this profile \(follow or cancel it in Keys\): Generate, running: 100,000 of 120,000 done/,
      ),
    ).toBeTruthy();
    // What the running generate job has still to request is said apart from what is being recorded.
    expect(
      screen.getByText('A generate job still has 20,000 keys to request (see Keys): they come into this list after that.'),
    ).toBeTruthy();
    act(() => {
      emit(
        'jobs.progress',
        summary({
          id: 'gen-1',
          total: 120_000,
          state: 'finished',
          finishedAt: '2026-01-01T00:09:00.000Z',
          counts: { pending: 0, sent: 0, done: 120_000, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(within(bar).queryByText(/A generate job is running/)).toBeNull();
    expect(screen.queryByText(/A generate job still has/)).toBeNull();
    expect(within(bar).getByText('Extend by 2 days, cancelled: 79,581 of 741,267 done, 661,686 not sent.')).toBeTruthy();
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/extend.csv' } });
    fake.impl['jobs.resume'] = () => Promise.resolve({ ok: true, data: summary({ ...extend, state: 'running', finishedAt: null }) });
    const user = userEvent.setup();
    await user.click(within(bar).getByRole('button', { name: 'Export results CSV' }));
    await user.click(within(bar).getByRole('button', { name: 'Resume extending 661,686 keys by 2 days…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Extend the 661,686 keys not sent by 2 days?' })).getByRole('button', {
        name: 'Extend 661,686 keys',
      }),
    );
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.export' || c.name === 'jobs.resume').map((c) => [c.name, c.input])).toEqual([
        ['jobs.export', { jobId: 'ext-1', format: 'csv' }],
        ['jobs.resume', { jobId: 'ext-1', retryUnknown: false }],
      ]);
    });
  });

  it('shows the last generate job again after a reload', async () => {
    localStorage.clear();
    const done = summary({
      id: 'gen-2',
      total: 150_000,
      state: 'finished',
      finishedAt: '2026-01-01T00:03:00.000Z',
      counts: { pending: 0, sent: 0, done: 150_000, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([done]);
    const first = render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    expect(within(panel).getByRole('button', { name: 'Export the 150,000 keys CSV' })).toBeTruthy();
    await userEvent.setup().click(within(panel).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('group', { name: 'Generate job' })).toBeNull();
    // Another reload: the store starts empty, main still lists the job, and it stays put away.
    first.unmount();
    reloadedStore(readyState());
    render(<GenerateForm />);
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.list')).toHaveLength(2);
    });
    expect(screen.queryByRole('group', { name: 'Generate job' })).toBeNull();
  });

  it('checks the unknown keys first from Send N requests again', async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A')], total: 1, totalCapped: false } });
    fake.impl['jobs.items'] = () =>
      Promise.resolve({
        ok: true,
        data: { items: [{ seq: 1, target: 'KD-A', size: 1, state: 'unknown', code: 'OUTCOME_UNKNOWN', message: 'No answer.' }], total: 1 },
      });
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    const deleted = summary({
      action: 'delete',
      note: null,
      state: 'finished',
      finishedAt: '2026-01-01T00:01:00.000Z',
      total: 1,
      counts: { pending: 0, sent: 0, done: 0, failed: 0, unknown: 1 },
    });
    useKeydesk.setState({ jobs: { [deleted.id]: deleted }, currentJobId: deleted.id, bulkJobId: deleted.id });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: 'Send the 1 unknown again…' }));
    const dialog = screen.getByRole('dialog', { name: 'Send 1 request again?' });
    expect(dialog.textContent).toContain('“Check these keys first” reads the key as the service has it now');
    await user.click(within(dialog).getByRole('button', { name: 'Check these keys first' }));
    const now = await screen.findByRole('region', { name: 'Keys sent with no answer, as the service has them now' });
    expect(within(now).getByRole('status').textContent).toMatch(
      /^As the service has this key now, read at .+: “not found” means the key is gone from the service, deleted by that request or otherwise\. This is each key’s state now, not a record of what the unanswered request did\.$/,
    );
    expect(within(now).getAllByRole('row')[1]?.textContent).toBe('KD-ANot found: the service has it neither active nor generated.');
    expect(fake.calls.some((c) => c.name === 'jobs.resume')).toBe(false);
  });

  it('says why bulk actions are off while a job runs', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select KD-A' }));
    const why = /One job at a time per service: these actions come back when the job below ends/;
    expect(screen.queryByText(why)).toBeNull();
    act(() => {
      emit(
        'jobs.progress',
        summary({ action: 'extend', days: 5, total: 10, counts: { pending: 10, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      );
    });
    expect(await screen.findByText(why)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Delete selected' }).disabled).toBe(true);
    act(() => {
      emit(
        'jobs.progress',
        summary({
          action: 'extend',
          days: 5,
          total: 10,
          state: 'finished',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 0, sent: 0, done: 10, failed: 0, unknown: 0 },
        }),
      );
    });
    await waitFor(() => {
      expect(screen.queryByText(why)).toBeNull();
    });
  });

  it('lists the keys whose new expiry could not be read back', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    const extend = { action: 'extend' as const, days: 5, total: 2 };
    fake.impl['jobs.items'] = (input) => {
      const { state, noted } = input as { state?: string; noted?: boolean };
      const items =
        state === 'done' && noted === true
          ? [
              {
                seq: 2,
                target: 'KD-B',
                size: 1,
                state: 'done' as const,
                code: null,
                message: 'Extended. The service did not describe the key…',
              },
            ]
          : [];
      return Promise.resolve({ ok: true, data: { items, total: items.length } });
    };
    render(<AllKeys />);
    await screen.findByText('2 keys');
    act(() => {
      emit('jobs.progress', summary({ ...extend, counts: { pending: 0, sent: 2, done: 0, failed: 0, unknown: 0 } }));
    });
    act(() => {
      emit(
        'jobs.progress',
        summary({
          ...extend,
          state: 'finished',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 0, sent: 0, done: 2, failed: 0, unknown: 0 },
        }),
      );
    });
    const summaryLine = await screen.findByText(/Extended, but the new expiry could not be read back \(1\)/);
    expect(within(summaryLine.closest('details') as HTMLElement).getByText('KD-B')).toBeTruthy();
  });
});
