// Issue 8 §1 in Chromium through the harness: after a refusal, a change made from the detail panel, or a switch
// to another service, the screen shows only what is true now. Screenshots of each state go to
// $KEYDESK_SHOTS when it is set, for a person to look at.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const app = useApp();
let value = '';
const NOTE = 'truth batch';

const shot = async (name: string) => {
  const dir = process.env.KEYDESK_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await app.page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
};
const outcome = () => app.page.getByRole('status', { name: 'Validation outcome' });
const validate = async (hwid: string, options: { key?: string; service?: string; dryRun: boolean }) => {
  if (options.key !== undefined) await app.page.getByLabel('Key', { exact: true }).fill(options.key);
  await app.page.getByLabel('Service identifier').fill(options.service ?? '');
  await app.page.getByLabel('Custom HWID').fill(hwid);
  await app.page.getByLabel('Dry run (nothing changes)').setChecked(options.dryRun);
  await app.page.getByRole('button', { name: 'Validate', exact: true }).click();
};

beforeAll(async () => {
  value = await app.page.evaluate(async (note) => {
    const r = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 1, isPremium: false, note });
    return r.ok ? ((JSON.parse(new TextDecoder().decode(r.data.generated.values)) as string[])[0] ?? '') : '';
  }, NOTE);
  expect(value).not.toBe('');
});
describe('Validate & HWID', () => {
  it('shows only the refusal of a dry run after a bind', async () => {
    await app.nav('Validate & HWID');
    await app.page.getByLabel('Type a value').check();
    await validate('HW-TRUTH-A', { key: value, dryRun: false });
    await outcome().getByText('Valid: this machine was let in; the key is now bound to it.').waitFor();

    await validate('HW-TRUTH-B', { dryRun: true });
    await outcome().getByText('Refused: The key is bound to another machine.').waitFor();
    expect(await outcome().count()).toBe(1);
    expect(await app.page.getByText('Valid: this machine was let in; the key is now bound to it.').count()).toBe(0);
    expect(await outcome().getByText('hwid_mismatch', { exact: true }).count()).toBe(1);
    expect(await outcome().getByText('The key is bound to another HWID.', { exact: true }).count()).toBe(1);
    await outcome().getByText('Raw JSON').click();
    expect(await outcome().locator('pre').textContent()).toContain('"V2_Authentication": "hwid_mismatch"');
    expect(await outcome().getAttribute('class')).toContain('bad');
    await shot('validate-refused');
  });

  it('shows each refusal alone', async () => {
    await validate('HW-TRUTH-A', { key: 'NOPE1-NOPE2-NOPE3-NOPE4-NOPE5', dryRun: true });
    await outcome().getByText('Refused: No such key for this service.').waitFor();
    expect(await outcome().count()).toBe(1);

    await validate('HW-TRUTH-A', { key: value, service: 'no-such-service', dryRun: true });
    await outcome().getByText('Refused: No service has that identifier.').waitFor();
    expect(await app.page.getByText('Refused: No such key for this service.').count()).toBe(0);

    await app.page.getByLabel('Keyless (check the HWID list instead of a key)').check();
    await validate('HW-NOT-LISTED', { dryRun: true });
    await outcome().getByText('Refused: This HWID is not authorized without a key.').waitFor();
    expect(await outcome().count()).toBe(1);
    expect(await outcome().getByText('not_whitelisted', { exact: true }).count()).toBe(1);
    await app.page.getByLabel('Keyless (check the HWID list instead of a key)').uncheck();
  });
});

describe('search results after a change from the detail panel', () => {
  it('shows the row as changed after extend, reset and delete', async () => {
    await app.nav('Keys');
    await app.page.getByLabel('Key value, note or HWID').fill(NOTE);
    await app.page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => app.matchingRows().count()).toBe(2);
    const row = app.matchingRows().nth(1);
    await row.locator('time[datetime^="2099-01-01"]').waitFor();
    await row.getByText('HW-TRUTH-A').waitFor();
    await row.getByRole('button', { name: value, exact: true }).click();
    const detail = app.page.getByRole('complementary', { name: 'Key detail' });

    await detail.getByLabel('Extend by days').fill('5');
    await detail.getByRole('button', { name: 'Extend' }).click();
    await app.toast('Extended by 5 days.');
    await row.locator('time[datetime^="2099-01-06"]').waitFor();
    expect(await row.locator('time[datetime^="2099-01-01"]').count()).toBe(0);

    await detail.getByRole('button', { name: 'Reset HWID' }).click();
    await app.page.getByRole('dialog', { name: "Reset this key's HWID?" }).getByRole('button', { name: 'Reset' }).click();
    await app.toast('HWID reset.');
    await expect.poll(() => row.getByText('HW-TRUTH-A').count()).toBe(0);
    await shot('search-row-after-extend-and-reset');

    await detail.getByRole('button', { name: 'Delete key' }).click();
    await app.page.getByRole('dialog', { name: 'Delete this key?' }).getByRole('button', { name: 'Delete' }).click();
    await app.toast('Key deleted.');
    await app.page.getByText('No key matches.').waitFor();
    expect(await app.matchingRows().count()).toBe(0);
    // Keydesk's records still hold it, as deleted: the part-value search lists it below the service's answer.
    const records = app.page.getByRole('table', { name: 'Keys in Keydesk’s records' });
    await records.getByRole('button', { name: value, exact: true }).waitFor();
    await shot('search-empty-after-delete');
  });
});

