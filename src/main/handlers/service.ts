// Handlers for identifier checks, the keyless list, HWIDs and validation.
import type { ValidationReport } from '../../shared/domain.ts';
import { markStep } from './overview.ts';
import { fail, ok } from '../../shared/result.ts';
import { KEYLESS_KEY } from '../../shared/wire.ts';
import type { Core } from '../core.ts';
import { readAllHwids, readHwid } from '../hwid.ts';
import { recordHwidEvent } from '../hwid-history.ts';
import { audited, needsKey, type Handlers } from './types.ts';

export const serviceHandlers = (
  core: Core,
): Pick<Handlers, 'identifier.check' | 'keyless.lookup' | 'keyless.add' | 'keyless.delete' | 'hwid.read' | 'validation.run'> => ({
  'identifier.check': needsKey(core, async ({ identifier }, a) => {
    return a.client.identifierCheck(identifier);
  }),

  'keyless.lookup': needsKey(core, async ({ term, limit, offset }, a) => {
    const r = await a.client.fetchKeyless(term, limit, offset);
    return !r.ok && r.code === 'NOT_FOUND' ? ok({ entries: [], total: 0 }) : r;
  }),

  'keyless.add': needsKey(core, async ({ hwid, isPremium, days }, a) => {
    return audited(core, a.profile, 'keyless.add', hwid, async () => {
      const r = await a.client.addKeyless(hwid, isPremium, days);
      if (!r.ok && r.code === 'NOT_FOUND')
        return fail('UNSUPPORTED', 'This service has no endpoint to add keyless entries (the sandbox has one).');
      return r.ok ? ok({ entry: r.data }) : r;
    });
  }),

  'keyless.delete': needsKey(core, async ({ hwid }, a) => {
    return audited(core, a.profile, 'keyless.delete', hwid, () => a.client.deleteKeyless(hwid));
  }),

  'hwid.read': async () => ok({ readings: await readAllHwids(core.options.platform) }),

  'validation.run': needsKey(core, async (input, a) => {
    const sandbox = a.profile.kind === 'sandbox';
    const dryRun = sandbox ? (input.dryRun ?? true) : false;
    if (!sandbox && input.dryRun) {
      return fail('UNSUPPORTED', 'A dry run exists only on the local sandbox; a real service always activates and binds.');
    }
    if (!dryRun && !sandbox && input.confirmActivation !== true) {
      return fail(
        'NEEDS_CONFIRMATION',
        'Validating against a remote service activates the key and binds it to this HWID. Confirm to go ahead.',
      );
    }
    let hwid: string;
    if ('custom' in input.hwid) {
      hwid = input.hwid.custom;
    } else {
      const reading = await readHwid(input.hwid.method, core.options.platform);
      if (reading.value === null) return fail('UNSUPPORTED', `${reading.label}: ${reading.unavailableReason ?? 'unavailable'}`);
      hwid = reading.value;
    }
    const service = input.service ?? a.profile.serviceIdentifier;
    if (!service) return fail('INVALID_INPUT', 'Enter the service identifier to validate against.');
    const key = input.mode === 'keyless' ? KEYLESS_KEY : (input.keyValue ?? '');
    const run = async () => {
      const r = await a.client.validate({ key, service, hwid, dryRun });
      if (!r.ok) return r;
      markStep(core, a.profile.id, 'validate');
      const v = r.data.reading;
      const report: ValidationReport = {
        outcome: v.outcome,
        reportedOutcome: v.reportedOutcome,
        success: v.success,
        message: v.message,
        dryRun,
        hwid,
        premium: v.premium,
        expiresAt: v.expiresAt,
        notes: v.notes,
        keyless: v.keyless,
        registeredServiceId: v.registeredServiceId,
        raw: r.data.raw,
      };
      // The HWID a real validation asked with goes in the key's HWID history, let in or refused for another machine.
      if (!dryRun && input.mode === 'key' && (v.success || v.outcome === 'hwid_mismatch')) {
        const kind = v.success ? 'validated' : 'mismatch';
        await recordHwidEvent(core, {
          profileId: a.profile.id,
          value: key,
          at: new Date().toISOString(),
          kind,
          hwid,
          source: 'validation',
        });
      }
      // A real validation may have activated or bound the key: bring the ledger up to date.
      if (!dryRun && input.mode === 'key' && v.success) {
        const seen = await a.client.fetchActive(key);
        if (seen.ok) void core.writer.recordKeys(a.profile.id, seen.data.keys);
      }
      return ok(report);
    };
    return dryRun ? run() : audited(core, a.profile, 'validation.run', input.mode === 'keyless' ? `keyless ${hwid}` : key, run);
  }),
});
