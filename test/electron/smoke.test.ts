// The packaged-shape app in real Electron: launch, the Local sandbox ready, one key generated through the
// real preload and IPC. Runs wherever the Electron binary is installed; elsewhere it reports itself skipped
// with the reason (our build machines cannot download Electron: the harness covers the rest there).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication } from '@playwright/test';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

function electronBinary(): { path: string | null; reason: string } {
  const pathFile = join(ROOT, 'node_modules/electron/path.txt');
  if (!existsSync(pathFile))
    return { path: null, reason: 'the Electron binary is not installed (node_modules/electron/path.txt is missing)' };
  const binary = join(ROOT, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary, reason: '' } : { path: null, reason: `the Electron binary ${binary} is missing` };
}

const { path: binary, reason } = electronBinary();
let app: ElectronApplication | null = null;

afterAll(async () => {
  await app?.close();
});

describe('Electron smoke', () => {
  it('launches with the sandbox ready and generates a key over IPC', async (ctx) => {
    if (binary === null) ctx.skip(`Skipped: ${reason}.`);
    app = await electron.launch({
      executablePath: binary ?? '',
      args: [join(ROOT, 'out/main/index.js'), `--user-data-dir=${tempDir('keydesk-electron-')}`],
    });
    const page = await app.firstWindow();
    await page.locator('[data-app-state="ready"]').waitFor();
    await page.getByText('Sandbox: test data').waitFor();
    const shown = await page.getByRole('combobox', { name: 'Service' }).locator('option:checked').textContent();
    expect(shown).toMatch(/^Local sandbox — sandbox at http:\/\/127\.0\.0\.1:\d+$/);
    const status = await page.evaluate(() => window.keydesk['app.status'](undefined));
    expect(status).toMatchObject({ ok: true, data: { activeProfileId: 'sandbox', sandbox: { running: true } } });
    const generated = await page.evaluate(() =>
      window.keydesk['keys.generate']({ expire: '2099-12-31', count: 1, isPremium: false, note: 'smoke' }),
    );
    expect(generated).toMatchObject({ ok: true });
    // No Node in the page: the preload's bridge is all it has.
    const nodeInPage = await page.evaluate(() => ['require', 'process', 'module'].filter((name) => name in globalThis));
    expect(nodeInPage).toEqual([]);
  });
});
