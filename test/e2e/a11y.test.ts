// axe-core on every view, light and dark, at the smallest supported window (960×600): no serious or
// critical violation, with nothing open, with the command palette open, and with each confirmation dialog open.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
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

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    );
}

async function open(colorScheme: 'light' | 'dark', view: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 960, height: 600 }, colorScheme });
  const page = await context.newPage();
  await page.goto(harness.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: view }).waitFor();
  return page;
}

describe.each(['light', 'dark'] as const)('%s theme', (colorScheme) => {
  it.each(VIEWS)('%s has no serious violation, alone or with the palette open', async (view) => {
    const page = await open(colorScheme, view);
    expect(await seriousViolations(page)).toEqual([]);
    // Evaluated in the page (this file is typed for Node, without the DOM).
    const horizontalScroll = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    expect(horizontalScroll).toBe(false);

    await page.keyboard.press('Control+k');
    const combobox = page.getByRole('combobox', { name: 'Search commands' });
    await combobox.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // With no match, the palette's empty state.
    await combobox.fill('no such command');
    await page.getByText('No command matches').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('the confirmation dialogs have no serious or critical violation', async () => {
    const page = await open(colorScheme, 'Keys');
    const note = `a11y-${colorScheme}`;
    const hwid = colorScheme === 'light' ? 'a11y-light-hwid-0001' : 'a11y-dark-hwid-0001';
    await page.evaluate(
      async ([n, h]) => {
        await window.keydesk['keys.generate']({ expire: '2099-12-31', count: 2, isPremium: true, note: n });
        await window.keydesk['keyless.add']({ hwid: h, isPremium: false });
      },
      [note, hwid] as const,
    );

    await page.getByRole('searchbox', { name: /key value/i }).fill(note);
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    const table = page.getByRole('table', { name: 'Matching keys' });
    await table.waitFor();
    await table.getByRole('row').nth(1).getByRole('button').first().click();
    await page.getByRole('button', { name: 'Delete key' }).click();
    await page.getByRole('dialog', { name: 'Delete this key?' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Keyless', exact: true }).click();
    await page.getByRole('searchbox', { name: /HWID/i }).fill(hwid);
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: `Delete keyless entry ${hwid}` }).click();
    await page.getByRole('dialog', { name: 'Delete this keyless entry?' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'All keys', exact: true }).click();
    await page.getByRole('searchbox', { name: /filter/i }).fill(note);
    // The filter's rows first: a click on "select every row" while the unfiltered rows are still shown is undone
    // when the filtered ones replace them (a loaded machine met this).
    await page.getByText('2 keys', { exact: true }).waitFor();
    await page
      .getByRole('checkbox', { name: /^Select / })
      .first()
      .check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: /^Delete \d+ keys?\?$/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('toasts have no serious violation, and Esc dismisses the focused one', async () => {
    const page = await open(colorScheme, 'All keys');
    const note = `toast-${colorScheme}`;
    await page.evaluate(async (n) => {
      await window.keydesk['keys.generate']({ expire: '2099-12-31', count: 1, isPremium: false, note: n });
    }, note);
    await page.getByRole('searchbox', { name: /filter/i }).fill(note);
    await page.getByText('1 key', { exact: true }).waitFor();
    // An error toast: the key is not bound, so it has no HWID to copy. It stays until dismissed.
    await page
      .getByRole('checkbox', { name: /^Select [A-Z0-9]{5}-/ })
      .first()
      .focus();
    await page.keyboard.press('Control+Shift+C');
    const errors = page.getByRole('alert', { name: 'Errors' });
    await errors.getByText(/^Copy the HWID of key [A-Z0-9-]+: it is not bound to a machine, so there is no HWID to copy\.$/).waitFor();
    // A success toast, held on screen by the focus on its Dismiss button.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Overview', exact: true }).click();
    await page.getByRole('button', { name: 'Push +1' }).click();
    const successes = page.getByRole('status', { name: 'Notifications' });
    const pushed = successes.locator('.toast').filter({ hasText: /^Execution counted/ });
    await pushed.getByRole('button', { name: 'Dismiss' }).focus();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await pushed.waitFor({ state: 'detached' });
    // The focus goes to the toast left, and Esc there dismisses it too.
    const left = errors.locator('.toast');
    // Evaluated in the page (this file is typed for Node, without the DOM).
    expect(await page.evaluate("document.activeElement?.closest('.toast')?.textContent ?? ''")).toMatch(/no HWID to copy\.×$/);
    await page.keyboard.press('Escape');
    await left.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
