// A search with nothing typed asks the service nothing and says so beside the box; the answer still on screen
// names the term it answers, so it is not read as the answer to the blank search.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, key, readyStore } from '../support/fake-bridge.ts';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';
import { Keyless } from '../../src/renderer/src/views/Keyless/Keyless.tsx';

beforeEach(() => {
  readyStore();
});

const calls = (name: string) => fake.calls.filter((c) => c.name === name);

describe('Keys: a blank search', () => {
  it.each(['', '   '])('with %j asks nothing and says what to type', async (typed) => {
    const user = userEvent.setup();
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [key('KEY-A', 'active')], total: 1 } });
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    render(<Keys />);
    const box = screen.getByRole('searchbox', { name: 'Key value, note or HWID' });
    await user.type(box, 'KEY-A{Enter}');
    await screen.findByText(/Results for “KEY-A”/);
    const asked = calls('keys.fetchActive').length;
    expect(asked).toBe(1);
    await user.clear(box);
    if (typed) await user.type(box, typed);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const message = screen.getByText('Type a key, HWID or note to search.');
    expect(box.getAttribute('aria-describedby')).toContain(message.id);
    expect(calls('keys.fetchActive')).toHaveLength(asked);
    expect(screen.getByText(/Results for “KEY-A”/)).toBeTruthy();
    await user.type(box, 'K');
    expect(screen.queryByText('Type a key, HWID or note to search.')).toBeNull();
  });
});

describe('Keyless: a blank search', () => {
  it('asks nothing for a blank term and says what to type', async () => {
    const user = userEvent.setup();
    fake.impl['keyless.lookup'] = () =>
      Promise.resolve({
        ok: true,
        data: { entries: [{ id: '1', hwid: 'HW-1', isPremium: false, expiresAt: null, lastUsedAt: null, createdAt: null }], total: 1 },
      });
    render(<Keyless />);
    const search = screen.getByRole('search');
    const box = within(search).getByLabelText('HWID contains');
    await user.type(box, 'HW{Enter}');
    await screen.findByText('Results for “HW”.');
    await user.clear(box);
    await user.type(box, '  {Enter}');
    expect(within(search).getByText('Type part of a HWID to search.')).toBeTruthy();
    await waitFor(() => {
      expect(calls('keyless.lookup')).toHaveLength(1);
    });
    expect(screen.getByText('Results for “HW”.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy HWID HW-1' })).toBeTruthy();
  });
});
