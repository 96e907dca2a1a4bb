// Keys' one search: a term the service finds no whole key or HWID for is also looked up by part of a value in
// Keydesk's records (All keys' text filter), each answer headed by its source, and All keys is one click away.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { fake, fakeStartedMain, key, ledgerRow, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoHwid } from '../support/view-start.ts';
import { App } from '../../src/renderer/src/App.tsx';

const KEY = 'ZZZEN-471RS-6YK5E-RP9RK-H1W65';
const PART = '471RS-6YK5E';
const ledger: LedgerRow[] = [ledgerRow(KEY, { note: 'spring batch' }), ledgerRow('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', { note: 'other' })];
/** The text filters Keydesk's records were asked for, in order. */
const ledgerTexts = () =>
  fake.calls.filter((c) => c.name === 'ledger.query').map((c) => (c.input as { filter: { text?: string } }).filter.text);

beforeEach(() => {
  readyWithNoHwid();
  fakeStartedMain();
  // The service's rule: a value or HWID matches whole.
  fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
  fake.impl['keys.fetchGenerated'] = (input) => {
    const { term } = input as { term: string };
    const keys = term === KEY || 'spring batch'.includes(term) ? [key(KEY, 'generated', { note: 'spring batch' })] : [];
    return Promise.resolve({ ok: true, data: { keys, total: keys.length } });
  };
  // The ledger's rule: any part of a value, note or HWID, in any case.
  fake.impl['ledger.query'] = (input) => {
    const text = ((input as { filter: { text?: string } }).filter.text ?? '').toLowerCase();
    const rows = ledger.filter((r) => [r.value, r.note, r.hwid ?? ''].some((v) => v.toLowerCase().includes(text)));
    return Promise.resolve({ ok: true, data: { rows, total: rows.length, totalCapped: false } });
  };
});

async function searchKeys(term: string) {
  const user = userEvent.setup();
  render(<App />);
  await screen.findByLabelText('Active service');
  act(() => useKeydesk.getState().setView('keys'));
  await user.type(await screen.findByRole('searchbox', { name: 'Key value, note or HWID' }), `${term}{Enter}`);
  return user;
}

describe('Keys: part of a key', () => {
  it('finds a pasted part in Keydesk’s records, said apart from the service', async () => {
    const user = await searchKeys(PART);
    const records = (await screen.findByRole('heading', { name: 'In Keydesk’s records (part of a value)' })).closest('section');
    if (!(records instanceof HTMLElement)) throw new Error('no records section');
    expect(screen.getByRole('heading', { name: 'On the service' })).toBeTruthy();
    expect(screen.getByText('No key matches.')).toBeTruthy();
    const status = await within(records).findByText(/^1 key holds/);
    expect(status.textContent).toMatch(/^1 key holds “471RS-6YK5E” in a value, note or HWID\. Read .+\.$/);
    const table = within(records).getByRole('table', { name: 'Keys in Keydesk’s records' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(ledgerTexts()).toEqual([PART]);
    // The row opens its key: the service is asked for the whole value, and the panel shows it.
    await user.click(within(table).getByRole('button', { name: KEY }));
    expect(await screen.findByRole('complementary', { name: 'Key detail' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'In Keydesk’s records (part of a value)' })).toBeNull();
  });

  it('opens All keys with the term as its text filter', async () => {
    const user = await searchKeys(PART);
    await user.click(await screen.findByRole('button', { name: `Open “${PART}” in All keys` }));
    expect(await screen.findByRole('heading', { name: 'All keys', level: 1 })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Filter (key, note or HWID)' }).value).toBe(PART);
    expect(useKeydesk.getState().ledgerFilter).toEqual({ text: PART });
    await screen.findByText(KEY);
    expect(ledgerTexts().at(-1)).toBe(PART);
  });

  it('leaves Keydesk’s records alone when the service finds the whole key', async () => {
    await searchKeys(KEY);
    await screen.findByText(/Results for “ZZZEN-471RS-6YK5E-RP9RK-H1W65”/);
    expect(screen.queryByRole('heading', { name: 'In Keydesk’s records (part of a value)' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'On the service' })).toBeNull();
    expect(ledgerTexts()).toEqual([]);
  });

  it('adds no records section when the service listed every match', async () => {
    await searchKeys('spring');
    await screen.findByText(/Results for “spring”/);
    await waitFor(() => expect(ledgerTexts()).toEqual(['spring']));
    await waitFor(() => expect(useKeydesk.getState().lookupLedgerRequest.status).toBe('ready'));
    expect(screen.queryByRole('heading', { name: 'In Keydesk’s records (part of a value)' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'On the service' })).toBeNull();
    expect(screen.getAllByRole('button', { name: KEY })).toHaveLength(1);
  });
});
