// "Select all N" in Chromium through the harness, with keys the ledger knows are deleted among the matches: the
// number on the button, the selection, the confirmation and the job it starts all name the same keys.
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();

beforeAll(async () => {
  const deleted = await app.page.evaluate(async () => {
    const made = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 12, isPremium: false, note: 'select all agree' });
    if (!made.ok) return [];
    // The batch's values cross as one JSON text's bytes (src/shared/key-batch.ts); no import reaches into the page.
    const gone = (JSON.parse(new TextDecoder().decode(made.data.generated.values)) as string[]).slice(0, 2);
    for (const keyValue of gone) await window.keydesk['keys.delete']({ keyValue, state: 'generated' });
    return gone;
  });
  expect(deleted).toHaveLength(2);
  await app.nav('All keys');
});
describe('Select all with deleted keys among the matches', () => {
  it('offers, confirms and runs the 10 keys that are not deleted', async () => {
    await app.page.getByLabel('Filter (key, note or HWID)').fill('select all agree');
    await app.page.getByText('12 keys', { exact: true }).waitFor();
    await app.page.getByRole('button', { name: 'Select all 10 (2 deleted left out)' }).click();
    await app.page.getByText('All 10 matching keys selected').waitFor();
    await app.page.getByRole('button', { name: 'Delete selected' }).click();
    await app.page.getByRole('dialog', { name: 'Delete all 10 matching keys?' }).getByRole('button', { name: 'Delete' }).click();
    await app.page.getByText('Delete, finished: 10 of 10 done.').waitFor();
    await app.page.getByLabel('Status').selectOption('deleted');
    await app.page.getByText('12 keys', { exact: true }).waitFor();
  });
});
