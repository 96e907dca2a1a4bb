// The key detail panel's acts in jsdom against the fake bridge: it asks before an HWID reset or a long extend, the
// row follows each change, no field error carries over, and the focus moves on open, Esc and delete.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, key, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoHwid } from '../support/view-start.ts';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';

beforeEach(readyWithNoHwid);

describe('Keys: the detail panel', () => {
  it('does not carry a field error over to the next key opened', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({
      lookupRequest: { status: 'ready', error: null },
      lookupResult: { active: [], generated: [key('KEY-A'), key('KEY-B')] },
    });
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-A' }));
    const detail = screen.getByRole('complementary', { name: 'Key detail' });
    await user.clear(within(detail).getByLabelText('Extend by days'));
    await user.type(within(detail).getByLabelText('Extend by days'), '0');
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    expect(within(detail).getByText('Days must be a whole number from 1 to 999,999.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'KEY-B' }));
    const next = screen.getByRole('complementary', { name: 'Key detail' });
    expect(within(next).getByText('KEY-B', { selector: 'dd span.mono' })).toBeTruthy();
    expect(within(next).queryByText('Days must be a whole number from 1 to 999,999.')).toBeNull();
    expect(within(next).getByLabelText<HTMLInputElement>('Extend by days').value).toBe('30');
  });

  it('shows the new expiry and HWID in the row after changes', async () => {
    const user = userEvent.setup();
    const bound = key('KEY-A', 'active', { hwid: 'HW-OLD', expire: '2099-01-01', expiresAt: '2099-01-01T23:59:59.999Z' });
    const extended = { ...bound, expire: '2099-01-06', expiresAt: '2099-01-06T23:59:59.999Z' };
    const expiry = (iso: string) => table.querySelector(`time[datetime="${iso}"]`);
    useKeydesk.setState({ lookupRequest: { status: 'ready', error: null }, lookupResult: { active: [bound], generated: [] } });
    fake.impl['keys.extend'] = () => Promise.resolve({ ok: true, data: { key: extended } });
    fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: { ...extended, hwid: null } } });
    render(<Keys />);
    const table = screen.getByRole('table', { name: 'Matching keys' });
    expect(expiry('2099-01-01T23:59:59.999Z')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'KEY-A' }));
    const detail = screen.getByRole('complementary', { name: 'Key detail' });
    await user.clear(within(detail).getByLabelText('Extend by days'));
    await user.type(within(detail).getByLabelText('Extend by days'), '5');
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    await waitFor(() => {
      expect(expiry('2099-01-06T23:59:59.999Z')).not.toBeNull();
    });
    expect(expiry('2099-01-01T23:59:59.999Z')).toBeNull();
    await user.click(within(detail).getByRole('button', { name: 'Reset HWID' }));
    await user.click(within(screen.getByRole('dialog', { name: "Reset this key's HWID?" })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => {
      expect(within(table).queryByText('HW-OLD')).toBeNull();
    });
  });
});

describe('Keys: asking first, and the keyboard', () => {
  const bound = key('KEY-A', 'active', { hwid: 'HW-CUSTOMER' });
  const open = async (user: ReturnType<typeof userEvent.setup>, value = 'KEY-A') => {
    await user.click(screen.getByRole('button', { name: value }));
    return screen.getByRole('complementary', { name: 'Key detail' });
  };
  beforeEach(() => {
    useKeydesk.setState({
      lookupRequest: { status: 'ready', error: null },
      lookupResult: { active: [bound], generated: [key('KEY-B'), key('KEY-C')] },
    });
  });

  it('asks before an HWID reset, naming the machine; Cancel sends nothing', async () => {
    const user = userEvent.setup();
    fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: { ...bound, hwid: null } } });
    render(<Keys />);
    const detail = await open(user);
    await user.click(within(detail).getByRole('button', { name: 'Reset HWID' }));
    const dialog = screen.getByRole('dialog', { name: "Reset this key's HWID?" });
    expect(dialog.textContent).toContain('KEY-A is bound to HW-CUSTOMER.');
    expect(dialog.textContent).toContain("The customer's machine is unbound");
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.filter((c) => c.name === 'keys.resetHwid')).toEqual([]);
    await user.click(within(detail).getByRole('button', { name: 'Reset HWID' }));
    await user.click(within(screen.getByRole('dialog', { name: "Reset this key's HWID?" })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.resetHwid').map((c) => c.input)).toEqual([{ keyValue: 'KEY-A' }]);
    });
  });

  it('asks before extending past ten years only', async () => {
    const user = userEvent.setup();
    fake.impl['keys.extend'] = (input) =>
      Promise.resolve({ ok: true, data: { key: { ...bound, note: String((input as { days: number }).days) } } });
    render(<Keys />);
    const detail = await open(user);
    const days = within(detail).getByLabelText('Extend by days');
    await user.clear(days);
    await user.type(days, '3650');
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.extend').map((c) => c.input)).toEqual([{ keyValue: 'KEY-A', days: 3650 }]);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.clear(days);
    await user.type(days, '36500');
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    const dialog = screen.getByRole('dialog', { name: 'Extend by 36,500 days?' });
    expect(dialog.textContent).toContain('about 100 years');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.filter((c) => c.name === 'keys.extend')).toHaveLength(1);
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Extend by 36,500 days?' })).getByRole('button', { name: 'Extend by 36,500 days' }),
    );
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.extend').map((c) => c.input)).toEqual([
        { keyValue: 'KEY-A', days: 3650 },
        { keyValue: 'KEY-A', days: 36500 },
      ]);
    });
  });

  it('takes the focus on open and gives it back on Esc', async () => {
    const user = userEvent.setup();
    render(<Keys />);
    const detail = await open(user, 'KEY-B');
    expect(detail.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Key detail' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-B' }));
    // The close button does the same.
    await user.keyboard('{Enter}');
    await user.click(
      within(screen.getByRole('complementary', { name: 'Key detail' })).getByRole('button', { name: 'Close the key detail' }),
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-B' }));
  });

  it('keeps the panel open when Esc only cancels a confirmation inside it', async () => {
    const user = userEvent.setup();
    render(<Keys />);
    const detail = await open(user);
    await user.click(within(detail).getByRole('button', { name: 'Delete key' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this key?' });
    // With the focus in the dialog, Esc is the dialog's (a browser cancels the dialog itself), not the panel's.
    within(dialog).getByRole('button', { name: 'Cancel' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('complementary', { name: 'Key detail' })).toBeTruthy();
  });

  it('moves the focus to a neighbouring row after a delete', async () => {
    const user = userEvent.setup();
    fake.impl['keys.delete'] = () => Promise.resolve({ ok: true, data: { deletedKey: 'x' } });
    render(<Keys />);
    const remove = async (value: string) => {
      const detail = await open(user, value);
      await user.click(within(detail).getByRole('button', { name: 'Delete key' }));
      await user.click(within(screen.getByRole('dialog', { name: 'Delete this key?' })).getByRole('button', { name: 'Delete' }));
      await waitFor(() => {
        expect(screen.queryByRole('button', { name: value })).toBeNull();
      });
    };
    await remove('KEY-B');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-C' }));
    await remove('KEY-C');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-A' }));
    await remove('KEY-A');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }));
  });
});
