// End to end in Chromium through the harness: the built renderer, window.keydesk over the loopback bridge,
// and the real core behind it (embedded sandbox, local store, secrets).
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppStatus, Key } from '../../src/shared/domain.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import { launchBrowser } from '../support/browser.ts';
import { startHarnessProcess, type HarnessProcess } from '../support/harness-process.ts';

let harness: HarnessProcess;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  harness = await startHarnessProcess();
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await page.goto(harness.url);
  await page.locator('[data-app-state="ready"]').waitFor();
});
afterAll(async () => {
  await browser.close();
  expect(await harness.stop()).toBe(0);
});

describe('the harness', () => {
  it('prints one ready line and says where secrets are kept', () => {
    expect(harness.stderr()).toMatch(/apiKeys are kept (in the OS keychain|in memory for this run only)/);
  });

  it('serves the app with window.keydesk shaped exactly like the preload bridge', async () => {
    const names = await page.evaluate(() => Object.keys(window.keydesk).sort());
    expect(names).toEqual([...OPERATION_NAMES, 'on'].sort());
  });

  it('runs operations on the real core: status, generate, look up', async () => {
    const status = await page.evaluate(() => window.keydesk['app.status'](undefined));
    expect(status).toMatchObject({ ok: true, data: { activeProfileId: 'sandbox', sandbox: { running: true } } });
    expect((status as { data: AppStatus }).data.sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The batch's columns reach the page as bytes (the harness frames the answer: src/harness/answer-frame.ts).
    const generated = await page.evaluate(async () => {
      const r = await window.keydesk['keys.generate']({ expire: '2099-12-31', count: 2, isPremium: false, note: 'from the browser' });
      if (!r.ok) return r;
      const { count, values } = r.data.generated;
      return { ok: true, count, bytes: values instanceof Uint8Array, keys: JSON.parse(new TextDecoder().decode(values)) as string[] };
    });
    expect(generated).toMatchObject({ ok: true, count: 2, bytes: true });
    const keys = (generated as { keys: string[] }).keys;
    const found = await page.evaluate(() => window.keydesk['keys.lookup']({ term: 'FROM THE BROWSER' }));
    expect((found as { data: { generated: Key[] } }).data.generated.map((k) => k.value).sort()).toEqual([...keys].sort());
  });

  it('delivers events to on() and stops after unsubscribe', async () => {
    const counts = await page.evaluate(async () => {
      const seen: number[] = [];
      const off = window.keydesk.on('executions.sampled', (s) => seen.push(s.count));
      await new Promise((r) => setTimeout(r, 300)); // the event stream connects
      await window.keydesk['executions.push'](undefined);
      await window.keydesk['executions.get'](undefined);
      await new Promise((r) => setTimeout(r, 300));
      off();
      await window.keydesk['executions.get'](undefined);
      await new Promise((r) => setTimeout(r, 300));
      return seen;
    });
    // Two readings of the count while subscribed: the push's answer (it carries the total it read) and the read.
    expect(counts).toEqual([1, 1]);
  });

  it('answers invalid input with INVALID_INPUT through the bridge', async () => {
    const r = await page.evaluate(() => window.keydesk['keys.extend']({ keyValue: '', days: 0 }));
    expect(r).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('refuses the bridge to another origin and to a request without token', async () => {
    const other = await browser.newPage();
    await other.goto('about:blank');
    const cross = await other.evaluate(async (url) => {
      try {
        const res = await fetch(`${url}__keydesk/rpc/app.status`, { method: 'POST', body: '{}' });
        return res.status;
      } catch {
        return 'blocked';
      }
    }, harness.url);
    expect([403, 'blocked']).toContain(cross);
    const res = await fetch(`${harness.url}__keydesk/rpc/app.status`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(403);
    const wrongHost = await fetch(`${harness.url}__keydesk/rpc/app.status`, {
      method: 'POST',
      body: '{}',
      headers: { host: 'evil.example' },
    });
    expect(wrongHost.status).toBe(403);
    await other.close();
  });

  it('logs no console error or CSP violation', () => {
    expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
  });
});
