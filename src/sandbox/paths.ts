// Where the sandbox database lives by default: the same file for the CLI and the desktop app.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The directory Electron's app.getPath('userData') gives Keydesk on this OS. */
export function keydeskUserDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Keydesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Keydesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Keydesk');
}

export const SANDBOX_DB_FILE = 'sandbox.db';
