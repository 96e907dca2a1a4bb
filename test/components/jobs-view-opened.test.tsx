// One job opened in the Jobs view, in jsdom against the fake bridge: its results by state (never another state's
// rows meanwhile), export and focus, a running job's results read again, and the job removed after a yes.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import { fake, useKeydesk } from '../support/fake-bridge.ts';
import { deferred, jobRowTexts as rowTexts, listed } from '../support/fake-jobs.ts';
import { EXTEND, GENERATE, interrupted, item, readyJobsView, summary } from '../support/jobs-view-fixtures.ts';
import { Jobs } from '../../src/renderer/src/views/Jobs/Jobs.tsx';

beforeEach(readyJobsView);

describe('Jobs: one job opened', () => {
  it("shows an opened job's results by state, with export and focus", async () => {
    fake.impl['jobs.list'] = () => listed([interrupted()]);
    fake.impl['jobs.items'] = (input) => {
      const { state } = input as { state?: string };
      const all = [
        item(1, 'KD-A', 'done'),
        item(2, 'KD-B', 'failed', 'No key has that value.'),
        item(3, 'KD-C', 'unknown', 'The connection closed before an answer.'),
        item(4, 'KD-D', 'pending'),
        item(5, 'KD-E', 'pending'),
        item(6, 'KD-F', 'pending'),
      ];
      const items = all.filter((i) => state === undefined || i.state === state);
      return Promise.resolve({ ok: true, data: { items, total: items.length } });
    };
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keydesk-job-extend.csv' } });
    const user = userEvent.setup();
    render(<Jobs />);
    await screen.findByRole('table', { name: 'Jobs' });
    const open = screen.getByRole('button', { name: /^Extend by 30 days, started / });
    await user.click(open);
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    expect(document.activeElement).toBe(within(detail).getByRole('heading', { level: 2 }));
    expect(within(detail).getAllByRole('status')[0]?.textContent).toBe(
      'Extend by 30 days, interrupted: 1 of 6 done, 1 failed, 1 unknown, 3 not sent.',
    );
    expect(within(detail).getByText('Keydesk stopped while this job ran.')).toBeTruthy();
    const results = await within(detail).findByRole('table', { name: 'Job results' });
    expect(
      within(results)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['KD-A', 'Extended', '—'],
      ['KD-B', 'Refused', 'No key has that value.'],
      ['KD-C', 'Unknown: sent, no answer came back', 'The connection closed before an answer.'],
      ['KD-D', 'Not sent', '—'],
      ['KD-E', 'Not sent', '—'],
      ['KD-F', 'Not sent', '—'],
    ]);
    await user.selectOptions(within(detail).getByLabelText('Show'), 'Unknown (1)');
    await waitFor(() => {
      expect(
        within(detail)
          .getAllByRole('row')
          .slice(1)
          .map((r) => r.textContent),
      ).toEqual(['KD-CUnknown: sent, no answer came backThe connection closed before an answer.']);
    });
    expect(fake.calls.filter((c) => c.name === 'jobs.items').at(-1)?.input).toEqual({
      jobId: EXTEND,
      state: 'unknown',
      offset: 0,
      limit: 100,
    });

    await user.click(within(detail).getByRole('button', { name: 'Export results CSV' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([{ jobId: EXTEND, format: 'csv' }]);
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Saved to /tmp/keydesk-job-extend.csv.' });
    });
    // The toast leaves; where the file went stays beside the job.
    expect(within(detail).getByText(/^Last saved to/).textContent).toBe('Last saved to /tmp/keydesk-job-extend.csv');

    await user.click(within(detail).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Extend by 30 days' })).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Extend by 30 days/ }));
    });
  });

  it("never shows another state's rows while the chosen page loads", async () => {
    fake.impl['jobs.list'] = () => listed([interrupted()]);
    const unknown = deferred<OperationResult<'jobs.items'>>();
    fake.impl['jobs.items'] = (input) =>
      (input as { state?: string }).state === 'unknown'
        ? unknown.promise
        : Promise.resolve({ ok: true, data: { items: [item(1, 'KD-A', 'done'), item(3, 'KD-C', 'unknown', 'No answer.')], total: 2 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    await within(detail).findByRole('table', { name: 'Job results' });
    await user.selectOptions(within(detail).getByLabelText('Show'), 'Unknown (1)');
    expect(within(detail).queryByRole('table', { name: 'Job results' })).toBeNull();
    expect(within(detail).getByText("Loading the job's results…")).toBeTruthy();
    await act(async () => {
      unknown.resolve({ ok: true, data: { items: [item(3, 'KD-C', 'unknown', 'No answer.')], total: 1 } });
      await unknown.promise;
    });
    const rows = within(await within(detail).findByRole('table', { name: 'Job results' })).getAllByRole('row');
    expect(rows.slice(1).map((r) => r.textContent)).toEqual(['KD-CUnknown: sent, no answer came backNo answer.']);
  });

  it("reads a running job's results again as it runs", async () => {
    fake.impl['jobs.list'] = () =>
      listed([summary({ state: 'running', finishedAt: null, total: 2, counts: { pending: 0, sent: 2, done: 0, failed: 0, unknown: 0 } })]);
    let answered = false;
    fake.impl['jobs.items'] = () =>
      Promise.resolve({ ok: true, data: { items: [item(1, 'KD-A', answered ? 'done' : 'sent'), item(2, 'KD-B', 'sent')], total: 2 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 1 day/ }));
    const results = await screen.findByRole('table', { name: 'Job results' });
    expect(within(results).getAllByRole('row')[1]?.textContent).toBe('KD-ASent, awaiting an answer—');
    answered = true;
    await waitFor(() => {
      expect(within(results).getAllByRole('row')[1]?.textContent).toBe('KD-AExtended—');
    });
  });

  it('removes a stopped job after a yes that says what goes', async () => {
    // Main's list as main keeps it: a job removed is not listed again.
    let jobs = [
      summary({
        id: GENERATE,
        action: 'generate',
        days: null,
        note: 'spring',
        state: 'cancelled',
        total: 300_000,
        counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 },
      }),
      summary({}),
    ];
    fake.impl['jobs.list'] = () => listed(jobs);
    fake.impl['jobs.items'] = () =>
      Promise.resolve({
        ok: true,
        data: { items: [{ seq: 1, target: 'batch 1', size: 100_000, state: 'done', code: null, message: null }], total: 3 },
      });
    fake.impl['jobs.forget'] = (input) => {
      jobs = jobs.filter((j) => j.id !== (input as { jobId: string }).jobId);
      return Promise.resolve({ ok: true, data: null });
    };
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: null } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\)/ }));
    const detail = screen.getByRole('region', { name: 'Generate (“spring”)' });
    await user.click(within(detail).getByRole('button', { name: 'Export the 200,000 keys JSON' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([
      { jobId: GENERATE, format: 'json', what: 'keys' },
    ]);
    await user.click(within(detail).getByRole('button', { name: 'Remove from the list…' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this job from the list?' });
    expect(dialog.textContent).toContain('The 200,000 keys it made stay in All keys (search them by note)');
    expect(dialog.textContent).toContain('The 100,000 not sent can no longer be resumed.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.forget').map((c) => c.input)).toEqual([{ jobId: GENERATE }]);
    await waitFor(() => {
      expect(rowTexts().map((r) => r[0])).toEqual(['Extend by 1 day5 keys']);
    });
    expect(screen.queryByRole('region', { name: 'Generate (“spring”)' })).toBeNull();
  });

  it('keeps a job listed when main refuses to remove it', async () => {
    fake.impl['jobs.list'] = () => listed([summary({})]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    fake.impl['jobs.forget'] = () =>
      Promise.resolve({
        ok: false,
        code: 'CONFLICT',
        message: 'That job is still running: cancel it and wait for it to end, then remove it.',
      });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 1 day/ }));
    await user.click(screen.getByRole('button', { name: 'Remove from the list…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Remove this job from the list?' })).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        text: 'Remove a job from the list: That job is still running: cancel it and wait for it to end, then remove it.',
      });
    });
    expect(rowTexts()).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Extend by 1 day' })).toBeTruthy();
  });
});
