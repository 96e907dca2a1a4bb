// A profiles.json write that fails (here: the path is taken by a folder, so the rename cannot land; a full disk
// or a read-only folder fails the same way) leaves no temporary file behind, and memory agrees with the disk:
// the screen never shows a profile change that was not saved.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILES_FILE, ProfilesFile, type StoredProfile } from '../../src/main/store/profiles-file.ts';
import { tempDir } from '../support/temp-dir.ts';

const profile = (id: string, name: string): StoredProfile => ({
  id,
  name,
  kind: 'remote',
  baseUrl: 'https://a.example',
  validationUrl: 'https://a.example/v2_validation',
  serviceIdentifier: null,
  keyHint: '…abcd',
});

/** A saved file with one profile, then its path made unwritable by a non-empty folder in the way. */
function blocked(): { dir: string; file: ProfilesFile; unblock: () => void } {
  const dir = tempDir('keydesk-pf-fail-');
  const file = new ProfilesFile(dir);
  file.upsert(profile('p_1', 'Acme'));
  file.setActive('p_1');
  const path = join(dir, PROFILES_FILE);
  const saved = readFileSync(path, 'utf8');
  rmSync(path);
  mkdirSync(join(path, 'in-the-way'), { recursive: true });
  return {
    dir,
    file,
    unblock: () => {
      rmSync(path, { recursive: true });
      writeFileSync(path, saved);
    },
  };
}

describe('a profiles.json write that fails', () => {
  it.each<[string, (f: ProfilesFile) => void]>([
    [
      'upsert of a new profile',
      (f) => {
        f.upsert(profile('p_2', 'Beta'));
      },
    ],
    [
      'upsert renaming a profile',
      (f) => {
        f.upsert(profile('p_1', 'Renamed'));
      },
    ],
    [
      'remove',
      (f) => {
        f.remove('p_1');
      },
    ],
    [
      'setActive',
      (f) => {
        f.setActive('p_9');
      },
    ],
  ])('%s throws, leaves no .tmp file, and leaves memory as it was', (_, change) => {
    const { dir, file } = blocked();
    expect(() => {
      change(file);
    }).toThrow();
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(file.list()).toEqual([profile('p_1', 'Acme')]);
    expect(file.activeProfileId).toBe('p_1');
  });

  it('leaves the next write to save only what it changes', () => {
    const { dir, file, unblock } = blocked();
    expect(() => {
      file.upsert(profile('p_2', 'Lost'));
    }).toThrow();
    unblock();
    file.upsert(profile('p_3', 'Gamma'));
    const onDisk = JSON.parse(readFileSync(join(dir, PROFILES_FILE), 'utf8')) as { profiles: StoredProfile[] };
    expect(onDisk.profiles.map((p) => p.id)).toEqual(['p_1', 'p_3']);
    expect(file.list().map((p) => p.id)).toEqual(['p_1', 'p_3']);
  });
});
