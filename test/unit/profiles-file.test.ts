// profiles.json is flushed to disk before it replaces the old file: the rename comes after an fsync of the
// temporary file, so a power cut leaves the old profiles or the new, never an empty file.
import type * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ProfilesFile } from '../../src/main/store/profiles-file.ts';
import { tempDir } from '../support/temp-dir.ts';

const calls: string[] = [];
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  return {
    ...real,
    openSync: (...a: Parameters<typeof real.openSync>) => {
      const fd = real.openSync(...a);
      calls.push(`open ${String(a[0]).endsWith('.tmp') ? 'tmp' : 'other'} ${fd}`);
      return fd;
    },
    fsyncSync: (fd: number) => {
      calls.push(`fsync ${fd}`);
      real.fsyncSync(fd);
    },
    renameSync: (...a: Parameters<typeof real.renameSync>) => {
      calls.push('rename');
      real.renameSync(...a);
    },
  };
});

describe('ProfilesFile.save', () => {
  it('fsyncs the temporary file before renaming it over profiles.json', () => {
    const dir = tempDir('keydesk-pf-');
    const file = new ProfilesFile(dir);
    calls.length = 0;
    file.upsert({
      id: 'p_1',
      name: 'Acme',
      kind: 'remote',
      baseUrl: 'https://a.example',
      validationUrl: 'https://a.example/v2_validation',
      serviceIdentifier: null,
      keyHint: '…abcd',
    });
    const tmpFd = /^open tmp (\d+)$/.exec(calls[0] ?? '')?.[1];
    expect(tmpFd).toBeDefined();
    expect(calls.slice(0, 3)).toEqual([`open tmp ${tmpFd ?? ''}`, `fsync ${tmpFd ?? ''}`, 'rename']);
    expect(JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8'))).toMatchObject({
      version: 1,
      profiles: [{ id: 'p_1', name: 'Acme' }],
    });
    expect(new ProfilesFile(dir).get('p_1')?.name).toBe('Acme');
  });
});
