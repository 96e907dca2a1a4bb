// Reads a file of keys for an import (CSV, TSV, TXT one key per line, or JSON): finds the key column by its header
// or by the shape of its values, and says per row why a row is left out. Pure: the renderer's preview and tests.
import type { CustomerFields } from './customers.ts';
import { charLength, LIMITS } from './rules.ts';

/** A file past this is refused before it is read whole. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** The most keys one import looks up: the bench's size, and the most one job's target list holds. */
export const IMPORT_MAX_KEYS = LIMITS.countMax;

export type ImportFormat = 'csv' | 'tsv' | 'txt' | 'json';
export const CUSTOMER_FIELDS = ['name', 'email', 'discord', 'reference', 'note'] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** A row to import: its key and the customer fields it carries. `row`: 1-based line (or JSON item) it came from. */
export type ImportRow = { row: number; value: string } & Partial<Record<CustomerField, string>>;
export interface ImportProblem {
  row: number;
  value: string;
  reason: string;
}
export interface ImportPreview {
  format: ImportFormat;
  /** The key column as the file names it ("License"), or "column 2" when found by shape; null for TXT. */
  keyColumn: string | null;
  /** The customer fields some row carries. */
  fields: CustomerField[];
  /** Rows read (blank lines aside). */
  read: number;
  /** Rows to import: unique, well formed. */
  rows: ImportRow[];
  duplicates: ImportProblem[];
  malformed: ImportProblem[];
}
export type ImportParse = { ok: true; preview: ImportPreview } | { ok: false; message: string };

/** The template offered to fill in: the headers an import reads. */
export const IMPORT_TEMPLATE = 'key,name,email,discord,reference,note\r\n';

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Why a file of `bytes` is refused before reading it, or null. */
export function importSizeProblem(bytes: number): string | null {
  if (bytes > IMPORT_MAX_BYTES) return `The file is ${mb(bytes)}; an import reads at most 50 MB. Split it into smaller files.`;
  if (bytes === 0) return 'The file is empty.';
  return null;
}

/** The file's text, or why it is not text (a NUL byte, or bytes that are not UTF-8). */
export function decodeImport(bytes: Uint8Array): { ok: true; text: string } | { ok: false; message: string } {
  const notText = { ok: false as const, message: 'The file is not text: an import reads CSV, TSV, TXT or JSON saved as UTF-8.' };
  if (bytes.includes(0)) return notText;
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return notText;
  }
}

/** Header words per column, compared lower-case with spaces, dashes and underscores removed. */
const HEADERS: Record<'key' | CustomerField, readonly string[]> = {
  key: ['key', 'keys', 'keyvalue', 'value', 'license', 'licence', 'licensekey', 'licencekey', 'serial', 'serialkey', 'code'],
  name: ['name', 'customer', 'customername', 'username', 'user', 'buyer', 'fullname'],
  email: ['email', 'mail', 'emailaddress', 'customeremail'],
  discord: ['discord', 'discordid', 'discorduserid', 'userid', 'discorduser'],
  reference: ['reference', 'ref', 'order', 'orderid', 'ordernumber', 'orderref', 'invoice', 'transaction', 'transactionid'],
  note: ['note', 'notes', 'comment', 'comments', 'memo'],
};
const headerOf = (cell: string): 'key' | CustomerField | null => {
  const word = cell.toLowerCase().replace(/[\s_.-]/g, '');
  for (const [field, words] of Object.entries(HEADERS)) if (words.includes(word)) return field as 'key' | CustomerField;
  return null;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DISCORD_ID = /^\d{17,20}$/;
// Whitespace or a control character inside a key: a cell that is not a key (or two keys run together).
// eslint-disable-next-line no-control-regex
const NOT_IN_KEY = /[\s\u0000-\u001f\u007f]/;

/** Why `value` is not a key, or null. */
export function keyProblem(value: string): string | null {
  if (value === '') return 'No key in this row.';
  if (charLength(value) > LIMITS.textMaxChars) return `The key is longer than ${LIMITS.textMaxChars} characters.`;
  if (NOT_IN_KEY.test(value)) return 'The key contains a space or a control character.';
  return null;
}

/** Whether a cell looks like a key, for finding the key column of a file without headers. */
function keyShaped(cell: string): boolean {
  return cell.length >= 8 && keyProblem(cell) === null && !EMAIL.test(cell) && !DISCORD_ID.test(cell) && /\d/.test(cell);
}

const FIELD_LIMIT: Record<CustomerField, number> = {
  name: LIMITS.textMaxChars,
  email: LIMITS.textMaxChars,
  discord: LIMITS.textMaxChars,
  reference: LIMITS.textMaxChars,
  note: LIMITS.noteMaxChars,
};

/** Why a customer field's value is refused, or null. */
function fieldProblem(field: CustomerField, value: string): string | null {
  if (charLength(value) > FIELD_LIMIT[field])
    return `The ${field} is longer than ${FIELD_LIMIT[field].toLocaleString('en-US')} characters.`;
  if (field === 'email' && !EMAIL.test(value)) return `The email "${value.slice(0, 60)}" is not an email address.`;
  if (field === 'discord' && !DISCORD_ID.test(value)) return 'The Discord ID must be 17 to 20 digits.';
  return null;
}

/** Rows of cells from CSV or TSV (RFC 4180 quoting), each with the line it starts on; blank lines left out. */
export function splitDelimited(text: string, delimiter: ',' | '\t'): { row: number; cells: string[] }[] {
  const rows: { row: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRow = (): void => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]?.trim() !== '') rows.push({ row: start, cells });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      start = line;
    } else cell += c;
  }
  if (cell !== '' || cells.length > 0) endRow();
  return rows;
}

