// All keys' rows as a person reads them: the last column names Keydesk's bookkeeping, not customer activity; a key
// pasted with spaces around it is found; a deleted key's expiry is shown as what it was, so the Expires sort reads
// true; a Premium column beside the Premium filter (in words, not sortable: the ledger has no premium sort); an
// expiry not read back after an extend says so in words and with an icon, not by colour alone; exports follow the
// sort on screen.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { fake, key, ledgerRow, readyStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { fmt } from '../../src/renderer/src/lib/format.ts';
import { AllKeys, STALE_EXPIRY, STALE_HWID, STALE_STATUS } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

const KEY = 'ZZZEN-471RS-6YK5E-RP9RK-H1W65';
const row = (value: string, patch: Partial<LedgerRow> = {}): LedgerRow => ledgerRow(value, { note: 'spring', ...patch });

beforeEach(() => {
  readyStore([sandboxProfile]);
  fake.impl['jobs.list'] = () => listed([]);
});

const rowOf = (value: string) => screen.getByRole('checkbox', { name: `Select ${value}` }).closest('[role="row"]') as HTMLElement;

describe('All keys: the bookkeeping column', () => {
  it("names the last column as Keydesk's check, not customer activity", async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A')], total: 1, totalCapped: false } });
    render(<AllKeys />);
    await screen.findByText('1 key');
    const grid = screen.getByRole('grid', { name: 'All keys' });
    // Last but the row menu's.
    const header = within(grid).getAllByRole('columnheader').at(-2) as HTMLElement;
    expect(header.textContent).toBe('Last checked');
    expect(header.title).toMatch(/not when a customer used it/);
    expect(screen.queryByText(/last seen/i)).toBeNull();
    const cell = within(rowOf('KD-A')).getAllByRole('gridcell').at(-2) as HTMLElement;
    expect(cell.title).toBe('Last checked 2026-01-01T00:00:00.000Z');
  });
});

describe('All keys: a pasted key with spaces around it', () => {
  it('finds a key pasted with spaces, sending the term trimmed', async () => {
    const user = userEvent.setup();
    fake.impl['ledger.query'] = (input) => {
      const { filter } = input as { filter: { text?: string } };
      // The ledger's own rule: a term matches a key it is part of, spaces included.
      const rows = [row(KEY), row('KD-OTHER')].filter(
        (r) => filter.text === undefined || r.value.toLowerCase().includes(filter.text.toLowerCase()),
      );
      return Promise.resolve({ ok: true, data: { rows, total: rows.length, totalCapped: false } });
    };
    fake.impl['ledger.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keys.csv' } });
    render(<AllKeys />);
    await screen.findByText('2 keys');
    const box = screen.getByLabelText<HTMLInputElement>('Filter (key, note or HWID)');
    await user.click(box);
    await user.paste(` ${KEY} `);
    await screen.findByText('1 key');
    expect(box.value).toBe(` ${KEY} `);
    expect(screen.queryByText('No key matches these filters.')).toBeNull();
    expect(screen.getByRole('checkbox', { name: `Select ${KEY}` })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => {
      expect(fake.calls.find((c) => c.name === 'ledger.export')?.input).toMatchObject({ filter: { text: KEY } });
    });
    await user.click(screen.getByRole('button', { name: 'Select the 1 key' }));
    expect(useKeydesk.getState().selectedAll).toEqual({ text: KEY });
  });
});

describe("All keys: a deleted key's expiry", () => {
  it("shows a deleted key's past expiry, so the Expires sort reads true", async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          rows: [
            row('KD-DEL', { status: 'deleted', expiresAt: '4769-05-26T00:00:00.000Z', daysKey: null }),
            row('KD-DAYS', { status: 'deleted' }),
            row('KD-LIVE', { expiresAt: '2032-01-01T00:00:00.000Z', daysKey: null }),
          ],
          total: 3,
          totalCapped: false,
        },
      });
    render(<AllKeys />);
    await screen.findByText('3 keys');
    const expires = (value: string) => within(rowOf(value)).getAllByRole('gridcell')[6]?.textContent;
    const date = fmt.date('4769-05-26T00:00:00.000Z');
    expect(expires('KD-DEL')).toBe(`was ${date} (deleted)`);
    expect(expires('KD-DAYS')).toBe('was +30 days (deleted)');
    expect(expires('KD-LIVE')).not.toMatch(/was/);
  });
});

