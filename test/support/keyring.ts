// A real Secret Service for tests: a private D-Bus session bus and an unlocked gnome-keyring with a fresh
// XDG_DATA_HOME. In CI it must be there; elsewhere a missing daemon is reported, not hidden.
import { execFileSync, spawnSync } from 'node:child_process';
import { tempDir } from './temp-dir.ts';

export interface Keyring {
  stop(): void;
}

export function startKeyring(): Keyring {
  const out = execFileSync('dbus-daemon', ['--session', '--fork', '--print-address=1', '--print-pid=1'], { encoding: 'utf8' });
  const [address, pid] = out.trim().split('\n');
  if (!address || !pid) throw new Error(`dbus-daemon printed ${out}`);
  process.env.DBUS_SESSION_BUS_ADDRESS = address;
  process.env.XDG_DATA_HOME = tempDir('keydesk-keyring-');
  const keyring = spawnSync('gnome-keyring-daemon', ['--unlock', '--components=secrets'], { input: 'pw', encoding: 'utf8', env: process.env });
  if (keyring.status !== 0) throw new Error(`gnome-keyring-daemon failed: ${keyring.stderr}`);
  return {
    // gnome-keyring-daemon leaves when its session bus goes away.
    stop: () => {
      try {
        process.kill(Number(pid));
      } catch {
        // already gone
      }
      delete process.env.DBUS_SESSION_BUS_ADDRESS;
    },
  };
}
