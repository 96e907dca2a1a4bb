// What a new user's walk found, proved in Chromium through the harness: the key panel leaves the sections above
// it where they were and holds the keyboard while open; Keyless refuses a blank HWID and asks about spaces;
// the profile form speaks in the page, not in the browser's popup.
import { describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();

/** Whether section heading `a` reads before `b`: above it, or beside it on its left. */
const readsBefore = async (a: string, b: string): Promise<boolean> => {
  const box = (name: string) => app.page.getByRole('heading', { name, level: 2, exact: true }).boundingBox();
  const [p, q] = [await box(a), await box(b)];
  if (!p || !q) throw new Error(`no box for ${a} or ${b}`);
  return p.y < q.y || (p.y === q.y && p.x < q.x);
};

describe('Keys: the key panel', () => {
  it('opens without moving the sections and holds the keyboard', async () => {
    await app.nav('Keys');
    await app.page.getByLabel('Count').fill('2');
    await app.page.getByLabel('Note', { exact: true }).fill('walk panel');
    await app.page.getByRole('button', { name: 'Generate', exact: true }).click();
    await app.page.getByText('2 keys generated.').waitFor();
    await app.search('walk panel');
    await expect.poll(() => app.matchingRows().count()).toBe(3);
    expect(await readsBefore('Generate keys', 'Find keys')).toBe(true);

    await app.matchingRows().nth(1).getByRole('button').first().click();
    const detail = app.page.getByRole('complementary', { name: 'Key detail' });
    await detail.waitFor();
    expect(await readsBefore('Generate keys', 'Find keys')).toBe(true);
    // A generated key: Reset HWID is off, and says why.
    expect(await detail.getByRole('button', { name: 'Reset HWID' }).isDisabled()).toBe(true);
    await detail.getByText('Only an active key has an HWID to reset.').waitFor();

    for (let i = 0; i < 15; i++) {
      await app.page.keyboard.press(i % 4 === 3 ? 'Shift+Tab' : 'Tab');
      expect(await detail.locator(':focus').count()).toBe(1);
    }
    await app.page.getByLabel('Key value, note or HWID').focus();
    await app.page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
  });
});

describe('Keyless: adding a HWID', () => {
  it('refuses an HWID of spaces and asks about spaces at its ends', async () => {
    await app.nav('Keyless');
    const form = app.page.getByRole('form', { name: 'Add an entry' });
    await form.getByLabel('HWID', { exact: true }).fill('   ');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByText('HWID is required.').waitFor();

    await form.getByLabel('HWID', { exact: true }).fill(' HW-WALK-1 ');
    await form.getByText(/The HWID starts or ends with a space/).waitFor();
    await form.getByRole('button', { name: 'Add' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Add the HWID with its spaces?' });
    await dialog.getByRole('button', { name: 'Add as typed' }).click();
    await app.toast('Keyless entry added.');
  });
});

describe('Profiles: the add form', () => {
  it('says what is missing in the page, with no native popup', async () => {
    await app.nav('Profiles');
    const form = app.page.getByRole('form', { name: 'Add a remote service' });
    await form.getByRole('button', { name: 'Add service' }).click();
    await form.getByText('Name is required.').waitFor();
    await form.getByText('Base URL is required.').waitFor();
    // The form does not use the browser's constraint popup: nothing is invalid to it.
    expect(await form.getAttribute('novalidate')).not.toBeNull();
    await form.getByLabel('Base URL').fill('http://shop.example.com');
    await form.getByText(/the API key is sent in clear to shop\.example\.com/).waitFor();
  });
});
