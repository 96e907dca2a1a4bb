// This machine's HWID as each known client computes it, so the validation preview sees what they would.
import { execFile } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { promisify } from 'node:util';
import nodeMachineId from 'node-machine-id';
import type { HwidMethod, HwidReading } from '../shared/domain.ts';

const run = promisify(execFile);

export const HWID_LABELS: Record<HwidMethod, string> = {
  'machine-id-hashed': 'node-machine-id, hashed (its default)',
  'machine-id-raw': 'node-machine-id, raw',
  'windows-smbios-uuid': 'Windows SMBIOS UUID (official JS client)',
  'mac-base64': 'First MAC address, base64 (Java client)',
};

/** Why a method has no value here, in words Keydesk chose (never a command's or a library's raw output). */
class Unavailable extends Error {}

async function machineId(original: boolean): Promise<string> {
  return nodeMachineId.machineId(original);
}

async function smbiosUuid(platform: NodeJS.Platform): Promise<string> {
  if (platform !== 'win32') throw new Unavailable('Windows only: this machine is not running Windows.');
  const { stdout } = await run('powershell.exe', ['-NoProfile', '-Command', '(Get-CimInstance -Class Win32_ComputerSystemProduct).UUID'], {
    timeout: 5_000,
  });
  const uuid = stdout.trim();
  if (!uuid) throw new Unavailable('Windows reported no SMBIOS UUID.');
  return uuid;
}

/** Base64 of the six bytes of the first non-internal interface with a real MAC, as Java's getHardwareAddress(). */
export function macBase64(interfaces = networkInterfaces()): string {
  for (const list of Object.values(interfaces)) {
    for (const nic of list ?? []) {
      if (!nic.internal && nic.mac && nic.mac !== '00:00:00:00:00:00') {
        return Buffer.from(nic.mac.split(':').map((h) => parseInt(h, 16))).toString('base64');
      }
    }
  }
  throw new Unavailable('No network interface with a hardware address was found.');
}

const READERS: Record<HwidMethod, (platform: NodeJS.Platform) => Promise<string>> = {
  'machine-id-hashed': () => machineId(false),
  'machine-id-raw': () => machineId(true),
  'windows-smbios-uuid': (platform) => smbiosUuid(platform),
  'mac-base64': () => Promise.resolve(macBase64()),
};

export async function readHwid(method: HwidMethod, platform: NodeJS.Platform = process.platform): Promise<HwidReading> {
  try {
    const value = await READERS[method](platform);
    return { method, label: HWID_LABELS[method], value, unavailableReason: null };
  } catch (error) {
    if (!(error instanceof Unavailable)) console.error(`keydesk: reading the HWID (${method}) failed:`, error);
    const reason = error instanceof Unavailable ? error.message : "This machine did not give it (the system's answer is in Keydesk's log).";
    return { method, label: HWID_LABELS[method], value: null, unavailableReason: reason };
  }
}

export async function readAllHwids(platform: NodeJS.Platform = process.platform): Promise<HwidReading[]> {
  return Promise.all((Object.keys(READERS) as HwidMethod[]).map((m) => readHwid(m, platform)));
}
