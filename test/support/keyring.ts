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
  // Its control socket too: gnome-keyring-daemon finds a running daemon through $XDG_RUNTIME_DIR/keyring (or
  // ~/.cache/keyring without one) and hands over to it, so a second test run on the machine at the same time would
  // unlock the first run's daemon, on the first run's bus, and this bus would have no Secret Service.
  process.env.XDG_RUNTIME_DIR = tempDir('keydesk-runtime-');
  const keyring = spawnSync('gnome-keyring-daemon', ['--unlock', '--components=secrets'], {
    input: 'pw',
    encoding: 'utf8',
    env: process.env,
  });
  if (keyring.status !== 0) throw new Error(`gnome-keyring-daemon failed: ${keyring.stderr}`);
  // The daemon takes the Secret Service's name on the bus after the command above returns; on a loaded machine a
  // test could ask before it has, and read "the Secret Service is not running". Wait until the name is owned.
  waitForSecretService(address);
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

/** Waits until org.freedesktop.secrets has an owner on the bus at `address` (60 s at most: a hang, not speed). */
function waitForSecretService(address: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const asked = spawnSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      { encoding: 'utf8', env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address } },
    );
    if (asked.status === 0 && /boolean true/.test(asked.stdout)) return;
    if (Date.now() > deadline)
      throw new Error(`gnome-keyring-daemon never took org.freedesktop.secrets on the bus: ${asked.stdout}${asked.stderr}`);
    Atomics.wait(pause, 0, 0, 50);
  }
}
