// The command palette as a keyboard and screen-reader user meets it: an ARIA combobox over every view and
// every action, with an empty state and recent commands first.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/shared/domain.ts';
import { fake, freshStore, useKeydesk } from '../support/fake-bridge.ts';
import { CommandPalette } from '../../src/renderer/src/components/CommandPalette.tsx';
import { VIEWS } from '../../src/renderer/src/views/registry.ts';

const profile = (id: string, name: string): Profile => ({
  id,
  name,
  kind: id === 'sandbox' ? 'sandbox' : 'remote',
  baseUrl: 'http://127.0.0.1:1',
  validationUrl: 'http://127.0.0.1:1/v2_validation',
  serviceIdentifier: null,
  hasKey: true,
  keyHint: '…abcd',
  storage: 'os-keychain',
});

function openPalette() {
  render(<CommandPalette />);
  act(() => {
    useKeydesk.getState().setPaletteOpen(true);
  });
  return screen.getByRole('combobox', { name: 'Search commands' });
}
const optionNames = () => screen.queryAllByRole('option').map((o) => o.textContent);

beforeEach(() => {
  freshStore({ profiles: [profile('sandbox', 'Local sandbox'), profile('p2', 'Production')], activeProfileId: 'sandbox' });
});

describe('command palette', () => {
  it('is a combobox owning a listbox of every view and action', () => {
    const box = openPalette();
    expect(box.getAttribute('aria-expanded')).toBe('true');
    const listbox = screen.getByRole('listbox', { name: 'Commands' });
    expect(box.getAttribute('aria-controls')).toBe(listbox.id);
    const names = optionNames();
    for (const label of [
      'Generate keys…',
      'Validate a key…',
      'Add a keyless entry…',
      'Switch to Production',
      'Push +1 execution',
      'Export All keys as CSV (its current filter)',
    ]) {
      expect(names).toContain(label);
    }
    for (const v of VIEWS) expect(names).toContain(`Go to ${v.label}`);
    // The service in use is not offered as a switch.
    expect(names).not.toContain('Switch to Local sandbox');
  });

  it('keeps focus in the box and names the active option', async () => {
    const user = userEvent.setup();
    const box = openPalette();
    expect(document.activeElement).toBe(box);
    const options = screen.getAllByRole('option');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[2]!.id);
    expect(options[2]!.getAttribute('aria-selected')).toBe('true');
    expect(options[0]!.getAttribute('aria-selected')).toBe('false');
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    // Up from the first wraps to the last.
    expect(box.getAttribute('aria-activedescendant')).toBe(options.at(-1)!.id);
    expect(document.activeElement).toBe(box);
  });

  it('filters as you type and runs the active command on Enter', async () => {
    const user = userEvent.setup();
    fake.impl['executions.push'] = () => Promise.resolve({ ok: true, data: { executionCount: 42, sampledAt: '2026-01-01T00:00:00.000Z' } });
    await user.type(openPalette(), 'push');
    expect(optionNames()).toEqual(['Push +1 execution']);
    await user.keyboard('{Enter}');
    expect(fake.calls.map((c) => c.name)).toEqual(['executions.push']);
    expect(useKeydesk.getState().paletteOpen).toBe(false);
  });

  it('finds an action by a word that is not in its label', async () => {
    const user = userEvent.setup();
    await user.type(openPalette(), 'whitelist');
    expect(optionNames()).toEqual(['Add a keyless entry…']);
    await user.keyboard('{Enter}');
    expect(useKeydesk.getState().view).toBe('keyless');
  });

  it('says so when nothing matches, instead of an empty box', async () => {
    const user = userEvent.setup();
    const box = openPalette();
    await user.type(box, 'zzzz');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.hasAttribute('aria-activedescendant')).toBe(false);
    expect(screen.getByText('No command matches “zzzz”')).toBeTruthy();
  });

  it('lists the commands run last first, under "Recent"', async () => {
    const user = userEvent.setup();
    await user.type(openPalette(), 'go to activity');
    await user.keyboard('{Enter}');
    expect(useKeydesk.getState().view).toBe('activity');
    act(() => {
      useKeydesk.getState().setPaletteOpen(true);
    });
    const recent = screen.getByRole('group', { name: 'Recent' });
    expect(
      within(recent)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Go to Activity']);
    expect(optionNames()[0]).toBe('Go to Activity');
  });

  it('runs a command on click', async () => {
    const user = userEvent.setup();
    openPalette();
    await user.click(screen.getByRole('option', { name: 'Go to Profiles' }));
    expect(useKeydesk.getState().view).toBe('profiles');
  });
});
