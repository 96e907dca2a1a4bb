import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The directory Electron's app.getPath('userData') gives Keydesk on this OS, so the sandbox CLI and the
 * desktop app find the same database by default.
 */
export function keydeskUserDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Keydesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Keydesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Keydesk');
}

export const SANDBOX_DB_FILE = 'sandbox.db';
