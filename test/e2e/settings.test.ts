// Settings in Chromium through the harness: a theme chosen stays after a reload (settings.json holds it), and moving
// the local sandbox shows its new address, which the sandbox profile and its service then answer at.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApp, useApp } from '../support/app-page.ts';
import { freePort } from '../support/free-port.ts';

const app = useApp(() => openApp());
const theme = () => app.page.locator('html').getAttribute('data-theme');

describe('Settings', () => {
  it('keeps the theme chosen across a reload', async () => {
    await app.page.emulateMedia({ colorScheme: 'light' });
    await app.nav('Settings');
    await app.page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await theme()).toBe('light');
    await app.page.getByRole('radio', { name: 'Dark' }).click();
    await expect.poll(theme).toBe('dark');
    const background = await app.page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(20, 21, 24)');
    await app.page.reload();
    await app.page.locator('[data-app-state="ready"]').waitFor();
    await expect.poll(theme).toBe('dark');
    expect(JSON.parse(readFileSync(join(app.harness.userData, 'settings.json'), 'utf8'))).toMatchObject({ theme: 'dark' });
    // "As the system" follows the OS again, as it switches.
    await app.nav('Settings');
    await app.page.getByRole('radio', { name: 'As the system' }).click();
    await expect.poll(theme).toBe('light');
    await app.page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(theme).toBe('dark');
  });

  it('moves the local sandbox to a port and shows its new address', async () => {
    const port = await freePort();
    await app.nav('Settings');
    const form = app.page.getByRole('form', { name: 'Local sandbox port' });
    await form.getByLabel('Port').fill(String(port));
    await form.getByRole('button', { name: 'Move the sandbox' }).click();
    await app.page.getByText(`Listening at http://127.0.0.1:${port}.`).waitFor();
    await app.toast(`The local sandbox now listens at http://127.0.0.1:${port}.`);
    const service = app.page.getByRole('combobox', { name: 'Service' });
    expect(await service.locator('option:checked').textContent()).toContain(`http://127.0.0.1:${port}`);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
  });
});
