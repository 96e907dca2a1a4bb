// Checks the test tree against the naming rule: each it/test title states one behaviour in 12 words or fewer,
// and no test file is named after a review round. `node scripts/check-test-names.ts [dir]` prints offenders, exits 1.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const MAX_WORDS = 12;
const ROUND_WORDS = ['walk', 'review', 'polish', 'round'];
const TEST_FILE = /\.test\.tsx?$/;

export interface Offence {
  file: string;
  line: number;
  problem: string;
}

/** A word holds a letter or digit; dashes and other lone punctuation do not count, a `${…}` counts as one. */
export function countWords(title: string): number {
  return title.split(/\s+/).filter((token) => /[\p{L}\p{N}$%]/u.test(token)).length;
}

/** it(…), test(…), it.each(…)(…), it.skipIf(…)(…) and the like: the name of the call's root identifier. */
function testCallTitle(call: ts.CallExpression): ts.Expression | undefined {
  let callee: ts.Expression = call.expression;
  while (ts.isCallExpression(callee) || ts.isPropertyAccessExpression(callee)) {
    callee = ts.isCallExpression(callee) ? callee.expression : callee.expression;
  }
  if (!ts.isIdentifier(callee) || (callee.text !== 'it' && callee.text !== 'test')) return undefined;
  // Only the call that takes the title and body: `it.each(rows)` alone is the table, not the test.
  const inner = call.expression;
  if (ts.isPropertyAccessExpression(inner) && ['each', 'skipIf', 'runIf', 'for'].includes(inner.name.text)) return undefined;
  return call.arguments[0];
}

function titleText(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.map((span) => `\${} ${span.literal.text}`)].join(' ');
  }
  return undefined;
}

export function checkSource(file: string, source: string): Offence[] {
  const offences: Offence[] = [];
  const name = basename(file).toLowerCase();
  const round = ROUND_WORDS.find((word) => name.includes(word));
  if (round) offences.push({ file, line: 1, problem: `file name contains the review-round word "${round}"` });
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const titleNode = testCallTitle(node);
      const title = titleNode && titleText(titleNode);
      if (title !== undefined && countWords(title) > MAX_WORDS) {
        const line = sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        offences.push({ file, line, problem: `test name has ${countWords(title)} words: ${JSON.stringify(title)}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return offences;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && TEST_FILE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

export function checkTree(dir: string): Offence[] {
  return testFiles(dir).flatMap((file) => checkSource(relative(process.cwd(), file), readFileSync(file, 'utf8')));
}

if (import.meta.main) {
  const offences = checkTree(resolve(process.argv[2] ?? 'test'));
  for (const { file, line, problem } of offences) console.log(`${file}:${line}: ${problem}`);
  if (offences.length > 0) {
    console.log(`${offences.length} test names or file names break the rule (names ≤ ${MAX_WORDS} words, no review-round words).`);
    process.exitCode = 1;
  }
}
