// axe-core on every view, light and dark, at the smallest supported window (960×600): no serious or
// critical violation.
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWS as REGISTRY } from '../../src/renderer/src/views/registry.ts';
import { launchBrowser } from '../support/browser.ts';
import { startHarnessProcess, type HarnessProcess } from '../support/harness-process.ts';

const VIEWS = REGISTRY.map((v) => v.label);
let harness: HarnessProcess;
let browser: Browser;

beforeAll(async () => {
  harness = await startHarnessProcess();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await harness.stop();
});

describe.each(['light', 'dark'] as const)('%s theme', (colorScheme) => {
  it.each(VIEWS)('%s has no serious or critical accessibility violation', async (view) => {
    const context = await browser.newContext({ viewport: { width: 960, height: 600 }, colorScheme });
    const page = await context.newPage();
    await page.goto(harness.url);
    await page.locator('[data-app-state="ready"]').waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view, exact: true }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
    expect(serious).toEqual([]);
    // Evaluated in the page (this file is typed for Node, without the DOM).
    const horizontalScroll = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    expect(horizontalScroll).toBe(false);
    await context.close();
  });
});
