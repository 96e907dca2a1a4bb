// The Integration view as a vendor uses it: read the sandbox's URLs and identifier, generate a test key with
// one click, run the view's own JavaScript snippet in Node against the running sandbox (as a protected app
// would validate) and in a web page of another origin, and watch the key turn active, in the view and in All keys.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';
import { tempDir } from '../support/temp-dir.ts';

const app = useApp();
let keyValue = '';
const region = (name: string) => app.page.getByRole('region', { name });
const snippet = async (label: string) => (await app.page.getByLabel(`${label} snippet`, { exact: true }).textContent()) ?? '';
const hasCurl = spawnSync('curl', ['--version']).status === 0;

beforeAll(async () => {
  await app.nav('Integration');
});
describe('the Integration view', () => {
  it("shows the sandbox's URLs, identifier, and that it is running", async () => {
    const service = region('Service');
    await service.getByText('Local sandbox').waitFor();
    const base = (await service.locator('dd code').nth(0).textContent()) ?? '';
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await service.locator('dd code').nth(1).textContent()).toBe(`${base}/v2_validation`);
    expect(await service.locator('dd code').nth(2).textContent()).toBe('demo');
    await expect.poll(() => service.getByRole('status', { name: 'Sandbox state' }).textContent()).toBe(`Running at ${base}`);
    // Before a key exists the snippets say so rather than showing a key that is not there.
    expect(await snippet('JavaScript')).toContain('"YOUR-KEY"');
  });

  it('generates a test key with one click, and the snippets use it', async () => {
    await app.page.getByRole('button', { name: 'Generate a test key' }).click();
    const testKey = app.page.getByRole('definition').filter({ has: app.page.getByRole('button', { name: 'Copy key' }) });
    await testKey.waitFor();
    keyValue = (await testKey.locator('code').textContent()) ?? '';
    expect(keyValue).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);
    await region('Test key').getByText('Generated', { exact: true }).waitFor();
    for (const label of ['curl', 'JavaScript', 'Lua', 'Java']) expect(await snippet(label), label).toContain(keyValue);
  });

  it('validates the key with the JavaScript snippet run in Node', async () => {
    const dir = tempDir('keydesk-snippet-');
    const file = join(dir, 'validate.mjs');
    writeFileSync(file, await snippet('JavaScript'));
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('valid\n');
    await app.page.getByRole('button', { name: 'Check its status' }).click();
    await region('Test key').getByText('Active', { exact: true }).waitFor();
    await region('Test key').getByText('bound to integration-test-machine').waitFor();
  });

  it('validates the key with the JavaScript snippet in a cross-origin page', async () => {
    const code = await snippet('JavaScript');
    const validationUrl = (await region('Service').locator('dd code').nth(1).textContent()) ?? '';
    // A page served from its own origin, as a protected web app is: the snippet runs as its module script.
    const site = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Shop</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, 'localhost', resolve));
    const page = await app.browser.newPage();
    try {
      await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
      const printed = page.waitForEvent('console');
      await page.addScriptTag({ type: 'module', content: code });
      expect((await printed).text()).toBe('valid');
      // A request with a custom header needs a preflight: the browser sends it and reads the answer.
      const detail = await page.evaluate(
        async (url) => {
          const res = await fetch(url, { headers: { 'Keydesk-Detail': 'full' } });
          return (await res.json()) as { success: boolean; V2_Authentication: string };
        },
        `${validationUrl}?${new URLSearchParams({ key: keyValue, service: 'demo', hwid: 'integration-test-machine' }).toString()}`,
      );
      expect(detail).toMatchObject({ success: true, V2_Authentication: 'success' });
    } finally {
      await page.close();
      site.close();
    }
  });

  it.skipIf(!hasCurl)('validates again from the curl snippet, from the same machine', async () => {
    const run = spawnSync('sh', ['-c', await snippet('curl')], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ V2_Authentication: 'success' });
  });

  it('shows the key active in All keys', async () => {
    await app.nav('All keys');
    await app.page.getByLabel('Filter (key, note or HWID)').fill(keyValue);
    await app.page.getByText('1 key', { exact: true }).waitFor();
    const row = app.page.getByRole('grid', { name: 'All keys' }).locator('.vrow').filter({ hasText: keyValue });
    // The status cell says "active" (its exact casing is the table's to choose).
    await row.getByText(/^active$/i).waitFor();
    expect(await row.textContent()).toContain('integration test');
  });
});
