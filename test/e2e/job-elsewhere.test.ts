// Another profile's job, in Chromium through the harness: a bulk delete runs on a remote profile (a real sandbox
// process behind a proxy that holds its delete requests until the test lets them through), the window works on
// the local sandbox and is reloaded straight onto Jobs, never visiting All keys or Keys. Jobs says the other job is
// running, and once it ends the line goes, heard from main's progress events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/shared/wire.ts';
import { useApp } from '../support/app-page.ts';
import { startHeldSandbox, type HeldSandbox } from '../support/held-sandbox.ts';

/** Held Shop, its delete requests held until the test lets them through. */
let remote: HeldSandbox;

beforeAll(async () => {
  remote = await startHeldSandbox({
    file: 'held-shop.db',
    name: 'Held Shop',
    identifier: 'held-shop',
    holding: true,
    holds: (req) => req.url?.startsWith(ROUTES.deleteKey.path) === true,
  });
});
afterAll(async () => {
  await remote.close();
});
const app = useApp();
// Released before the app closes (the hooks after a file's tests run in reverse): a held request would keep its job running.
afterAll(() => {
  remote.release();
});

describe("another profile's job after a reload straight onto Jobs", () => {
  it('is said while it runs and goes when it ends', async () => {
    // A delete on Held Shop, started there; then the window goes back to the local sandbox.
    await app.page.evaluate(
      async ({ url, key }) => {
        const added = await window.keydesk['profiles.add']({
          name: 'Held Shop',
          baseUrl: url,
          apiKey: key,
          serviceIdentifier: 'held-shop',
        });
        if (!added.ok) throw new Error(added.message);
        const selected = await window.keydesk['profiles.select']({ id: added.data.id });
        if (!selected.ok) throw new Error(selected.message);
        const started = await window.keydesk['jobs.start']({
          action: 'delete',
          target: { keyValues: ['NOT-A-KEY-HELD-1', 'NOT-A-KEY-HELD-2'] },
        });
        if (!started.ok) throw new Error(started.message);
        const back = await window.keydesk['profiles.select']({ id: 'sandbox' });
        if (!back.ok) throw new Error(back.message);
      },
      { url: remote.url, key: remote.apiKey },
    );
    // Its first request is on the wire (held): the job surely runs.
    await expect.poll(() => remote.heldCount(), { timeout: 60_000 }).toBeGreaterThan(0);

    await app.nav('Jobs');
    await app.page.reload();
    await app.page.locator('[data-app-state="ready"]').waitFor();
    await app.page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
    const elsewhere = app.page.getByText(/^A job is running for profile Held Shop: Delete, running: /);
    await elsewhere.waitFor();
    expect(await elsewhere.textContent()).toMatch(/Switch to that profile to follow or cancel it\.$/);

    remote.release();
    await elsewhere.waitFor({ state: 'detached', timeout: 60_000 });
    // Still on Jobs, and this profile's list says nothing of that job.
    expect(await app.page.getByRole('heading', { level: 1, name: 'Jobs' }).isVisible()).toBe(true);
    expect(await app.page.getByRole('button', { name: /^Delete, started / }).count()).toBe(0);
  });
});
