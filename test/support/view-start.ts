// The start the view tests share: a session ready on the local sandbox (fake-bridge.ts) where this machine's HWID
// reads as nothing, and Validate's answers a test shows (a success, and a refusal for another machine).
import type { ValidationReport } from '../../src/shared/domain.ts';
import { fake, readyStore, validReport } from './fake-bridge.ts';

export const success = validReport;
export const mismatch: ValidationReport = {
  ...success,
  outcome: 'hwid_mismatch',
  success: false,
  message: 'The key is bound to another device.',
  dryRun: true,
  hwid: 'HW-B',
  expiresAt: null,
  notes: 'The key is bound to another HWID.',
  raw: JSON.stringify(
    { V2_Authentication: 'hwid_mismatch', Key_Information: { Notes: 'The key is bound to another HWID.', Hardware_ID: 'HW-B' } },
    null,
    2,
  ),
};

/** Each test's start: a ready session, and no HWID reading on this machine. */
export function readyWithNoHwid(): void {
  readyStore();
  fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
}
