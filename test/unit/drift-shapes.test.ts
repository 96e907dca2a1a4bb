// Answer shapes for the drift watch: field paths and types, never values; null matches any type; what a missing
// documented field stops Keydesk reading.
import { describe, expect, it } from 'vitest';
import { diffShapes, shapeOf, unreadable } from '../../src/main/drift/shapes.ts';

describe('answer shapes', () => {
  it('names every field path with its type, merging list elements', () => {
    expect(shapeOf({ key: { value: 'K', hwid: null }, keys: [{ value: 'A' }, { value: 'B', extra: 1 }], total: 2 })).toEqual({
      key: 'object',
      'key.value': 'string',
      'key.hwid': 'null',
      keys: 'array',
      'keys[].value': 'string',
      'keys[].extra': 'number',
      total: 'number',
    });
  });

  it('reports fields gained, lost and retyped, but not a value turning null', () => {
    const before = shapeOf({ executionCount: 3, key: { hwid: 'H', note: 'n' } });
    expect(diffShapes(before, shapeOf({ executionCount: 3, key: { hwid: null, note: 'n' } }))).toEqual({
      gained: [],
      lost: [],
      retyped: [],
    });
    expect(diffShapes(before, shapeOf({ executionCount: '3', key: { hwId: 'H', note: 'n' } }))).toEqual({
      gained: ['key.hwId'],
      lost: ['key.hwid'],
      retyped: ['executionCount: number → string'],
    });
  });

  it('says what Keydesk can no longer read when a documented field goes', () => {
    expect(unreadable('executionCount', shapeOf({ count: 3 }))).toEqual(['the execution count (executionCount)']);
    expect(unreadable('identifierCheck', shapeOf({ message: 'm', service: null }))).toEqual([]);
    expect(
      unreadable('keyLookup', shapeOf({ key: { value: 'K', hwid: 'H', expiresAt: null, isPremium: false, note: '', lastResetAt: null } })),
    ).toEqual([]);
  });
});
