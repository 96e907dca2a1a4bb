// `npm run screenshots [-- --size 1440x900] [--out docs/screenshots]`: a PNG of every view in both themes, from
// the harness on fresh data seeded through the app's own bridge. Run `npm run build` first.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from '@playwright/test';
import { VIEWS } from '../src/renderer/src/views/registry.ts';
import { launchBrowser } from '../test/support/browser.ts';
import { startHarnessProcess } from '../test/support/harness-process.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { size: { type: 'string', default: '1440x900' }, out: { type: 'string', default: 'docs/screenshots' } },
});
const size = /^(\d+)x(\d+)$/.exec(values.size);
if (!size) {
  process.stderr.write('screenshots: --size must look like 1440x900.\n');
  process.exit(2);
}
const viewport = { width: Number(size[1]), height: Number(size[2]) };
const outDir = resolve(ROOT, values.out);
mkdirSync(outDir, { recursive: true });
const slug = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Sample data, made through the app exactly as a person's clicks would make it. */
async function seed(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const k = window.keydesk;
    const year = new Date().getUTCFullYear() + 1;
    await k['keys.generate']({ expire: `${year}-06-30`, count: 40, isPremium: false, note: 'Spring launch' });
    await k['keys.generate']({ expire: `${year}-12-31`, count: 12, isPremium: true, note: 'Partner bundle' });
    await k['keys.generate']({ expire: `${year}-12-31`, count: 8, isPremium: false, note: 'Trial', expiresByDaysKey: true, daysKey: 30 });
    await k['keyless.add']({ hwid: 'c0ffee00deadbeef00112233445566778899aabbccddeeff0011223344556677', isPremium: true, days: 90 });
    for (let i = 0; i < 12; i++) {
      await k['executions.push'](undefined);
      await k['executions.get'](undefined);
    }
  });
}

const harness = await startHarnessProcess();
const browser = await launchBrowser();
const written: string[] = [];
try {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(harness.url);
    await page.locator('[data-app-state="ready"]').waitFor();
    if (colorScheme === 'light') {
      await seed(page);
      await page.reload();
      await page.locator('[data-app-state="ready"]').waitFor();
    }
    for (const view of VIEWS) {
      await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view.label, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: view.label }).waitFor();
      if (view.view === 'keys') {
        await page.getByRole('searchbox', { name: /key value/i }).fill('Partner');
        await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
        const table = page.getByRole('table', { name: 'Matching keys' });
        await table.waitFor();
        // The key detail opens beside the list.
        await table.getByRole('row').nth(1).getByRole('button').first().click();
        await page.getByRole('complementary', { name: 'Key detail' }).waitFor();
      }
      if (view.view === 'keyless') {
        await page.getByRole('searchbox', { name: /HWID/i }).fill('c0ffee');
        await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
      }
      // Let data arrive and transitions settle before the picture.
      await page.waitForTimeout(600);
      const file = join(outDir, `${slug(view.label)}-${colorScheme}.png`);
      await page.screenshot({ path: file });
      written.push(file);
    }
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    await page.keyboard.type('gen');
    await page.waitForTimeout(200);
    const palette = join(outDir, `palette-${colorScheme}.png`);
    await page.screenshot({ path: palette });
    written.push(palette);
    await context.close();
  }
} finally {
  await browser.close();
  await harness.stop();
}
process.stdout.write(`${written.map((f) => `wrote ${f}`).join('\n')}\n`);
