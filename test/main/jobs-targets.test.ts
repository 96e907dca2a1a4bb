// Which keys a bulk job sends to (known-deleted and, for a HWID reset, never-activated keys left out), and the
// ledger rows its answers update on a real-dialect service.
import { describe, expect, it } from 'vitest';
import { fakeService, LEDGER_KEY, rig } from '../support/job-engine.ts';

describe('extend and HWID reset on a real-dialect service', () => {
  it('updates ledger rows from the returned fields, leaving their status alone', async () => {
    const newExpiry = '2031-01-01T00:00:00.000Z';
    // The real service: extend answers the key without a status (its HWID was reset: none implied); reset
    // answers {message} alone.
    const fake = await fakeService((_key, _n, req, res) => {
      const body = req.url?.includes('reset')
        ? { message: 'HWID reset.' }
        : {
            message: 'Extended.',
            key: {
              id: 'id-E1',
              value: 'E1',
              note: 'n',
              hwid: null,
              expiresAt: newExpiry,
              isPremium: false,
              lastResetAt: null,
              serviceId: 'svc_1',
            },
          };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return 'handled';
    });
    const { db, jobs } = rig(fake);
    const row = (value: string): { status: string; expiresAt: string | null; hwid: string | null } | undefined =>
      db.queryLedger('p1', { text: value }, { field: 'value', dir: 'asc' }, 0, 1).rows[0];
    const base = { ...LEDGER_KEY, note: 'n' };
    db.recordKeys('p1', [
      { ...base, value: 'E1', status: 'active', hwid: null, expiresAt: '2030-01-01T00:00:00.000Z' },
      { ...base, value: 'R1', status: 'active', hwid: 'HW-1', expiresAt: '2030-01-01T00:00:00.000Z' },
      { ...base, value: 'R2', note: 'ÉLAN Ötzi', status: 'active', hwid: 'HW-2', expiresAt: '2030-01-01T00:00:00.000Z' },
    ]);
    const extended = await jobs.start('p1', { action: 'extend', target: { keyValues: ['E1'] }, days: 365 });
    if (!extended.ok) throw new Error(extended.message);
    await jobs.settled(extended.data.id);
    expect(row('E1')).toMatchObject({ status: 'active', expiresAt: newExpiry, hwid: null });

    const reset = await jobs.start('p1', { action: 'resetHwid', target: { keyValues: ['R1', 'R2'] } });
    if (!reset.ok) throw new Error(reset.message);
    await jobs.settled(reset.data.id);
    expect(row('R1')).toMatchObject({ status: 'active', hwid: null, expiresAt: '2030-01-01T00:00:00.000Z' });
    // The search text follows: the old HWID no longer finds the key.
    expect(db.queryLedger('p1', { text: 'hw-1' }, { field: 'value', dir: 'asc' }, 0, 1).total).toBe(0);
    // ... and is lower-cased as every other writer does it (JavaScript's rules, not SQLite's ASCII-only lower()):
    // a note with capitals beyond ASCII is still found by its lower-case words after the reset.
    expect(db.queryLedger('p1', { text: 'élan ötzi' }, { field: 'value', dir: 'asc' }, 0, 5).rows.map((r) => [r.value, r.hwid])).toEqual([
      ['R2', null],
    ]);
  });
});

describe('a job over every key a filter matches', () => {
  it('leaves out known-deleted keys unless the filter asks for deleted keys', async () => {
    const fake = await fakeService(() => 'ok');
    const { db, jobs } = rig(fake, { settle: true });
    db.recordKeys('p1', [
      { ...LEDGER_KEY, value: 'A1', status: 'active' },
      { ...LEDGER_KEY, value: 'G1', status: 'generated' },
      { ...LEDGER_KEY, value: 'D1', status: 'generated' },
    ]);
    db.markDeleted('p1', 'D1');
    const all = await jobs.start('p1', { action: 'delete', target: { filter: {} } });
    if (!all.ok) throw new Error(all.message);
    expect(all.data.total).toBe(2);
    await jobs.settled(all.data.id);
    expect([...fake.received].sort()).toEqual(['A1', 'G1']);
    // Asked for by name, deleted keys are what the user chose.
    const deleted = await jobs.start('p1', { action: 'delete', target: { filter: { status: 'deleted' } } });
    if (!deleted.ok) throw new Error(deleted.message);
    expect(deleted.data.total).toBe(3);
  });
});

describe('a bulk HWID reset', () => {
  it('sends only to keys not known as generated or deleted', async () => {
    const fake = await fakeService(() => 'ok');
    const { db, jobs } = rig(fake, { settle: true });
    db.recordKeys('p1', [
      { ...LEDGER_KEY, value: 'A1', status: 'active' },
      { ...LEDGER_KEY, value: 'A2', status: 'active' },
      { ...LEDGER_KEY, value: 'G1', status: 'generated' },
      { ...LEDGER_KEY, value: 'D1', status: 'active' },
    ]);
    db.markDeleted('p1', 'D1');
    // Picked keys: the ledger's generated and deleted ones stay out; one it does not hold is the service's to judge.
    const picked = await jobs.start('p1', { action: 'resetHwid', target: { keyValues: ['G1', 'A1', 'D1', 'UNSEEN'] } });
    if (!picked.ok) throw new Error(picked.message);
    expect(picked.data.total).toBe(2);
    await jobs.settled(picked.data.id);
    expect([...fake.received].sort()).toEqual(['A1', 'UNSEEN']);
    // All matching: the active ones only.
    const all = await jobs.start('p1', { action: 'resetHwid', target: { filter: {} } });
    if (!all.ok) throw new Error(all.message);
    expect(all.data.total).toBe(2);
    await jobs.settled(all.data.id);
    expect([...fake.received].sort()).toEqual(['A1', 'A1', 'A2', 'UNSEEN']);
    // None active: refused before anything is sent, saying why and what to do about a key activated since.
    for (const target of [{ keyValues: ['G1', 'D1'] }, { filter: { status: 'generated' as const } }]) {
      const none = await jobs.start('p1', { action: 'resetHwid', target });
      expect(none).toMatchObject({ ok: false, code: 'NOT_FOUND' });
      expect(none.ok ? '' : none.message).toMatch(/^None of these keys is active .*nothing was sent\. A key a customer activated since/);
    }
    expect(fake.received).toHaveLength(4);
  });
});
