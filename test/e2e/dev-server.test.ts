// `npm run dev` in Chromium: Vite's dev server with the policy main sends in development. The shipped policy
// refuses what the dev server needs (React Refresh's inline preamble, Vite's inline styles), so development gets
// its own, and this proves the app really starts under it: no violation, the renderer mounted, its styles applied.
import { createServer as createNetServer } from 'node:net';
import type { Browser } from '@playwright/test';
import { createServer, type InlineConfig, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../electron.vite.config.ts';
import { CONTENT_SECURITY_POLICY, developmentContentSecurityPolicy } from '../../src/main/security.ts';
import { launchBrowser } from '../support/browser.ts';

let browser: Browser;
const servers: ViteDevServer[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The renderer's dev server as `electron-vite dev` configures it, answering with `header` as main would add it. */
async function devServer(header: (url: string) => string): Promise<string> {
  const renderer = (config as { renderer?: InlineConfig }).renderer;
  if (!renderer) throw new Error('electron.vite.config.ts has no renderer section');
  const port = await freePort();
  const url = `http://localhost:${String(port)}/`;
  const server = await createServer({
    ...renderer,
    configFile: false,
    logLevel: 'silent',
    server: { host: 'localhost', port, strictPort: true, headers: { 'Content-Security-Policy': header(url) } },
  });
  servers.push(server);
  await server.listen();
  return url;
}

async function open(url: string, mountWait = 30_000): Promise<{ violations: string[]; mounted: boolean; styled: boolean }> {
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  try {
    await page.goto(url);
    // Mounted: React rendered into #root (without the preload bridge the app says so, in words). Styled: the
    // design tokens from the app's stylesheet reached the document.
    const mounted = await page
      .waitForFunction("(document.getElementById('root')?.childElementCount ?? 0) > 0", undefined, { timeout: mountWait })
      .then(
        () => true,
        () => false,
      );
    const styled =
      (await page.evaluate(
        "document.querySelectorAll('style').length > 0 && [...document.styleSheets].some((s) => s.cssRules.length > 0)",
      )) === true;
    return { violations, mounted, styled };
  } finally {
    await page.close();
  }
}

describe('npm run dev in Chromium', () => {
  it('starts the renderer under the development policy with no violation', async () => {
    const url = await devServer((u) => developmentContentSecurityPolicy(u));
    const seen = await open(url);
    expect(seen.violations).toEqual([]);
    expect(seen.mounted).toBe(true);
    expect(seen.styled).toBe(true);
  });

  it('would not start under the shipped policy', async () => {
    const url = await devServer(() => CONTENT_SECURITY_POLICY);
    // The refused preamble stops the app for good; a short wait is enough to see it has not mounted.
    const seen = await open(url, 5_000);
    expect(seen.violations.length).toBeGreaterThan(0);
    expect(seen.mounted).toBe(false);
  });

  it('loosens only scripts, styles and the dev socket', () => {
    const dev = developmentContentSecurityPolicy('http://localhost:5173/');
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("style-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' ws://localhost:5173");
    expect(dev).not.toContain('unsafe-eval');
    expect(dev).toContain("frame-ancestors 'none'");
    expect(developmentContentSecurityPolicy('http://localhost:5173/', true)).not.toContain('frame-ancestors');
    const unchanged = (p: string) => p.split('; ').filter((d) => !/^(script|style|connect)-src /.test(d));
    expect(unchanged(dev)).toEqual(unchanged(CONTENT_SECURITY_POLICY));
  });
});
