// The contract covers the design's operations table, and every input schema refuses what it should.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contract, generateInput } from '../../src/shared/contract.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import { invalidInput } from '../support/arbitraries.ts';

// operations.md of the design, with keys.bulk replaced by the jobs.* operations (issue 10: bulk work is a job).
const DESIGN_TABLE = [
  'app.status',
  'profiles.list',
  'profiles.add',
  'profiles.update',
  'profiles.remove',
  'profiles.select',
  'executions.get',
  'executions.push',
  'executions.history',
  'keys.generate',
  'keys.lookup',
  'keys.fetchActive',
  'keys.fetchGenerated',
  'keys.delete',
  'keys.extend',
  'keys.resetHwid',
  'ledger.query',
  'ledger.export',
  'identifier.check',
  'keyless.lookup',
  'keyless.add',
  'keyless.delete',
  'hwid.read',
  'validation.run',
  'audit.list',
  'audit.export',
];

describe('contract', () => {
  it("declares the design table's operations and each later group's", () => {
    const jobs = [
      'jobs.start',
      'jobs.list',
      'jobs.get',
      'jobs.items',
      'jobs.cancel',
      'jobs.resume',
      'jobs.export',
      'jobs.forget',
      'jobs.getCeiling',
      'jobs.setCeiling',
    ];
    const cutShort = ['ledger.cutShort', 'ledger.findCutShort', 'ledger.dismissCutShort'];
    const start = ['app.startup', 'app.startAgain'];
    const settings = ['settings.get', 'settings.set', 'settings.setSandboxPort', 'settings.openDataFolder'];
    const drift = ['drift.status', 'drift.check'];
    const overview = ['overview.figures', 'overview.activity', 'overview.firstRun', 'overview.markStep'];
    const renewals = ['renewals.weeks', 'renewals.getTemplate', 'renewals.setTemplate'];
    const customers = ['list', 'get', 'create', 'update', 'merge', 'remove', 'link', 'unlink', 'proposeLinks', 'setTemplate', 'export'];
    const lookups = ['import.start', 'import.customers', 'refresh.start', 'refresh.changes'];
    const facts = ['service.capabilities', 'service.checkCapabilities', 'keys.edit', 'keys.hwidHistory'];
    const later = [...settings, ...drift, ...overview, ...renewals, ...customers.map((n) => `customers.${n}`), ...lookups, ...facts];
    expect([...OPERATION_NAMES].sort()).toEqual([...DESIGN_TABLE, 'keys.export', ...jobs, ...cutShort, ...start, ...later].sort());
    for (const name of OPERATION_NAMES) expect(contract[name].trust.length, name).toBeGreaterThan(5);
  });

  it('every input schema refuses wrong-shaped values without throwing', () => {
    for (const name of OPERATION_NAMES) {
      fc.assert(
        fc.property(invalidInput, (value) => {
          expect(contract[name].input.safeParse(value).success, `${name} accepted ${JSON.stringify(value)}`).toBe(false);
        }),
        { numRuns: 200 },
      );
    }
  });

  it('applies the shared rules to generate, with the problem on the field', () => {
    const ok = generateInput.safeParse({ expire: '2027-01-31', count: 10, isPremium: false });
    expect(ok.success).toBe(true);
    const bad = generateInput.safeParse({ expire: '2027-02-29', count: 10, isPremium: false, expiresByDaysKey: true });
    // Both problems at once, so a form can show each beside its field.
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['expire', 'Date must be a real calendar date written YYYY-MM-DD.'],
      ['daysKey', 'Days is required when the key expires by days.'],
    ]);
    const noDays = generateInput.safeParse({ expire: '2027-01-31', count: 1, isPremium: false, expiresByDaysKey: true });
    expect(noDays.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['daysKey', 'Days is required when the key expires by days.'],
    ]);
  });
});
