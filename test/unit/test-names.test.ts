// The test tree keeps its naming rule (scripts/check-test-names.ts): names of 12 words or fewer, no round-named files.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSource, checkTree, countWords } from '../../scripts/check-test-names.ts';

const THIRTEEN = 'one two three four five six seven eight nine ten eleven twelve thirteen';

describe('check-test-names', () => {
  it('counts words, not dashes or other lone punctuation', () => {
    expect(countWords('says why — once, beside the field')).toBe(6);
  });

  it('refuses an it or test name over 12 words', () => {
    const source = `it('${THIRTEEN}', () => {});\ntest.skipIf(true)('${THIRTEEN}', () => {});`;
    expect(checkSource('a.test.ts', source).map((o) => o.line)).toEqual([1, 2]);
  });

  it('counts each template placeholder as a word', () => {
    expect(checkSource('a.test.ts', 'it(`one two three four five six seven eight nine ten ${x} twelve`, f);')).toEqual([]);
    expect(checkSource('a.test.ts', 'it(`one two three four five six seven eight nine ten ${x} ${y} 13`, f);')).toHaveLength(1);
  });

  it('leaves describe titles and it.each tables alone', () => {
    expect(checkSource('a.test.ts', `describe('${THIRTEEN}', () => { it.each([1])('%s twelve words at most', () => {}); });`)).toEqual([]);
  });

  it('refuses a file named after a review round', () => {
    expect(checkSource('test/components/walk-focus.test.tsx', '').map((o) => o.problem)).toEqual([
      'file name contains the review-round word "walk"',
    ]);
  });

  it('finds nothing to refuse in the test tree', () => {
    expect(checkTree(resolve(import.meta.dirname, '..')).map((o) => `${o.file}:${String(o.line)}: ${o.problem}`)).toEqual([]);
  });
});
