// validation's answer carried in `result` (service-api.md 4.6) is the outcome; the outer `success` only
// says the call went through, so it must never let a machine in when `result` is there.
import { expect, it } from 'vitest';
import { readValidation } from '../../src/main/client/read.ts';

it('reads a flat refusal inside an outer success as a refusal', () => {
  const r = readValidation({ success: true, message: 'Request handled.', result: { success: false, message: 'The HWID does not match.' } });
  expect(r?.success).not.toBe(true);
});

it('an outer success around a result Keydesk cannot read is no success', () => {
  const r = readValidation({ success: true, message: 'Request handled.', result: { status: 'hwid_mismatch' } });
  expect(r?.success ?? false).toBe(false);
});
