// The app as a person meets it: the harness started as `npm run harness` would be, Chromium, one page that has
// reached data-app-state="ready"; useApp opens it once for the tests of one e2e file.
import type { Browser, Locator, Page } from '@playwright/test';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startHarnessProcess, type HarnessProcess } from './harness-process.ts';
import { tempDir } from './temp-dir.ts';

export interface AppPage {
  harness: HarnessProcess;
  browser: Browser;
  page: Page;
  /** Clicks a view in the side navigation. */
  nav(view: string): Promise<void>;
  /** Waits for a toast (a success or an error) containing the text. */
  toast(text: string | RegExp): Promise<void>;
  /** Searches the Keys view for a key value, note or HWID. */
  search(term: string): Promise<void>;
  /** The rows of the Keys view's results table, its header row first. */
  matchingRows(): Locator;
  close(): Promise<number | null>;
}

/**
 * Opens the app on a fresh user-data directory, or on `userData` when given (e.g. one seeded beforehand, or the
 * last run's, to open the app again on it); with `scrollbars`, Chromium draws them, to be dragged. The fresh one lasts as long as the test or file that opened it
 * (test/support/temp-dir.ts), so a test can close the app and open it again on the same records.
 */
export async function openApp(
  viewport = { width: 1280, height: 800 },
  userData = tempDir('keydesk-harness-test-'),
  scrollbars = false,
): Promise<AppPage> {
  const harness = await startHarnessProcess(userData);
  const browser = await launchBrowser(scrollbars);
  const page = await browser.newPage({ viewport });
  await page.goto(harness.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  return {
    harness,
    browser,
    page,
    nav: (view) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view, exact: true }).click(),
    toast: (text) => page.locator('.toasts .toast').filter({ hasText: text }).first().waitFor(),
    search: async (term) => {
      await page.getByLabel('Key value, note or HWID').fill(term);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
    },
    matchingRows: () => page.getByRole('table', { name: 'Matching keys' }).getByRole('row'),
    close: async () => {
      await browser.close();
      return harness.stop();
    },
  };
}

/**
 * The app for the tests of one file: opened in a beforeAll (after the file's earlier ones, so a sandbox started
 * there is up) and closed in an afterAll (before the file's earlier ones). Its fields are live inside tests and hooks.
 */
export function useApp(
  open: () => Promise<AppPage> = () => openApp(),
  close = (app: AppPage): Promise<unknown> => app.close(),
  openTimeoutMs?: number,
): AppPage & { reopen(): Promise<void> } {
  let opened: AppPage | undefined;
  beforeAll(async () => {
    opened = await open();
  }, openTimeoutMs);
  afterAll(async () => {
    if (opened) await close(opened);
  });
  const live = (): AppPage => {
    if (!opened) throw new Error('the app opens in beforeAll: use it inside a test or hook');
    return opened;
  };
  return {
    get harness() {
      return live().harness;
    },
    get browser() {
      return live().browser;
    },
    get page() {
      return live().page;
    },
    nav: (view) => live().nav(view),
    toast: (text) => live().toast(text),
    search: (term) => live().search(term),
    matchingRows: () => live().matchingRows(),
    close: () => live().close(),
    /** Closes the app and opens it again on the same user data, as a person quitting and starting Keydesk. */
    reopen: async () => {
      const { userData } = live().harness;
      const viewport = live().page.viewportSize() ?? undefined;
      await live().close();
      opened = await openApp(viewport, userData);
    },
  };
}
