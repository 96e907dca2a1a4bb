// All keys' row menu in jsdom against the fake bridge: its "⋯" button and Shift+F10 open it; Copy key copies here;
// Extend, Reset HWID and Delete open the key in Keys, where the key panel asks them with its own confirmations.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, key, ledgerRow, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoJobs } from '../support/job-fixtures.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';
import { KeyDetail } from '../../src/renderer/src/views/Keys/KeyDetail.tsx';

const BOUND = key('KD-B', 'active', { hwid: 'HW-1' });

beforeEach(() => {
  readyWithNoJobs();
  fake.impl['ledger.query'] = () =>
    Promise.resolve({
      ok: true,
      data: {
        rows: [ledgerRow('KD-A'), ledgerRow('KD-B', { status: 'active', hwid: 'HW-1' }), ledgerRow('KD-D', { status: 'deleted' })],
        total: 3,
        totalCapped: false,
      },
    });
  fake.impl['keys.fetchActive'] = (input) =>
    Promise.resolve({ ok: true, data: (input as { term: string }).term === 'KD-B' ? { keys: [BOUND], total: 1 } : { keys: [], total: 0 } });
  fake.impl['keys.fetchGenerated'] = (input) =>
    Promise.resolve({
      ok: true,
      data: (input as { term: string }).term === 'KD-A' ? { keys: [key('KD-A')], total: 1 } : { keys: [], total: 0 },
    });
});

/** All keys, and the key panel Keys shows once a key is opened there. */
function renderBoth() {
  render(
    <>
      <AllKeys />
      <KeyDetail />
    </>,
  );
}
const menuOf = (value: string) => screen.getByRole('menu', { name: `Actions for ${value}` });
const items = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .map((b) => `${b.textContent}${(b as HTMLButtonElement).disabled ? ' (off)' : ''}`);

describe('All keys: a row menu', () => {
  it("lists a row's actions, off where the ledger shows they cannot apply", async () => {
    const user = userEvent.setup();
    renderBoth();
    await user.click(await screen.findByRole('button', { name: 'Actions for KD-A' }));
    expect(items(menuOf('KD-A'))).toEqual(['Open in Keys', 'Copy key', 'Extend…', 'Reset HWID… (off)', 'Delete…']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Actions for KD-B' }));
    expect(items(menuOf('KD-B'))).toEqual(['Open in Keys', 'Copy key', 'Copy HWID', 'Extend…', 'Reset HWID…', 'Delete…']);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Actions for KD-D' }));
    expect(items(menuOf('KD-D'))).toEqual(['Open in Keys', 'Copy key', 'Extend… (off)', 'Reset HWID… (off)', 'Delete… (off)']);
    // A click on the menu button does not open the row's key.
    expect(useKeydesk.getState().view).not.toBe('keys');
  });

  it('copies the key and gives the focus back to its row', async () => {
    const user = userEvent.setup();
    renderBoth();
    const box = await screen.findByRole('checkbox', { name: 'Select KD-B' });
    box.focus();
    await user.keyboard('{Shift>}{F10}{/Shift}');
    const menu = menuOf('KD-B');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Open in Keys' }));
    await user.keyboard('{ArrowDown}{Enter}');
    expect(await navigator.clipboard.readText()).toBe('KD-B');
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select KD-B' })));
  });

  it("asks the key panel's delete question, and deletes on yes", async () => {
    fake.impl['keys.delete'] = () => Promise.resolve({ ok: true, data: { deletedKey: 'KD-A' } });
    const user = userEvent.setup();
    renderBoth();
    await user.click(await screen.findByRole('button', { name: 'Actions for KD-A' }));
    await user.click(within(menuOf('KD-A')).getByRole('menuitem', { name: 'Delete…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this key?' });
    expect(useKeydesk.getState().view).toBe('keys');
    expect(useKeydesk.getState().selectedKey?.value).toBe('KD-A');
    expect(fake.calls.some((c) => c.name === 'keys.delete')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fake.calls.find((c) => c.name === 'keys.delete')?.input).toEqual({ keyValue: 'KD-A', state: 'generated' }));
  });

  it("asks the key panel's reset question for a bound key", async () => {
    const user = userEvent.setup();
    renderBoth();
    await user.click(await screen.findByRole('button', { name: 'Actions for KD-B' }));
    await user.click(within(menuOf('KD-B')).getByRole('menuitem', { name: 'Reset HWID…' }));
    const dialog = await screen.findByRole('dialog', { name: "Reset this key's HWID?" });
    expect(dialog.textContent).toContain('KD-B is bound to HW-1.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.name === 'keys.resetHwid')).toBe(false);
  });

  it('opens the key panel at its days for Extend', async () => {
    const user = userEvent.setup();
    renderBoth();
    await user.click(await screen.findByRole('button', { name: 'Actions for KD-A' }));
    await user.click(within(menuOf('KD-A')).getByRole('menuitem', { name: 'Extend…' }));
    const panel = await screen.findByRole('complementary', { name: 'Key detail' });
    await waitFor(() => expect(document.activeElement).toBe(within(panel).getByLabelText('Extend by days')));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
