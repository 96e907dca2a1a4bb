// The window while main starts: a plain line until it is up, then the app; a start that fails says why and asks
// for a new start, or offers the newest backup (asked first) and a new start; main gone while starting is said as
// not answering, with a way to ask again. A backup that failed is said in the app.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StartupStatus } from '../../src/shared/domain.ts';
import { emit, fake, fakeStartedMain, freshStore, sandboxProfile } from '../support/fake-bridge.ts';
import { App } from '../../src/renderer/src/App.tsx';

let startup: StartupStatus;
beforeEach(() => {
  freshStore();
  startup = { state: 'starting', failure: null };
  fake.impl['app.startup'] = () => Promise.resolve({ ok: true, data: startup });
  fakeStartedMain([sandboxProfile]);
});

describe('the window while main starts', () => {
  it('shows the start line until main is up, then opens the app', async () => {
    render(<App />);
    expect(await screen.findByText('Starting Keydesk…')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Views' })).toBeNull();
    expect(fake.calls.map((c) => c.name).filter((n) => n !== 'app.startup')).toEqual([]);
    startup = { state: 'ready', failure: null };
    act(() => {
      emit('app.startup', startup);
    });
    expect(await screen.findByLabelText('Active service')).toBeTruthy();
  });

  it('moves on by asking main again when it hears no event', async () => {
    render(<App />);
    await screen.findByText('Starting Keydesk…');
    startup = { state: 'ready', failure: null };
    expect(await screen.findByLabelText('Active service')).toBeTruthy();
  });

  it('says why the start failed and asks for a new start', async () => {
    render(<App />);
    await screen.findByText('Starting Keydesk…');
    const failure = 'keydesk.db was made by a pre-release Keydesk (schema 3): move it aside to start fresh.';
    startup = { state: 'failed', failure };
    act(() => {
      emit('app.startup', startup);
    });
    expect(await screen.findByRole('heading', { name: 'Keydesk could not start' })).toBeTruthy();
    expect(screen.getByText(`Keydesk could not start: ${failure}`)).toBeTruthy();
    expect(screen.getByText('Quit Keydesk, and start it again once that is fixed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers the newest backup after damage, asks, then starts with it', async () => {
    render(<App />);
    await screen.findByText('Starting Keydesk…');
    const failure =
      "keydesk.db, Keydesk's record of your keys, is damaged: it is empty (0 bytes). It was moved aside as keydesk-damaged-x.db in /d.";
    const backup = { name: 'keydesk-2026-04-01T09-00-00.000Z.db', takenAt: '2026-04-01T09:00:00.000Z' };
    startup = { state: 'failed', failure, offer: { backup, startAgain: true } };
    fake.impl['app.startAgain'] = () => {
      startup = { state: 'ready', failure: null };
      return Promise.resolve({ ok: true, data: null });
    };
    act(() => {
      emit('app.startup', startup);
    });
    fireEvent.click(await screen.findByRole('button', { name: /^Restore the backup of / }));
    expect(screen.getByRole('button', { name: 'Start with an empty ledger' })).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'app.startAgain')).toEqual([]);
    const dialog = screen.getByRole('dialog', { name: 'Restore this backup?' });
    expect(dialog.textContent).toContain('Keys made or changed since are still on the service');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByLabelText('Active service')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'app.startAgain').map((c) => c.input)).toEqual([{ restore: backup.name }]);
  });

  it('offers a new start when only the sandbox database was moved aside', async () => {
    render(<App />);
    await screen.findByText('Starting Keydesk…');
    startup = {
      state: 'failed',
      failure: "The local sandbox's database, sandbox.db, is damaged.",
      offer: { backup: null, startAgain: true },
    };
    fake.impl['app.startAgain'] = () => {
      startup = { state: 'ready', failure: null };
      return Promise.resolve({ ok: true, data: null });
    };
    act(() => {
      emit('app.startup', startup);
    });
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Start again' }));
    expect(await screen.findByLabelText('Active service')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'app.startAgain').map((c) => c.input)).toEqual([{ restore: null }]);
  });

  it('says a backup that failed until one is made', async () => {
    startup = { state: 'ready', failure: null };
    render(<App />);
    await screen.findByLabelText('Active service');
    const problem =
      'Keydesk could not back up keydesk.db: the disk holding /d/backups is full: about 9 MB more free space is needed there.';
    act(() => {
      emit('backup.changed', { problem });
    });
    expect((await screen.findByText(problem)).getAttribute('role')).toBe('alert');
    act(() => {
      emit('backup.changed', { problem: null });
    });
    expect(screen.queryByText(problem)).toBeNull();
  });

  it('says Keydesk stopped answering when main goes away while starting', async () => {
    render(<App />);
    await screen.findByText('Starting Keydesk…');
    const gone = 'The Keydesk harness is not answering (Failed to fetch).';
    fake.impl['app.startup'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: gone });
    expect(await screen.findByRole('heading', { name: 'Keydesk stopped answering' })).toBeTruthy();
    expect(screen.queryByText(/could not start/)).toBeNull();
    expect(screen.getByText(gone)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
