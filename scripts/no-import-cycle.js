// An ESLint rule against import cycles between the repo's own files, type-only imports included (import-x's
// no-cycle skips those). Imports are read with TypeScript's own scanner; each file is read once per lint run.
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Per file: its mtime and the files its relative imports name, with where each specifier stands. */
const scanned = new Map();

function scan(file, text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter((f) => f.fileName.startsWith('.'))
    .map((f) => ({ target: resolve(dirname(file), f.fileName), pos: f.pos, end: f.end }));
}

function importsOf(file) {
  if (!/\.[cm]?[jt]sx?$/.test(file)) return [];
  let mtime;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const known = scanned.get(file);
  if (known?.mtime === mtime) return known.imports;
  const imports = scan(file, readFileSync(file, 'utf8'));
  scanned.set(file, { mtime, imports });
  return imports;
}

/** The shortest way from `start` back to `home`, as the files on it; null when there is none. */
function pathBack(start, home) {
  const from = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const { target } of importsOf(file)) {
      if (target === home) {
        const path = [file];
        for (let f = from.get(file); f !== null; f = from.get(f)) path.unshift(f);
        return path;
      }
      if (!from.has(target)) {
        from.set(target, file);
        queue.push(target);
      }
    }
  }
  return null;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports (type-only ones too) that lead back to the importing file.' },
    schema: [],
    messages: { cycle: 'Import cycle: {{path}}.' },
  },
  create(context) {
    const file = context.physicalFilename;
    return {
      'Program:exit'() {
        const name = (f) => relative(context.cwd, f);
        for (const { target, pos, end } of scan(file, context.sourceCode.text)) {
          if (target === file) continue;
          const back = pathBack(target, file);
          if (!back) continue;
          const loc = { start: context.sourceCode.getLocFromIndex(pos), end: context.sourceCode.getLocFromIndex(end) };
          context.report({ loc, messageId: 'cycle', data: { path: [file, ...back, file].map(name).join(' → ') } });
        }
      },
    };
  },
};
