// Generate during an outage, in Chromium through the harness: a remote profile's sandbox process stops, and
// Generate waits with the reason instead of failing; it comes back by itself once the same service answers again.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const app = useApp();
let remote: SandboxProcess;
let apiKey = '';
const db = join(tempDir(), 'outage.db');

beforeAll(async () => {
  apiKey = createService(db, 'Outage Shop', 'outage-shop').apiKey;
  remote = await startSandbox({ db });
});
afterAll(async () => {
  await remote.stop();
});

describe('Generate while the service does not answer', () => {
  it('waits with the reason, and generates once the service is back', async () => {
    await app.nav('Profiles');
    const add = app.page.getByRole('form', { name: 'Add a remote service' });
    await add.getByLabel('Name').fill('Outage Shop');
    await add.getByLabel('Base URL').fill(remote.url);
    await add.getByLabel('API key').fill(apiKey);
    await add.getByRole('button', { name: 'Add service' }).click();
    await app.toast('Added Outage Shop.');
    await app.page.getByRole('combobox', { name: 'Service' }).selectOption({ label: `Outage Shop — remote at ${remote.url}` });
    await app.toast('Now working on Outage Shop.');

    // Overview reads the count every few seconds: it finds the outage before anything is sent from Keys.
    await app.nav('Overview');
    await remote.stop();
    await app.page.getByRole('alert').filter({ hasText: 'Outage Shop refused the connection' }).waitFor();
    await app.nav('Keys');
    const generate = app.page.getByRole('button', { name: 'Generate', exact: true });
    expect(await generate.isDisabled()).toBe(true);
    const why = await generate.getAttribute('aria-describedby');
    expect(await app.page.locator(`[id="${why ?? ''}"]`).textContent()).toBe('Generating waits until the service answers again.');

    // The same service again at the same address: Generate is offered again with no click, and works.
    remote = await startSandbox({ db, args: ['--port', String(remote.port)] });
    await expect.poll(() => generate.isEnabled()).toBe(true);
    expect(await app.page.getByText('Generating waits until the service answers again.').count()).toBe(0);
    await app.page.getByLabel('Count').fill('2');
    await generate.click();
    await app.toast('Generated 2 keys.');
  });
});
