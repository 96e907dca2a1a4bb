// The command palette: typing a view's name and pressing Enter goes to that view,
// even when an export whose label holds the same words was used recently; the export never runs.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, freshStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { CommandPalette } from '../../src/renderer/src/components/CommandPalette.tsx';
import { noteRecent } from '../../src/renderer/src/lib/recent.ts';

beforeEach(() => {
  freshStore({ profiles: [sandboxProfile], activeProfileId: 'sandbox', view: 'overview' });
  fake.impl['ledger.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keys.csv' } });
});

function openPalette() {
  render(<CommandPalette />);
  act(() => {
    useKeydesk.getState().setPaletteOpen(true);
  });
  return screen.getByRole('combobox', { name: 'Search commands' });
}

describe('command palette: a view named by the query', () => {
  it.each(['all keys', 'All Keys', 'go to all keys', 'all k'])('%j + Enter goes to All keys and exports nothing', async (typed) => {
    noteRecent('export-csv');
    const user = userEvent.setup();
    const box = openPalette();
    await user.type(box, typed);
    expect(screen.getAllByRole('option')[0]?.textContent).toBe('Go to All keys');
    await user.keyboard('{Enter}');
    expect(useKeydesk.getState().view).toBe('ledger');
    expect(fake.calls.some((c) => c.name === 'ledger.export')).toBe(false);
  });

  it('keeps the ranking of a query that names no single view', async () => {
    const user = userEvent.setup();
    const box = openPalette();
    await user.type(box, 'export csv');
    expect(screen.getAllByRole('option')[0]?.textContent).toMatch(/^Export/);
  });
});
