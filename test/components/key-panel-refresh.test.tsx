// The open key panel says when its key was read, reads it again on Refresh, and takes a job check's newer reading.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Key } from '../../src/shared/domain.ts';
import { fake, key, readyStore, useKeydesk } from '../support/fake-bridge.ts';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';

const KEY = 'KEY-RESET-1';
/** The key as the service holds it now: the fake search answers this. */
let held: Key;

beforeEach(() => {
  readyStore();
  held = key(KEY, 'active', { hwid: null });
  fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [held], total: 1 } });
  fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
});

const panel = () => screen.getByRole('complementary', { name: 'Key detail' });
const readTime = () => within(panel()).getByText(/^Read/).querySelector('time')?.getAttribute('datetime') ?? '';

async function openKey() {
  const user = userEvent.setup();
  render(<Keys />);
  await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), `${KEY}{Enter}`);
  await user.click(await screen.findByRole('button', { name: KEY }));
  return user;
}

describe('Key panel: when it was read, and Refresh', () => {
  it('says when the open key was read', async () => {
    await openKey();
    expect(within(panel()).getByText(/^Read/).textContent).toMatch(/^Read (now|\d+ seconds? ago)\.$/);
    expect(readTime()).toBe(useKeydesk.getState().lookupResult?.read?.at);
  });

  it('shows a new binding after Refresh, with a newer read time', async () => {
    const user = await openKey();
    expect(within(panel()).getByText('Not bound to a machine: there is no HWID to reset.')).toBeTruthy();
    const before = readTime();
    held = { ...held, hwid: 'NEW-PC-5678', activatedAt: '2026-11-29T10:00:00.000Z' };
    await user.click(within(panel()).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => {
      expect(within(panel()).getByText('NEW-PC-5678')).toBeTruthy();
    });
    expect(within(panel()).queryByText('Not bound to a machine: there is no HWID to reset.')).toBeNull();
    expect(readTime() >= before).toBe(true);
    expect(useKeydesk.getState().selectedRead?.seq).toBeGreaterThan(useKeydesk.getState().lookupResult?.read?.seq ?? 0);
    // The search row shows the same reading as the panel.
    expect(within(screen.getByRole('table', { name: 'Matching keys' })).getByText('NEW-PC-5678')).toBeTruthy();
  });

  it('says a failed Refresh failed, keeping the key shown', async () => {
    const user = await openKey();
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' });
    await user.click(within(panel()).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => {
      expect(within(panel()).getByText(/Reading the key again failed at/)).toBeTruthy();
    });
    expect(within(panel()).getByText(KEY, { selector: '.mono *, .mono' })).toBeTruthy();
  });

  it('takes the newer reading of a job check of unknown keys', async () => {
    await openKey();
    held = { ...held, hwid: 'NEW-PC-5678' };
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [{ target: KEY, state: 'unknown' }], total: 1 } } as never);
    await useKeydesk.getState().checkUnknownKeys('job-1');
    await waitFor(() => {
      expect(within(panel()).getByText('NEW-PC-5678')).toBeTruthy();
    });
  });
});

describe('Search results after a row is read again', () => {
  it('says the header is older than a row reset since', async () => {
    held = key('KEY-OLD-PC', 'active', { hwid: 'PC-OLD-1234' });
    fake.impl['keys.resetHwid'] = () => {
      held = { ...held, hwid: null };
      return Promise.resolve({ ok: true, data: { key: held } });
    };
    const user = userEvent.setup();
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'PC-OLD-1234{Enter}');
    const header = (await screen.findByText(/Results for “PC-OLD-1234”/)).closest('p');
    expect(header?.textContent).toMatch(/^Results for “PC-OLD-1234”: 1 match\. Read (now|\d+ seconds? ago)\.$/);
    await user.click(screen.getByRole('button', { name: 'KEY-OLD-PC' }));
    await user.click(within(panel()).getByRole('button', { name: 'Reset HWID' }));
    await user.click(within(screen.getByRole('dialog', { name: "Reset this key's HWID?" })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => {
      expect(header?.textContent).toMatch(/1 row was read again since and may no longer match this search\.$/);
    });
  });
});
