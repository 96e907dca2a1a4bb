// The keyboard shortcuts sheet in jsdom: `?` opens it (never while typing), the palette opens it, and the cancel a
// browser sends for Escape closes it.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { readyStore, useKeydesk } from '../support/fake-bridge.ts';
import { CommandPalette } from '../../src/renderer/src/components/CommandPalette.tsx';
import { ShortcutsSheet } from '../../src/renderer/src/components/ShortcutsSheet.tsx';

beforeEach(() => readyStore());

const sheet = () => screen.queryByRole('dialog', { name: 'Keyboard shortcuts' });

describe('Keyboard shortcuts sheet', () => {
  it('opens on ? and lists every shortcut; Escape closes it', async () => {
    const user = userEvent.setup();
    render(<ShortcutsSheet />);
    expect(sheet()).toBeNull();
    await user.keyboard('?');
    const open = sheet();
    expect(open).not.toBeNull();
    const keys = within(open!)
      .getAllByRole('term')
      .map((t) => t.textContent);
    expect(keys).toEqual(
      expect.arrayContaining(['Ctrl+K', '?', 'Esc', 'Enter', 'Space', 'Shift+Space', 'Shift+F10', 'Ctrl+C', 'Ctrl+Shift+C', 'Home End']),
    );
    expect(within(open!).getByText("Open the row's menu (a right-click does too)")).toBeTruthy();
    // The browser's Escape on a modal dialog is a cancel event.
    fireEvent(open!, new Event('cancel'));
    expect(useKeydesk.getState().shortcutsOpen).toBe(false);
    expect(sheet()).toBeNull();
  });

  it('types ? into a text field instead of opening', async () => {
    const user = userEvent.setup();
    render(
      <>
        <label>
          Note <input />
        </label>
        <ShortcutsSheet />
      </>,
    );
    const field = screen.getByLabelText<HTMLInputElement>('Note');
    await user.type(field, 'why?');
    expect(field.value).toBe('why?');
    expect(sheet()).toBeNull();
  });

  it('opens from the command palette', async () => {
    const user = userEvent.setup();
    render(
      <>
        <CommandPalette />
        <ShortcutsSheet />
      </>,
    );
    act(() => useKeydesk.getState().setPaletteOpen(true));
    await user.type(screen.getByRole('combobox', { name: 'Search commands' }), 'shortcuts');
    await user.keyboard('{Enter}');
    expect(useKeydesk.getState().paletteOpen).toBe(false);
    expect(sheet()).not.toBeNull();
  });
});
