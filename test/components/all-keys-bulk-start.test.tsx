// Starting a bulk job from All keys in jsdom against the fake bridge: "Select all N" agrees with the job it starts,
// a bad Extend days is refused, a double yes starts one job, and each dialog counts the keys it acts on.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { emit, fake, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoJobs, row, summary } from '../support/job-fixtures.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

beforeEach(readyWithNoJobs);

describe('All keys: jobs', () => {
  it('Select all N names the count the job then covers', async () => {
    // Main counts 3 matching keys that are not deleted; the job it starts over the same filter covers those 3.
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B'), row('KD-C')], total: 3, totalCapped: false } });
    fake.impl['jobs.start'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ action: 'delete', total: 3, counts: { pending: 3, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: 'Select all 3' }));
    expect(screen.getByText('All 3 matching keys')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete all 3 matching keys?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.start').map((c) => c.input)).toEqual([{ action: 'delete', target: { filter: {} } }]);
    });
    expect(await screen.findByText('Delete, running: sending the first requests, 0 of 3 done until they answer.')).toBeTruthy();
    // A bar that claims no progress before an answer, then the answers' share.
    expect(screen.getByLabelText<HTMLProgressElement>('Bulk progress').hasAttribute('value')).toBe(false);
    act(() => {
      emit('jobs.progress', summary({ action: 'delete', total: 3, counts: { pending: 2, sent: 0, done: 1, failed: 0, unknown: 0 } }));
    });
    expect(screen.getByLabelText<HTMLProgressElement>('Bulk progress').value).toBe(1);
  });

  it('counts the matching keys past the cap before asking', async () => {
    fake.impl['ledger.query'] = (input) => {
      const exact = (input as { exactCount?: boolean }).exactCount === true;
      return Promise.resolve({
        ok: true,
        data: exact
          ? { rows: [row('KD-A')], total: 123_456, totalCapped: false, targets: 123_400, targetsCapped: false }
          : { rows: [row('KD-A'), row('KD-B')], total: 10_000, totalCapped: true, targets: 10_000, targetsCapped: true },
      });
    };
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: /^Select all/ }));
    expect(screen.getByText('All matching keys (more than 10,000)')).toBeTruthy();
    await user.clear(screen.getByLabelText('Days'));
    await user.type(screen.getByLabelText('Days'), '5');
    await user.click(screen.getByRole('button', { name: 'Extend selected' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Extend all 123,400 matching keys by 5 days?')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'ledger.query' && (c.input as { exactCount?: boolean }).exactCount === true)).toHaveLength(
      1,
    );
  });

  it('refuses a bad Extend days, then asks first', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    fake.impl['jobs.start'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ action: 'extend', days: 30, total: 2, counts: { pending: 2, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select KD-A' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select KD-B' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    const days = within(bar).getByLabelText('Days');
    for (const bad of ['1e3', '-5', '0', '2.5', '']) {
      await user.clear(days);
      if (bad !== '') await user.type(days, bad);
      await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
      expect(days.getAttribute('aria-invalid')).toBe('true');
      expect(within(bar).getByText('Days must be a whole number from 1 to 999,999.')).toBeTruthy();
      expect(screen.queryByRole('dialog')).toBeNull();
    }
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);

    await user.clear(days);
    await user.type(days, '30');
    await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend 2 keys by 30 days?' });
    expect(within(dialog).getByText(/This cannot be undone\./)).toBeTruthy();
    // Cancel sends nothing and keeps the selection.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);
    expect(within(bar).getByText('2')).toBeTruthy();
    await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Extend 2 keys by 30 days?' })).getByRole('button', { name: 'Extend' }),
    );
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.start').map((c) => c.input)).toEqual([
        { action: 'extend', target: { keyValues: ['KD-A', 'KD-B'] }, days: 30 },
      ]);
    });
  });

  it('starts one job for a double yes, bulk actions off meanwhile', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    // Main lists the job's items before it answers (seconds for a whole ledger): the answer waits for the test.
    let answer: (() => void) | undefined;
    fake.impl['jobs.start'] = () =>
      new Promise((resolve) => {
        answer = () => {
          resolve({
            ok: true,
            data: summary({ action: 'extend', days: 1, total: 2, counts: { pending: 2, sent: 0, done: 0, failed: 0, unknown: 0 } }),
          });
        };
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: 'Select all 2' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    await user.clear(within(bar).getByLabelText('Days'));
    await user.type(within(bar).getByLabelText('Days'), '1');
    await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend all 2 matching keys by 1 day?' });
    await user.dblClick(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(within(bar).getByRole('status').textContent).toMatch(
      /^Extend by 1 day: starting the job… .*nothing new has been sent yet\. \d+ s so far\.$/,
    );
    for (const name of ['Delete selected', 'Reset HWID of selected', 'Extend selected', 'Clear selection']) {
      expect(within(bar).getByRole<HTMLButtonElement>('button', { name }).disabled).toBe(true);
    }
    // The yes cannot be given again meanwhile, and the store refuses a second start too.
    await act(() => useKeydesk.getState().runBulk('extend', 1));
    expect(fake.calls.filter((c) => c.name === 'jobs.start')).toHaveLength(1);
    act(() => {
      answer?.();
    });
    await waitFor(() => {
      expect(within(bar).getByRole('status').textContent).toBe(
        'Extend by 1 day, running: sending the first requests, 0 of 2 done until they answer.',
      );
    });
    expect(fake.calls.filter((c) => c.name === 'jobs.start')).toHaveLength(1);

    // Cancel says "cancelling" at once and goes, before main's answer comes.
    let cancelled: (() => void) | undefined;
    fake.impl['jobs.cancel'] = () =>
      new Promise((resolve) => {
        cancelled = () => {
          resolve({
            ok: true,
            data: summary({
              action: 'extend',
              days: 1,
              total: 2,
              state: 'cancelled',
              finishedAt: '2026-01-01T00:00:01.000Z',
              counts: { pending: 2, sent: 0, done: 0, failed: 0, unknown: 0 },
            }),
          });
        };
      });
    await user.click(within(bar).getByRole('button', { name: 'Cancel' }));
    expect(within(bar).getByRole('status').textContent).toMatch(/^Extend by 1 day, cancelling: no further request is sent/);
    expect(within(bar).queryByRole('button', { name: 'Cancel' })).toBeNull();
    act(() => {
      cancelled?.();
    });
    await waitFor(() => {
      expect(within(bar).getByRole('status').textContent).toBe('Extend by 1 day, cancelled: 0 of 2 done, 2 not sent.');
    });
  });

  it('speaks of one key in the singular in every bulk dialog', async () => {
    const active = { ...row('KD-C'), status: 'active' as const, hwid: 'HW-1' };
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [active], total: 1, totalCapped: false, targets: 1 } });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: 'Select the 1 key' }));
    expect(screen.getByText('The 1 matching key')).toBeTruthy();
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    await user.clear(within(bar).getByLabelText('Days'));
    await user.type(within(bar).getByLabelText('Days'), '2');
    await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
    let dialog = await screen.findByRole('dialog', { name: 'Extend the 1 matching key by 2 days?' });
    expect(within(dialog).getByText("The key's expiry moves 2 days later. This cannot be undone.")).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(bar).getByRole('button', { name: 'Delete selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete the 1 matching key?' });
    expect(within(dialog).getByText('It stops working at once. This cannot be undone.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // One row ticked: "1 key", and the reset speaks of that key.
    await user.click(within(bar).getByRole('button', { name: 'Clear selection' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select KD-C' }));
    // The bar went with the selection and came back with the new one.
    const again = screen.getByRole('region', { name: 'Bulk actions' });
    await user.click(within(again).getByRole('button', { name: 'Reset HWID of selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset the HWID of 1 key?' });
    expect(
      within(dialog).getByText(
        /^This key is active \(bound to a machine now\): the reset is sent for it, and it will bind to the next machine that validates it\. /,
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/1 of the 1|each will bind/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);
  });

  it('bulk Reset HWID counts only the picked keys that are bound', async () => {
    const active = { ...row('KD-C'), status: 'active' as const, hwid: 'HW-1' };
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B'), active], total: 3, totalCapped: false } });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select KD-A' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select KD-B' }));
    await user.click(screen.getByRole('button', { name: 'Reset HWID of selected' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reset the HWID of 2 keys?' });
    expect(
      within(dialog).getByText(
        /^None of these 2 keys is active: nothing to reset, and nothing will be sent\. Keydesk goes by the Status its ledger shows: a key a customer activated since/,
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/will bind to the next machine/)).toBeNull();
    // Nothing to confirm: no Reset, only Close.
    expect(within(dialog).queryByRole('button', { name: 'Reset' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);

    await user.click(screen.getByRole('checkbox', { name: 'Select KD-C' }));
    await user.click(screen.getByRole('button', { name: 'Reset HWID of selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset the HWID of 3 keys?' });
    expect(
      within(dialog).getByText(
        /^1 of the 3 keys is active \(1 bound to a machine now\): the reset is sent for that one only, and it will bind to the next machine that validates it\. The other 2 \(generated or deleted\) are left out: nothing is sent for them\./,
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // All matching: the ledger's count of active keys among them, asked when the reset is.
    fake.impl['ledger.query'] = (input) =>
      Promise.resolve({
        ok: true,
        data:
          (input as { filter: { status?: string } }).filter.status === 'active'
            ? { rows: [active], total: 1, totalCapped: false }
            : { rows: [row('KD-A'), row('KD-B'), active], total: 3, totalCapped: false, targets: 3 },
      });
    await user.click(screen.getByRole('button', { name: 'Select all 3' }));
    await user.click(screen.getByRole('button', { name: 'Reset HWID of selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset the HWID of all 3 matching keys?' });
    await within(dialog).findByText(
      /^1 of the 3 keys is active: the reset is sent for that one only.*The other 2 \(generated or deleted\) are left out/,
    );
    expect(
      fake.calls
        .filter((c) => c.name === 'ledger.query')
        .map((c) => c.input)
        .at(-1),
    ).toMatchObject({ filter: { status: 'active' }, exactCount: true });
  });
});
