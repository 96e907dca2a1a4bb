// A large generate seen from All keys in Chromium through the harness: keys.generate answers before main's ledger
// writer has recorded the batch, so the view says how many keys are still being recorded, and shows them all once
// the writer is done, without a reload.
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, type AppPage } from '../support/app-page.ts';

const COUNT = 50_000;
let app: AppPage;
let page: Page;

beforeAll(async () => {
  app = await openApp();
  page = app.page;
  await app.nav('All keys');
  await page.getByText('No keys yet: the keys this app generates or looks up are listed here.', { exact: true }).waitFor();
});
afterAll(async () => {
  await app.close();
});

describe('All keys while a batch is being recorded', () => {
  it('says the keys are being recorded, then lists every one of them', async () => {
    const generated = await page.evaluate(async (count) => {
      const r = await window.keydesk['keys.generate']({ expire: '2099-01-01', count, isPremium: false, note: 'recorded later' });
      return r.ok ? r.data.generated.count : r.message;
    }, COUNT);
    expect(generated).toBe(COUNT);
    // The words are there while the writer works (they count down as chunks go in), and gone when it is done.
    await page.getByText(/^Recording [\d,]+ keys? in the ledger… The list refreshes when they are all in\.$/).waitFor();
    await page.getByText('50,000 keys', { exact: true }).waitFor();
    await expect.poll(() => page.getByText(/^Recording /).count()).toBe(0);
    expect(await page.getByRole('grid', { name: 'All keys' }).getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
  });
});
