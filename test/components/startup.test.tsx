// The window while main starts: a plain line until it is up, then the app; a start that fails says why and asks
// for a new start; main gone while starting is said as not answering, with a way to ask again.
import { act, render, screen } from '@testing-library/react';
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
