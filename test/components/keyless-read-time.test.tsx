// Keyless says when its list was read, and that "Last used" may be older after a keyless validation went through.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { KeylessEntry } from '../../src/shared/domain.ts';
import { fake, readyStore, sandboxProfile, useKeydesk, validReport } from '../support/fake-bridge.ts';
import { Keyless } from '../../src/renderer/src/views/Keyless/Keyless.tsx';

/** When the service last saw the machine: a keyless validation sets it. */
let lastUsedAt: string | null;
const entry = (): KeylessEntry => ({
  id: 'e1',
  hwid: 'SHOP-PC-1',
  isPremium: false,
  expiresAt: null,
  createdAt: '2026-11-23T09:00:00.000Z',
  lastUsedAt,
});

beforeEach(() => {
  readyStore([sandboxProfile]);
  lastUsedAt = null;
  fake.impl['keyless.lookup'] = () => Promise.resolve({ ok: true, data: { entries: [entry()], total: 1 } });
  fake.impl['validation.run'] = () => {
    lastUsedAt = new Date().toISOString();
    return Promise.resolve({ ok: true, data: { ...validReport, keyless: true, hwid: 'SHOP-PC-1' } });
  };
});

const validateKeyless = () =>
  useKeydesk.getState().runValidation({ mode: 'keyless', hwid: { custom: 'SHOP-PC-1' }, confirmActivation: true });

describe('Keyless: when the list was read', () => {
  it('says when the entries were read', async () => {
    const user = userEvent.setup();
    render(<Keyless />);
    await user.type(screen.getByRole('searchbox', { name: 'HWID contains' }), 'SHOP{Enter}');
    const line = (await screen.findByText(/Results for “SHOP”/)).closest('p');
    expect(line?.textContent).toMatch(/^Results for “SHOP”\. Read (now|\d+ seconds? ago)\.$/);
    expect(line?.querySelector('time')?.getAttribute('datetime')).toBe(useKeydesk.getState().keyless?.read?.at);
  });

  it('says "Last used" may be older after a keyless validation', async () => {
    const user = userEvent.setup();
    render(<Keyless />);
    await user.type(screen.getByRole('searchbox', { name: 'HWID contains' }), 'SHOP{Enter}');
    await screen.findByRole('table', { name: 'Keyless entries' });
    await validateKeyless();
    const note = await screen.findByText(/A keyless validation went through at .*, after this list was read: “Last used” may be older\./);
    expect(note).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Search again' }));
    await waitFor(() => {
      expect(screen.queryByText(/A keyless validation went through/)).toBeNull();
    });
    const row = within(screen.getByRole('table', { name: 'Keyless entries' })).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getByText(/now|seconds? ago/)
        .getAttribute('datetime'),
    ).toBe(lastUsedAt);
  });

  it('says nothing of a dry run', async () => {
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: { ...validReport, keyless: true, dryRun: true } });
    const user = userEvent.setup();
    render(<Keyless />);
    await user.type(screen.getByRole('searchbox', { name: 'HWID contains' }), 'SHOP{Enter}');
    await screen.findByRole('table', { name: 'Keyless entries' });
    await validateKeyless();
    expect(screen.queryByText(/A keyless validation went through/)).toBeNull();
  });
});