describe('switching to another service', () => {
  let remote: SandboxProcess;
  let apiKey: string;
  const db = join(tempDir(), 'second.db');
  beforeAll(async () => {
    apiKey = createService(db, 'Second Shop', 'second-shop').apiKey;
    remote = await startSandbox({ db });
  });
  afterAll(async () => {
    await remote.stop();
  });

  it('leaves nothing of the first service after a switch', async () => {
    const picker = app.page.getByRole('combobox', { name: 'Service' });
    const shown = () => picker.locator('option:checked').textContent();
    expect(await shown()).toMatch(/^Local sandbox — sandbox at http:\/\/127\.0\.0\.1:\d+$/);

    // State on the sandbox: a bulk outcome with keys still selected, a search result, a validation refusal, an error.
    const made = await app.page.evaluate(async () => {
      const r = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 2, isPremium: false, note: 'switch pair' });
      return r.ok;
    });
    expect(made).toBe(true);
    await app.nav('All keys');
    await app.page.getByLabel('Filter (key, note or HWID)').fill('switch pair');
    await app.page.getByText('2 keys', { exact: true }).waitFor();
    const grid = app.page.getByRole('grid', { name: 'All keys' });
    for (let i = 0; i < 2; i++) await grid.locator('.vrow').nth(i).getByRole('checkbox').check();
    await app.page.getByText('2 selected').waitFor();
    // (An extend: a reset of these generated keys would send nothing, and leave no outcome to carry over.)
    await app.page.getByRole('region', { name: 'Bulk actions' }).getByLabel('Days').fill('1');
    await app.page.getByRole('button', { name: 'Extend selected' }).click();
    await app.page.getByRole('dialog').getByRole('button', { name: 'Extend' }).click();
    await app.page
      .getByRole('status')
      .filter({ hasText: /of 2 done/ })
      .first()
      .waitFor();
    await app.nav('Keys');
    await app.page.getByLabel('Key value, note or HWID').fill('switch pair');
    await app.page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => app.matchingRows().count()).toBe(3);
    await app.nav('Identifier check');
    await app.page.getByLabel('Identifier', { exact: true }).fill('demo');
    await app.page.getByRole('button', { name: 'Check', exact: true }).click();
    await app.page.getByText('“demo” exists: it belongs to Demo.').waitFor();
    await app.nav('Validate & HWID');
    await validate('HW-TRUTH-B', { key: 'NOPE1-NOPE2-NOPE3-NOPE4-NOPE5', dryRun: true });
    await outcome().getByText('Refused: No such key for this service.').waitFor();

    await app.nav('Profiles');
    const add = app.page.getByRole('form', { name: 'Add a remote service' });
    await add.getByLabel('Name').fill('Second Shop');
    await add.getByLabel('Base URL').fill(remote.url);
    await add.getByLabel('API key').fill(apiKey);
    await add.getByLabel('Service identifier (optional)').fill('second-shop');
    await add.getByRole('button', { name: 'Add service' }).click();
    await app.toast('Added Second Shop.');
    for (const label of ['Name', 'Base URL', 'API key', 'Validation URL (optional)', 'Service identifier (optional)']) {
      expect(await add.getByLabel(label).inputValue(), label).toBe('');
    }
    await picker.selectOption({ label: `Second Shop — remote at ${remote.url}` });
    await app.toast('Now working on Second Shop.');
    expect(await shown()).toBe(`Second Shop — remote at ${remote.url}`);

    await app.nav('Validate & HWID');
    expect(await outcome().count()).toBe(0);
    expect(await app.page.getByText(/Refused:/).count()).toBe(0);
    await app.nav('Identifier check');
    expect(await app.page.getByText(/exists: it belongs to/).count()).toBe(0);
    await app.nav('Keys');
    expect(await app.page.getByRole('table', { name: 'Matching keys' }).count()).toBe(0);
    await app.nav('All keys');
    await app.page.getByRole('grid', { name: 'All keys' }).waitFor();
    // The other service's selection is not carried over: no bulk actions.
    expect(await app.page.getByRole('button', { name: 'Clear selection' }).count()).toBe(0);
    expect(await app.page.getByText(/of 2 done/).count()).toBe(0);
    expect(await app.page.getByRole('progressbar', { name: 'Bulk progress' }).count()).toBe(0);
    expect(await app.page.getByText(/Refused by the service/).count()).toBe(0);
    await shot('switched-profile-all-keys');
    await app.nav('Validate & HWID');
    await shot('switched-profile-validate');
  });

  it('marks the count stale while the service stops, clearing on return', async () => {
    await app.nav('Overview');
    const count = app.page.getByLabel('Execution count', { exact: true });
    await expect.poll(async () => (await count.textContent())?.trim()).toMatch(/^\d+$/);
    await remote.stop();
    const banner = app.page.getByRole('alert').filter({ hasText: 'Second Shop refused the connection: it is probably not running.' });
    await banner.waitFor();
    await app.page.getByText(/^Last known count, read at/).waitFor();
    expect(await banner.textContent()).not.toMatch(/will go through/);
    await shot('offline-stale-count');
    // The same service again at the same address: the notice goes on the probe's next answer, with no click.
    remote = await startSandbox({ db, args: ['--port', String(remote.port)] });
    await banner.waitFor({ state: 'detached' });
    await expect.poll(async () => (await count.textContent())?.trim()).toMatch(/^\d+$/);
    expect(await app.page.getByText(/^Last known count/).count()).toBe(0);
  });
});