describe('All keys: select-all in words that fit the count', () => {
  it('words Select all for no key, one key and many', async () => {
    const user = userEvent.setup();
    fake.impl['ledger.query'] = (input) => {
      const { filter } = input as { filter: { text?: string } };
      const rows = [row('KD-A1'), row('KD-A2'), row('KD-B1')].filter((r) => filter.text === undefined || r.value.includes(filter.text));
      return Promise.resolve({ ok: true, data: { rows, total: rows.length, totalCapped: false } });
    };
    render(<AllKeys />);
    await screen.findByText('3 keys');
    expect(screen.getByRole('button', { name: 'Select all 3' })).toBeTruthy();
    const box = screen.getByLabelText('Filter (key, note or HWID)');
    await user.type(box, 'B');
    await screen.findByText('1 key');
    expect(screen.getByRole('button', { name: 'Select the 1 key' })).toBeTruthy();
    await user.type(box, 'Z');
    await screen.findByText('No key matches these filters.');
    expect(screen.queryByRole('button', { name: /^Select (all|the)/ })).toBeNull();
  });
});

describe('All keys: Enter on a row', () => {
  it('opens the key in Keys with a fresh search and its panel', async () => {
    const user = userEvent.setup();
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row(KEY)], total: 2, totalCapped: false } });
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    fake.impl['keys.fetchGenerated'] = (input) => {
      const keys = (input as { term: string }).term === KEY ? [key(KEY, 'generated')] : [];
      return Promise.resolve({ ok: true, data: { keys, total: keys.length } });
    };
    render(<AllKeys />);
    await screen.findByText('2 keys');
    screen.getByRole('checkbox', { name: `Select ${KEY}` }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => {
      expect(useKeydesk.getState().selectedKey?.value).toBe(KEY);
    });
    const s = useKeydesk.getState();
    expect(s.view).toBe('keys');
    expect(s.lookupTerm).toBe(KEY);
    expect(s.drafts['lookup.term']).toBe(KEY);
    // Enter did not tick the row.
    expect(s.selection.has(KEY)).toBe(false);
  });
});

describe('All keys: Enter on a key the service no longer has', () => {
  it('closes the panel of the key opened before', async () => {
    const user = userEvent.setup();
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row(KEY)], total: 1, totalCapped: false } });
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    useKeydesk.getState().selectKey(key('KD-OPENED-BEFORE', 'active'));
    render(<AllKeys />);
    await screen.findByText('1 key');
    screen.getByRole('checkbox', { name: `Select ${KEY}` }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => {
      expect(useKeydesk.getState().lookupResult?.generated).toEqual([]);
    });
    expect(useKeydesk.getState().selectedKey).toBeNull();
  });
});

describe('All keys: the Premium column', () => {
  it('says Premium or Standard per row, agreeing with the Premium filter', async () => {
    const user = userEvent.setup();
    fake.impl['ledger.query'] = (input) => {
      const { filter } = input as { filter: { premium?: boolean } };
      const rows = [row('KD-P', { isPremium: true }), row('KD-S', { isPremium: false })].filter(
        (r) => filter.premium === undefined || r.isPremium === filter.premium,
      );
      return Promise.resolve({ ok: true, data: { rows, total: rows.length, totalCapped: false } });
    };
    render(<AllKeys />);
    await screen.findByText('2 keys');
    const grid = screen.getByRole('grid', { name: 'All keys' });
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(1, 4)).toEqual([expect.stringMatching(/^Key/), expect.stringMatching(/^Status/), 'Premium']);
    const premiumHeader = within(grid).getAllByRole('columnheader')[3] as HTMLElement;
    expect(within(premiumHeader).queryByRole('button')).toBeNull();
    expect(premiumHeader.getAttribute('aria-sort')).toBeNull();
    // Cells line up under their headers: the Premium cell is the row's fourth.
    const cells = (value: string) =>
      within(rowOf(value))
        .getAllByRole('gridcell')
        .map((c) => c.textContent);
    expect(cells('KD-P')[3]).toBe('Premium');
    expect(cells('KD-S')[3]).toBe('Standard');

    await user.selectOptions(screen.getByLabelText('Premium'), 'Standard');
    await screen.findByText('1 key');
    expect(screen.queryByRole('checkbox', { name: 'Select KD-P' })).toBeNull();
    expect(cells('KD-S')[3]).toBe('Standard');
  });
});

describe('All keys: exports follow the sort shown', () => {
  it('exports in the sort and filter on screen, and says so', async () => {
    const user = userEvent.setup();
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: { rows: [row('KD-A', { isPremium: false }), row('KD-B', { isPremium: true })], total: 2, totalCapped: false },
      });
    fake.impl['ledger.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keys.csv' } });
    render(<AllKeys />);
    await screen.findByText('2 keys');
    expect(screen.getByText('Exports hold every matching key, in the order shown.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Key/ }));
    await user.type(screen.getByLabelText('Filter (key, note or HWID)'), 'KD');
    await screen.findByText('2 keys');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'ledger.export')).toHaveLength(1);
    });
    const shown = useKeydesk.getState().ledgerSort;
    expect(shown.field).toBe('value');
    expect(fake.calls.find((c) => c.name === 'ledger.export')?.input).toEqual({ filter: { text: 'KD' }, sort: shown, format: 'csv' });
  });
});

