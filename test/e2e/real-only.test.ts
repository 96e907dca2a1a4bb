// The journey again, in Chromium through the harness, on a REMOTE profile whose service is a `--real-only`
// sandbox: it ignores `Keydesk-Detail: full` and answers exactly like the hosted service (wire.md "Real
// dialect"). Every operation must work, and where that dialect gives less (one best match, no totals, no
// createdAt) the screen says so instead of showing blanks as data.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

let remote: SandboxProcess;
let apiKey: string;
beforeAll(async () => {
  const db = join(tempDir(), 'real-only.db');
  apiKey = createService(db, 'Real Shop', 'real-shop').apiKey;
  remote = await startSandbox({ db, args: ['--real-only'] });
});
afterAll(async () => {
  await remote.stop();
});
// Opened after the sandbox starts, closed before it stops.
const app = useApp();

const detail = () => app.page.getByRole('complementary', { name: 'Key detail' });
const detailField = (label: string) =>
  detail()
    .locator('div', { has: app.page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
const BEST_MATCH = /This service returns its best match only/;
const NOT_REPORTED = 'not reported by this service';

describe('a remote profile on a --real-only sandbox', () => {
  let value = '';

  it("adds the service with the official client's /api base", async () => {
    await app.nav('Profiles');
    await app.page.getByText("The service's origin, e.g. https://api.example.com.", { exact: false }).first().waitFor();
    await app.page.getByLabel('Name').fill('Real Shop');
    await app.page.getByLabel('Base URL').fill(`${remote.url}/api`);
    await app.page.getByLabel('API key').fill(apiKey);
    await app.page.getByLabel('Service identifier (optional)').fill('real-shop');
    await app.page.getByRole('button', { name: 'Add service' }).click();
    await app.toast('Added Real Shop.');
    await app.page.getByText(remote.url, { exact: true }).waitFor();
    await app.page.getByRole('button', { name: 'Use Real Shop' }).click();
    await app.toast('Now working on Real Shop.');
  });

  it('pushes an execution and reads the count again', async () => {
    await app.nav('Overview');
    const count = app.page.getByLabel('Execution count', { exact: true });
    await expect.poll(async () => (await count.textContent())?.trim()).toBe('0');
    await app.page.getByRole('button', { name: 'Push +1', exact: true }).click();
    await app.toast('Execution counted: 1.');
    await expect.poll(async () => (await count.textContent())?.trim()).toBe('1');
  });

  it('generates a batch and says a note search gives one match', async () => {
    await app.nav('Keys');
    await app.page.getByLabel('Count').fill('3');
    await app.page.getByLabel('Note', { exact: true }).fill('Real journey');
    await app.page.getByRole('button', { name: 'Generate', exact: true }).click();
    await app.page.getByText('3 keys generated.').waitFor();
    await app.search('real journey');
    await app.page.getByText(BEST_MATCH).waitFor();
    await expect.poll(() => app.matchingRows().filter({ hasText: 'generated' }).count()).toBe(1);
    expect(await app.matchingRows().count()).toBe(2); // header + the best match
    value = (await app.matchingRows().nth(1).getByRole('button').first().textContent()) ?? '';
    expect(value).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);
    await app.matchingRows().nth(1).getByRole('button').first().click();
    await expect.poll(() => detailField('Created').textContent()).toBe(NOT_REPORTED);
  });

  it('checks an identifier', async () => {
    await app.nav('Identifier check');
    await app.page.getByLabel('Identifier', { exact: true }).fill('real-shop');
    await app.page.getByRole('button', { name: 'Check', exact: true }).click();
    await app.page.getByText('“real-shop” exists: it belongs to Real Shop.').waitFor();
  });

  it('validates only with consent, then activates and binds the key', async () => {
    await app.nav('Validate & HWID');
    await app.page.getByLabel('Type a value').check();
    await app.page.getByLabel('Custom HWID').fill('HW-REAL-E2E');
    await app.page.getByLabel('Key', { exact: true }).fill(value);
    await app.page.getByRole('button', { name: 'Validate', exact: true }).click();
    await app.page
      .getByText(/activates the key and binds it to this HWID/)
      .first()
      .waitFor();
    await app.page.getByLabel('I understand a real validation activates the key and binds it to this HWID').check();
    await app.page.getByRole('button', { name: 'Validate', exact: true }).click();
    const outcome = app.page.getByRole('status', { name: 'Validation outcome' });
    await outcome.getByText('Valid: this machine was let in; the key is now bound to it.').waitFor();
    expect(await outcome.getByText('success', { exact: true }).count()).toBe(1);
  });

  it('counts the key the validation activated, and says on what that rests', async () => {
    // The ledger takes the lookup after the validation in the background: Overview reads its figures on opening.
    await expect
      .poll(async () => {
        await app.nav('Keys');
        await app.nav('Overview');
        await app.page.getByRole('list', { name: "Keys' figures" }).waitFor();
        return app.page.getByRole('button', { name: /^1 Activated, last 7 days/ }).count();
      })
      .toBe(1);
    await app.page.getByText(/^Activated: the activation time the service sends\. The real service sends none/).waitFor();
  });

  it('finds the active key by HWID, extends, resets and deletes it', async () => {
    await app.nav('Keys');
    await app.search('HW-REAL-E2E');
    // The previous search's table stays until this one answers: wait for this one's row.
    await expect.poll(() => app.matchingRows().filter({ hasText: 'active' }).count()).toBe(1);
    expect(await app.matchingRows().count()).toBe(2);
    await app.matchingRows().nth(1).getByRole('button', { name: value, exact: true }).click();
    await detail().getByText('HW-REAL-E2E').waitFor();
    expect(await detailField('Activated').textContent()).toBe(NOT_REPORTED);

    await detail().getByLabel('Extend by days').fill('5');
    await detail().getByRole('button', { name: 'Extend' }).click();
    await app.toast('Extended by 5 days.');
    expect(await detailField('Status').textContent()).toMatch(/^Active/);

    await detail().getByRole('button', { name: 'Reset HWID' }).click();
    await app.page.getByRole('dialog', { name: "Reset this key's HWID?" }).getByRole('button', { name: 'Reset' }).click();
    await app.toast('HWID reset.');
    expect(await detail().getByText('HW-REAL-E2E').count()).toBe(0);
    expect(await detailField('Last HWID reset').textContent()).not.toBe('—');

    await detail().getByRole('button', { name: 'Delete key' }).click();
    await app.page.getByRole('dialog', { name: 'Delete this key?' }).getByRole('button', { name: 'Delete' }).click();
    await app.toast('Key deleted.');
    await app.search(value);
    // Deleted here: the empty search says so, not that no key matches.
    await app.page.getByText(`${value} was deleted here: the service no longer has it. All keys lists it as Deleted.`).waitFor();
  });

  it('deletes a generated key', async () => {
    await app.search('real journey');
    await expect.poll(() => app.matchingRows().filter({ hasText: 'generated' }).count()).toBe(1);
    expect(await app.matchingRows().count()).toBe(2);
    const other = (await app.matchingRows().nth(1).getByRole('button').first().textContent()) ?? '';
    expect(other).not.toBe(value);
    await app.matchingRows().nth(1).getByRole('button').first().click();
    await detail().getByRole('button', { name: 'Delete key' }).click();
    await app.page.getByRole('dialog', { name: 'Delete this key?' }).getByRole('button', { name: 'Delete' }).click();
    await app.toast('Key deleted.');
    await app.search(other);
    // Deleted here: the empty search says so, not that no key matches.
    await app.page.getByText(`${other} was deleted here: the service no longer has it. All keys lists it as Deleted.`).waitFor();
  });

  it('adds, finds, validates keyless and deletes a keyless entry', async () => {
    await app.nav('Keyless');
    await app.page.getByLabel('HWID', { exact: true }).fill('KL-REAL-E2E');
    await app.page.getByRole('button', { name: 'Add', exact: true }).click();
    await app.toast('Keyless entry added.');
    await app.page.getByLabel('HWID contains').fill('KL-REAL');
    await app.page.getByRole('button', { name: 'Search', exact: true }).click();
    const table = app.page.getByRole('table', { name: 'Keyless entries' });
    await table.getByText('KL-REAL-E2E').waitFor();
    await app.page.getByText(BEST_MATCH).waitFor();
    expect(await table.getByText(NOT_REPORTED).count()).toBe(1); // last used

    await app.nav('Validate & HWID');
    await app.page.getByLabel('Keyless (check the HWID list instead of a key)').check();
    await app.page.getByLabel('Type a value').check();
    await app.page.getByLabel('Custom HWID').fill('KL-REAL-E2E');
    await app.page.getByLabel('I understand a real validation activates the key and binds it to this HWID').check();
    await app.page.getByRole('button', { name: 'Validate', exact: true }).click();
    await app.page
      .getByRole('status', { name: 'Validation outcome' })
      .getByText(/^Valid: this machine was let in/)
      .waitFor();
    await app.page.getByLabel('Keyless (check the HWID list instead of a key)').uncheck();

    await app.nav('Keyless');
    await table.getByRole('button', { name: 'Delete keyless entry KL-REAL-E2E' }).click();
    await app.page.getByRole('dialog', { name: 'Delete this keyless entry?' }).getByRole('button', { name: 'Delete' }).click();
    await app.toast('Keyless entry deleted.');
    expect(await table.getByText('KL-REAL-E2E').count()).toBe(0);
  });

  it('extends, resets and deletes keys in bulk from All keys', async () => {
    const values = await app.page.evaluate(async () => {
      const made = await window.keydesk['keys.generate']({ expire: '2099-01-31', count: 3, isPremium: false, note: 'Real bulk' });
      if (!made.ok) throw new Error(made.message);
      const keys = JSON.parse(new TextDecoder().decode(made.data.generated.values)) as string[]; // one JSON text's bytes (src/shared/key-batch.ts)
      // Activate them, so each has a HWID to reset.
      for (const [i, keyValue] of keys.entries()) {
        const r = await window.keydesk['validation.run']({
          mode: 'key',
          keyValue,
          hwid: { custom: `HW-BULK-${i}` },
          confirmActivation: true,
        });
        if (!r.ok || !r.data.success) throw new Error(`validation of ${keyValue} failed`);
      }
      return keys;
    });
    const state = () =>
      app.page.evaluate(async (vs) => {
        const out: { hwid: string | null; expire: string | null }[] = [];
        for (const v of vs) {
          const r = await window.keydesk['keys.fetchActive']({ term: v });
          const k = r.ok ? r.data.keys.find((x) => x.value === v) : undefined;
          out.push(k ? { hwid: k.hwid, expire: k.expire } : { hwid: 'gone', expire: null });
        }
        return out;
      }, values);
    const grid = app.page.getByRole('grid', { name: 'All keys' });
    const selectAll = async () => {
      await app.page.getByLabel('Filter (key, note or HWID)').fill('real bulk');
      await app.page.getByText('3 keys', { exact: true }).waitFor();
      for (let i = 0; i < 3; i++) await grid.locator('.vrow').nth(i).getByRole('checkbox').check();
      await app.page.getByText('3 selected').waitFor();
    };

    await app.nav('All keys');
    await selectAll();
    await app.page.getByRole('region', { name: 'Bulk actions' }).getByLabel('Days').fill('7');
    await app.page.getByRole('button', { name: 'Extend selected' }).click();
    await app.page.getByRole('dialog', { name: 'Extend 3 keys by 7 days?' }).getByRole('button', { name: 'Extend' }).click();
    await expect.poll(state).toEqual(values.map((_, i) => ({ hwid: `HW-BULK-${i}`, expire: '2099-02-07' })));
    await app.page.getByText('Extend by 7 days, finished: 3 of 3 done.').waitFor();

    await selectAll();
    await app.page.getByRole('button', { name: 'Reset HWID of selected' }).click();
    await app.page.getByRole('dialog', { name: 'Reset the HWID of 3 keys?' }).getByRole('button', { name: 'Reset' }).click();
    await expect.poll(state).toEqual(values.map(() => ({ hwid: null, expire: '2099-02-07' })));
    await app.page.getByText(/^Reset HWID, finished: 3 of 3 done\.$/).waitFor();

    await selectAll();
    await app.page.getByRole('button', { name: 'Delete selected' }).click();
    await app.page.getByRole('dialog', { name: 'Delete 3 keys?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(state).toEqual(values.map(() => ({ hwid: 'gone', expire: null })));
    await app.page.getByText(/^Delete, finished: 3 of 3 done\.$/).waitFor();
  });
});
