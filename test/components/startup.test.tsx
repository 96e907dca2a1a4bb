// The window while main upgrades keydesk.db: it says which step, how many keys where they are counted and how
// long so far, and shows nothing else (no view could say anything true about keys meanwhile); once main is up,
// the app opens as usual; a failed start says why.
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StartupStatus, UpgradeProgress } from '../../src/shared/domain.ts';
import { emit, fake, installBridge, resetFake, sandboxProfile } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { App } = await import('../../src/renderer/src/App.tsx');
const initial = useKeydesk.getState();

const upgrading = (p: Partial<UpgradeProgress> & { elapsedMs: number }): StartupStatus => ({
  state: 'upgrading',
  upgrade: { fromVersion: 3, toVersion: 8, step: 1, steps: 11, work: 'copy', pass: 1, passes: 1, done: 0, total: 1_000_000, ...p },
  failure: null,
});

let startup: StartupStatus;
beforeEach(() => {
  resetFake();
  useKeydesk.setState(initial, true);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  startup = upgrading({ step: 1, work: 'copy', done: 350_000, elapsedMs: 65_000 });
  fake.impl['app.startup'] = () => Promise.resolve({ ok: true, data: startup });
  fake.impl['app.status'] = () =>
    Promise.resolve({
      ok: true,
      data: {
        version: '1',
        platform: 'linux',
        sandbox: { url: sandboxProfile.baseUrl, running: true, error: null },
        secretStorage: 'os-keychain',
        secretStorageReason: null,
        profilesFileProblem: null,
        activeProfileId: 'sandbox',
      },
    });
  fake.impl['profiles.list'] = () => Promise.resolve({ ok: true, data: { profiles: [sandboxProfile], activeProfileId: 'sandbox' } });
  fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 3, sampledAt: '2026-01-01T00:00:00.000Z' } });
  fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
});

const statusLine = () => screen.getByRole('status').textContent;
const keysLine = () => document.querySelector('.startup-keys')?.textContent ?? null;

