// A profiles.json Keydesk cannot use is refused, not replaced: the app starts with the Local sandbox alone and
// Profiles says which file, why, and where its copy is; where keys are session-only, Profiles says why too.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApp, useApp } from '../support/app-page.ts';
import { tempDir } from '../support/temp-dir.ts';

const CONTENT = '{"version": 1, "profiles": [ {"id": "p_1", "name": "Acme"';
const userData = tempDir('keydesk-profiles-e2e-');
const app = useApp(() => {
  writeFileSync(join(userData, 'profiles.json'), CONTENT);
  return openApp(undefined, userData);
});

describe('a profiles.json this Keydesk cannot read', () => {
  it('names the unreadable file in Profiles and works on the sandbox', async () => {
    await app.nav('Profiles');
    const alert = app.page.getByRole('alert').filter({ hasText: 'Keydesk did not use' });
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    const copy = readdirSync(userData).find((f) => f.startsWith('profiles.json.refused-'));
    expect(copy).toBeDefined();
    expect(text).toContain(join(userData, 'profiles.json'));
    expect(text).toContain('it is not valid JSON');
    expect(text).toContain(`a copy is kept beside it as ${copy ?? '?'}`);
    expect(readFileSync(join(userData, 'profiles.json'), 'utf8')).toBe(CONTENT);
    expect(await app.page.getByRole('combobox', { name: 'Service' }).locator('option').allTextContents()).toEqual([
      expect.stringContaining('Local sandbox') as unknown as string,
    ]);
    // Where keys are kept, and why when it is this session only (no keychain answers the harness here, or one does).
    const status = await app.page.evaluate(() => window.keydesk['app.status'](undefined));
    if (!status.ok) throw new Error(status.message);
    const sessionLine = app.page.getByText(/^API keys are kept for this session only and are gone when Keydesk quits\./);
    if (status.data.secretStorage === 'session-only') {
      expect(status.data.secretStorageReason).toMatch(/\S/);
      expect(await sessionLine.textContent()).toBe(
        `API keys are kept for this session only and are gone when Keydesk quits. ${status.data.secretStorageReason ?? ''}`,
      );
    } else {
      expect(status.data.secretStorageReason).toBeNull();
      expect(await sessionLine.count()).toBe(0);
    }
  }, 60_000);
});
