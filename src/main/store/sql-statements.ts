// SQL text cut into its statements, as SQLite would run them one after another: so a migration can be run one
// statement at a time (and say which one it is at) without its text changing. node:sqlite runs a whole script
// (exec) or prepares its first statement only, and does not say where that statement ends.

/** Keywords that open a block a trigger body closes with END (a trigger's BEGIN, and CASE anywhere in it). */
const OPENS = new Set(['BEGIN', 'CASE']);

/**
 * The statements of `sql`, each with its text as written (no terminating semicolon, surrounding whitespace
 * trimmed); empty statements (a lone `;`, comments only) are left out. A semicolon ends a statement unless it is
 * in a string, a quoted name, a comment, or a CREATE TRIGGER's body (BEGIN … END, with any CASE … END inside).
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let words: string[] = [];
  let depth = 0;
  let i = 0;
  const finish = (end: number): void => {
    const text = sql.slice(start, end).trim();
    if (hasCode(text)) statements.push(text);
    start = end + 1;
    words = [];
    depth = 0;
  };
  while (i < sql.length) {
    const c = sql.charAt(i);
    if (c === "'" || c === '"' || c === '`') {
      // Quotes close at the next lone quote: a doubled one is the quote itself.
      i++;
      while (i < sql.length) {
        if (sql.charAt(i) === c) {
          if (sql.charAt(i + 1) === c) i += 2;
          else break;
        } else i++;
      }
      i++;
    } else if (c === '[') {
      i = indexOrEnd(sql, ']', i + 1) + 1;
    } else if (c === '-' && sql.charAt(i + 1) === '-') {
      i = indexOrEnd(sql, '\n', i + 2) + 1;
    } else if (c === '/' && sql.charAt(i + 1) === '*') {
      i = indexOrEnd(sql, '*/', i + 2) + 2;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql.charAt(j))) j++;
      const word = sql.slice(i, j).toUpperCase();
      words.push(word);
      if (isTrigger(words)) {
        if (OPENS.has(word)) depth++;
        else if (word === 'END' && depth > 0) depth--;
      }
      i = j;
    } else if (c === ';') {
      // In a trigger, only the semicolon after its body's END ends the statement.
      if (!isTrigger(words) || (depth === 0 && words.includes('BEGIN'))) finish(i);
      i++;
    } else {
      i++;
    }
  }
  finish(sql.length);
  return statements;
}

function indexOrEnd(sql: string, needle: string, from: number): number {
  const at = sql.indexOf(needle, from);
  return at === -1 ? sql.length : at;
}

/** CREATE [TEMP|TEMPORARY] TRIGGER: its body holds semicolons of its own. */
function isTrigger(words: readonly string[]): boolean {
  if (words[0] !== 'CREATE') return false;
  const next = words[1] === 'TEMP' || words[1] === 'TEMPORARY' ? words[2] : words[1];
  return next === 'TRIGGER';
}

/** Whether a piece of SQL holds anything but comments and whitespace. */
function hasCode(text: string): boolean {
  return (
    text
      .replace(/--[^\n]*(\n|$)/g, '')
      .replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
      .trim() !== ''
  );
}
