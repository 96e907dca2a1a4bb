// The app as a person meets it: the harness started as `npm run harness` would be, Chromium, one page that has
// reached data-app-state="ready".
import type { Browser, Page } from '@playwright/test';
import { launchBrowser } from './browser.ts';
import { startHarnessProcess, type HarnessProcess } from './harness-process.ts';

export interface AppPage {
  harness: HarnessProcess;
  browser: Browser;
  page: Page;
  /** Clicks a view in the side navigation. */
  nav(view: string): Promise<void>;
  close(): Promise<number | null>;
}

/** Opens the app on a fresh user-data directory, or on `userData` when given (e.g. one seeded beforehand). */
export async function openApp(viewport = { width: 1280, height: 800 }, userData?: string): Promise<AppPage> {
  const harness = await startHarnessProcess(userData);
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport });
  await page.goto(harness.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  return {
    harness,
    browser,
    page,
    nav: (view) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view, exact: true }).click(),
    close: async () => {
      await browser.close();
      return harness.stop();
    },
  };
}