describe('the window while keydesk.db is upgraded', () => {
  it('shows each step as main reports it, with the keys counted so far and the time, and nothing of the app', async () => {
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Upgrading your local records' })).toBeTruthy();
    expect(statusLine()).toBe('Step 1 of 11: copying your keys into the new layout.');
    expect(keysLine()).toBe('350,000 of 1,000,000 keys');
    const bar = screen.getByRole('progressbar', { name: 'Keys done in this step' });
    expect(bar.getAttribute('value')).toBe('350000');
    expect(bar.getAttribute('max')).toBe('1000000');
    expect(screen.getByText('1 min 5 s so far.')).toBeTruthy();
    expect(screen.getByText(/nothing is lost: your records stay as they were, and the upgrade starts again/)).toBeTruthy();
    // No view, no key count, no "no keys": main is not asked for anything but the start's progress.
    expect(screen.queryByRole('navigation', { name: 'Views' })).toBeNull();
    expect(fake.calls.map((c) => c.name).filter((n) => n !== 'app.startup')).toEqual([]);

    // A step whose keys are not counted: the whole ledger named, and a bar with no end.
    act(() => {
      emit('app.startup', upgrading({ step: 3, work: 'index', done: null, elapsedMs: 71_000 }));
    });
    expect(statusLine()).toBe('Step 3 of 11: building a sort index for All keys.');
    expect(keysLine()).toBe('1,000,000 keys');
    expect(screen.getByRole('progressbar', { name: 'This step is under way' }).hasAttribute('value')).toBe(false);
    expect(screen.getByText('1 min 11 s so far.')).toBeTruthy();
    act(() => {
      emit('app.startup', upgrading({ step: 8, work: 'text', done: 990_000, elapsedMs: 3_725_000 }));
    });
    expect(statusLine()).toBe('Step 8 of 11: building the text search index.');
    expect(keysLine()).toBe('990,000 of 1,000,000 keys');
    // The same work again in a later step says which part it is: its count starting again at 0 is not the
    // upgrade going back (walk7 P2).
    act(() => {
      emit('app.startup', upgrading({ step: 10, work: 'text', pass: 2, passes: 3, done: 0, elapsedMs: 3_730_000 }));
    });
    expect(statusLine()).toBe('Step 10 of 11: building the text search index, part 2 of 3.');
    expect(keysLine()).toBe('0 of 1,000,000 keys');
    expect(screen.getByText('1 h 2 min so far.')).toBeTruthy();
    act(() => {
      emit('app.startup', upgrading({ step: 11, work: 'save', done: null, elapsedMs: 3_800_000 }));
    });
    expect(statusLine()).toBe('Step 11 of 11: saving the upgrade.');
    expect(keysLine()).toBeNull();
    expect(fake.calls.some((c) => c.name === 'app.status')).toBe(false);

    // Ready: the app opens as usual.
    startup = { state: 'ready', upgrade: null, failure: null };
    act(() => {
      emit('app.startup', startup);
    });
    expect(await screen.findByLabelText('Active service')).toBeTruthy();
    expect(screen.queryByText('Upgrading your local records')).toBeNull();
  });

  it('moves on by asking main again when it hears no event (the time so far keeps moving between steps)', async () => {
    render(<App />);
    await screen.findByText('1 min 5 s so far.');
    startup = upgrading({ step: 2, work: 'clear', done: null, elapsedMs: 67_000 });
    // Asked again within a couple of seconds, with no event sent.
    expect(await screen.findByText('1 min 7 s so far.')).toBeTruthy();
    expect(statusLine()).toBe('Step 2 of 11: clearing the old copy.');
    expect(keysLine()).toBe('1,000,000 keys');
    startup = { state: 'ready', upgrade: null, failure: null };
    expect(await screen.findByLabelText('Active service')).toBeTruthy();
  });

  it('says why when the start fails, and asks for a new start (asking main again cannot help)', async () => {
    render(<App />);
    await screen.findByRole('heading', { name: 'Upgrading your local records' });
    const failure =
      "There is not enough free disk space to upgrade Keydesk's local records (keydesk.db): the upgrade writes a new copy of them beside the old one. Free some disk space and start Keydesk again. Nothing was changed.";
    startup = { state: 'failed', upgrade: null, failure };
    act(() => {
      emit('app.startup', startup);
    });
    expect(await screen.findByRole('heading', { name: 'Keydesk could not start' })).toBeTruthy();
    expect(screen.getByText(/There is not enough free disk space to upgrade Keydesk's local records/)).toBeTruthy();
    expect(screen.getByText('Quit Keydesk, and start it again once that is fixed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('says Keydesk stopped answering, not that it could not start, when main goes away during the upgrade (walk7 P11)', async () => {
    render(<App />);
    await screen.findByRole('heading', { name: 'Upgrading your local records' });
    const gone = 'The Keydesk harness is not answering (Failed to fetch).';
    fake.impl['app.startup'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: gone });
    expect(await screen.findByRole('heading', { name: 'Keydesk stopped answering' })).toBeTruthy();
    expect(screen.queryByText(/could not start/)).toBeNull();
    expect(screen.getByText(gone)).toBeTruthy();
    expect(screen.getByText(/^It stopped while upgrading your local records/).textContent).toBe(
      'It stopped while upgrading your local records (step 1 of 11). Nothing is lost: your records stay as they were, and the upgrade starts again the next time Keydesk opens.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('shows the plain start line, not the upgrade, when main starts with nothing to upgrade', async () => {
    startup = { state: 'starting', upgrade: null, failure: null };
    render(<App />);
    expect(await screen.findByText('Starting Keydesk…')).toBeTruthy();
    expect(screen.queryByText('Upgrading your local records')).toBeNull();
    startup = { state: 'ready', upgrade: null, failure: null };
    expect(await screen.findByLabelText('Active service')).toBeTruthy();
  });
});
