// The key detail panel as a person meets it: why an action is not offered, and the keyboard while it is open.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Key } from '../../src/shared/domain.ts';
import { fake, key, readyStore, useKeydesk } from '../support/fake-bridge.ts';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';

const show = (...keys: Key[]) => {
  useKeydesk.setState({
    lookupRequest: { status: 'ready', error: null },
    lookupTerm: 'KEY',
    lookupResult: { active: keys.filter((k) => k.status === 'active'), generated: keys.filter((k) => k.status !== 'active') },
  });
};

beforeEach(() => {
  readyStore();
});

const panel = () => screen.getByRole('complementary', { name: 'Key detail' });
const resetButton = () => within(panel()).getByRole('button', { name: 'Reset HWID' });
const why = () => document.getElementById(resetButton().getAttribute('aria-describedby') ?? '')?.textContent;

describe('Key detail: Reset HWID', () => {
  it('disables Reset HWID for a generated key, saying why', async () => {
    const user = userEvent.setup();
    show(key('KEY-G'));
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-G' }));
    expect((resetButton() as HTMLButtonElement).disabled).toBe(true);
    expect(why()).toBe('Only an active key has an HWID to reset.');
  });

  it('is disabled for an active key bound to no machine, saying so', async () => {
    const user = userEvent.setup();
    show(key('KEY-U', 'active', { hwid: null }));
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-U' }));
    expect((resetButton() as HTMLButtonElement).disabled).toBe(true);
    expect(why()).toBe('Not bound to a machine: there is no HWID to reset.');
  });

  it('shows the key unbound after a reset, offering no second reset', async () => {
    const user = userEvent.setup();
    const bound = key('KEY-B', 'active', { hwid: 'HW-1' });
    fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: { ...bound, hwid: null } } });
    show(bound);
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-B' }));
    expect((resetButton() as HTMLButtonElement).disabled).toBe(false);
    expect(resetButton().getAttribute('aria-describedby')).toBeNull();
    await user.click(resetButton());
    await user.click(within(screen.getByRole('dialog', { name: "Reset this key's HWID?" })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => {
      expect((resetButton() as HTMLButtonElement).disabled).toBe(true);
    });
    expect(why()).toBe('Not bound to a machine: there is no HWID to reset.');
    expect(fake.calls.filter((c) => c.name === 'keys.resetHwid')).toHaveLength(1);
  });
});

describe('Key detail: the keyboard while it is open', () => {
  it('keeps Tab and Shift+Tab inside the panel', async () => {
    const user = userEvent.setup();
    show(key('KEY-A', 'active', { hwid: 'HW-1' }), key('KEY-B'));
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-A' }));
    const inside = () => panel().contains(document.activeElement);
    for (let i = 0; i < 12; i++) {
      await user.tab();
      expect(inside()).toBe(true);
    }
    for (let i = 0; i < 12; i++) {
      await user.tab({ shift: true });
      expect(inside()).toBe(true);
    }
    screen.getByRole('searchbox', { name: 'Key value, note or HWID' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(within(panel()).getByRole('button', { name: 'Close the key detail' }));
  });

  it('closes on Esc with the focus in the search box', async () => {
    const user = userEvent.setup();
    show(key('KEY-A'));
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-A' }));
    screen.getByRole('searchbox', { name: 'Key value, note or HWID' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Key detail' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-A' }));
  });
});

describe('Key detail: blanks', () => {
  it('shows an empty note and unbound HWID as a dash', async () => {
    const user = userEvent.setup();
    show(key('KEY-E', 'active', { note: '', hwid: null }));
    render(<Keys />);
    const row = screen.getByRole('button', { name: 'KEY-E' }).closest('tr');
    expect([...(row?.querySelectorAll('td') ?? [])].filter((td) => td.textContent === '—')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'KEY-E' }));
    const value = (label: string) =>
      [...panel().querySelectorAll('dt')].find((dt) => dt.textContent === label)?.nextElementSibling?.textContent;
    expect(value('Note')).toBe('—');
    expect(value('HWID')).toBe('—');
  });
});

describe('Key detail: an action in flight says so', () => {
  it.each([
    ['extend', 'Extend', 'Extending…', null],
    ['reset', 'Reset HWID', 'Resetting…', 'Reset'],
    ['delete', 'Delete key', 'Deleting…', 'Delete'],
  ] as const)('%s: every action waits, the button naming what for', async (what, label, busyWords, confirm) => {
    const user = userEvent.setup();
    const bound = key('KEY-B', 'active', { hwid: 'HW-1' });
    let answer: () => void = () => undefined;
    const later = <T,>(value: T) =>
      new Promise<T>((resolve) => {
        answer = () => {
          resolve(value);
        };
      });
    fake.impl['keys.extend'] = () => later({ ok: false, code: 'CONFLICT', message: 'Refused.' });
    fake.impl['keys.resetHwid'] = () => later({ ok: false, code: 'CONFLICT', message: 'Refused.' });
    fake.impl['keys.delete'] = () => later({ ok: false, code: 'CONFLICT', message: 'Refused.' });
    show(bound);
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-B' }));
    await user.click(within(panel()).getByRole('button', { name: label }));
    if (confirm) await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: confirm }));
    const waiting = await within(panel()).findByRole<HTMLButtonElement>('button', { name: busyWords });
    expect(waiting.disabled).toBe(true);
    for (const other of ['Extend', 'Reset HWID', 'Delete key'].filter((n) => n !== label)) {
      expect(within(panel()).getByRole<HTMLButtonElement>('button', { name: other }).disabled).toBe(true);
    }
    answer();
    expect(await within(panel()).findByRole('button', { name: label })).toBeTruthy();
    expect(within(panel()).queryByRole('button', { name: busyWords })).toBeNull();
    expect(
      fake.calls.filter((c) => c.name === (what === 'extend' ? 'keys.extend' : what === 'reset' ? 'keys.resetHwid' : 'keys.delete')),
    ).toHaveLength(1);
  });
});
