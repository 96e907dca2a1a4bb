// All keys' table by keyboard and for export, in jsdom against the fake bridge: Export off with its reason when no
// key matches, sort marks, rows as one Tab stop moved by arrows, and copies by Ctrl+C and Ctrl+Shift+C.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoJobs, row } from '../support/job-fixtures.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

beforeEach(readyWithNoJobs);

describe('All keys: jobs', () => {
  it('disables Export with the reason when no key matches', async () => {
    const deleted = { ...row('KD-D'), status: 'deleted' as const, expiresAt: '2027-06-30T23:59:59.000Z', daysKey: null };
    fake.impl['ledger.query'] = (input) => {
      const { filter } = input as { filter: { text?: string } };
      return Promise.resolve({
        ok: true,
        data:
          filter.text === 'zz'
            ? { rows: [], total: 0, totalCapped: false }
            : { rows: [row('KD-A'), deleted], total: 2, totalCapped: false },
      });
    };
    const user = userEvent.setup();
    render(<AllKeys />);
    await screen.findByText('2 keys');
    // A deleted key shows no expiry as if it still applied: the one it had, muted, as past.
    const deletedRow = screen.getByRole('checkbox', { name: 'Select KD-D' }).closest('[role="row"]') as HTMLElement;
    const was = within(deletedRow).getByText(/^was .*2027/);
    expect(was.className).toBe('muted');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' }).disabled).toBe(false);
    expect(screen.getByText('Exports hold every matching key, in the order shown.')).toBeTruthy();

    const text = screen.getByLabelText('Filter (key, note or HWID)');
    await user.type(text, 'zz');
    expect(await screen.findByText('No key matches these filters.')).toBeTruthy();
    const csv = screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' });
    expect(csv.disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export JSON' }).disabled).toBe(true);
    expect(document.getElementById(csv.getAttribute('aria-describedby')!)?.textContent).toBe('Nothing to export: no key matches.');

    await user.clear(text);
    await user.type(text, '   ');
    await screen.findByText('2 keys');
    expect(
      fake.calls
        .filter((c) => c.name === 'ledger.query')
        .map((c) => (c.input as { filter: { text?: string } }).filter.text)
        .at(-1),
    ).toBeUndefined();

    // Sortable columns show a neutral mark; the sorted one its direction, with aria-sort.
    const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Created').getAttribute('aria-sort')).toBe('descending');
    expect(header('Key').getAttribute('aria-sort')).toBe('none');
    const pathOf = (h: HTMLElement) => h.querySelector('svg path')?.getAttribute('d');
    expect(pathOf(header('Key'))).not.toBe(pathOf(header('Created')));
    await user.click(within(header('Key')).getByRole('button'));
    expect(header('Key').getAttribute('aria-sort')).toBe('ascending');
    expect(pathOf(header('Key'))).not.toBe(pathOf(header('Created')));
    expect(pathOf(header('Created'))).toBe(pathOf(header('Status')));
  });

  it('keyboard: rows are one Tab stop, moved by arrows', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B'), row('KD-C')], total: 3, totalCapped: false } });
    const user = userEvent.setup();
    render(<AllKeys />);
    const boxes = await screen.findAllByRole('checkbox', { name: /^Select KD-/ });
    expect(boxes.map((b) => b.tabIndex)).toEqual([0, -1, -1]);

    boxes[0]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select KD-B' }));
    await user.keyboard(' ');
    expect(useKeydesk.getState().selection).toEqual(new Set(['KD-B']));
    // The bulk actions come with the selection, above the table.
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    const grid = screen.getByRole('grid', { name: 'All keys' });
    expect(bar.compareDocumentPosition(grid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select KD-C' }));
    expect(screen.getAllByRole('checkbox', { name: /^Select KD-/ }).map((b) => b.tabIndex)).toEqual([-1, -1, 0]);
    await user.keyboard('{Shift>} {/Shift}');
    expect(useKeydesk.getState().selection).toEqual(new Set(['KD-B', 'KD-C']));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select KD-A' }));
    // Tab leaves the table: no other row is a stop.
    await user.tab();
    expect((document.activeElement as HTMLElement | null)?.closest('[role="grid"]')).toBeNull();
  });

  it('keyboard: Ctrl+C copies the key, Ctrl+Shift+C its HWID', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          rows: [
            { ...row('KD-A'), hwid: 'HW-BOUND-1' },
            { ...row('KD-B'), note: '' },
          ],
          total: 2,
          totalCapped: false,
        },
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    const boxes = await screen.findAllByRole('checkbox', { name: /^Select KD-/ });
    boxes[0]!.focus();
    await user.keyboard('{Control>}c{/Control}');
    expect(await navigator.clipboard.readText()).toBe('KD-A');
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Copied KD-A.' });
    });
    await user.keyboard('{Control>}{Shift>}C{/Shift}{/Control}');
    expect(await navigator.clipboard.readText()).toBe('HW-BOUND-1');
    await user.keyboard('{ArrowDown}{Control>}{Shift>}C{/Shift}{/Control}');
    expect(await navigator.clipboard.readText()).toBe('HW-BOUND-1');
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      text: 'Copy the HWID of key KD-B: it is not bound to a machine, so there is no HWID to copy.',
    });
    // Ctrl+C did not tick the row, and an empty note reads as a dash, not a blank cell.
    expect(useKeydesk.getState().selection).toEqual(new Set());
    const rowB = screen.getByRole('checkbox', { name: 'Select KD-B' }).closest('[role="row"]') as HTMLElement;
    const noteColumn = screen.getAllByRole('columnheader').findIndex((h) => h.textContent.startsWith('Note'));
    expect(noteColumn).toBeGreaterThan(0);
    const rowA = screen.getByRole('checkbox', { name: 'Select KD-A' }).closest('[role="row"]') as HTMLElement;
    expect(within(rowA).getAllByRole('gridcell')[noteColumn]?.textContent).toBe('spring');
    expect(within(rowB).getAllByRole('gridcell')[noteColumn]?.textContent).toBe('—');
  });

  it('keyboard: a refused copy says which copy it was', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [{ ...row('KD-A'), hwid: 'HW-BOUND-1' }], total: 1, totalCapped: false } });
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    render(<AllKeys />);
    (await screen.findByRole('checkbox', { name: 'Select KD-A' })).focus();
    await user.keyboard('{Control>}c{/Control}');
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        text: 'Copy key KD-A: the clipboard refused; use an export instead.',
      });
    });
    await user.keyboard('{Control>}{Shift>}C{/Shift}{/Control}');
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        text: 'Copy the HWID of key KD-A: the clipboard refused; use an export instead.',
      });
    });
  });
});
