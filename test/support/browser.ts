// Debian's Chromium where it is installed (Playwright's own download fails on our build machines),
// Playwright's default browser elsewhere.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium headless; with `scrollbars`, they are drawn (and can be dragged) as on a desktop. */
export function launchBrowser(scrollbars = false): Promise<Browser> {
  const options = { args: FLAGS, ...(scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}) };
  return chromium.launch(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM, ...options } : options);
}
