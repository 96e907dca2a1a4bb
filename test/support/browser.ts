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

export function launchBrowser(): Promise<Browser> {
  return existsSync(SYSTEM_CHROMIUM) ? chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: FLAGS }) : chromium.launch({ args: FLAGS });
}
