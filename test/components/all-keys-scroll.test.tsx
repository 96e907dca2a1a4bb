// All keys' scroll range in jsdom against the fake bridge: at 1,000,000 rows the scrollbar's end and End reach the
// last row within Chromium's element height, a capped count reaches its true end, and a click on a row opens its key.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, ledgerRow, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoJobs } from '../support/job-fixtures.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

/** Chromium's cap on an element's height, in px. */
const CHROMIUM_MAX_HEIGHT = 33_554_428;
const VIEWPORT = 340;

/** A ledger of `total` keys, K0000000 first in the shown order (created, newest first); `capped` says more than 10,000. */
function ledgerOf(total: number, capped = false) {
  const value = (i: number) => `K${String(i).padStart(7, '0')}`;
  fake.impl['ledger.query'] = (input) => {
    const q = input as { offset: number; limit: number; sort: { dir: string }; exactCount?: boolean };
    const n = Math.max(0, Math.min(q.limit, total - q.offset));
    const index = (i: number) => (q.sort.dir === 'desc' ? q.offset + i : total - 1 - q.offset - i);
    const rows = Array.from({ length: n }, (_, i) => ledgerRow(value(index(i))));
    const cut = capped && !q.exactCount;
    return Promise.resolve({ ok: true, data: { rows, total: cut ? 10_000 : total, totalCapped: cut } });
  };
  return value;
}

const body = () => screen.getByRole('rowgroup', { name: 'Rows' });
const range = () => Number.parseFloat((body().firstElementChild as HTMLElement).style.height);
/** Drags the scrollbar to the bottom of the range. */
const dragToBottom = () => {
  body().scrollTop = range() - VIEWPORT;
  fireEvent.scroll(body());
};
const lastShown = () =>
  screen
    .getAllByRole('checkbox', { name: /^Select K/ })
    .at(-1)
    ?.getAttribute('aria-label');

beforeEach(() => {
  readyWithNoJobs();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(VIEWPORT);
});
afterEach(() => vi.restoreAllMocks());

describe('All keys: the end of a long list', () => {
  it('reaches the last of 1,000,000 rows by dragging the scrollbar down', async () => {
    const value = ledgerOf(1_000_000);
    render(<AllKeys />);
    await screen.findByText('1,000,000 keys');
    expect(range()).toBeLessThan(CHROMIUM_MAX_HEIGHT);
    dragToBottom();
    await waitFor(() => expect(lastShown()).toBe(`Select ${value(999_999)}`));
    const last = screen.getByRole('checkbox', { name: `Select ${value(999_999)}` }).closest('[role="row"]') as HTMLElement;
    expect(last.getAttribute('aria-rowindex')).toBe('1000001');
    // The last row ends at the range's end, in sight (jsdom's CSS keeps 6 significant digits: 10 px at 10,000,000).
    const top = Number(/translateY\(([\d.]+)px\)/.exec(last.style.transform)?.[1]);
    expect(Math.abs(top + 34 - range())).toBeLessThanOrEqual(10);
  });

  it('End goes to the last of 1,000,000 rows, Home to the first', async () => {
    const value = ledgerOf(1_000_000);
    const user = userEvent.setup();
    render(<AllKeys />);
    (await screen.findByRole('checkbox', { name: `Select ${value(0)}` })).focus();
    await user.keyboard('{End}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe(`Select ${value(999_999)}`));
    expect(body().scrollTop).toBe(range() - VIEWPORT);
    expect(range()).toBeLessThan(CHROMIUM_MAX_HEIGHT);
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement?.getAttribute('aria-label')).toBe(`Select ${value(999_998)}`);
    await user.keyboard('{Home}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe(`Select ${value(0)}`));
    expect(body().scrollTop).toBe(0);
  });

  it('past a capped count, the bottom counts and moves to the end', async () => {
    const value = ledgerOf(123_456, true);
    render(<AllKeys />);
    await screen.findByText(/More than 10,000 keys match/);
    dragToBottom();
    await screen.findByText('123,456 keys');
    await waitFor(() => expect(lastShown()).toBe(`Select ${value(123_455)}`));
    expect(body().scrollTop).toBe(123_456 * 34 - VIEWPORT);
  });
});

describe('All keys: a click on a row', () => {
  it('opens its key in Keys; its checkbox and Ctrl+click select it instead', async () => {
    const value = ledgerOf(3);
    const user = userEvent.setup();
    render(<AllKeys />);
    const box = await screen.findByRole('checkbox', { name: `Select ${value(1)}` });
    const row = box.closest('[role="row"]') as HTMLElement;
    await user.click(box);
    expect(useKeydesk.getState().selection).toEqual(new Set([value(1)]));
    await user.click(row.querySelector('.check') as HTMLElement);
    expect(useKeydesk.getState().view).not.toBe('keys');
    await user.keyboard('{Control>}');
    await user.click(within(row).getByText(value(1)));
    await user.keyboard('{/Control}');
    expect(useKeydesk.getState().selection).toEqual(new Set());
    expect(useKeydesk.getState().view).not.toBe('keys');

    await user.click(within(row).getAllByRole('gridcell')[3]!);
    expect(useKeydesk.getState().view).toBe('keys');
    expect(useKeydesk.getState().drafts['lookup.term']).toBe(value(1));
    await waitFor(() => expect(fake.calls.find((c) => c.name === 'keys.fetchActive')?.input).toMatchObject({ term: value(1) }));
  });
});
