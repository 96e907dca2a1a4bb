// Reading a generate answer's body into a KeyBatch without holding its keys whole (the ledger writer's thread
// runs this). JSON.parse of a 100,000-key answer makes about 1.5 million values that all live at once (~60 MiB
// of heap in the thread that reads it); here the `generatedKeys` list is read one key at a time, each parsed (or,
// when it is the first key but for its value and id, read from its text), read as the client reads keys (read.ts)
// and added to the batch, so each dies young. The result is exactly what JSON.parse and readKeys give: anything
// this reader does not expect falls back to them.
import { KeyBatchBuilder, type KeyColumns } from '../../shared/key-batch.ts';
import type { Key } from '../../shared/domain.ts';
import { isObject, readKey, readKeys, sharedStrings } from '../client/read.ts';

/** The body without `generatedKeys`, and those keys as batch columns (null: the body had no list of them). */
export interface GenerateAnswer {
  body: unknown;
  batch: KeyColumns | null;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Just past the string that starts at `i` (a quote), or -1 when it does not end. */
function stringEnd(text: string, i: number): number {
  let q = text.indexOf('"', i + 1);
  while (q >= 0) {
    // A quote after an odd number of backslashes is part of the string.
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return q + 1;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

/** The next quote or bracket: the only characters that matter for finding where a value ends. */
const STRUCTURE = /["[\]{}]/g;

/**
 * Just past the value that starts at `i`, found by its brackets and strings only (JSON.parse of the span checks
 * it); -1 when it does not end.
 */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === 0x22) return stringEnd(text, i);
  if (first !== 0x7b && first !== 0x5b) {
    // A number, true, false or null: up to the next separator.
    let j = i;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c === 0x2c || c === 0x5d || c === 0x7d || isSpace(c)) break;
      j++;
    }
    return j;
  }
  let depth = 0;
  STRUCTURE.lastIndex = i;
  for (let m = STRUCTURE.exec(text); m !== null; m = STRUCTURE.exec(text)) {
    const c = text.charCodeAt(m.index);
    if (c === 0x22) {
      const end = stringEnd(text, m.index);
      if (end < 0) return -1;
      STRUCTURE.lastIndex = end;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else {
      depth--;
      if (depth === 0) return m.index + 1;
    }
  }
  return -1;
}

/**
 * A key's text cut around its value string (and its id's, when it has one): every key of a generate answer but the
 * first is matched against it, and one that matches is the first key with another value and id, read with no parse.
 */
interface KeyShape {
  /** The text around the strings: one part more than there are strings. */
  parts: string[];
  /** Which string is the value's (the other is the id's). */
  valueAt: number;
  /** The first key as readKey read it. */
  key: Key;
}

/**
 * The first key's shape, when its top-level members hold one `value` and at most one `id`, both strings, and no
 * `_id` (readKey's other name for an id); else null.
 */
function shapeOf(text: string, start: number, end: number, key: Key): KeyShape | null {
  const strings: { name: string; from: number; to: number }[] = [];
  let i = skipSpace(text, start + 1);
  while (i < end && text.charCodeAt(i) === 0x22) {
    const nameEnd = stringEnd(text, i);
    if (nameEnd < 0) return null;
    const name: unknown = JSON.parse(text.slice(i, nameEnd));
    i = skipSpace(text, skipSpace(text, nameEnd) + 1);
    const at = valueEnd(text, i);
    if (at <= i || name === '_id') return null;
    if (name === 'id' || name === 'value') {
      if (strings.some((s) => s.name === name) || text.charCodeAt(i) !== 0x22) return null;
      strings.push({ name, from: i + 1, to: at - 1 });
    }
    i = skipSpace(text, at);
    if (text.charCodeAt(i) === 0x2c) i = skipSpace(text, i + 1);
  }
  const valueAt = strings.findIndex((s) => s.name === 'value');
  if (valueAt < 0) return null;
  const parts = strings.map((s, j) => text.slice(j === 0 ? start : (strings[j - 1]?.to ?? start), s.from));
  parts.push(text.slice(strings.at(-1)?.to ?? start, end));
  return { parts, valueAt, key };
}

/** Just past the plain string from `i` (no escape, no control character: its text is its value), or -1. */
function plainStringEnd(text: string, i: number): number {
  const quote = text.indexOf('"', i);
  if (quote < 0) return -1;
  for (let j = i; j < quote; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c || c < 0x20) return -1;
  }
  return quote;
}

/** The key at `i` when it is the shape's key with another value (and id), and where its text ends; else null. */
function matchShape(text: string, i: number, shape: KeyShape): { key: Key; end: number } | null {
  const { parts } = shape;
  let at = i;
  const strings: string[] = [];
  for (let j = 0; j < parts.length; j++) {
    if (!text.startsWith(parts[j] ?? '', at)) return null;
    at += parts[j]?.length ?? 0;
    if (j === parts.length - 1) break;
    const to = plainStringEnd(text, at);
    if (to < 0) return null;
    // A copy: a slice would keep the whole body alive as long as the batch holds the key.
    strings.push(` ${text.slice(at, to)}`.slice(1));
    at = to;
  }
  const value = strings[shape.valueAt] ?? '';
  const key = strings.length === 1 ? { ...shape.key, value } : { ...shape.key, value, id: strings[1 - shape.valueAt] ?? '' };
  return { key, end: at };
}

