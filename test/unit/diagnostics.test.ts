// Help → Copy diagnostics: versions, OS, sandbox, counts, the crash dumps by name and the log's last 200 lines.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectDiagnostics, listCrashDumps } from '../../src/main/diagnostics.ts';
import { closeLog, log, openLog } from '../../src/main/log.ts';
import { tempDir } from '../support/temp-dir.ts';

afterEach(() => closeLog());

function dumpsIn(dir: string): void {
  mkdirSync(join(dir, 'completed'), { recursive: true });
  writeFileSync(join(dir, 'completed', 'old.dmp'), 'x'.repeat(10));
  utimesSync(join(dir, 'completed', 'old.dmp'), new Date('2026-01-01'), new Date('2026-01-01'));
  writeFileSync(join(dir, 'completed', 'new.dmp'), 'x'.repeat(20));
  writeFileSync(join(dir, 'settings.dat'), '');
}

const fakeCore = {
  profiles: { list: () => [{ id: 'sandbox' }, { id: 'p1' }] },
  db: { ledgerSize: (id: string) => (id === 'p1' ? 1500 : 20), jobs: (id: string) => (id === 'p1' ? [{}] : []) },
  sandboxState: () => ({ url: 'http://127.0.0.1:8787', running: true, error: null }),
} as unknown as Parameters<typeof collectDiagnostics>[1];

describe('diagnostics', () => {
  it('lists the minidumps below the dump folder, newest first', () => {
    const dir = tempDir('keydesk-dumps-');
    dumpsIn(dir);
    expect(listCrashDumps(dir).map((d) => [d.file, d.bytes])).toEqual([
      [join(dir, 'completed', 'new.dmp'), 20],
      [join(dir, 'completed', 'old.dmp'), 10],
    ]);
    expect(listCrashDumps(join(dir, 'absent'))).toEqual([]);
  });

  it('names versions, OS, sandbox, counts, dumps and the last 200 log lines', () => {
    const userData = tempDir('keydesk-diagnostics-');
    const dumps = join(userData, 'Crashpad');
    dumpsIn(dumps);
    openLog(userData, 'start: Keydesk 1.2.3');
    for (let i = 0; i < 250; i++) log.info(`event ${i}`);
    const given = { version: '1.2.3', versions: { electron: '45.5.0', node: '22.20.0' }, userDataDir: userData, crashDumpsDir: dumps };
    const text = collectDiagnostics({ ...given, updates: 'checked from Help' }, fakeCore);
    const lines = text.trimEnd().split('\n');
    expect(lines.slice(0, 10)).toEqual([
      'Keydesk 1.2.3 (electron 45.5.0, node 22.20.0)',
      expect.stringMatching(new RegExp(`^OS: ${process.platform} \\S+ ${process.arch}$`)) as string,
      `Data folder: ${userData}`,
      `Log: ${join(userData, 'logs', 'main.log')}`,
      'Updates: checked from Help',
      'Sandbox: running on http://127.0.0.1:8787',
      'Counts: profiles 2, ledger keys 1520, jobs running or interrupted 1',
      `Crash dumps: ${dumps}`,
      expect.stringMatching(/new\.dmp \(20 bytes, /) as string,
      expect.stringMatching(/old\.dmp \(10 bytes, 2026-01-01/) as string,
    ]);
    expect(lines[11]).toBe('Last 200 log lines:');
    expect(lines.slice(12)).toHaveLength(200);
    expect(lines.at(-1)).toMatch(/ info {2}event 249$/);
    expect(lines[12]).toMatch(/ info {2}event 50$/);
  });

  it('says when the core is down and no crash reporter runs', () => {
    const given = { version: '1.2.3', versions: {}, userDataDir: '/u', crashDumpsDir: null, updates: 'off' };
    const text = collectDiagnostics(given, null);
    expect(text).toContain('Sandbox and counts: the core is not up.\nCrash dumps: no crash reporter\n  none\n');
    expect(text).toContain('Log: not written');
  });
});
