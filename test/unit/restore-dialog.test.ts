// Help › Restore a backup… with electron mocked: no backup yet is said; choosing one asks for it at the next start
// and relaunches; Cancel changes nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../support/temp-dir.ts';

const electron = vi.hoisted(() => ({
  answer: 0,
  boxes: [] as { message?: string; buttons?: string[] }[],
  relaunch: vi.fn(),
  quit: vi.fn(),
}));
vi.mock('electron', () => ({
  app: { relaunch: electron.relaunch, quit: electron.quit },
  dialog: {
    showMessageBox: (options: { message?: string; buttons?: string[] }) => {
      electron.boxes.push(options);
      return Promise.resolve({ response: electron.answer });
    },
    showErrorBox: vi.fn(),
  },
}));

const { offerRestore } = await import('../../src/main/restore-dialog.ts');
const marker = (userData: string) => join(userData, 'backups', 'restore-at-next-start');

function withBackups(...names: string[]): string {
  const userData = tempDir('keydesk-restore-dialog-');
  mkdirSync(join(userData, 'backups'));
  for (const n of names) writeFileSync(join(userData, 'backups', n), '');
  return userData;
}

beforeEach(() => {
  electron.boxes = [];
  electron.relaunch.mockClear();
  electron.quit.mockClear();
});

describe('Help › Restore a backup…', () => {
  it('says there is no backup yet, and changes nothing', async () => {
    const userData = withBackups();
    await offerRestore(userData, null);
    expect(electron.boxes.map((b) => b.message)).toEqual(['There is no backup of keydesk.db yet.']);
    expect(electron.relaunch).not.toHaveBeenCalled();
  });

  it('offers backups newest first and restores the chosen one at relaunch', async () => {
    const userData = withBackups('keydesk-2026-04-01T09-00-00.000Z.db', 'keydesk-2026-04-02T09-00-00.000Z.db');
    electron.answer = 1;
    await offerRestore(userData, null);
    expect(electron.boxes[0]?.buttons).toHaveLength(3);
    expect(electron.boxes[0]?.buttons?.[0]).toMatch(/\(newest\)$/);
    expect(electron.boxes[0]?.buttons?.[2]).toBe('Cancel');
    expect(readFileSync(marker(userData), 'utf8')).toBe('keydesk-2026-04-01T09-00-00.000Z.db');
    expect(electron.relaunch).toHaveBeenCalledTimes(1);
    expect(electron.quit).toHaveBeenCalledTimes(1);
  });

  it('changes nothing on Cancel', async () => {
    const userData = withBackups('keydesk-2026-04-01T09-00-00.000Z.db');
    electron.answer = 1;
    await offerRestore(userData, null);
    expect(existsSync(marker(userData))).toBe(false);
    expect(electron.relaunch).not.toHaveBeenCalled();
  });
});
