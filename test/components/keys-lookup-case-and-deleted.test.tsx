// Keys' search: a key typed in lower case finds nothing on a service that matches
// values exactly, so the screen says keys are upper case and offers that search in one click (the term sent is
// never changed by itself: HWIDs are case-sensitive); a key just deleted from the panel is said to be deleted.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Key } from '../../src/shared/domain.ts';
import { fake, key, readyStore, sandboxProfile } from '../support/fake-bridge.ts';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';
import { upperKeyOffer } from '../../src/renderer/src/views/Keys/Lookup.tsx';

const KEY = 'ZZZEN-471RS-6YK5E-RP9RK-H1W65';
let held: Key[] = [];
const terms = () => fake.calls.filter((c) => c.name === 'keys.fetchActive').map((c) => (c.input as { term: string }).term);

beforeEach(() => {
  readyStore([sandboxProfile]);
  held = [key(KEY, 'generated')];
  // The service's rule: a value matches exactly.
  fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
  fake.impl['keys.fetchGenerated'] = (input) => {
    const keys = held.filter((k) => k.value === (input as { term: string }).term);
    return Promise.resolve({ ok: true, data: { keys, total: keys.length } });
  };
});

describe('Keys: a key typed in lower case', () => {
  it('says keys are upper case and offers the upper-case search', async () => {
    const user = userEvent.setup();
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), `${KEY.toLowerCase()}{Enter}`);
    await screen.findByText(/Key values are upper case and matched exactly/);
    expect(terms()).toEqual([KEY.toLowerCase()]);
    await user.click(screen.getByRole('button', { name: `Search for ${KEY}` }));
    await screen.findByText(/Results for “ZZZEN-471RS-6YK5E-RP9RK-H1W65”/);
    expect(terms()).toEqual([KEY.toLowerCase(), KEY]);
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Key value, note or HWID' }).value).toBe(KEY);
  });

  it('offers no upper-case search for an upper-case or non-key term', () => {
    expect(upperKeyOffer(KEY)).toBeNull();
    expect(upperKeyOffer('spring sale')).toBeNull();
    expect(upperKeyOffer('hwid')).toBeNull();
    expect(upperKeyOffer('ab12c-de34f')).toBe('AB12C-DE34F');
  });
});

describe('Keys: a key deleted from its panel', () => {
  it('says a deleted key was deleted, not that nothing matches', async () => {
    const user = userEvent.setup();
    fake.impl['keys.delete'] = () => {
      held = [];
      return Promise.resolve({ ok: true, data: { deletedKey: KEY } });
    };
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), `${KEY}{Enter}`);
    await user.click(await screen.findByRole('button', { name: KEY }));
    await user.click(screen.getByRole('button', { name: 'Delete key' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await screen.findByText('Key deleted.', { selector: '.empty-title' });
    expect(screen.getByText(/was deleted here: the service no longer has it/)).toBeTruthy();
    expect(screen.queryByText('No key matches.')).toBeNull();
    await waitFor(() => {
      expect(fake.calls.some((c) => c.name === 'keys.delete')).toBe(true);
    });
  });
});

describe('Keys: the count of a search after a delete from the panel', () => {
  it('says 2 matches after one of 3 is deleted', async () => {
    const user = userEvent.setup();
    held = [
      key('TRIAL-AAAAA-AAAAA-AAAAA-AAAA1', 'generated', { note: 'trial' }),
      key('TRIAL-AAAAA-AAAAA-AAAAA-AAAA2', 'generated', { note: 'trial' }),
      key('TRIAL-AAAAA-AAAAA-AAAAA-AAAA3', 'generated', { note: 'trial' }),
    ];
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: held, total: held.length } });
    fake.impl['keys.delete'] = (input) => {
      held = held.filter((k) => k.value !== (input as { keyValue: string }).keyValue);
      return Promise.resolve({ ok: true, data: { deletedKey: (input as { keyValue: string }).keyValue } });
    };
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'trial{Enter}');
    await screen.findByText(/3 matches/);
    await user.click(await screen.findByRole('button', { name: 'TRIAL-AAAAA-AAAAA-AAAAA-AAAA2' }));
    await user.click(screen.getByRole('button', { name: 'Delete key' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(screen.queryByRole('button', { name: 'TRIAL-AAAAA-AAAAA-AAAAA-AAAA2' })).toBeNull();
    });
    const line = screen.getByText(/Results for/).closest('p');
    expect(line?.textContent).toMatch(/^Results for “trial”: 2 matches\. Read (now|\d+ seconds? ago)\.$/);
  });
});
