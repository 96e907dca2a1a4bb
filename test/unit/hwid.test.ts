// A HWID method this machine cannot answer says why in Keydesk's words: its own reasons as they are, a library's
// or a command's raw error never (that goes to the log).
import { describe, expect, it, vi } from 'vitest';

vi.mock('node-machine-id', () => ({
  default: {
    machineId: () =>
      Promise.reject(new Error('Command failed: cat /var/lib/dbus/machine-id /etc/machine-id\ncat: No such file or directory')),
  },
}));
const { readHwid } = await import('../../src/main/hwid.ts');

describe('readHwid when a method is unavailable', () => {
  it("hides a library's raw error behind words, and keeps Keydesk's own reasons", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const machine = await readHwid('machine-id-hashed', 'linux');
    expect(machine).toMatchObject({
      value: null,
      unavailableReason: "This machine did not give it (the system's answer is in Keydesk's log).",
    });
    expect(logged).toHaveBeenCalledTimes(1);
    const smbios = await readHwid('windows-smbios-uuid', 'linux');
    expect(smbios).toMatchObject({ value: null, unavailableReason: 'Windows only: this machine is not running Windows.' });
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });
});
