// A million execution samples (about 58 days of sampling every 5 s) in the harness's keydesk.db before it
// starts: Overview's "All time" draws the chart, with no error and no blank window.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { openApp, useApp } from '../support/app-page.ts';
import { seedSamples } from '../support/samples.ts';
import { tempDir } from '../support/temp-dir.ts';

const N = 1_000_000;
const pageErrors: string[] = [];

const app = useApp(async () => {
  const userData = tempDir('keydesk-history-e2e-');
  const dbPath = join(userData, 'keydesk.db');
  new LocalDb(dbPath).close(); // Keydesk's schema, as a previous run would have left it
  seedSamples(dbPath, 'sandbox', N, Date.now() - 60_000 - (N - 1) * 5_000);
  const opened = await openApp(undefined, userData);
  opened.page.on('pageerror', (e) => pageErrors.push(e.message));
  return opened;
});

describe('Overview over 1,000,000 samples', () => {
  it('draws All time up to the last count, with no error', async () => {
    const { page } = app;
    await app.nav('Overview');
    await page.getByRole('radio', { name: 'All time' }).check();
    const chart = page.getByRole('img', { name: /^Execution count from [\d,]+ to 999,999,/ });
    await chart.waitFor({ timeout: 120_000 });
    expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: 'Overview' }).isVisible()).toBe(true);
    // No error said anywhere (the toasts' alert region is always in the page, empty until an error comes).
    expect(await page.getByRole('alert').filter({ hasText: /\S/ }).count()).toBe(0);
    // The figures table holds one row per bucket: at most one per pixel of the window's width.
    await page.getByText('Show the figures as a table').click();
    const rows = await page.getByRole('region', { name: 'Execution history figures' }).locator('tbody tr').count();
    expect(rows).toBeGreaterThan(100);
    expect(rows).toBeLessThanOrEqual(1280);
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
