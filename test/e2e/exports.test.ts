// Exports as a person makes them, in Chromium through the harness (which saves to <user data>/exports and says
// where): a generated batch from the Keys view, the filtered ledger from All keys, the filtered activity log.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, LedgerRow } from '../../src/shared/domain.ts';
import { useApp } from '../support/app-page.ts';

const app = useApp();
const NOTE = 'export, "spring" batch';

/** Waits for the toast naming the saved file (the pattern names its kind) and returns the path it names. */
async function savedPath(pattern: RegExp): Promise<string> {
  const toast = app.page.getByText(pattern).last();
  await toast.waitFor();
  const path = pattern.exec((await toast.textContent()) ?? '')?.[1];
  if (!path) throw new Error('the toast names no file');
  expect(path.startsWith(app.harness.userData)).toBe(true);
  return path;
}

beforeAll(async () => {
  // Other keys, so every export below must filter.
  const made = await app.page.evaluate(
    async () => (await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 5, isPremium: false, note: 'unrelated' })).ok,
  );
  expect(made).toBe(true);
});
describe('exports', () => {
  let batch: string[] = [];

  it('saves a generated batch as CSV, in order, with a safe note', async () => {
    await app.nav('Keys');
    await app.page.getByLabel('Count').fill('3');
    await app.page.getByLabel('Days after activation').check();
    await app.page.getByLabel('Days', { exact: true }).fill('45');
    await app.page.getByLabel('Note', { exact: true }).fill(NOTE);
    await app.page.getByRole('button', { name: 'Generate', exact: true }).click();
    const shown = app.page.getByLabel('Generated keys');
    await shown.getByText('3 keys generated.').waitFor();
    batch = (await shown.locator('li').allTextContents()).map((v) => v.trim());
    expect(batch).toHaveLength(3);

    await shown.getByRole('button', { name: 'Export CSV' }).click();
    const lines = readFileSync(await savedPath(/Saved 3 keys to (.+keydesk-generated-[^/\\]+)\.$/), 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'value,note,status,isPremium,expiresAt,daysKey,hwid,createdAt,checkedByKeydeskAt,customer,customerEmail,customerDiscordId',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(batch);
    for (const line of lines.slice(1)) expect(line).toContain(',"export, ""spring"" batch",generated,false,,45,,');
  });

  it("saves the filtered ledger as JSON with a days key's term", async () => {
    await app.nav('All keys');
    await app.page.getByLabel('Filter (key, note or HWID)').fill('spring');
    await app.page.getByText('3 keys', { exact: true }).waitFor();
    expect(await app.page.getByRole('grid', { name: 'All keys' }).getByText('45 days from activation').count()).toBe(3);
    await app.page.getByRole('button', { name: 'Export JSON' }).click();
    const rows = JSON.parse(readFileSync(await savedPath(/Saved to (.+keydesk-keys-[^/\\]+)\.$/), 'utf8')) as LedgerRow[];
    expect(rows.map((r) => r.value).sort()).toEqual([...batch].sort());
    expect(rows.every((r) => r.note === NOTE && r.daysKey === 45 && r.status === 'generated')).toBe(true);
  });

  it('saves All keys in the order the table shows', async () => {
    await app.nav('All keys');
    await app.page.getByLabel('Filter (key, note or HWID)').fill('');
    const grid = app.page.getByRole('grid', { name: 'All keys' });
    // The batch and the 5 unrelated keys: few enough that every row is in the page.
    await app.page.getByText('8 keys', { exact: true }).waitFor();
    for (const column of ['Key', 'Note']) {
      await grid.getByRole('button', { name: new RegExp(`^${column}`) }).click();
      await grid.locator('[aria-sort="ascending"], [aria-sort="descending"]').filter({ hasText: column }).waitFor();
      await app.page.getByText('8 keys', { exact: true }).waitFor();
      const shown = (await grid.locator('.vrow .vcell.mono').allTextContents()).map((v) => v.trim());
      expect(shown).toHaveLength(8);
      await app.page.getByRole('button', { name: 'Export CSV' }).click();
      const file = await savedPath(/Saved to (.+keydesk-keys-[^/\\]+\.csv)\.$/);
      const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
      expect(lines.map((l) => l.split(',')[0])).toEqual(shown);
      await app.page.locator('.toasts .toast').filter({ hasText: file }).getByRole('button', { name: 'Dismiss' }).click();
    }
  });

  it('saves the activity log as filtered on screen', async () => {
    await app.nav('Activity');
    await app.page.getByLabel('Filter', { exact: true }).fill('spring');
    await app.page.getByText('1 operation', { exact: true }).waitFor();
    await app.page.getByRole('button', { name: 'Export JSON' }).click();
    const entries = JSON.parse(readFileSync(await savedPath(/Saved to (.+keydesk-activity-[^/\\]+)\.$/), 'utf8')) as AuditEntry[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'keys.generate', outcome: 'ok', target: `3 keys: ${NOTE}` });
  });
});
