// The docs' size and sentence rules (scripts/check-docs.ts): the repository holds to them, and each breach is caught.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocs, readDocs } from '../../scripts/check-docs.ts';

const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${String(i)}`).join(' ');
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `Line ${String(i)}.`).join('\n');

describe('check-docs', () => {
  it('finds no breach in README.md and docs/', () => {
    const files = readDocs(resolve(import.meta.dirname, '../..'));
    expect(files.map((f) => f.path)).toContain('README.md');
    expect(files.some((f) => f.path.startsWith('docs/guide/'))).toBe(true);
    expect(checkDocs(files)).toEqual([]);
  });

  it('reports a README over 150 lines and a docs page over 300', () => {
    expect(checkDocs([{ path: 'README.md', text: lines(150) }])).toEqual([]);
    expect(checkDocs([{ path: 'README.md', text: lines(151) }])).toEqual(['README.md: 151 lines, more than 150']);
    expect(checkDocs([{ path: 'docs/a.md', text: `${lines(300)}\n` }])).toEqual([]);
    expect(checkDocs([{ path: 'docs/a.md', text: lines(301) }])).toEqual(['docs/a.md: 301 lines, more than 300']);
  });

  it('refuses a prose sentence over 25 words, naming its line', () => {
    const text = `# Title\n\n${words(25)}. ${words(3)}.\n\n- ${words(10)}\n  ${words(16)}.\n`;
    expect(checkDocs([{ path: 'docs/a.md', text }])).toEqual(['docs/a.md:5: a sentence of 26 words: "w0 w1 w2 w3 w4 w5 w6 w7 …"']);
  });

  it('skips code blocks, tables and headings, and counts a code span once', () => {
    const long = words(40);
    const text = `# ${long}\n\n\`\`\`sh\n${long}\n\`\`\`\n\n| ${long} |\n|---|\n\n${words(24)} \`${long}\`.\n`;
    expect(checkDocs([{ path: 'docs/a.md', text }])).toEqual([]);
  });
});
