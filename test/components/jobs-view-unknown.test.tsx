// An opened job's unsent and unknown items in the Jobs view, in jsdom against the fake bridge: Resume asks first,
// unknown items are never sent again without a yes, and they can be checked first as the service has them now.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { emit, fake, key, useKeydesk } from '../support/fake-bridge.ts';
import { jobRowTexts as rowTexts, listed } from '../support/fake-jobs.ts';
import { EXTEND, GENERATE, interrupted, item, readyJobsView, summary } from '../support/jobs-view-fixtures.ts';
import { Jobs } from '../../src/renderer/src/views/Jobs/Jobs.tsx';

beforeEach(readyJobsView);

describe('Jobs: one job opened', () => {
  it('holds Send again while the service does not answer, saying why', async () => {
    fake.impl['jobs.list'] = () => listed([interrupted()]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const again = within(screen.getByRole('region', { name: 'Extend by 30 days' })).getByRole<HTMLButtonElement>('button', {
      name: 'Send the 1 unknown again…',
    });
    expect(again.disabled).toBe(false);
    act(() => useKeydesk.setState({ online: false }));
    expect(again.disabled).toBe(true);
    expect(document.getElementById(again.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Sending again waits until the service answers again.',
    );
    act(() => useKeydesk.setState({ online: true }));
    expect(again.disabled).toBe(false);
  });

  it("tells a generate's Request again to look up its note first", async () => {
    const gen = summary({
      id: GENERATE,
      action: 'generate',
      days: null,
      note: 'spring',
      state: 'interrupted',
      total: 300_000,
      counts: { pending: 0, sent: 0, done: 200_000, failed: 0, unknown: 100_000 },
    });
    fake.impl['jobs.list'] = () => listed([gen]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\), started / }));
    await user.click(
      within(screen.getByRole('region', { name: 'Generate (“spring”)' })).getByRole('button', { name: 'Send the 100,000 unknown again…' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Request 100,000 keys again?' });
    expect(dialog.textContent).toContain(
      'To check first, close this and look up the note “spring” in Keys: keys these requests made carry it.',
    );
    expect(dialog.textContent).not.toContain('Check them first if that matters.');
  });

  it('resumes pending items, and resends unknown ones only after a yes', async () => {
    fake.impl['jobs.list'] = () => listed([interrupted()]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    fake.impl['jobs.resume'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ state: 'running', finishedAt: null, total: 6, counts: { pending: 3, sent: 0, done: 1, failed: 1, unknown: 1 } }),
      });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    expect(
      within(detail).getByText(
        '1 request sent with no answer: it may have taken effect. Keydesk never sends it again by itself; check first (Show: Unknown), then choose.',
      ),
    ).toBeTruthy();

    await user.click(within(detail).getByRole('button', { name: 'Send the 1 unknown again…' }));
    const dialog = screen.getByRole('dialog', { name: 'Send 1 request again?' });
    // One request: "it", not "each".
    expect(dialog.textContent).toMatch(
      /^Send 1 request again\?It was sent once and no answer came back, so it may already have taken effect\. /,
    );
    expect(dialog.textContent).toContain('Sending an extension again extends the key again.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.name === 'jobs.resume')).toBe(false);

    fake.impl['jobs.list'] = () =>
      listed([
        summary({
          state: 'running',
          finishedAt: null,
          days: 30,
          total: 6,
          counts: { pending: 3, sent: 0, done: 1, failed: 1, unknown: 1 },
        }),
      ]);
    await user.click(within(detail).getByRole('button', { name: 'Resume extending 3 keys by 30 days…' }));
    // A cancel was a change of mind: resuming an extend asks first, naming the act and the count.
    const resumeDialog = screen.getByRole('dialog', { name: 'Extend the 3 keys not sent by 30 days?' });
    expect(fake.calls.some((c) => c.name === 'jobs.resume')).toBe(false);
    await user.click(within(resumeDialog).getByRole('button', { name: 'Extend 3 keys' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.resume').map((c) => c.input)).toEqual([{ jobId: EXTEND, retryUnknown: false }]);
    await waitFor(() => {
      expect(rowTexts()[0]?.[1]).toBe('Running');
    });
    // Running now: nothing to resume or remove, and Cancel is offered.
    expect(within(detail).queryByRole('button', { name: /Resume|Remove/ })).toBeNull();
    expect(within(detail).getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('checks the unknown keys as the service has them now', async () => {
    const stopped = summary({
      state: 'interrupted',
      days: 30,
      total: 6,
      counts: { pending: 2, sent: 0, done: 1, failed: 1, unknown: 2 },
      reason: 'Keydesk stopped while this job ran.',
    });
    fake.impl['jobs.list'] = () => listed([stopped]);
    fake.impl['jobs.items'] = (input) =>
      Promise.resolve({
        ok: true,
        data:
          (input as { state?: string }).state === 'unknown'
            ? { items: [item(4, 'KD-A', 'unknown', 'No answer.'), item(5, 'KD-B', 'unknown', 'No answer.')], total: 2 }
            : { items: [], total: 0 },
      });
    // KD-A is active with an expiry the extension may have moved; KD-B the service has no more.
    fake.impl['keys.fetchActive'] = (input) =>
      Promise.resolve({
        ok: true,
        data:
          (input as { term: string }).term === 'KD-A'
            ? { keys: [key('KD-A', 'active', { expiresAt: '2099-01-31T23:59:59.999Z', hwid: 'HW-1' })], total: 1 }
            : { keys: [], total: 0 },
      });
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    await user.click(within(detail).getByRole('button', { name: 'Send the 2 unknown again…' }));
    const dialog = screen.getByRole('dialog', { name: 'Send 2 requests again?' });
    expect(dialog.textContent).toContain(
      '“Check these keys first” reads each of them as the service has them now, so you can see whether the request took effect before sending it again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check these keys first' }));
    expect(dialog.hasAttribute('open')).toBe(false);

    const now = await within(detail).findByRole('region', { name: 'Keys sent with no answer, as the service has them now' });
    const said = within(now).getByRole('status').textContent;
    expect(said).toMatch(
      /^As the service has these keys now, read at .+: an expiry already 30 days later than before means that extension took effect, and sending it again would extend the key a second time\. This is each key’s state now, not a record of what the unanswered request did\.$/,
    );
    const rows = within(now)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows[1]).toMatch(/^KD-AActive.*Bound.*HW-1$/);
    expect(rows[1]).toContain('2099');
    expect(rows[2]).toBe('KD-BNot found: the service has it neither active nor generated.');
    // Each key read by its exact value, and nothing sent again.
    expect(fake.calls.filter((c) => c.name === 'keys.fetchActive').map((c) => (c.input as { term: string }).term)).toEqual([
      'KD-A',
      'KD-B',
    ]);
    expect(fake.calls.some((c) => c.name === 'jobs.resume')).toBe(false);
    // The job moves on (resumed elsewhere, say): what was read of its keys no longer stands beside it.
    act(() => {
      emit(
        'jobs.progress',
        summary({
          state: 'running',
          finishedAt: null,
          days: 30,
          total: 6,
          counts: { pending: 2, sent: 0, done: 1, failed: 1, unknown: 2 },
        }),
      );
    });
    await waitFor(() => {
      expect(within(detail).queryByRole('region', { name: 'Keys sent with no answer, as the service has them now' })).toBeNull();
    });
  });

  it('says when the keys could not be read now', async () => {
    const stopped = summary({
      state: 'interrupted',
      days: 30,
      total: 6,
      counts: { pending: 2, sent: 0, done: 1, failed: 1, unknown: 2 },
      reason: 'Keydesk stopped while this job ran.',
    });
    fake.impl['jobs.list'] = () => listed([stopped]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [item(4, 'KD-A', 'unknown', 'No answer.')], total: 2 } });
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    await user.click(within(detail).getByRole('button', { name: 'Send the 2 unknown again…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Send 2 requests again?' })).getByRole('button', { name: 'Check these keys first' }),
    );
    await within(detail).findByText('The keys sent with no answer could not be read now:');
    expect(within(detail).getByRole('alert').textContent).toContain('Keydesk could not reach the service.');
    expect(within(detail).queryByRole('region', { name: 'Keys sent with no answer, as the service has them now' })).toBeNull();
  });
});
