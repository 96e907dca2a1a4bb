// The All keys view in Chromium through the harness: a virtualised table of the ledger, filter and sort,
// multi-select, and bulk actions with progress, cancel and a result per key.
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, type AppPage } from '../support/app-page.ts';

let app: AppPage;
let page: Page;
const grid = () => page.getByRole('grid', { name: 'All keys' });
const domRows = () => grid().locator('.vrow').count();

beforeAll(async () => {
  app = await openApp();
  page = app.page;
  const made = await page.evaluate(async () => {
    const a = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 2_000, isPremium: false, note: 'ledger bulk' });
    const b = await window.keydesk['keys.generate']({ expire: '2099-06-01', count: 30, isPremium: true, note: 'ledger premium' });
    return a.ok && b.ok;
  });
  expect(made).toBe(true);
  await app.nav('All keys');
});
afterAll(async () => {
  await app.close();
});

describe('All keys', () => {
  it('shows every key with a bounded number of DOM rows, loading pages as it scrolls', async () => {
    await page.getByText('2,030 key(s)').waitFor();
    expect(await domRows()).toBeLessThanOrEqual(60);
    expect(await grid().getAttribute('aria-rowcount')).toBe('2031');
    await grid().getByLabel('Rows').evaluate((el: { scrollTop: number }) => {
      el.scrollTop = 1_500 * 34;
    });
    await expect.poll(async () => grid().locator('.vrow[aria-rowindex="1502"]').getByText(/^[0-9A-Z]{5}-/).count()).toBe(1);
    expect(await domRows()).toBeLessThanOrEqual(60);
  });

  it('filters and sorts', async () => {
    await page.getByLabel('Filter (key, note or HWID)').fill('PREMIUM');
    await page.getByText('30 key(s)').waitFor();
    await page.getByLabel('Filter (key, note or HWID)').fill('');
    await page.getByLabel('Premium').selectOption('true');
    await page.getByText('30 key(s)').waitFor();
    await page.getByRole('columnheader', { name: 'Key' }).getByRole('button').click();
    await expect.poll(() => page.getByRole('columnheader', { name: 'Key' }).getAttribute('aria-sort')).toBe('ascending');
    const first = await grid().locator('.vrow').nth(0).locator('.mono').textContent();
    const second = await grid().locator('.vrow').nth(1).locator('.mono').textContent();
    expect((first ?? '') < (second ?? '')).toBe(true);
  });

  it('extends selected keys in bulk with progress and a result per key', async () => {
    for (let i = 0; i < 3; i++) await grid().locator('.vrow').nth(i).getByRole('checkbox').check();
    await page.getByText('3 selected').waitFor();
    await page.getByRole('region', { name: 'Bulk actions' }).getByLabel('Days').fill('7');
    await page.getByRole('button', { name: 'Extend selected' }).click();
    await page.getByText('3 of 3 succeeded').waitFor();
    await page.getByText('0 selected').waitFor();
  });

  it('cancels a bulk delete part way, after confirming, and reports what was not sent', async () => {
    await page.getByLabel('Premium').selectOption('');
    await page.getByLabel('Filter (key, note or HWID)').fill('ledger bulk');
    await page.getByText('2,000 key(s)').waitFor();
    for (let i = 0; i < 15; i++) await grid().locator('.vrow').nth(i).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: 'Delete 15 keys?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => Number(await page.getByLabel('Bulk progress').getAttribute('value'))).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText(/of 15 succeeded \(cancelled\)/).waitFor();
    const text = (await page.getByText(/of 15 succeeded/).textContent()) ?? '';
    const succeeded = Number(/(\d+) of 15/.exec(text)?.[1]);
    expect(succeeded).toBeGreaterThanOrEqual(2);
    expect(succeeded).toBeLessThan(15);
    await page.getByText(`${15 - succeeded} selected`).waitFor();
    await page.getByLabel('Status').selectOption('deleted');
    await page.getByText(`${succeeded} key(s)`).waitFor();
  });
});
