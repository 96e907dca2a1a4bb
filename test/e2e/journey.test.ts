// The spec's journey and the error paths, in Chromium through the harness, found by role and label as a
// person would: generate a batch -> find it by note -> validate with a HWID (it activates) -> find it by
// HWID -> extend -> reset HWID -> delete; then keyless, identifier, executions, a remote profile.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const app = useApp();

describe('the key journey', () => {
  let value = '';

  it('generates a batch and finds it by note', async () => {
    await app.nav('Keys');
    await app.page.getByLabel('Count').fill('3');
    await app.page.getByLabel('Note', { exact: true }).fill('Journey batch');
    await app.page.getByRole('button', { name: 'Generate', exact: true }).click();
    await app.page.getByText('3 keys generated.').waitFor();
    await app.search('journey');
    await expect.poll(() => app.matchingRows().count()).toBe(4); // header + 3
    expect(await app.page.getByRole('table', { name: 'Matching keys' }).getByText('generated').count()).toBe(3);
    value = (await app.matchingRows().nth(1).getByRole('button').first().textContent()) ?? '';
    expect(value).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);
  });

  it('validates it with a HWID, which activates and binds it', async () => {
    await app.nav('Validate & HWID');
    await app.page.getByLabel('Type a value').check();
    await app.page.getByLabel('Custom HWID').fill('HW-JOURNEY-1');
    await app.page.getByLabel('Key', { exact: true }).fill(value);
    await app.page.getByLabel('Dry run (nothing changes)').uncheck();
    await app.page.getByRole('button', { name: 'Validate', exact: true }).click();
    const outcome = app.page.getByRole('status', { name: 'Validation outcome' });
    await outcome.getByText('Valid: this machine was let in; the key is now bound to it.').waitFor();
    expect(await outcome.getByText('success', { exact: true }).count()).toBe(1);
  });

  it('finds it by HWID, extends, resets and deletes it', async () => {
    await app.nav('Keys');
    await app.search('HW-JOURNEY-1');
    await expect.poll(() => app.matchingRows().count()).toBe(2);
    expect(await app.matchingRows().nth(1).getByText('active').count()).toBe(1);
    await app.matchingRows().nth(1).getByRole('button', { name: value, exact: true }).click();
    const detail = app.page.getByRole('complementary', { name: 'Key detail' });
    await detail.getByText('HW-JOURNEY-1').waitFor();

    // The panel took the focus when it opened.
    await expect.poll(() => detail.locator(':focus').count()).toBe(1);
    // Esc closes it and gives the focus back to the key's row; Enter there opens it again.
    await app.page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    expect(await app.page.locator(':focus').getAttribute('data-key-row')).toBe(value);
    await app.page.keyboard.press('Enter');
    await detail.getByText('HW-JOURNEY-1').waitFor();

    // Ten years and more is asked about first; Cancel extends nothing.
    await detail.getByLabel('Extend by days').fill('4000');
    await detail.getByRole('button', { name: 'Extend' }).click();
    const longExtend = app.page.getByRole('dialog', { name: 'Extend by 4,000 days?' });
    await longExtend.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => longExtend.isVisible()).toBe(false);
    await detail.getByLabel('Extend by days').fill('5');
    await detail.getByRole('button', { name: 'Extend' }).click();
    await app.toast('Extended by 5 days.');

    // Resetting the HWID unbinds the customer's machine: asked first.
    await detail.getByRole('button', { name: 'Reset HWID' }).click();
    await app.page.getByRole('dialog', { name: "Reset this key's HWID?" }).getByRole('button', { name: 'Reset' }).click();
    await app.toast('HWID reset.');
    expect(await detail.getByText('HW-JOURNEY-1').count()).toBe(0);

    await detail.getByRole('button', { name: 'Delete key' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Delete this key?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await detail.getByRole('button', { name: 'Delete key' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await app.toast('Key deleted.');
    // The focus went on (to the next row, or the search box when none is left), not back to the page.
    await expect.poll(() => app.page.locator(':focus').count()).toBe(1);
    await app.search(value);
    // Deleted here: the empty search says so, not that no key matches.
    await app.page.getByText(`${value} was deleted here: the service no longer has it. All keys lists it as Deleted.`).waitFor();
  });

  it('deletes a generated key', async () => {
    await app.search('journey');
    await expect.poll(() => app.matchingRows().count()).toBe(3);
    const other = (await app.matchingRows().nth(1).getByRole('button').first().textContent()) ?? '';
    await app.matchingRows().nth(1).getByRole('button').first().click();
    await app.page.getByRole('complementary', { name: 'Key detail' }).getByRole('button', { name: 'Delete key' }).click();
    await app.page.getByRole('dialog', { name: 'Delete this key?' }).getByRole('button', { name: 'Delete' }).click();
    await app.toast('Key deleted.');
    await app.search(other);
    // Deleted here: the empty search says so, not that no key matches.
    await app.page.getByText(`${other} was deleted here: the service no longer has it. All keys lists it as Deleted.`).waitFor();
  });
});

describe('other services of the spec', () => {
  it('adds, finds and deletes a keyless entry', async () => {
    await app.nav('Keyless');
    await app.page.getByLabel('HWID', { exact: true }).fill('KL-JOURNEY-7');
    await app.page.getByRole('button', { name: 'Add', exact: true }).click();
    await app.toast('Keyless entry added.');
    await app.page.getByLabel('HWID contains').fill('JOURNEY');
    await app.page.getByRole('button', { name: 'Search', exact: true }).click();
    const table = app.page.getByRole('table', { name: 'Keyless entries' });
    await table.getByText('KL-JOURNEY-7').waitFor();
    await table.getByRole('button', { name: 'Delete keyless entry KL-JOURNEY-7' }).click();
    await app.page.getByRole('dialog', { name: 'Delete this keyless entry?' }).getByRole('button', { name: 'Delete' }).click();
    await app.toast('Keyless entry deleted.');
    expect(await table.getByText('KL-JOURNEY-7').count()).toBe(0);
  });

  it('checks identifiers, refusing a malformed one beside its field', async () => {
    await app.nav('Identifier check');
    await app.page.getByLabel('Identifier', { exact: true }).fill('demo');
    await app.page.getByRole('button', { name: 'Check', exact: true }).click();
    await app.page.getByText('“demo” exists: it belongs to Demo.').waitFor();
    await app.page.getByLabel('Identifier', { exact: true }).fill('not valid!');
    await app.page.getByRole('button', { name: 'Check', exact: true }).click();
    await app.page.getByText('Identifier must be 1 to 64 letters, digits, dots, underscores or hyphens.').waitFor();
  });

  it('pushes and reads executions', async () => {
    await app.nav('Overview');
    const count = app.page.getByLabel('Execution count', { exact: true });
    await expect.poll(async () => (await count.textContent())?.trim()).toMatch(/^\d+$/);
    const before = Number((await count.textContent())?.replaceAll(',', ''));
    await app.page.getByRole('button', { name: 'Push +1', exact: true }).click();
    await app.toast(/Execution counted/);
    await expect.poll(async () => Number((await count.textContent())?.replaceAll(',', ''))).toBe(before + 1);
  });

  it('opens views from the command palette with the keyboard', async () => {
    await app.page.keyboard.press('Control+k');
    const palette = app.page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByLabel('Search commands').fill('go to keyless');
    await app.page.keyboard.press('Enter');
    await app.page.getByRole('heading', { name: 'Keyless', level: 1 }).waitFor();
    // The focus starts at the view's heading, not on the page body.
    await expect.poll(() => app.page.locator(':focus').getAttribute('id')).toBe('keyless-title');
    await app.page.keyboard.press('Control+k');
    await app.page.keyboard.press('Escape');
    await expect.poll(() => palette.isVisible()).toBe(false);
  });
});

describe('error paths', () => {
  it('shows field errors beside their fields, keeping input across views', async () => {
    await app.nav('Keys');
    await app.page.getByLabel('Expiry date').fill('2023-02-29');
    await app.page.getByLabel('Note', { exact: true }).fill('kept');
    await app.page.getByRole('button', { name: 'Generate', exact: true }).click();
    await app.page.getByText('“2023-02-29” is not a real calendar date: check the month and the day.').waitFor();
    expect(await app.page.getByLabel('Note', { exact: true }).inputValue()).toBe('kept');
    await app.page.getByLabel('Days after activation').check();
    await app.page.getByLabel('Days', { exact: true }).fill('0');
    await app.page.getByRole('button', { name: 'Generate', exact: true }).click();
    await app.page.getByText('Days must be a whole number from 1 to 999,999.').waitFor();
    await app.nav('Overview');
    await app.nav('Keys');
    expect(await app.page.getByLabel('Note', { exact: true }).inputValue()).toBe('kept');
    expect(await app.page.getByLabel('Days', { exact: true }).inputValue()).toBe('0');
    await app.page.getByLabel('On a date').check();
  });

  describe('a remote profile pointed at a second sandbox', () => {
    let remote: SandboxProcess;
    let apiKey: string;
    beforeAll(async () => {
      const db = join(tempDir(), 'remote.db');
      apiKey = createService(db, 'Remote Shop', 'remote-shop').apiKey;
      remote = await startSandbox({ db });
    });
    afterAll(async () => {
      await remote.stop();
    });

    it('refuses a wrong apiKey at creation, saving nothing', async () => {
      await app.nav('Profiles');
      await app.page.getByLabel('Name').fill('Remote Shop');
      await app.page.getByLabel('Base URL').fill(remote.url);
      await app.page.getByLabel('API key').fill('kd_definitely-wrong');
      await app.page.getByRole('button', { name: 'Add service' }).click();
      await app.page.getByText(/The service refused this API key.*Nothing was saved\./).waitFor();
      expect(await app.page.getByRole('button', { name: 'Use Remote Shop' }).count()).toBe(0);
    });

    it('works against a remote service and shows its mid-session failure', async () => {
      await app.page.getByLabel('API key').fill(apiKey);
      await app.page.getByRole('button', { name: 'Add service' }).click();
      await app.toast('Added Remote Shop.');
      expect(await app.page.getByLabel('API key').inputValue()).toBe('');
      await app.page.getByRole('button', { name: 'Use Remote Shop' }).click();
      await app.toast('Now working on Remote Shop.');
      await app.nav('Identifier check');
      await app.page.getByLabel('Identifier', { exact: true }).fill('remote-shop');
      await app.page.getByRole('button', { name: 'Check', exact: true }).click();
      await app.page.getByText('“remote-shop” exists: it belongs to Remote Shop.').waitFor();

      await app.nav('Profiles');
      await app.page.getByRole('button', { name: 'Edit Remote Shop' }).click();
      const edit = app.page.getByRole('form', { name: 'Edit Remote Shop' });
      await edit.getByLabel('Replace API key (leave empty to keep it)').fill('kd_not-the-key');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.getByText(/The service refused this API key/).waitFor();
      await edit.getByLabel('Name').fill('Remote Shop EU');
      await edit.getByLabel('Replace API key (leave empty to keep it)').fill('');
      await edit.getByRole('button', { name: 'Save' }).click();
      await app.toast('Saved Remote Shop EU.');
      expect(await app.page.getByRole('combobox', { name: 'Service' }).locator('option', { hasText: 'Remote Shop EU' }).count()).toBe(1);

      await app.nav('Identifier check');
      await app.page.getByLabel('Identifier', { exact: true }).fill('remote-shop');
      await remote.stop();
      await app.page.getByRole('button', { name: 'Check', exact: true }).click();
      await app.page
        .getByText(/Keydesk could not reach the service/)
        .filter({ visible: true })
        .first()
        .waitFor();
      const banner = app.page.getByRole('alert').filter({ hasText: 'Remote Shop EU refused the connection: it is probably not running.' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain('nothing is queued');
      expect(await app.page.getByLabel('Identifier', { exact: true }).inputValue()).toBe('remote-shop');

      // Back to the sandbox from the keyboard: the palette lists the other services.
      await app.page.keyboard.press('Control+k');
      await app.page.getByRole('dialog', { name: 'Command palette' }).getByLabel('Search commands').fill('switch to local');
      await app.page.keyboard.press('Enter');
      await app.toast('Now working on Local sandbox.');
      expect(await app.page.getByRole('combobox', { name: 'Service' }).inputValue()).toBe('sandbox');
    });
  });
});
