// `node scripts/check-docs.ts`: holds README.md and docs/ to their size and sentence rules, printing each breach.
// A sentence is prose only: code blocks, tables, headings and HTML lines are not read; a code span is one word.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const README_MAX_LINES = 150;
export const PAGE_MAX_LINES = 300;
export const SENTENCE_MAX_WORDS = 25;

export interface DocFile {
  /** Relative to the repository, with forward slashes: `README.md`, `docs/guide/keys.md`. */
  path: string;
  text: string;
}

/** README.md and every Markdown file under docs/, read from the repository at `root`. */
export function readDocs(root: string): DocFile[] {
  const files: DocFile[] = [{ path: 'README.md', text: readFileSync(join(root, 'README.md'), 'utf8') }];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md'))
        files.push({ path: relative(root, full).split('\\').join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(join(root, 'docs'));
  return files;
}

/** The prose paragraphs of a Markdown text, each with the line it starts on; a list item starts a paragraph. */
export function proseParagraphs(text: string): { line: number; text: string }[] {
  const paragraphs: { line: number; text: string }[] = [];
  let current: { line: number; parts: string[] } | null = null;
  let fence: string | null = null;
  const end = () => {
    if (current) paragraphs.push({ line: current.line, text: current.parts.join(' ') });
    current = null;
  };
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    const opens = /^(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (opens && line.startsWith(fence)) fence = null;
      return;
    }
    if (opens) {
      end();
      fence = opens[1] ?? '```';
      return;
    }
    if (line === '' || line.startsWith('#') || line.startsWith('|') || line.startsWith('<') || /^!\[[^\]]*\]\([^)]*\)$/.test(line)) {
      end();
      return;
    }
    const item = /^([-*+]|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      end();
      current = { line: i + 1, parts: [item[2] ?? ''] };
      return;
    }
    const body = line.replace(/^>\s?/, '');
    if (current) current.parts.push(body);
    else current = { line: i + 1, parts: [body] };
  });
  end();
  return paragraphs;
}

/** A paragraph's sentences as plain words: a code span is one word, a link its text, emphasis marks dropped. */
export function sentences(paragraph: string): string[][] {
  const plain = paragraph
    .replace(/`[^`]*`/g, 'CODE')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_]{1,2}/g, '');
  return plain
    .split(/(?<=[.!?])["')\]]*\s+/)
    .map((s) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)))
    .filter((words) => words.length > 0);
}

/** Every breach of the rules, as `path:line: what` lines; none when the docs hold to them. */
export function checkDocs(files: readonly DocFile[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const lines = file.text.replace(/\n$/, '').split('\n').length;
    const max = file.path === 'README.md' ? README_MAX_LINES : PAGE_MAX_LINES;
    if (lines > max) problems.push(`${file.path}: ${lines} lines, more than ${max}`);
    for (const paragraph of proseParagraphs(file.text)) {
      for (const words of sentences(paragraph.text)) {
        if (words.length > SENTENCE_MAX_WORDS) {
          problems.push(`${file.path}:${paragraph.line}: a sentence of ${words.length} words: "${words.slice(0, 8).join(' ')} …"`);
        }
      }
    }
  }
  return problems;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkDocs(readDocs(resolve(import.meta.dirname, '..')));
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.exit(problems.length === 0 ? 0 : 1);
}
