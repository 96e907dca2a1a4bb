// `npm run screenshots [-- --only keys,palette] [--out docs/screenshots]`: a PNG of every view in both themes at
// 1280×800 and 960×600, from one harness and one page on sample data seeded through the app's bridge. Build first.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from '@playwright/test';
import { VIEWS } from '../src/renderer/src/views/registry.ts';
import { launchBrowser } from '../test/support/browser.ts';
import { startHarnessProcess } from '../test/support/harness-process.ts';
import { createService, startSandbox } from '../test/support/sandbox-process.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { only: { type: 'string' }, out: { type: 'string', default: 'docs/screenshots' } },
});
/** The larger size keeps the plain name the guides link to; the smallest supported window is suffixed. */
const SIZES = [
  { width: 1280, height: 800, suffix: '' },
  { width: 960, height: 600, suffix: '-960' },
] as const;
const THEMES = ['light', 'dark'] as const;
const outDir = resolve(ROOT, values.out);
mkdirSync(outDir, { recursive: true });
const slug = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const only = values.only?.split(',').map((s) => s.trim());
const wanted = (name: string) => only === undefined || only.includes(name);

/**
 * Sample data, made through the app as a person's clicks would make it: keys of each state, a job, activity, and a
 * second service (another sandbox process, added as a remote one) beside the local sandbox, which stays active.
 */
async function seed(page: Page, remote: { baseUrl: string; apiKey: string }): Promise<void> {
  const failure = await page.evaluate(async (remote) => {
    const k = window.keydesk;
    const added = await k['profiles.add']({ name: 'Acme Remote', ...remote });
    if (!added.ok) return added.message;
    const year = new Date().getUTCFullYear() + 1;
    const failures: string[] = [];
    const step = (r: { ok: true } | { ok: false; message: string }) => {
      if (!r.ok) failures.push(r.message);
    };
    step(await k['keys.generate']({ expire: `${year}-06-30`, count: 40, isPremium: false, note: 'Spring launch' }));
    step(await k['keys.generate']({ expire: `${year}-12-31`, count: 12, isPremium: true, note: 'Partner bundle' }));
    step(
      await k['keys.generate']({ expire: `${year}-12-31`, count: 8, isPremium: false, note: 'Trial', expiresByDaysKey: true, daysKey: 30 }),
    );
    // Keys expiring over the coming weeks, for Renewals' strip.
    const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    for (const [days, count] of [
      [4, 6],
      [11, 3],
      [19, 9],
      [33, 4],
      [47, 12],
      [68, 5],
    ] as const) {
      step(await k['keys.generate']({ expire: inDays(days), count, isPremium: days % 2 === 0, note: `Renewal batch ${days}` }));
    }
    step(await k['keyless.add']({ hwid: 'c0ffee00deadbeef00112233445566778899aabbccddeeff0011223344556677', isPremium: true, days: 90 }));
    const trial = await k['keys.lookup']({ term: 'Trial' });
    if (!trial.ok) return trial.message;
    const [first, second, third] = trial.data.generated;
    if (first && second && third) {
      step(await k['validation.run']({ mode: 'key', keyValue: first.value, hwid: { custom: 'WS-0042-BUILD' }, dryRun: false }));
      step(await k['validation.run']({ mode: 'key', keyValue: second.value, hwid: { custom: 'LAPTOP-7F3A' }, dryRun: false }));
      step(await k['keys.delete']({ keyValue: third.value }));
    }
    for (let i = 0; i < 12; i++) {
      step(await k['executions.push'](undefined));
      step(await k['executions.get'](undefined));
    }
    const job = await k['jobs.start']({ action: 'extend', target: { filter: { text: 'Spring launch' } }, days: 30 });
    if (!job.ok) return job.message;
    for (let state = job.data.state; state === 'running';) {
      await new Promise((r) => setTimeout(r, 100));
      const now = await k['jobs.get']({ jobId: job.data.id });
      if (!now.ok) return now.message;
      state = now.data.state;
    }
    return failures[0] ?? null;
  }, remote);
  if (failure !== null) throw new Error(`screenshots: seeding failed: ${failure}`);
}

