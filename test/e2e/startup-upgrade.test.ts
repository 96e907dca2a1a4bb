// A vendor upgrading from the release before the ledger's text index (schema 3) with 200,000 keys, in Chromium
// through the harness: the window shows the upgrade's steps with true numbers while it runs, never a view or an
// empty ledger, and then opens on All keys with every key there. The upgrade is held after its first report, inside
// its transaction (KEYDESK_TEST_UPGRADE_HOLD, src/main/store/upgrade.worker.ts), until the test lets it go, so the
// page surely sees it and a stop surely lands mid-transaction, however fast the machine.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser } from '@playwright/test';
import { afterAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { startHarnessProcess, type HarnessProcess } from '../support/harness-process.ts';
import { writeVersion3 } from '../support/local-db-v3.ts';
import { tempDir } from '../support/temp-dir.ts';
import { RPC_PREFIX, TOKEN_HEADER, TOKEN_META } from '../../src/harness/loopback-bridge.ts';
import type { StartupStatus } from '../../src/shared/domain.ts';
import { LOCAL_DB_VERSION } from '../../src/main/store/local-db.ts';

const KEYS = 200_000;
let harness: HarnessProcess | undefined;
let browser: Browser | undefined;
// Removed after the file's tests (test/support/temp-dir.ts), once the harness has stopped below.
const userData = tempDir('keydesk-e2e-upgrade-');
const stopped = tempDir('keydesk-e2e-upgrade-stopped-');
// The holds' files: the upgrade waits until its file exists.
const holds = tempDir('keydesk-e2e-upgrade-hold-');
const holdEnv = (name: string): { env: Record<string, string>; release: () => void } => {
  const file = join(holds, name);
  return {
    env: { KEYDESK_TEST_UPGRADE_HOLD: file },
    release: () => {
      writeFileSync(file, '');
    },
  };
};
afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

const ledgerOf = (file: string): { version: number; rows: number; sample: unknown[] } => {
  const db = new DatabaseSync(file);
  try {
    return {
      version: (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
      rows: (db.prepare('SELECT count(*) AS n FROM ledger').get() as { n: number }).n,
      sample: db.prepare('SELECT value, note, status, expires_at FROM ledger ORDER BY profile_id, value LIMIT 5').all(),
    };
  } finally {
    db.close();
  }
};

describe('first start after an upgrade, with an older keydesk.db of 200,000 keys', () => {
  it('shows the upgrade step by step, never the app over a half-built ledger, then every key in All keys', async () => {
    writeVersion3(join(userData, 'keydesk.db'), KEYS, { profileIds: ['sandbox'] });
    const hold = holdEnv('first');
    harness = await startHarnessProcess(userData, { env: hold.env });
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(harness.url);

    await page.locator('[data-app-state="upgrading"]').waitFor();
    await page.getByRole('heading', { name: 'Upgrading your local records' }).waitFor();
    // Every line read while it runs names a step of the same count, in steps that only move on, and the keys of
    // the whole ledger (counted ones never more than it holds).
    const lines: { step: string; keys: string | null }[] = [];
    for (;;) {
      // One look at the page at a time (its markup read at once), so a line and what else shows agree.
      const html = await page.locator('#root').innerHTML();
      const seen = {
        upgrading: html.includes('data-app-state="upgrading"'),
        step: /<p role="status">([^<]*)<\/p>/.exec(html)?.[1] ?? null,
        keys: /<p class="startup-keys">([^<]*)<\/p>/.exec(html)?.[1] ?? null,
        views: html.includes('aria-label="Views"'),
      };
      if (!seen.upgrading) break;
      // Nothing of the app shows meanwhile.
      expect(seen.views).toBe(false);
      if (seen.step && /^Step/.test(seen.step)) {
        lines.push({ step: seen.step, keys: seen.keys });
        // Seen while held at the first report: the upgrade may go on now.
        if (lines.length === 1) hold.release();
      }
      await page.waitForTimeout(100);
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toEqual({ step: expect.stringMatching(/^Step 1 of \d+: /) as unknown, keys: '0 of 200,000 keys' });
    // A work done in several steps (the text index's fills) says which part each is.
    const pattern = /^Step (\d+) of (\d+): [A-Za-z ]+(, part \d+ of \d+)?\.$/;
    for (const { step, keys } of lines) {
      expect(step).toMatch(pattern);
      if (keys !== null) expect(keys).toMatch(/^(([\d,]+) of )?200,000 keys$/);
      const done = keys === null ? null : /^([\d,]+) of/.exec(keys)?.[1];
      if (done) expect(Number(done.replaceAll(',', ''))).toBeLessThanOrEqual(KEYS);
    }
    const steps = lines.map((l) => Number(pattern.exec(l.step)?.[1]));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(new Set(lines.map((l) => pattern.exec(l.step)?.[2])).size).toBe(1);

    await page.locator('[data-app-state="ready"]').waitFor({ timeout: 170_000 });
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'All keys', exact: true }).click();
    await page.getByText('200,000 keys', { exact: true }).waitFor();
  });

  it('stopped mid-upgrade (the harness sent SIGTERM), leaves keydesk.db at schema 3 with every key, and upgrades it on the next start', async () => {
    const file = join(stopped, 'keydesk.db');
    writeVersion3(file, KEYS, { profileIds: ['sandbox'] });
    const before = ledgerOf(file);
    // Held at its first report and never let go: the stop lands inside the upgrade's transaction.
    const run = await startHarnessProcess(stopped, { env: holdEnv('never').env });
    try {
      // The page's token, then app.startup over the bridge until the upgrade is under way.
      const html = await (await fetch(run.url)).text();
      const token = new RegExp(`<meta name="${TOKEN_META}" content="([^"]+)"`).exec(html)?.[1] ?? '';
      const startup = async (): Promise<StartupStatus | null> => {
        const res = await fetch(new URL(`${RPC_PREFIX}app.startup`, run.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
          body: '{}',
        });
        const r = (await res.json()) as { ok: boolean; data?: StartupStatus };
        return r.data ?? null;
      };
      await expect.poll(async () => (await startup())?.state, { timeout: 120_000, interval: 50 }).toBe('upgrading');
      // The upgrade holds keydesk.db's write lock: it is inside its transaction as the stop comes.
      const other = new DatabaseSync(file, { timeout: 0 });
      try {
        expect(() => {
          other.exec('BEGIN IMMEDIATE');
        }).toThrow(/locked|busy/i);
      } finally {
        other.close();
      }
    } finally {
      expect(await run.stop()).toBe(0);
    }
    expect(ledgerOf(file)).toEqual(before);

    await harness?.stop();
    harness = await startHarnessProcess(stopped);
    browser ??= await launchBrowser();
    const page = await browser.newPage();
    await page.goto(harness.url);
    await page.locator('[data-app-state="ready"]').waitFor({ timeout: 170_000 });
    expect(ledgerOf(file)).toMatchObject({ version: LOCAL_DB_VERSION, rows: KEYS, sample: before.sample });
  });
});
