// A key edited from the key panel in Chromium through the harness: its note changed and made to work on any machine,
// then validated for real from two HWIDs in Validate & HWID, both let in; the panel's HWID history shows them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();
let value = '';

beforeAll(async () => {
  value = await app.page.evaluate(async () => {
    const r = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 1, isPremium: false, note: 'edit me' });
    return r.ok ? ((JSON.parse(new TextDecoder().decode(r.data.generated.values)) as string[])[0] ?? '') : '';
  });
  expect(value).not.toBe('');
});

const validate = async (hwid: string) => {
  const { page } = app;
  await page.getByLabel('Custom HWID').fill(hwid);
  await page.getByRole('button', { name: 'Validate', exact: true }).click();
  const outcome = page.getByRole('status', { name: 'Validation outcome' });
  await outcome.getByText(hwid).first().waitFor();
  return (await outcome.textContent()) ?? '';
};

describe('editing a key from the key panel', () => {
  it('changes the note and any-machine flag; it then validates from two HWIDs', async () => {
    const { page } = app;
    await app.nav('Keys');
    await app.search(value);
    await page.getByRole('button', { name: value, exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Key detail' });
    await panel.getByText('Edit key').click();
    await panel.getByLabel('Key note').fill('any machine customer');
    await panel.getByLabel('Works on any machine').check();
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Key edited.').waitFor();
    await panel.getByText('any machine customer').waitFor();
    expect(await panel.locator('dt:text-is("Any machine") + dd').textContent()).toBe('Yes');

    await app.nav('Validate & HWID');
    await page.getByLabel('Type a value').check();
    await page.getByLabel('Key', { exact: true }).fill(value);
    await page.getByLabel('Dry run (nothing changes)').uncheck();
    expect(await validate('PC-ONE-1111')).toContain('success');
    expect(await validate('PC-TWO-2222')).toContain('success');

    await app.nav('Keys');
    await app.search(value);
    await page.getByRole('button', { name: value, exact: true }).click();
    await page.getByRole('complementary', { name: 'Key detail' }).getByText('HWID history').click();
    const history = page.getByRole('list', { name: 'HWID history' });
    await history.getByText('PC-TWO-2222').waitFor();
    expect(await history.getByText('PC-ONE-1111').count()).toBe(1);
  }, 90_000);
});
