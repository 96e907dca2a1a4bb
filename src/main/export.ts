// CSV and JSON writers for exports. CSV cells that a spreadsheet would run as a formula are neutralised, and a CSV
// starts with a UTF-8 byte order mark so that spreadsheets read its text as UTF-8.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

// A tab, carriage return or line feed; or a formula start, ASCII or full-width, maybe after spaces.
const FORMULA = /^(?:[\t\r\n]|\s*[=+\-@＝＋－＠])/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  if (FORMULA.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Streams rows to `path` as CSV (with a header) or a JSON array; `names` renames misleading columns. Returns rows written. */
export async function writeExport<T extends object>(
  path: string,
  format: 'csv' | 'json',
  columns: readonly (keyof T & string)[],
  rows: Iterable<T>,
  names: Partial<Record<keyof T & string, string>> = {},
): Promise<number> {
  const renamed = Object.keys(names).length > 0;
  const named = (row: T): unknown => {
    if (!renamed) return row;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) out[(names as Record<string, string | undefined>)[k] ?? k] = v;
    return out;
  };
  const out = createWriteStream(path, { encoding: 'utf8', mode: 0o600 });
  const write = async (chunk: string): Promise<void> => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  let n = 0;
  if (format === 'csv') {
    await write(`\uFEFF${columns.map((c) => names[c] ?? c).join(',')}\n`);
    for (const row of rows) {
      await write(`${columns.map((c) => csvCell(row[c])).join(',')}\n`);
      n++;
    }
  } else {
    await write('[');
    for (const row of rows) {
      await write(`${n === 0 ? '\n' : ',\n'}${JSON.stringify(named(row))}`);
      n++;
    }
    await write(n === 0 ? ']\n' : '\n]\n');
  }
  out.end();
  await once(out, 'finish');
  return n;
}