/** What settle uses of the page (this script's types know no DOM). */
interface InPage {
  document: { querySelector(selector: string): unknown };
  scrollTo(x: number, y: number): void;
  requestAnimationFrame: (callback: () => void) => number;
}

/** Waits until nothing on screen is loading and a frame has been drawn since, pointer out of the way. */
async function settle(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelector('.skeleton, [aria-busy="true"]') === null);
  await page.evaluate(() => (globalThis as unknown as InPage).scrollTo(0, 0));
  await page.evaluate(() => {
    const frame = (globalThis as unknown as InPage).requestAnimationFrame;
    return new Promise<void>((r) => frame(() => frame(r)));
  });
}

/** Every size and theme of what is on screen now, as `{name}-{theme}{size}.png`. */
async function shoot(page: Page, name: string, written: string[]): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const colorScheme of THEMES) {
      await page.emulateMedia({ colorScheme });
      await settle(page);
      const file = join(outDir, `${name}-${colorScheme}${size.suffix}.png`);
      await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
      written.push(file);
    }
  }
}

const remoteDir = mkdtempSync(join(tmpdir(), 'keydesk-screenshots-'));
const { apiKey } = createService(join(remoteDir, 'remote.db'), 'Acme Remote', 'acme');
const remote = await startSandbox({ db: join(remoteDir, 'remote.db') });
const harness = await startHarnessProcess();
const browser = await launchBrowser();
const written: string[] = [];
try {
  const context = await browser.newContext({ viewport: SIZES[0], deviceScaleFactor: 1, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(harness.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  // Overview on a fresh profile (no keys): the first-run checklist.
  if (wanted('overview-keys')) {
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    await shoot(page, 'overview-0-keys', written);
  }
  await seed(page, { baseUrl: remote.url, apiKey });
  await page.reload();
  await page.locator('[data-app-state="ready"]').waitFor();
  for (const view of VIEWS) {
    if (!wanted(slug(view.label))) continue;
    await page.setViewportSize(SIZES[0]);
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
      await page.getByText('c0ffee00', { exact: false }).first().waitFor();
    }
    // This machine's HWID readings arrive after the view: the first of them, then the rest, are in the picture.
    if (view.view === 'validate') await page.getByRole('radio').nth(1).waitFor();
    await shoot(page, slug(view.label), written);
  }
  if (wanted('palette')) {
    await page.setViewportSize(SIZES[0]);
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    await page.keyboard.type('gen');
    await shoot(page, 'palette', written);
  }
  // Overview at 500 and at 100,000 keys: the seed's 60, then generated up to each.
  if (wanted('overview-keys')) {
    for (const [count, name] of [
      [440, 'overview-500-keys'],
      [99_500, 'overview-100000-keys'],
    ] as const) {
      const failure = await page.evaluate(async (count) => {
        const r = await window.keydesk['keys.generate']({
          expire: `${new Date().getUTCFullYear() + 1}-03-31`,
          count,
          isPremium: false,
          note: 'Bulk',
        });
        return r.ok ? null : r.message;
      }, count);
      if (failure !== null) throw new Error(`screenshots: generating failed: ${failure}`);
      await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'All keys', exact: true }).click();
      await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Overview', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      // The keys go into the ledger after the answer: the figures are read again until they count every one.
      const total = name === 'overview-500-keys' ? '500' : '100,000';
      await page.getByText(new RegExp(`of ${total}\\)$`)).waitFor({ timeout: 180_000 });
      await shoot(page, name, written);
    }
  }
  await context.close();
} finally {
  await browser.close();
  await harness.stop();
  await remote.stop();
  rmSync(remoteDir, { recursive: true, force: true });
}
process.stdout.write(`${written.map((f) => `wrote ${f}`).join('\n')}\n`);
