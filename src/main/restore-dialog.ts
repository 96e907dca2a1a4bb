// Help › Restore a backup…: keydesk.db's backups in one message box; the one chosen is put in place as Keydesk
// starts again (the running core holds the file until then).
import { join } from 'node:path';
import { app, dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import { diskFullWords, isDiskFull } from './failures.ts';
import { BACKUPS_DIR, listBackups, restoreAtNextStart } from './store/backup.ts';

export async function offerRestore(userDataDir: string, window: BrowserWindow | null): Promise<void> {
  const ask = (options: MessageBoxOptions) => (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
  const folder = join(userDataDir, BACKUPS_DIR);
  const backups = listBackups(userDataDir);
  if (backups.length === 0) {
    await ask({
      type: 'info',
      title: 'Restore a backup',
      message: 'There is no backup of keydesk.db yet.',
      detail: `Keydesk makes one within a minute of starting when the newest is more than a day old, then daily while it runs, in ${folder}.`,
      buttons: ['OK'],
    });
    return;
  }
  const { response } = await ask({
    type: 'warning',
    title: 'Restore a backup',
    message: 'Put a backup in place of keydesk.db? Keydesk restarts to do it.',
    detail:
      'The keydesk.db in use now is kept beside it as keydesk-replaced-<time>.db, not deleted. Keys made or changed after the backup are still on the service: look them up in Keys to bring them back into the ledger.',
    buttons: [...backups.map((b, i) => `${new Date(b.takenAt).toLocaleString()}${i === 0 ? ' (newest)' : ''}`), 'Cancel'],
    defaultId: backups.length,
    cancelId: backups.length,
  });
  const chosen = backups[response];
  if (!chosen) return;
  try {
    restoreAtNextStart(userDataDir, chosen.name);
  } catch (error) {
    console.error('keydesk: the restore could not be asked for:', error);
    const code = (error as { code?: unknown } | null)?.code;
    const why = isDiskFull(error) ? diskFullWords(folder) : `the system refused${typeof code === 'string' ? ` (${code})` : ''}`;
    dialog.showErrorBox('Keydesk could not restore the backup', `Nothing was changed: ${why}.`);
    return;
  }
  app.relaunch();
  app.quit();
}
