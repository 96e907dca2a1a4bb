// The palette in the whole app: where the focus lands after a command, and the commands that reach the views'
// own actions (identifier check, Activity export, the integration test key).
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, fakeStartedMain, freshStore, remoteProfile, useKeydesk } from '../support/fake-bridge.ts';
import { App } from '../../src/renderer/src/App.tsx';
import { VIEWS } from '../../src/renderer/src/views/registry.ts';

beforeEach(() => {
  freshStore();
  fakeStartedMain();
  fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
  fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries: [], total: 0, offset: 0, limit: 100 } });
});

async function runCommand(user: ReturnType<typeof userEvent.setup>, label: string) {
  act(() => {
    useKeydesk.getState().setPaletteOpen(true);
  });
  const box = screen.getByRole('combobox', { name: 'Search commands' });
  await user.clear(box);
  await user.type(box, label);
  await user.click(screen.getByRole('option', { name: label }));
}

describe('palette: where the focus goes', () => {
  it("Go to … focuses that view's main heading, for every view", async () => {
    const user = userEvent.setup();
    render(<App />);
    await screen.findByLabelText('Active service');
    for (const v of VIEWS) {
      await runCommand(user, `Go to ${v.label}`);
      await waitFor(() => {
        expect(document.activeElement?.id).toBe(`${v.view}-title`);
      });
      expect(document.activeElement?.tagName).toBe('H1');
    }
  });

  it("Switch to … focuses the view's heading once the new service is shown", async () => {
    const user = userEvent.setup();
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    render(<App />);
    await screen.findByLabelText('Active service');
    await runCommand(user, 'Go to Keyless');
    await runCommand(user, `Switch to ${remoteProfile.name}`);
    await waitFor(() => {
      expect(useKeydesk.getState().activeProfileId).toBe(remoteProfile.id);
      expect(document.activeElement?.id).toBe('keyless-title');
    });
    // The heading focused is the one on screen, not the one the switch took away.
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Keyless' }));
  });

  it("Check a service identifier… focuses Identifier check's field", async () => {
    const user = userEvent.setup();
    render(<App />);
    await screen.findByLabelText('Active service');
    await runCommand(user, 'Check a service identifier…');
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByLabelText('Identifier'));
    });
  });
});

describe("palette: the views' own actions", () => {
  it('exports Activity with the filter the Activity view shows', async () => {
    const user = userEvent.setup();
    fake.impl['audit.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/activity.csv' } });
    render(<App />);
    await screen.findByLabelText('Active service');
    act(() => {
      useKeydesk.getState().setDraft('activity.text', 'reset');
      useKeydesk.getState().setDraft('activity.outcome', 'failed');
    });
    await runCommand(user, 'Export Activity as CSV (its current filter)');
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'audit.export').map((c) => c.input)).toEqual([
        { filter: { text: 'reset', outcome: 'failed', profileId: 'sandbox' }, format: 'csv' },
      ]);
    });
  });

  it('makes an integration test key on the active service and opens Integration', async () => {
    const user = userEvent.setup();
    render(<App />);
    await screen.findByLabelText('Active service');
    await runCommand(user, 'Make an integration test key');
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.generate').map((c) => (c.input as { note: string; count: number }).count)).toEqual([
        1,
      ]);
    });
    expect(useKeydesk.getState().view).toBe('integration');
  });
});
