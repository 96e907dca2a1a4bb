// Generate of more keys than one request takes, as a person meets it in jsdom against the fake bridge: said before
// it starts, then a job with progress, cancel, Resume and an export of its keys; a bad count refused with the limit.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emit, fake, useKeydesk } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { JOB, readyWithNoJobs, summary } from '../support/job-fixtures.ts';
import { toKeyBatch } from '../../src/shared/key-batch.ts';
import { selectJob } from '../../src/renderer/src/store/job-selectors.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';

beforeEach(readyWithNoJobs);

describe('Generate: more keys than one request takes', () => {
  it('runs a large generate as a job, then cancels and exports it', async () => {
    // Only the clock is set by hand, so the rate measured between two summaries is known.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00.000Z'));
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '100001');
    expect(screen.getByText(/More than 100,000 keys \(the service's limit per request\): sent as 2 requests, run as a job/)).toBeTruthy();
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: summary({}) });
    await user.type(screen.getByLabelText('Note'), 'spring');
    await user.click(screen.getByRole('button', { name: 'Generate as a job of 2 requests' }));

    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.start').map((c) => c.input)).toEqual([
        expect.objectContaining({ action: 'generate', count: 100_001, note: 'spring', isPremium: false, expiresByDaysKey: false }),
      ]);
    });
    expect(fake.calls.some((c) => c.name === 'keys.generate')).toBe(false);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    // Before the first answer: what is happening, and a bar that claims no progress yet.
    expect(within(panel).getByRole('status').textContent).toBe(
      'Generate, running: sending the first request, 0 of 100,001 done until it answers.',
    );
    expect(within(panel).getByLabelText<HTMLProgressElement>('Generate job progress').hasAttribute('value')).toBe(false);
    // While it runs, the form does not start another.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Generate as a job of 2 requests' }).disabled).toBe(true);

    // The first request answers 4 s later (main has no rate yet: one answer): the rate and time left from here.
    vi.setSystemTime(new Date('2026-01-01T00:00:04.000Z'));
    act(() => {
      emit('jobs.progress', summary({ counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 } }));
    });
    expect(within(panel).getByRole('status').textContent).toBe(
      'Generate, running: 100,000 of 100,001 done, 25,000 keys/s, about 1 s left.',
    );
    vi.useRealTimers();
    expect(within(panel).getByLabelText<HTMLProgressElement>('Generate job progress').value).toBe(100_000);
    fake.impl['jobs.cancel'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ state: 'cancelled', counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 } }),
      });
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.cancel').map((c) => c.input)).toEqual([{ jobId: JOB }]);
    act(() => {
      emit(
        'jobs.progress',
        summary({
          state: 'cancelled',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(within(panel).getByRole('status').textContent).toBe('Generate, cancelled: 100,000 of 100,001 done, 1 not sent.');
    expect(within(panel).getByRole('button', { name: 'Resume (1 key not requested)' })).toBeTruthy();

    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keydesk-generated.csv' } });
    await user.click(within(panel).getByRole('button', { name: 'Export the 100,000 keys CSV' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([{ jobId: JOB, format: 'csv', what: 'keys' }]);
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Saved to /tmp/keydesk-generated.csv.' });
    });
  });

  it('says cancelling while a request is still out', async () => {
    const user = userEvent.setup();
    fake.impl['jobs.list'] = () =>
      listed([summary({ total: 300_000, counts: { pending: 200_000, sent: 100_000, done: 0, failed: 0, unknown: 0 } })]);
    render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    const out = { pending: 100_000, sent: 100_000, done: 100_000, failed: 0, unknown: 0 };
    act(() => {
      emit('jobs.progress', summary({ total: 300_000, counts: out }));
    });
    fake.impl['jobs.cancel'] = () => Promise.resolve({ ok: true, data: summary({ total: 300_000, state: 'cancelled', counts: out }) });
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    const status = within(panel).getByRole('status');
    await waitFor(() => {
      expect(status.textContent).toBe('Generate, cancelling: 100,000 of 300,000 done, 100,000 sent, awaiting an answer, 100,000 not sent.');
    });
    expect(document.activeElement).toBe(status);
    // Main is not done with it: nothing to resume, dismiss, export or start yet.
    expect(within(panel).queryByRole('button', { name: /Resume|Dismiss|Export/ })).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /^Generate/ }).disabled).toBe(true);
    expect(within(panel).getByText(/the one already on its way still makes its keys, and its answer ends the job/)).toBeTruthy();

    act(() => {
      emit(
        'jobs.progress',
        summary({
          total: 300_000,
          state: 'cancelled',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(status.textContent).toBe('Generate, cancelled: 200,000 of 300,000 done, 100,000 not sent.');
    expect(within(panel).getByRole('button', { name: 'Resume (100,000 keys not requested)' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Export the 200,000 keys CSV' })).toBeTruthy();
  });

  it('says finished when the cancel came after the last request', async () => {
    fake.impl['jobs.list'] = () =>
      listed([summary({ total: 150_000, counts: { pending: 0, sent: 50_000, done: 100_000, failed: 0, unknown: 0 } })]);
    render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    act(() => {
      emit(
        'jobs.progress',
        summary({
          total: 150_000,
          state: 'cancelled',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 0, sent: 0, done: 150_000, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(within(panel).getByRole('status').textContent).toBe(
      'Generate, finished (the cancel came after the last request): 150,000 of 150,000 done.',
    );
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Generate: 150,000 of 150,000 done.' });
  });

  it("keeps a job's export and Resume after a bulk action", async () => {
    const user = userEvent.setup();
    // An earlier single-request batch is on screen when the job starts.
    useKeydesk.setState({ lastGenerated: ['KD-OLD'] });
    render(<GenerateForm />);
    expect(screen.getByText('1 key generated.')).toBeTruthy();
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '100001');
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: summary({}) });
    await user.click(screen.getByRole('button', { name: 'Generate as a job of 2 requests' }));
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    expect(screen.queryByText('1 key generated.')).toBeNull();
    expect(screen.queryByText('KD-OLD')).toBeNull();
    expect(within(panel).getByText(/^Generate job of 100,001 keys \(note “spring”\), started /)).toBeTruthy();
    act(() => {
      emit(
        'jobs.progress',
        summary({
          state: 'cancelled',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 },
        }),
      );
    });
    // A bulk delete in All keys takes the jobs panel; the Generate form keeps its own job.
    const DELETE = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    act(() => {
      emit(
        'jobs.progress',
        summary({ id: DELETE, action: 'delete', total: 3, counts: { pending: 3, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      );
    });
    act(() => {
      emit(
        'jobs.progress',
        summary({
          id: DELETE,
          action: 'delete',
          total: 3,
          state: 'finished',
          finishedAt: '2026-01-01T00:02:00.000Z',
          counts: { pending: 0, sent: 0, done: 3, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(selectJob(useKeydesk.getState())?.id).toBe(DELETE);
    expect(within(panel).getByRole('status').textContent).toBe('Generate, cancelled: 100,000 of 100,001 done, 1 not sent.');
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keys.json' } });
    await user.click(within(panel).getByRole('button', { name: 'Export the 100,000 keys JSON' }));
    fake.impl['jobs.resume'] = () =>
      Promise.resolve({ ok: true, data: summary({ counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 } }) });
    await user.click(within(panel).getByRole('button', { name: 'Resume (1 key not requested)' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.resume').map((c) => c.input)).toEqual([{ jobId: JOB, retryUnknown: false }]);
    });
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([{ jobId: JOB, format: 'json', what: 'keys' }]);
  });

  it('refuses more than a job takes beside the count, and sends nothing', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '1000001');
    expect(screen.queryByText(/sent as \d+ requests/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(
      screen.getByText('Count must be a whole number from 1 to 1,000,000; above 100,000 runs as a job of several requests.'),
    ).toBeTruthy();
    expect(fake.calls.some((c) => c.name === 'jobs.start' || c.name === 'keys.generate')).toBe(false);
  });

  it('gives every bad count the same sentence with the job limit', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    const count = screen.getByLabelText('Count');
    for (const bad of ['', '-5', '1e3', '2.5', '0']) {
      await user.clear(count);
      if (bad !== '') await user.type(count, bad);
      await user.click(screen.getByRole('button', { name: 'Generate' }));
      expect(count.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(count.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe(
        'Count must be a whole number from 1 to 1,000,000; above 100,000 runs as a job of several requests.',
      );
    }
    expect(fake.calls.some((c) => c.name === 'jobs.start' || c.name === 'keys.generate')).toBe(false);
  });

  it('keeps 100,000 and below one keys.generate request, as before', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: true, data: { generated: toKeyBatch([]) } });
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '100000');
    expect(screen.queryByText(/sent as \d+ requests/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.generate').map((c) => (c.input as { count: number }).count)).toEqual([100_000]);
    });
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);
  });

  it('sends the picked customer with the job, for main to link', async () => {
    const user = userEvent.setup();
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: summary({}) });
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '100001');
    await user.click(screen.getByRole('button', { name: 'New customer' }));
    await user.type(screen.getByLabelText('New customer’s name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Use' }));
    await user.click(screen.getByRole('button', { name: 'Generate as a job of 2 requests' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.start').map((c) => c.input)).toEqual([
        expect.objectContaining({
          action: 'generate',
          count: 100_001,
          customer: { fields: { name: 'Ada', email: '', discordId: '', reference: '', tags: [], note: '' } },
        }),
      ]);
    });
    expect(fake.calls.some((c) => c.name === 'customers.link')).toBe(false);
  });
});
