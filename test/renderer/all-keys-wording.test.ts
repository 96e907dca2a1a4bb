// All keys' words, without React: select all, the count line, the sort said, and a bulk reset's confirmation.
import { describe, expect, it } from 'vitest';
import {
  allDeletedWords,
  confirmBody,
  confirmTitle,
  countLine,
  knownOf,
  selectAllWords,
  sortWords,
} from '../../src/renderer/src/views/AllKeys/wording.ts';
import { ledgerRow } from '../support/fake-bridge.ts';

const line = { failed: false, loading: false, count: 0, capped: false, filtered: false, stale: null };

describe('select all', () => {
  it('names one key in the singular and the deleted keys left out', () => {
    expect(selectAllWords(1, false, null)).toMatchObject({
      canSelectAll: true,
      button: 'Select the 1 key',
      offer: 'Select the 1 matching key',
    });
    expect(selectAllWords(5, false, { count: 3, capped: false })).toMatchObject({
      button: 'Select all 3 (2 deleted left out)',
      offer: 'Select all 3 matching (2 deleted left out)',
    });
  });
  it('offers none when every match is deleted, and says why', () => {
    expect(selectAllWords(4, false, { count: 0, capped: false })).toMatchObject({ canSelectAll: false, allDeleted: true });
    expect(allDeletedWords(4, false)).toBe('all 4 matching keys are deleted');
    expect(allDeletedWords(1, false)).toBe('the matching key is deleted');
  });
});

describe('the count line', () => {
  it('says loading, nothing matching, or the count past the cap', () => {
    expect(countLine({ ...line, loading: true })).toBe('Loading…');
    expect(countLine({ ...line, filtered: true })).toBe('No key matches these filters.');
    expect(countLine({ ...line, count: 200, capped: true })).toBe('More than 200 keys match');
  });
  it('says the rows shown are another order’s when the new one failed', () => {
    expect(countLine({ ...line, failed: true, count: 3, stale: { sameFilter: true, sameQuery: false } })).toBe(
      'Still showing the earlier results (3 keys), not this order.',
    );
  });
});

describe('sort and confirmation', () => {
  it('says the sort in words', () => {
    expect(sortWords({ field: 'createdAt', dir: 'desc' })).toBe('Sorted by Created, newest first.');
  });
  it('counts the active keys a reset reaches from the rows loaded', () => {
    const pages = new Map([[0, [ledgerRow('A', { status: 'active' }), ledgerRow('B')]]]);
    const known = knownOf(new Set(['A', 'B']), pages);
    expect(known).toEqual({ active: 1, bound: 0, of: 2 });
    expect(confirmTitle({ action: 'resetHwid' }, '2 keys')).toBe('Reset the HWID of 2 keys?');
    expect(confirmBody({ action: 'resetHwid' }, known, false)).toMatch(/^1 of the 2 keys is active \(0 bound to a machine now\)/);
  });
});
