// settings.json: each field checked on its own (a bad one falls back alone), a file not used kept aside with the
// problem said, atomic writes that leave the old file on failure, and listeners told of each change.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_DEFAULTS } from '../../src/shared/contract.ts';
import { readSettings, SETTINGS_FILE, SettingsFile } from '../../src/main/settings.ts';
import { tempDir } from '../support/temp-dir.ts';

const AT = () => new Date('2026-11-29T20:00:00.000Z');
const COPY = `${SETTINGS_FILE}.refused-2026-11-29T20-00-00.000Z`;
const errors: string[] = [];
afterEach(() => {
  errors.length = 0;
  vi.restoreAllMocks();
});
const quiet = () => vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));

function folderWith(text: string): string {
  const dir = tempDir('keydesk-settings-');
  writeFileSync(join(dir, SETTINGS_FILE), text);
  return dir;
}

describe('reading settings.json', () => {
  it('takes every valid field as written', () => {
    const text = JSON.stringify({ theme: 'dark', sampleEverySeconds: 300, bulkLimit: 8, logLevel: 'warn' });
    expect(readSettings(text)).toEqual({
      settings: { theme: 'dark', sampleEverySeconds: 300, bulkLimit: 8, logLevel: 'warn' },
      refused: [],
    });
  });

  it('falls back to the default for each bad field alone', () => {
    const { settings, refused } = readSettings(JSON.stringify({ theme: 'purple', sampleEverySeconds: 300, bulkLimit: 9999 }));
    expect(settings).toEqual({ ...SETTINGS_DEFAULTS, sampleEverySeconds: 300 });
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatch(/^theme "purple" is refused \(.+\), so it is "system"$/);
    expect(refused[1]).toBe('bulkLimit 9999 is refused (At most 256.), so it is 64');
  });

  it('names a field it does not know and leaves it out', () => {
    const { settings, refused } = readSettings('{"theme":"light","colour":"red"}');
    expect(settings.theme).toBe('light');
    expect(refused).toEqual(['"colour" is not a setting Keydesk knows, so it is left out']);
  });

  it('gives every default for text that is not a JSON object', () => {
    expect(readSettings('{theme: dark')).toEqual({
      settings: SETTINGS_DEFAULTS,
      refused: ['it is not valid JSON, so every setting is its default'],
    });
    expect(readSettings('[1]').refused).toEqual(['it does not hold a JSON object, so every setting is its default']);
  });
});

describe('the settings file', () => {
  it('starts from the defaults with no file and says nothing', () => {
    const settings = new SettingsFile(tempDir('keydesk-settings-'));
    expect(settings.value).toEqual(SETTINGS_DEFAULTS);
    expect(settings.problem).toBeNull();
  });

  it('keeps a hand-edited bad file aside and says which fields fell back', () => {
    quiet();
    const original = '{"theme":"dark","bulkLimit":0}';
    const dir = folderWith(original);
    const settings = new SettingsFile(dir, AT);
    expect(settings.value).toEqual({ ...SETTINGS_DEFAULTS, theme: 'dark' });
    expect(settings.problem).toBe(
      `Keydesk did not use all of ${join(dir, SETTINGS_FILE)}: bulkLimit 0 is refused (At least 1.), so it is 64. The file as it was is kept beside it as ${COPY}; a change in Settings writes a new one.`,
    );
    expect(errors).toEqual([`keydesk: ${settings.problem ?? ''}`]);
    expect(readFileSync(join(dir, COPY), 'utf8')).toBe(original);
    // Left as it is until a change: the copy and the file both hold what the user wrote.
    expect(readFileSync(join(dir, SETTINGS_FILE), 'utf8')).toBe(original);
    settings.update({ logLevel: 'error' });
    expect(JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'))).toEqual({ ...SETTINGS_DEFAULTS, theme: 'dark', logLevel: 'error' });
    expect(readFileSync(join(dir, COPY), 'utf8')).toBe(original);
  });

  it('writes a change atomically and reads it back at the next start', () => {
    const dir = tempDir('keydesk-settings-');
    new SettingsFile(dir).update({ theme: 'light', sampleEverySeconds: 120 });
    expect(readdirSync(dir)).toEqual([SETTINGS_FILE]);
    expect(new SettingsFile(dir).value).toEqual({ ...SETTINGS_DEFAULTS, theme: 'light', sampleEverySeconds: 120 });
  });

  it('keeps the settings and leaves no temporary file when a write fails', () => {
    const dir = tempDir('keydesk-settings-');
    const settings = new SettingsFile(dir);
    settings.update({ theme: 'dark' });
    // A folder in the file's place: the rename fails whoever runs the test (root included).
    rmSync(join(dir, SETTINGS_FILE));
    mkdirSync(join(dir, SETTINGS_FILE, 'held'), { recursive: true });
    expect(() => settings.update({ theme: 'light' })).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(settings.value.theme).toBe('dark');
    expect(readdirSync(dir)).toEqual([SETTINGS_FILE]);
  });

  it('never replaces a file it could not copy aside', () => {
    quiet();
    const dir = folderWith('not json');
    // A folder where the copy would go: the copy fails whoever runs the test.
    mkdirSync(join(dir, COPY, 'held'), { recursive: true });
    const settings = new SettingsFile(dir, AT);
    expect(settings.problem).toMatch(
      /No copy of it could be made \(E[A-Z]+\), so it is left as it is and changes in Settings last for this session only\.$/,
    );
    expect(settings.update({ theme: 'dark' }).theme).toBe('dark');
    expect(readFileSync(join(dir, SETTINGS_FILE), 'utf8')).toBe('not json');
  });

  it('tells listeners the settings now and before, only on a change', () => {
    const settings = new SettingsFile(tempDir('keydesk-settings-'));
    const heard: [string, string][] = [];
    const off = settings.subscribe((now, before) => void heard.push([before.theme, now.theme]));
    settings.update({ theme: 'dark' });
    settings.update({ theme: 'dark' });
    off();
    settings.update({ theme: 'light' });
    expect(heard).toEqual([['system', 'dark']]);
  });

  it('refuses a value its schema refuses, changing nothing', () => {
    const settings = new SettingsFile(tempDir('keydesk-settings-'));
    expect(() => settings.update({ sampleEverySeconds: 5 })).toThrow(/At least 10 seconds/);
    expect(settings.value).toEqual(SETTINGS_DEFAULTS);
  });
});
