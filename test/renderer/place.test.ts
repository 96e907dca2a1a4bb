// A reload of the window comes back to where the person was: the view, All keys' filter and sort, per
// profile, from sessionStorage; a stored place this version did not write is ignored.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appStatus, fake, reloadedStore, remoteProfile, resetFake, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { keepPlace, readPlace } from '../../src/renderer/src/lib/place.ts';

/** sessionStorage as a window keeps it across a reload. */
class MemoryStorage implements Storage {
  private readonly map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

let storage: MemoryStorage;
let stop: (() => void) | null = null;
/** A window load: a fresh store (Overview, no filter) that then learns its active profile. */
const load = (profileId: string) => {
  stop?.();
  reloadedStore();
  stop = keepPlace(useKeydesk, storage);
  useKeydesk.setState({ activeProfileId: profileId });
};

beforeEach(() => {
  resetFake();
  storage = new MemoryStorage();
});
afterEach(() => {
  stop?.();
  stop = null;
});

describe('the place kept across a reload', () => {
  it('comes back to All keys with its filter and sort', () => {
    load('sandbox');
    expect(useKeydesk.getState().view).toBe('overview');
    useKeydesk.getState().setView('ledger');
    useKeydesk.getState().setLedgerFilter({ text: 'spring', status: 'generated' });
    useKeydesk.getState().setLedgerSort('expiresAt');

    load('sandbox');
    const s = useKeydesk.getState();
    expect(s.view).toBe('ledger');
    expect(s.ledgerFilter).toEqual({ text: 'spring', status: 'generated' });
    expect(s.ledgerSort).toEqual({ field: 'expiresAt', dir: 'asc' });

    load('p2');
    expect(useKeydesk.getState().view).toBe('overview');
    expect(useKeydesk.getState().ledgerFilter).toEqual({});
  });

  it('ignores a stored place it did not write, landing on Overview', () => {
    storage.setItem('keydesk.place.sandbox', JSON.stringify({ view: 'nowhere', filter: {}, sort: { field: 'value', dir: 'asc' } }));
    expect(readPlace(storage, 'sandbox')).toBeNull();
    storage.setItem(
      'keydesk.place.sandbox',
      JSON.stringify({ view: 'ledger', filter: { status: 'gone' }, sort: { field: 'hwid', dir: 'asc' } }),
    );
    expect(readPlace(storage, 'sandbox')).toBeNull();
    storage.setItem('keydesk.place.sandbox', '{not json');
    load('sandbox');
    expect(useKeydesk.getState().view).toBe('overview');
  });
});

describe('the place kept per profile through the store’s own profile moves', () => {
  const ok = <T>(data: T) => Promise.resolve({ ok: true as const, data });
  /** A window load as the app does it: a fresh store that learns its active profile from main (loadSession). */
  const loadWindow = async () => {
    stop?.();
    reloadedStore();
    stop = keepPlace(useKeydesk, storage);
    fake.impl['app.status'] = () => ok(appStatus('sandbox'));
    fake.impl['profiles.list'] = () => ok({ profiles: [sandboxProfile, remoteProfile], activeProfileId: 'sandbox' });
    fake.impl['jobs.list'] = () => ok({ jobs: [], elsewhere: [] });
    fake.impl['profiles.select'] = (input) => ok((input as { id: string }).id === 'p2' ? remoteProfile : sandboxProfile);
    await useKeydesk.getState().loadSession();
  };

  it("keeps All keys' filter and sort across a reload", async () => {
    await loadWindow();
    useKeydesk.getState().setView('ledger');
    useKeydesk.getState().setLedgerFilter({ text: 'first batch' });
    useKeydesk.getState().setLedgerSort('value');

    await loadWindow();
    const s = useKeydesk.getState();
    expect(s.activeProfileId).toBe('sandbox');
    expect(s.view).toBe('ledger');
    expect(s.ledgerFilter).toEqual({ text: 'first batch' });
    expect(s.ledgerSort).toEqual({ field: 'value', dir: 'asc' });
    expect(readPlace(storage, 'sandbox')?.filter).toEqual({ text: 'first batch' });
  });

  it('gives each profile its own filter and sort on a switch', async () => {
    await loadWindow();
    useKeydesk.getState().setLedgerFilter({ text: 'local only' });
    useKeydesk.getState().setLedgerSort('value');

    await useKeydesk.getState().selectProfile('p2');
    expect(useKeydesk.getState().ledgerFilter).toEqual({});
    expect(useKeydesk.getState().ledgerSort).toEqual({ field: 'createdAt', dir: 'desc' });
    useKeydesk.getState().setLedgerFilter({ text: 'remote bulk' });

    await useKeydesk.getState().selectProfile('sandbox');
    expect(useKeydesk.getState().ledgerFilter).toEqual({ text: 'local only' });
    expect(useKeydesk.getState().ledgerSort).toEqual({ field: 'value', dir: 'asc' });

    await useKeydesk.getState().selectProfile('p2');
    expect(useKeydesk.getState().ledgerFilter).toEqual({ text: 'remote bulk' });
    expect(useKeydesk.getState().ledgerSort).toEqual({ field: 'createdAt', dir: 'desc' });
  });
});
