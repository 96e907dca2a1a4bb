// The harness's process stopping under a page that shows a running job, in Chromium: an extend runs
// on a remote profile (a real sandbox process behind a proxy that holds its requests, so the job surely runs), the
// Jobs view shows it running with a Cancel; the harness's core is killed (SIGKILL). The page, which outlives it, must say that Keydesk
// stopped answering (not the service, which was up throughout), that the job's state is not known, with no Cancel;
// a harness started again on the same port (a new run, a new token) makes it ask for a reload, and after the
// reload the job is shown as it truly stands: interrupted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, useApp } from '../support/app-page.ts';
import { startHarnessProcess, type HarnessProcess } from '../support/harness-process.ts';
import { startHeldSandbox, type HeldSandbox } from '../support/held-sandbox.ts';
import { startHeldExtend } from '../support/held-job-page.ts';
import { tempDir } from '../support/temp-dir.ts';

let remote: HeldSandbox;
/** The harness started again on the first one's port, once that one has stopped. */
let again: HarnessProcess | null = null;
const userData = tempDir('keydesk-e2e-gone-');

beforeAll(async () => {
  remote = await startHeldSandbox({ file: 'acme.db', name: 'Acme Remote', identifier: 'acme' });
});
afterAll(async () => {
  await again?.stop();
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

describe("the page when Keydesk's core stops under a running job", () => {
  it('says Keydesk stopped answering, then asks for a reload when back', async () => {
    // Its first requests are on the wire (held): the job surely runs.
    await startHeldExtend(app.page, remote);
    await app.nav('Jobs');
    await app.page.getByRole('button', { name: /^Extend by 3 days, started / }).click();
    const detail = app.page.getByRole('region', { name: 'Extend by 3 days' });
    const line = detail.getByRole('status').first();
    await expect.poll(() => line.textContent(), { timeout: 30_000 }).toMatch(/^Extend by 3 days, running/);
    await detail.getByRole('button', { name: 'Cancel' }).waitFor();

    // The harness's core is killed (SIGKILL, as the walk did); the page stays. What it asks next gets no answer at
    // all: the Cancel pressed, or its own poll of the job if that comes first (the Cancel then goes: not clicked).
    const port = Number(new URL(app.harness.url).port);
    await app.harness.kill();
    await detail
      .getByRole('button', { name: 'Cancel' })
      .click({ timeout: 5_000 })
      .catch(() => undefined);

    const banner = app.page.getByRole('alert').filter({ hasText: 'Keydesk stopped answering.' });
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.textContent()).toMatch(/cannot reach Keydesk itself \(not the service\)/);
    expect(await app.page.getByText(/Acme Remote is not answering|Acme Remote refused|did not answer in time/).count()).toBe(0);
    expect(await line.textContent()).toBe('Extend by 3 days, state not known: Keydesk stopped answering. Last seen: 0 of 2 done.');
    expect(await detail.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    expect(await detail.getByText('State not known', { exact: true }).count()).toBe(1);

    // A new harness run on the same port (a new token): the page hears it answer, and asks for a reload.
    again = await startHarnessProcess(userData, { port });
    const back = app.page.getByRole('alert').filter({ hasText: 'Keydesk is answering again.' });
    await back.waitFor({ timeout: 60_000 });
    expect(await line.textContent()).toMatch(/state not known: Keydesk stopped answering/);
    await back.getByRole('button', { name: 'Reload' }).click();
    await app.page.locator('[data-app-state="ready"]').waitFor();
    await app.nav('Jobs');
    // After the reload, the job as it truly stands: it stopped with Keydesk.
    const row = app.page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: 'Extend by 3 days' });
    await row.getByText('Interrupted').waitFor({ timeout: 30_000 });
    expect(await app.page.getByText('Keydesk stopped answering.').count()).toBe(0);
  });
});
