// The audit log found by text: an operation's name or its words as Activity shows them, a target, a message,
// and every entry paged through.
import { describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { generatedKey, PROFILE } from '../support/ledger-model.ts';

describe('the audit log', () => {
  it('finds entries by operation name or target, and pages through all', () => {
    const db = new LocalDb(':memory:');
    for (let i = 0; i < 250; i++) {
      const action = i % 5 === 0 ? 'keys.generate' : 'keys.extend';
      db.audit({ profileId: PROFILE, profileName: 'Shop', action, target: `KEY-${i}`, outcome: 'ok', message: '' });
    }
    expect(db.listAudit({ text: 'generate' }, 0, 100).total).toBe(50);
    expect(db.listAudit({ text: 'generate' }, 0, 100).entries.every((e) => e.action === 'keys.generate')).toBe(true);
    expect(
      db
        .listAudit({ text: 'KEY-24' }, 0, 100)
        .entries.map((e) => e.target)
        .sort(),
    ).toEqual(['KEY-24', 'KEY-240', 'KEY-241', 'KEY-242', 'KEY-243', 'KEY-244', 'KEY-245', 'KEY-246', 'KEY-247', 'KEY-248', 'KEY-249']);
    const seen = new Set<number>();
    for (let offset = 0; offset < 250; offset += 100) for (const e of db.listAudit({}, offset, 100).entries) seen.add(e.id);
    expect(seen.size).toBe(250);
    db.close();
  });
});

describe('the audit log found by the words Activity shows', () => {
  it('finds an operation by the words of its Operation column', () => {
    const db = new LocalDb(':memory:');
    db.audit({ profileId: PROFILE, profileName: 'Shop', action: 'executions.push', target: 'execution count', outcome: 'ok', message: '' });
    db.audit({ profileId: PROFILE, profileName: 'Shop', action: 'keys.delete', target: 'KEY-1', outcome: 'ok', message: '' });
    db.audit({
      profileId: PROFILE,
      profileName: 'Shop',
      action: 'keys.delete',
      target: 'KEY-2',
      outcome: 'failed',
      message: 'The service refused',
    });
    db.audit({ profileId: PROFILE, profileName: 'Shop', action: 'keyless.delete', target: 'HW-1', outcome: 'ok', message: '' });
    db.audit({ profileId: PROFILE, profileName: 'Shop', action: 'keys.bulk', target: '3 keys', outcome: 'ok', message: '' });
    const actions = (text: string) =>
      db
        .listAudit({ text }, 0, 100)
        .entries.map((e) => e.action)
        .sort();
    expect(actions('Push an execution')).toEqual(['executions.push']);
    // A part of the words, as with targets and messages: "Delete a key" is also the start of "Delete a keyless entry".
    expect(actions('delete a key')).toEqual(['keyless.delete', 'keys.delete', 'keys.delete']);
    expect(actions('Delete a keyless entry')).toEqual(['keyless.delete']);
    expect(actions('Bulk action on keys')).toEqual(['keys.bulk']);
    expect(db.listAudit({ text: 'Delete a key', outcome: 'failed' }, 0, 100).total).toBe(1);
    expect(actions('KEY-2')).toEqual(['keys.delete']);
    expect(actions('refused')).toEqual(['keys.delete']);
    expect(actions('keys.delete')).toEqual(['keys.delete', 'keys.delete']);
    expect([...db.iterateAudit({ text: 'Push an execution' })].map((e) => e.action)).toEqual(['executions.push']);
    db.close();
  });
});

describe('the fields an act on one key changes', () => {
  it('reads them from the ledger, skipping a field marked not read back', () => {
    const db = new LocalDb(':memory:');
    db.recordKeys(PROFILE, [{ ...generatedKey('KD-1', 'launch'), hwid: 'HW-1', expiresAt: '2030-01-01T00:00:00.000Z', isPremium: true }]);
    const entry = { profileId: PROFILE, profileName: 'Shop', action: 'keys.delete', outcome: 'unknown', message: '' } as const;
    const before = ['note', 'isPremium', 'expiresAt', 'hwid'] as const;
    db.audit({ ...entry, target: 'KD-1', before });
    db.markStale(PROFILE, 'hwid', ['KD-1']);
    const stale = db.audit({ ...entry, target: 'KD-1', before });
    db.settleAudit(stale, 'ok', '', {});
    db.audit({ ...entry, target: 'KD-NEVER-READ', before });
    expect(db.listAudit({}, 0, 10).entries.map((e) => e.change)).toEqual([
      { before: {}, after: null },
      { before: { note: 'launch', isPremium: true, expiresAt: '2030-01-01T00:00:00.000Z' }, after: {} },
      { before: { note: 'launch', isPremium: true, expiresAt: '2030-01-01T00:00:00.000Z', hwid: 'HW-1' }, after: null },
    ]);
    db.close();
  });
});
