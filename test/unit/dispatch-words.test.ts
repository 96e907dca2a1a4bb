// What dispatch says about bad input: the words a person reads, never a contract path ("keyValue: …",
// "filter.text: …"); the field it is about travels beside the message for a form to place it.
import { describe, expect, it, vi } from 'vitest';
import type { Handlers } from '../../src/main/handlers/types.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';

const handlers = Object.fromEntries(OPERATION_NAMES.map((n) => [n, vi.fn()])) as unknown as Handlers;

describe('dispatch: bad input in words', () => {
  it('gives a schema\'s own sentence without the path: "Key is required."', async () => {
    const r = await dispatch(handlers, 'keys.resetHwid', { keyValue: '' });
    expect(r).toEqual({ ok: false, code: 'INVALID_INPUT', message: 'Key is required.', field: 'keyValue' });
  });

  it("puts the form's label, not the path, before a generic sentence", async () => {
    const r = await dispatch(handlers, 'ledger.query', {
      filter: { text: 'x'.repeat(257) },
      sort: { field: 'createdAt', dir: 'desc' },
      offset: 0,
      limit: 100,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).not.toMatch(/filter\.text/);
    expect(r.message).toMatch(/^(Filter: )?[A-Z].*256 characters\.$/);
    expect(r.field).toBe('filter.text');
  });

  it('never lets a dotted or camelCase path reach the message', async () => {
    const r = await dispatch(handlers, 'keys.extend', { keyValue: 'K', days: -5 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).not.toMatch(/\b(keyValue|days)\s*:/);
    expect(r.field).toBe('days');
  });
});