function formatOf(text: string, fileName: string): ImportFormat {
  const ext = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'csv' || ext === 'tsv' || ext === 'txt' || ext === 'json') return ext;
  const head = text.trimStart();
  if (head.startsWith('[') || head.startsWith('{')) return 'json';
  const first = head.split(/\r?\n/, 1)[0] ?? '';
  return first.includes('\t') ? 'tsv' : first.includes(',') ? 'csv' : 'txt';
}

/** A table's rows read into import rows: columns by header, else the key column by shape. */
function fromTable(table: { row: number; cells: string[] }[], format: ImportFormat): ImportParse {
  const first = table[0];
  if (!first) return { ok: false, message: 'The file holds no keys.' };
  const named = first.cells.map((c) => headerOf(c.trim()));
  const hasHeader = named.some((h) => h !== null);
  const body = hasHeader ? table.slice(1) : table;
  let keyAt = named.indexOf('key');
  let keyColumn = keyAt >= 0 ? (first.cells[keyAt]?.trim() ?? null) : null;
  if (keyAt < 0) {
    // No column named as keys: the column whose cells look like keys, among those not named as something else.
    const width = Math.max(...body.slice(0, 200).map((r) => r.cells.length), 0);
    let best = 0;
    for (let c = 0; c < width; c++) {
      if (named[c]) continue;
      const sample = body.slice(0, 200).map((r) => (r.cells[c] ?? '').trim());
      const score = sample.filter(keyShaped).length / Math.max(1, sample.filter((v) => v !== '').length);
      if (score >= 0.5 && score > best) {
        best = score;
        keyAt = c;
      }
    }
    if (keyAt < 0)
      return {
        ok: false,
        message: hasHeader
          ? `No key column found: the headers are ${first.cells.map((c) => `"${c.trim()}"`).join(', ')}. Name the key column "key".`
          : 'No key column found: no column holds values shaped like keys. Add a header row with a "key" column.',
      };
    keyColumn = hasHeader ? (first.cells[keyAt]?.trim() ?? null) : `column ${keyAt + 1}`;
  }
  const columns: [CustomerField, number][] = [];
  named.forEach((h, i) => {
    if (h !== null && h !== 'key' && !columns.some(([f]) => f === h)) columns.push([h, i]);
  });
  return collect(
    body.map((r) => ({
      row: r.row,
      value: (r.cells[keyAt] ?? '').trim(),
      fields: Object.fromEntries(columns.map(([f, i]) => [f, (r.cells[i] ?? '').trim()])),
    })),
    format,
    keyColumn,
  );
}

/** JSON: an array of keys, or of objects with a key field, or an object holding such an array (`keys`). */
function fromJson(text: string): ImportParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The file is not valid JSON.' };
  }
  if (!Array.isArray(data) && typeof data === 'object' && data !== null) {
    const list = Object.values(data).find(Array.isArray);
    if (list) data = list;
  }
  if (!Array.isArray(data)) return { ok: false, message: 'No key column found: the JSON holds no list of keys.' };
  const items = data as unknown[];
  const objects = items.some((v) => typeof v === 'object' && v !== null);
  let keyField: string | null = null;
  if (objects) {
    const names = new Set(items.flatMap((v) => (typeof v === 'object' && v !== null ? Object.keys(v) : [])));
    keyField = [...names].find((n) => headerOf(n) === 'key') ?? null;
    if (keyField === null)
      return {
        ok: false,
        message: `No key column found: the objects' fields are ${[...names].slice(0, 8).join(', ')}. Name the key field "key".`,
      };
  }
  const fieldNames = new Map<CustomerField, string>();
  if (objects)
    for (const v of items)
      if (typeof v === 'object' && v !== null)
        for (const n of Object.keys(v)) {
          const h = headerOf(n);
          if (h !== null && h !== 'key' && !fieldNames.has(h)) fieldNames.set(h, n);
        }
  const text_ = (v: unknown): string | null => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : null);
  const rows = items.map((v, i) => {
    const record = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null;
    const raw = record && keyField !== null ? record[keyField] : v;
    const value = typeof raw === 'string' ? raw.trim() : null;
    const fields = Object.fromEntries([...fieldNames].map(([f, n]) => [f, text_(record?.[n]) ?? '']));
    return { row: i + 1, value, fields };
  });
  return collect(rows, 'json', keyField);
}