/** An active key with a fixed expiry (the row builder's default is a generated days-key). */
const ACTIVE_2099: Partial<LedgerRow> = { status: 'active', expiresAt: '2099-01-31T23:59:59.999Z', daysKey: null };

/** The cell of a row under the column whose header starts with `column`. */
const cellOf = (value: string, column: string): HTMLElement => {
  const r = screen.getByRole('checkbox', { name: `Select ${value}` }).closest('[role="row"]') as HTMLElement;
  const header = screen.getAllByRole('columnheader').findIndex((h) => h.textContent.startsWith(column));
  return within(r).getAllByRole('gridcell')[header] as HTMLElement;
};
const expiryCell = (value: string): HTMLElement => cellOf(value, 'Expires');

describe('All keys: an expiry not read back', () => {
  it('marks an expiry not read back, saying what to do', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: { rows: [row('KD-OLD', { ...ACTIVE_2099, expiryStale: true }), row('KD-NEW', ACTIVE_2099)], total: 2, totalCapped: false },
      });
    render(<AllKeys />);
    await screen.findByText('2 keys');

    const stale = expiryCell('KD-OLD');
    expect(stale.textContent).toContain('2099');
    expect(stale.textContent).toContain('not read back');
    // The whole sentence for a screen reader, and in the title for a pointer.
    expect(stale.textContent).toContain(STALE_EXPIRY);
    expect(STALE_EXPIRY).toBe('An extend was sent and the new expiry not read back — look the key up.');
    expect(stale.querySelector('[title]')?.getAttribute('title')).toBe(`${STALE_EXPIRY} Expiry seen before: 2099-01-31T23:59:59.999Z`);

    const current = expiryCell('KD-NEW');
    expect(current.textContent).toContain('2099');
    expect(current.textContent).not.toContain('not read back');
  });
});

describe('All keys: an HWID or a status not read back (a reset or a delete sent with no answer)', () => {
  it('marks an HWID not read back, in full for a screen reader', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          rows: [row('KD-HUNG', { ...ACTIVE_2099, hwid: 'HW-OLD', hwidStale: true }), row('KD-PLAIN', { ...ACTIVE_2099, hwid: 'HW-NOW' })],
          total: 2,
          totalCapped: false,
        },
      });
    render(<AllKeys />);
    await screen.findByText('2 keys');

    const stale = cellOf('KD-HUNG', 'HWID');
    expect(stale.textContent).toBe(`HW-OLD · not read back (${STALE_HWID})`);
    // The mark is an icon (the CSS's ⚠) and words, never colour alone: the words say what to do.
    expect(stale.querySelector('.not-read-back')).not.toBeNull();
    expect(STALE_HWID).toBe('An HWID reset was sent with no answer, so this HWID may already be cleared — look the key up.');
    expect(stale.querySelector('[title]')?.getAttribute('title')).toBe(`${STALE_HWID} HWID seen before: HW-OLD`);
    // Read aloud: the HWID and the whole sentence; the short words are for the eye only.
    expect(stale.querySelector('.visually-hidden')?.textContent).toBe(` (${STALE_HWID})`);
    expect(stale.querySelector('[aria-hidden="true"]')?.textContent).toBe(' · not read back');

    const plain = cellOf('KD-PLAIN', 'HWID');
    expect(plain.textContent).toBe('HW-NOW');
    expect(plain.querySelector('.not-read-back')).toBeNull();
    // Nothing else on those rows is said to be stale.
    expect(cellOf('KD-HUNG', 'Status').textContent).toBe('Active');
    expect(cellOf('KD-HUNG', 'Expires').textContent).not.toContain('not read back');
  });

  it('marks a status not read back, in full for a screen reader', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          rows: [row('KD-HUNG', { ...ACTIVE_2099, statusStale: true }), row('KD-GONE', { ...ACTIVE_2099, status: 'deleted' })],
          total: 2,
          totalCapped: false,
        },
      });
    render(<AllKeys />);
    await screen.findByText('2 keys');

    const stale = cellOf('KD-HUNG', 'Status');
    expect(stale.textContent).toBe(`Active · not read back (${STALE_STATUS})`);
    expect(stale.querySelector('.not-read-back')).not.toBeNull();
    expect(STALE_STATUS).toBe('A delete was sent with no answer, so this key may already be deleted — look the key up.');
    expect(stale.querySelector('[title]')?.getAttribute('title')).toBe(`${STALE_STATUS} Status seen before: Active`);
    expect(stale.querySelector('.visually-hidden')?.textContent).toBe(` (${STALE_STATUS})`);

    const plain = cellOf('KD-GONE', 'Status');
    expect(plain.textContent).toBe('Deleted');
    expect(plain.querySelector('.not-read-back')).toBeNull();
  });
});