/** Keys parsed together: one JSON.parse per group, each group's objects dead before the next is read. */
const GROUP = 500;
/** About this many characters of keys per group when groups are cut without reading each key's extent. */
const GROUP_CHARS = 256 * 1024;

/** The fast path: an object with one top-level `generatedKeys` list; null for anything else. */
function readByKey(text: string): GenerateAnswer | null {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 0x7b) return null;
  i = skipSpace(text, i + 1);
  let list: { start: number; end: number; batch: KeyColumns } | null = null;
  while (text.charCodeAt(i) === 0x22) {
    const nameEnd = stringEnd(text, i);
    if (nameEnd < 0) return null;
    const name: unknown = JSON.parse(text.slice(i, nameEnd));
    i = skipSpace(text, nameEnd);
    if (text.charCodeAt(i) !== 0x3a) return null;
    i = skipSpace(text, i + 1);
    if (name === 'generatedKeys') {
      // A second member of that name (JSON.parse keeps the last, list or not), or one that is not a list, is
      // left to the plain path.
      if (list !== null || text.charCodeAt(i) !== 0x5b) return null;
      const start = i;
      const builder = new KeyBatchBuilder();
      const shared = sharedStrings();
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) === 0x7b) {
        // The first key parsed; each next one that has its shape is read from its text, up to the first that has not.
        const end = valueEnd(text, i);
        const key = end > i ? readKey(JSON.parse(text.slice(i, end)), 'generated', shared) : null;
        const shape = key && shapeOf(text, i, end, key);
        if (key !== null && shape !== null) {
          builder.add(key);
          let next = skipSpace(text, end);
          while (text.charCodeAt(next) === 0x2c) {
            const m = matchShape(text, skipSpace(text, next + 1), shape);
            if (m === null) break;
            builder.add(m.key);
            next = skipSpace(text, m.end);
          }
          // At the list's end, or at a separator before a key of another shape: the rest is read below.
          if (text.charCodeAt(next) === 0x2c) {
            i = skipSpace(text, next + 1);
            // A separator ends no list.
            if (text.charCodeAt(i) === 0x5d) return null;
          } else if (text.charCodeAt(next) === 0x5d) i = next;
          else return null;
        }
      }
      if (text.charCodeAt(i) !== 0x5d) {
        // Whole groups first, cut after a "}," about GROUP_CHARS on: a cut inside a string or inside a key's own
        // object leaves the group unbalanced and JSON.parse refuses it, so a group that parses is whole keys. At
        // the first refusal, and for the last group, the keys are found one by one below.
        for (;;) {
          const cut = text.indexOf('},', i + GROUP_CHARS);
          if (cut < 0) break;
          let items: unknown;
          try {
            items = JSON.parse(`[${text.slice(i, cut + 1)}]`);
          } catch {
            break;
          }
          if (!Array.isArray(items)) break;
          for (const item of items) {
            const key = readKey(item, 'generated', shared);
            if (key !== null) builder.add(key);
          }
          i = skipSpace(text, cut + 2);
        }
        let groupStart = i;
        let inGroup = 0;
        const readGroup = (end: number) => {
          // Its separators were checked below: the span between the group's first and last key is a list's inside.
          const items: unknown = JSON.parse(`[${text.slice(groupStart, end)}]`);
          if (!Array.isArray(items)) return;
          for (const item of items) {
            const key = readKey(item, 'generated', shared);
            if (key !== null) builder.add(key);
          }
        };
        for (;;) {
          const end = valueEnd(text, i);
          if (end <= i) return null;
          inGroup++;
          i = skipSpace(text, end);
          const more = text.charCodeAt(i) === 0x2c;
          if (!more || inGroup === GROUP) {
            readGroup(end);
            inGroup = 0;
          }
          if (!more) break;
          i = skipSpace(text, i + 1);
          if (inGroup === 0) groupStart = i;
        }
        if (text.charCodeAt(i) !== 0x5d) return null;
      }
      list = { start, end: i + 1, batch: builder.columns() };
      i = i + 1;
    } else {
      const end = valueEnd(text, i);
      if (end <= i) return null;
      i = end;
    }
    i = skipSpace(text, i);
    if (text.charCodeAt(i) !== 0x2c) break;
    i = skipSpace(text, i + 1);
  }
  if (list === null) return null;
  // Everything but the list, parsed as it is (this also checks the rest of the body is JSON).
  const body: unknown = JSON.parse(`${text.slice(0, list.start)}[]${text.slice(list.end)}`);
  if (!isObject(body)) return null;
  delete body.generatedKeys;
  return { body, batch: list.batch };
}

/**
 * The body's JSON value without `generatedKeys`, and its keys as the client reads them (readKeys, 'generated');
 * throws a SyntaxError when the body is not JSON, as JSON.parse does.
 */
export function readGenerateAnswer(text: string): GenerateAnswer {
  let fast: GenerateAnswer | null = null;
  try {
    fast = readByKey(text);
  } catch {
    // Not JSON where this reader looked: JSON.parse below says so (or reads what this reader does not expect).
  }
  if (fast !== null) return fast;
  const json: unknown = JSON.parse(text);
  if (!isObject(json) || !Array.isArray(json.generatedKeys)) return { body: json, batch: null };
  const { generatedKeys, ...body } = json;
  const builder = new KeyBatchBuilder();
  for (const key of readKeys(generatedKeys, 'generated')) builder.add(key);
  return { body, batch: builder.columns() };
}
