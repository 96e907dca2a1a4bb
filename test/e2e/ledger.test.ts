// The All keys view in Chromium through the harness: a virtualised table of the ledger, filter and sort,
// multi-select, and bulk actions with progress, cancel and a result per key.
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();
const grid = () => app.page.getByRole('grid', { name: 'All keys' });
const domRows = () => grid().locator('.vrow').count();

beforeAll(async () => {
  const made = await app.page.evaluate(async () => {
    const a = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 2_000, isPremium: false, note: 'ledger bulk' });
    const b = await window.keydesk['keys.generate']({ expire: '2099-06-01', count: 30, isPremium: true, note: 'ledger premium' });
    return a.ok && b.ok;
  });
  expect(made).toBe(true);
  await app.nav('All keys');
});
describe('All keys', () => {
  it('shows every key with a bounded number of DOM rows', async () => {
    // The count line exactly: while main's ledger writer records the batch, "Recording 2,030 keys…" is shown too.
    await app.page.getByText('2,030 keys', { exact: true }).waitFor();
    expect(await domRows()).toBeLessThanOrEqual(60);
    expect(await grid().getAttribute('aria-rowcount')).toBe('2031');
    await grid()
      .getByLabel('Rows')
      .evaluate((el: { scrollTop: number }) => {
        el.scrollTop = 1_500 * 34;
      });
    await expect
      .poll(async () =>
        grid()
          .locator('.vrow[aria-rowindex="1502"]')
          .getByText(/^[0-9A-Z]{5}-/)
          .count(),
      )
      .toBe(1);
    expect(await domRows()).toBeLessThanOrEqual(60);
  });

  it('filters and sorts', async () => {
    await app.page.getByLabel('Filter (key, note or HWID)').fill('PREMIUM');
    await app.page.getByText('30 keys').waitFor();
    await app.page.getByLabel('Filter (key, note or HWID)').fill('');
    await app.page.getByLabel('Premium').selectOption('true');
    await app.page.getByText('30 keys').waitFor();
    await app.page.getByRole('columnheader', { name: 'Key', exact: true }).getByRole('button').click();
    await expect.poll(() => app.page.getByRole('columnheader', { name: 'Key', exact: true }).getAttribute('aria-sort')).toBe('ascending');
    // The header turns at once; the rows of the old order stay (marked stale) until the new page arrives.
    const firstTwo = () => Promise.all([0, 1].map((i) => grid().locator('.vrow').nth(i).locator('.mono').textContent()));
    await expect
      .poll(async () => {
        const [first, second] = await firstTwo();
        return (first ?? '') < (second ?? '');
      })
      .toBe(true);
  });

  it('comes back after a reload with its filter and sort', async () => {
    await app.page.getByLabel('Filter (key, note or HWID)').fill('ledger premium');
    await app.page.getByText('30 keys', { exact: true }).waitFor();
    await app.page.reload();
    await app.page.locator('[data-app-state="ready"]').waitFor();
    // No navigation: the reload lands on All keys itself, the filter as typed, the order as chosen.
    await app.page.getByText('30 keys', { exact: true }).waitFor();
    expect(await app.page.getByLabel('Filter (key, note or HWID)').inputValue()).toBe('ledger premium');
    expect(await app.page.getByLabel('Premium').inputValue()).toBe('true');
    expect(await app.page.getByRole('columnheader', { name: 'Key', exact: true }).getAttribute('aria-sort')).toBe('ascending');
    await app.page.getByLabel('Filter (key, note or HWID)').fill('');
    await app.page.getByText('30 keys', { exact: true }).waitFor();
  });

  it('ticks a range with shift-click, then offers all matching', async () => {
    const box = (i: number) => grid().locator('.vrow').nth(i).getByRole('checkbox');
    await box(1).click();
    await box(4).click({ modifiers: ['Shift'] });
    await app.page.getByText('4 selected').waitFor();
    expect(await Promise.all([0, 1, 2, 3, 4, 5].map((i) => box(i).isChecked()))).toEqual([false, true, true, true, true, false]);
    const header = app.page.getByRole('checkbox', { name: 'Select every row on screen' });
    await header.click();
    await expect.poll(() => header.isChecked()).toBe(true);
    const offer = app.page.getByRole('button', { name: 'Select all 30 matching' });
    await offer.click();
    await app.page.getByText('All 30 matching keys selected').waitFor();
    await app.page.getByRole('button', { name: 'Clear selection' }).click();
    // Nothing selected: the bulk actions go.
    await app.page.getByRole('button', { name: 'Clear selection' }).waitFor({ state: 'detached' });
  });

  it('keyboard: rows are one Tab stop, arrows move, Space ticks', async () => {
    const stops = grid().locator('input[type="checkbox"][data-row]:not([tabindex="-1"])');
    expect(await stops.count()).toBe(1);
    await stops.first().focus();
    await app.page.keyboard.press('Home');
    await app.page.keyboard.press('ArrowDown');
    await app.page.keyboard.press('ArrowDown');
    const focused = app.page.locator(':focus');
    expect(await focused.getAttribute('data-row')).toBe('2');
    await app.page.keyboard.press('Space');
    await app.page.getByText('1 selected').waitFor();
    expect(await grid().locator('.vrow').nth(2).getByRole('checkbox').isChecked()).toBe(true);
    await app.page.keyboard.press('End');
    await expect.poll(() => focused.getAttribute('data-row')).toBe('29');
    expect(await stops.count()).toBe(1);
    // Shift+Tab leaves the rows at once (to the header), not through every row above.
    await app.page.keyboard.press('Shift+Tab');
    expect(await focused.getAttribute('data-row')).toBeNull();
    // The bulk actions sit above the table, on screen with what is selected.
    const bar = app.page.getByRole('region', { name: 'Bulk actions' });
    const box = await bar.boundingBox();
    const gridBox = await grid().boundingBox();
    expect(box && gridBox && box.y < gridBox.y).toBe(true);
    await app.page.getByRole('button', { name: 'Clear selection' }).click();
    // Nothing selected: the bulk actions go.
    await app.page.getByRole('button', { name: 'Clear selection' }).waitFor({ state: 'detached' });
  });

  it('extends selected keys in bulk as a job with per-key outcomes', async () => {
    for (let i = 0; i < 3; i++) await grid().locator('.vrow').nth(i).getByRole('checkbox').check();
    await app.page.getByText('3 selected').waitFor();
    await app.page.getByRole('region', { name: 'Bulk actions' }).getByLabel('Days').fill('7');
    await app.page.getByRole('button', { name: 'Extend selected' }).click();
    // Extending cannot be undone: it asks first, naming how many keys and by how many days.
    await app.page.getByRole('dialog', { name: 'Extend 3 keys by 7 days?' }).getByRole('button', { name: 'Extend' }).click();
    await app.page.getByText('Extend by 7 days, finished: 3 of 3 done.').waitFor();
    // Nothing selected: the bulk actions go.
    await app.page.getByRole('button', { name: 'Clear selection' }).waitFor({ state: 'detached' });
  });

  it('deletes all matching keys as a job that survives a reload', async () => {
    // One request in flight (set where a person sets it, in Profiles), so the job still runs when the page reloads.
    await app.nav('Profiles');
    await app.page.getByLabel('Parallel requests for bulk actions', { exact: true }).fill('1');
    await app.page.getByRole('button', { name: 'Save bulk limit' }).click();
    await app.page.getByText('Set by you.').waitFor();
    await app.nav('All keys');
    await app.page.getByLabel('Premium').selectOption('');
    await app.page.getByLabel('Filter (key, note or HWID)').fill('ledger bulk');
    await app.page.getByText('2,000 keys').waitFor();
    await app.page.getByRole('button', { name: 'Select all 2,000' }).click();
    await app.page.getByText('All 2,000 matching keys selected').waitFor();
    await app.page.getByRole('button', { name: 'Delete selected' }).click();
    await app.page.getByRole('dialog', { name: 'Delete all 2,000 matching keys?' }).getByRole('button', { name: 'Delete' }).click();
    await app.page.getByText(/^Delete, running: /).waitFor();

    await app.page.reload();
    await app.page.locator('[data-app-state="ready"]').waitFor();
    await app.nav('All keys');
    // Reattached: the same job, still moving.
    const done = async () => Number(await app.page.getByLabel('Bulk progress').getAttribute('value'));
    const before = await done();
    await expect.poll(done).toBeGreaterThan(before);
    await app.page.getByRole('button', { name: 'Cancel', exact: true }).click();
    // Focus goes to the line that says what the cancel did, not to whatever button follows.
    expect(await app.page.locator(':focus').textContent()).toMatch(/^Delete, (running|cancelling|cancelled): /);
    // Requests on the wire are cut off by the cancel ("cancelling" meanwhile); main then records the job's
    // end and the toast says so. Only then does the line say "cancelled", and it no longer counts answers awaited.
    await app.page.getByText(/of 2,000 done.*\(cancelled\)\.$/).waitFor();
    const line = app.page.getByText(/^Delete, cancelled: /);
    await line.waitFor();
    await expect.poll(async () => /awaiting an answer/.test((await line.textContent()) ?? '')).toBe(false);
    const text = (await line.textContent()) ?? '';
    const count = (re: RegExp): number => Number(re.exec(text)?.[1]?.replaceAll(',', '') ?? 0);
    const deleted = count(/([\d,]+) of 2,000 done/);
    const notSent = count(/([\d,]+) not sent/);
    // A request cut off by the cancel with no answer counts as unknown: every key is in exactly one count.
    const unknown = count(/([\d,]+) unknown/);
    expect(deleted).toBeGreaterThan(0);
    expect(deleted + notSent + unknown).toBe(2_000);
    await app.page
      .getByRole('button', { name: `Resume deleting ${notSent.toLocaleString('en-US')} ${notSent === 1 ? 'key' : 'keys'}…` })
      .waitFor();
    await app.page.getByLabel('Status').selectOption('deleted');
    await app.page.getByText(`${deleted.toLocaleString('en-US')} keys`).waitFor();
    await app.nav('Profiles');
    await app.page.getByRole('button', { name: 'Use the default' }).click();
    await app.page.getByText("Keydesk's default.").waitFor();
  });
});