/** The rows checked: well formed and first seen are kept, the others each with a reason. */
function collect(
  raw: { row: number; value: string | null; fields: Record<string, string> }[],
  format: ImportFormat,
  keyColumn: string | null,
): ImportParse {
  const seen = new Map<string, number>();
  const rows: ImportRow[] = [];
  const duplicates: ImportProblem[] = [];
  const malformed: ImportProblem[] = [];
  const fields = new Set<CustomerField>();
  for (const r of raw) {
    if (r.value === null) {
      malformed.push({ row: r.row, value: '', reason: 'The key is not text.' });
      continue;
    }
    const problem =
      keyProblem(r.value) ??
      CUSTOMER_FIELDS.map((f) => (r.fields[f] ? fieldProblem(f, r.fields[f]) : null)).find((p) => p !== null) ??
      null;
    if (problem !== null) {
      malformed.push({ row: r.row, value: r.value.slice(0, LIMITS.textMaxChars), reason: problem });
      continue;
    }
    const earlier = seen.get(r.value);
    if (earlier !== undefined) {
      duplicates.push({ row: r.row, value: r.value, reason: `The same key as row ${earlier.toLocaleString('en-US')}.` });
      continue;
    }
    seen.set(r.value, r.row);
    const row: ImportRow = { row: r.row, value: r.value };
    for (const f of CUSTOMER_FIELDS) {
      const v = r.fields[f];
      if (v) {
        row[f] = v;
        fields.add(f);
      }
    }
    rows.push(row);
  }
  if (rows.length > IMPORT_MAX_KEYS)
    return {
      ok: false,
      message: `The file holds ${rows.length.toLocaleString('en-US')} keys; one import looks up at most ${IMPORT_MAX_KEYS.toLocaleString('en-US')}. Split it into smaller files.`,
    };
  if (raw.length === 0) return { ok: false, message: 'The file holds no keys.' };
  return {
    ok: true,
    preview: { format, keyColumn, fields: CUSTOMER_FIELDS.filter((f) => fields.has(f)), read: raw.length, rows, duplicates, malformed },
  };
}

/** Reads an import's text; `fileName` ("keys.csv", or "" for pasted text) hints at the format. */
export function parseImport(text: string, fileName = ''): ImportParse {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, message: 'The file holds no keys.' };
  const format = formatOf(body, fileName);
  if (format === 'json') return fromJson(body);
  if (format === 'txt') {
    const table = body
      .split(/\r\n|\n|\r/)
      .map((line, i) => ({ row: i + 1, cells: [line] }))
      .filter((r) => r.cells[0]?.trim() !== '');
    // A TXT file is keys alone; a first line naming the column ("key") is a header.
    const header = table[0] && headerOf(table[0].cells[0]?.trim() ?? '') === 'key';
    return collect(
      (header ? table.slice(1) : table).map((r) => ({ row: r.row, value: r.cells[0]?.trim() ?? '', fields: {} })),
      'txt',
      null,
    );
  }
  return fromTable(splitDelimited(body, format === 'tsv' ? '\t' : ','), format);
}

/**
 * The customers an import's rows name, each with its keys: rows with the same Discord ID, else email, else name (any
 * case) are one customer (the store then finds an existing one the same way). Rows naming no customer link nothing.
 */
export function importLinks(rows: readonly Omit<ImportRow, 'row'>[]): { fields: CustomerFields; values: string[] }[] {
  const groups = new Map<string, { fields: CustomerFields; values: string[] }>();
  for (const r of rows) {
    const identity = r.discord
      ? `d:${r.discord}`
      : r.email
        ? `e:${r.email.toLowerCase()}`
        : r.name?.trim()
          ? `n:${r.name.trim().toLowerCase()}`
          : null;
    if (identity === null && !r.reference) continue;
    const key = identity ?? `r:${r.reference ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        fields: {
          name: (r.name ?? r.email ?? r.discord ?? r.reference ?? '').trim(),
          email: r.email ?? '',
          discordId: r.discord ?? '',
          reference: r.reference ?? '',
          tags: [],
          note: r.note ?? '',
        },
        values: [],
      };
      groups.set(key, group);
    }
    group.values.push(r.value);
  }
  return [...groups.values()];
}
