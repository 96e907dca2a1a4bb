// The harness's process stopping while All keys shows a running job, in Chromium: an extend runs on a
// remote profile (a real sandbox process behind a proxy that holds its requests, so the job surely runs), All keys
// shows it running with a Cancel; the harness's core is killed (SIGKILL) and the page is left alone: no click, no
// view change, so nothing but the window's own watch asks Keydesk anything. The page must come to say Keydesk
// stopped answering, the job's state not known, with no Cancel (before the fix it said "running" indefinitely).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, useApp } from '../support/app-page.ts';
import { startHeldSandbox, type HeldSandbox } from '../support/held-sandbox.ts';
import { startHeldExtend } from '../support/held-job-page.ts';
import { tempDir } from '../support/temp-dir.ts';

let remote: HeldSandbox;
const userData = tempDir('keydesk-e2e-gone-all-keys-');

beforeAll(async () => {
  remote = await startHeldSandbox({ file: 'acme.db', name: 'Acme Remote', identifier: 'acme' });
});
afterAll(async () => {
  await remote.close();
});
// Its core may be killed already: the browser goes, and the harness is killed, not asked to stop.
const app = useApp(
  () => openApp(undefined, userData),
  async (opened) => {
    await opened.browser.close();
    await opened.harness.kill();
  },
);
// Released before the app closes (the hooks after a file's tests run in reverse): a held request would keep its job running.
afterAll(() => {
  remote.release();
});

describe("All keys when Keydesk's core stops under its running job", () => {
  it('says the job state is not known, with no Cancel', async () => {
    // Its first requests are on the wire (held): the job surely runs.
    await startHeldExtend(app.page, remote);
    await app.nav('All keys');
    const bulk = app.page.getByRole('region', { name: 'Bulk actions' });
    const line = bulk.getByRole('status').filter({ hasText: /^Extend by 3 days, / });
    await expect.poll(() => line.textContent(), { timeout: 30_000 }).toMatch(/^Extend by 3 days, running/);
    await bulk.getByRole('button', { name: 'Cancel' }).waitFor();

    // The harness's core is killed; the page is left alone (the walk waited 47 s and it still said running).
    await app.harness.kill();
    const banner = app.page.getByRole('alert').filter({ hasText: 'Keydesk stopped answering.' });
    await banner.waitFor({ timeout: 30_000 });
    expect(await line.textContent()).toBe('Extend by 3 days, state not known: Keydesk stopped answering. Last seen: 0 of 2 done.');
    expect(await bulk.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    expect(await app.page.getByText(/Acme Remote is not answering|Acme Remote refused|did not answer in time/).count()).toBe(0);
  });
});
