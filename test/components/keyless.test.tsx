// The Keyless view: entries added before any search stay listed under a heading, the add form refuses days out of
// range, and the first-visit prompt shows only on an empty, error-free view.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { KeylessEntry } from '../../src/shared/domain.ts';
import { fake, readyStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Keyless } from '../../src/renderer/src/views/Keyless/Keyless.tsx';

const entry = (hwid: string): KeylessEntry => ({
  id: hwid,
  hwid,
  isPremium: false,
  expiresAt: null,
  createdAt: '2026-11-23T09:00:00.000Z',
  lastUsedAt: null,
});

beforeEach(() => {
  readyStore([sandboxProfile]);
  fake.impl['keyless.add'] = (input) => Promise.resolve({ ok: true, data: { entry: entry((input as { hwid: string }).hwid) } });
  fake.impl['keyless.lookup'] = () =>
    Promise.resolve({ ok: true, data: { entries: [entry('walk-hw-1'), entry('walk-hw-2'), entry('walk-hw-3')], total: 3 } });
});

const listed = () =>
  within(screen.getByRole('table', { name: 'Keyless entries' }))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]?.textContent);

describe('Keyless: entries added before any search', () => {
  it('lists every entry added, newest first, under a heading', async () => {
    const user = userEvent.setup();
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    for (const hwid of ['walk-hw-1', 'walk-hw-2']) {
      await user.type(within(form).getByLabelText('HWID'), hwid);
      await user.click(within(form).getByRole('button', { name: 'Add' }));
      await screen.findByRole('cell', { name: new RegExp(hwid) });
    }
    expect(listed()).toEqual([expect.stringContaining('walk-hw-2'), expect.stringContaining('walk-hw-1')]);
    expect(screen.getByText('Added here: 2 entries (no search yet; search to list every entry).')).toBeTruthy();

    await user.type(screen.getByLabelText('HWID contains'), 'walk-hw');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Results for “walk-hw”.');
    expect(listed()).toHaveLength(3);
    expect(screen.queryByText(/^Added here/)).toBeNull();
  });
});

describe('Keyless: a negative number of days', () => {
  it('says which numbers are accepted and sends nothing', async () => {
    const user = userEvent.setup();
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    await user.type(within(form).getByLabelText('HWID'), 'HW-1');
    await user.type(within(form).getByLabelText('Days (empty: no expiry)'), '-5');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(within(form).getByText('Days must be a whole number from 1 to 999,999.')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'keyless.add')).toHaveLength(0);
  });
});

describe('Keyless: the first-visit prompt', () => {
  it('hides beside an error or an unsearched term', () => {
    useKeydesk.getState().setDraft('keyless.term', 'HW-12');
    const { unmount } = render(<Keyless />);
    expect(screen.queryByText('Find an authorized HWID')).toBeNull();
    expect(screen.getByText('Press Search to list the entries whose HWID contains “HW-12”.')).toBeTruthy();
    unmount();
    useKeydesk.getState().setDraft('keyless.term', '');
    useKeydesk.setState({
      keylessRequest: { status: 'error', error: { ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' } },
    });
    render(<Keyless />);
    expect(screen.getByText('Keydesk could not reach the service.')).toBeTruthy();
    expect(screen.queryByText('Find an authorized HWID')).toBeNull();
  });
});
