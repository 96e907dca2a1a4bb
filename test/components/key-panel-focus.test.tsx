// Where the focus goes after the key panel's acts: back on the button that asked (its dialog's opener included),
// or on the panel's heading when that button stays off.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, key, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoHwid } from '../support/view-start.ts';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';

const bound = key('KEY-A', 'active', { hwid: 'HW-CUSTOMER', expire: '2099-01-01', expiresAt: '2099-01-01T23:59:59.999Z' });
/** Answers an extend of `days` only when `release` is called: the button waits, disabled, meanwhile. */
let release: () => void = () => {};

beforeEach(() => {
  readyWithNoHwid();
  useKeydesk.setState({ lookupRequest: { status: 'ready', error: null }, lookupResult: { active: [bound], generated: [] } });
  fake.impl['keys.extend'] = () =>
    new Promise((resolve) => {
      release = () => resolve({ ok: true, data: { key: { ...bound, expire: '2099-01-06', expiresAt: '2099-01-06T23:59:59.999Z' } } });
    });
  fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: { ...bound, hwid: null } } });
});

async function openPanel(user: ReturnType<typeof userEvent.setup>) {
  render(<Keys />);
  await user.click(screen.getByRole('button', { name: 'KEY-A' }));
  return screen.getByRole('complementary', { name: 'Key detail' });
}

describe('key panel: the focus after an act', () => {
  it('puts the focus back on Extend once the extend is answered', async () => {
    const user = userEvent.setup();
    const panel = await openPanel(user);
    const days = within(panel).getByLabelText('Extend by days');
    await user.clear(days);
    await user.type(days, '5');
    await user.click(within(panel).getByRole('button', { name: 'Extend' }));
    await within(panel).findByRole('button', { name: 'Extending…' });
    // Waiting, the button is off: a browser drops the focus to the page then.
    (document.activeElement as HTMLElement).blur();
    release();
    await waitFor(() => {
      expect(document.activeElement).toBe(within(panel).getByRole('button', { name: 'Extend' }));
    });
    expect(panel.querySelector('time[datetime="2099-01-06T23:59:59.999Z"]')).not.toBeNull();
  });

  it('returns to Extend after a long extend is confirmed in its dialog', async () => {
    const user = userEvent.setup();
    const panel = await openPanel(user);
    const days = within(panel).getByLabelText('Extend by days');
    await user.clear(days);
    await user.type(days, '36500');
    await user.click(within(panel).getByRole('button', { name: 'Extend' }));
    const dialog = screen.getByRole('dialog', { name: 'Extend by 36,500 days?' });
    await user.click(within(dialog).getByRole('button', { name: 'Extend by 36,500 days' }));
    release();
    await waitFor(() => {
      expect(document.activeElement).toBe(within(panel).getByRole('button', { name: 'Extend' }));
    });
  });

  it('gives the focus back to the opener when a dialog is cancelled', async () => {
    const user = userEvent.setup();
    const panel = await openPanel(user);
    await user.click(within(panel).getByRole('button', { name: 'Delete key' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this key?' })).getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(within(panel).getByRole('button', { name: 'Delete key' }));
  });

  it('focuses the heading after an HWID reset turns Reset HWID off', async () => {
    const user = userEvent.setup();
    const panel = await openPanel(user);
    await user.click(within(panel).getByRole('button', { name: 'Reset HWID' }));
    await user.click(within(screen.getByRole('dialog', { name: "Reset this key's HWID?" })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => {
      expect(within(panel).getByRole('button', { name: 'Reset HWID' }).hasAttribute('disabled')).toBe(true);
      expect(document.activeElement).toBe(within(panel).getByRole('heading', { name: 'Key detail' }));
    });
  });
});
