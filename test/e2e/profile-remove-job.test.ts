// Removing a profile while a job runs for it, in Chromium through the harness: an extend runs on a remote profile
// (a real sandbox process behind a proxy that holds its requests until the test lets them through), and the window,
// reloaded on the local sandbox, is asked to remove that profile. The dialog names the job and leads to it instead
// of removing; main refuses too; once the job has ended, the profile can be removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';
import { startHeldSandbox, type HeldSandbox } from '../support/held-sandbox.ts';

/** Two, its requests held from hold() until the test lets them through. */
let remote: HeldSandbox;

beforeAll(async () => {
  remote = await startHeldSandbox({ file: 'two.db', name: 'Two', identifier: 'two' });
});
afterAll(async () => {
  await remote.close();
});
const app = useApp();
// Released before the app closes (the hooks after a file's tests run in reverse): a held request would keep its job running.
afterAll(() => {
  remote.release();
});

describe('removing a profile while a job runs for it', () => {
  it('refuses removal while the job runs, allowing it once ended', async () => {
    const id = await app.page.evaluate(
      async ({ url, key }) => {
        const added = await window.keydesk['profiles.add']({ name: 'Two', baseUrl: url, apiKey: key, serviceIdentifier: 'two' });
        if (!added.ok) throw new Error(added.message);
        const selected = await window.keydesk['profiles.select']({ id: added.data.id });
        if (!selected.ok) throw new Error(selected.message);
        return added.data.id;
      },
      { url: remote.url, key: remote.apiKey },
    );
    remote.hold();
    await app.page.evaluate(async () => {
      const started = await window.keydesk['jobs.start']({
        action: 'extend',
        days: 2,
        target: { keyValues: ['NOT-A-KEY-TWO-1', 'NOT-A-KEY-TWO-2'] },
      });
      if (!started.ok) throw new Error(started.message);
      const back = await window.keydesk['profiles.select']({ id: 'sandbox' });
      if (!back.ok) throw new Error(back.message);
    });
    // Its first request is on the wire (held): the job surely runs.
    await expect.poll(() => remote.heldCount(), { timeout: 60_000 }).toBeGreaterThan(0);

    // A window that heard nothing of the job: reloaded, on the local sandbox.
    await app.page.reload();
    await app.page.locator('[data-app-state="ready"]').waitFor();
    await app.nav('Profiles');
    await app.page.getByRole('button', { name: 'Remove Two' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Two cannot be removed now' });
    await dialog.waitFor();
    expect(await dialog.getByText(/^A job is running/).textContent()).toBe(
      'A job is running for this profile: Extend by 2 days, 0 of 2 done. Cancel it first, or wait for it to end.',
    );
    expect(await dialog.getByRole('button', { name: 'Remove', exact: true }).count()).toBe(0);

    // Main refuses too, whatever asks it.
    const refused = await app.page.evaluate(async (profileId) => window.keydesk['profiles.remove']({ id: profileId }), id);
    expect(refused).toEqual({
      ok: false,
      code: 'CONFLICT',
      message:
        'A job is running for this profile: Extend by 2 days, 0 of 2 done. Cancel it first, or wait for it to end. The profile was kept.',
    });

    await dialog.getByRole('button', { name: 'Switch to Two and open the job' }).click();
    await app.page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
    await app.page.getByRole('region', { name: /^Extend by 2 days/ }).waitFor();

    remote.release();
    await expect
      .poll(
        () =>
          app.page.evaluate(async () => {
            const r = await window.keydesk['jobs.list'](undefined);
            return r.ok ? r.data.jobs.filter((j) => j.finishedAt === null).length : -1;
          }),
        { timeout: 60_000 },
      )
      .toBe(0);

    await app.nav('Profiles');
    await app.page.getByRole('button', { name: 'Remove Two' }).click();
    const remove = app.page.getByRole('dialog', { name: 'Remove this profile?' });
    await remove.waitFor();
    expect(await remove.textContent()).toContain(
      "Keydesk's local record of it, its ledger of 0 keys and its history of 1 job, is no longer shown",
    );
    await remove.getByRole('button', { name: 'Remove', exact: true }).click();
    await app.toast('Profile removed.');
    expect(await app.page.getByRole('button', { name: 'Remove Two' }).count()).toBe(0);
  });
});
