// The import preview: format and key column found by header or shape, and a reason for every row left out.
import { describe, expect, it } from 'vitest';
import { decodeImport, IMPORT_TEMPLATE, importSizeProblem, parseImport, type ImportParse } from '../../src/shared/key-import.ts';

const K1 = '3f2c1a9e-0b4d-4c55-9a1e-7d2b6c8f0a11';
const K2 = '8a7b6c5d-1e2f-4a3b-9c8d-0e1f2a3b4c5d';
const K3 = 'c0ffee00-1234-4abc-8def-0123456789ab';

function preview(r: ImportParse) {
  if (!r.ok) throw new Error(r.message);
  return r.preview;
}

describe('parseImport', () => {
  it('reads a CSV by its headers with customer fields', () => {
    const p = preview(
      parseImport(
        `License,Customer,E-mail,Discord ID,Order,Notes\n${K1},Ada,ada@example.com,123456789012345678,#1001,"vip, early"\n`,
        'keys.csv',
      ),
    );
    expect(p.format).toBe('csv');
    expect(p.keyColumn).toBe('License');
    expect(p.fields).toEqual(['name', 'email', 'discord', 'reference', 'note']);
    expect(p.rows).toEqual([
      { row: 2, value: K1, name: 'Ada', email: 'ada@example.com', discord: '123456789012345678', reference: '#1001', note: 'vip, early' },
    ]);
  });

  it('gives each duplicate and malformed row its reason and line', () => {
    const text = [
      'key,name,email,discord',
      `${K1},Ada,,`,
      `${K1},Ada again,,`,
      'two keys,Bob,,',
      `${K2},Cy,not-an-email,`,
      `${K3},Di,,12345`,
      `,Eve,,`,
      `${'x'.repeat(257)},Fay,,`,
      `${K3},${'n'.repeat(257)},,`,
    ].join('\n');
    const p = preview(parseImport(text, 'keys.csv'));
    expect(p.read).toBe(8);
    expect(p.rows.map((r) => r.value)).toEqual([K1]);
    expect(p.duplicates).toEqual([{ row: 3, value: K1, reason: 'The same key as row 2.' }]);
    expect(p.malformed.map((m) => [m.row, m.reason])).toEqual([
      [4, 'The key contains a space or a control character.'],
      [5, 'The email "not-an-email" is not an email address.'],
      [6, 'The Discord ID must be 17 to 20 digits.'],
      [7, 'No key in this row.'],
      [8, 'The key is longer than 256 characters.'],
      [9, 'The name is longer than 256 characters.'],
    ]);
  });

  it('finds the key column by shape when the file has no header', () => {
    const p = preview(parseImport(`Ada\t${K1}\tada@example.com\nBob\t${K2}\tbob@example.com\n`, 'export.tsv'));
    expect(p.format).toBe('tsv');
    expect(p.keyColumn).toBe('column 2');
    expect(p.rows.map((r) => r.value)).toEqual([K1, K2]);
  });

  it('refuses a table with no key column, naming its headers', () => {
    const r = parseImport('name,email\nAda,ada@example.com\n', 'people.csv');
    expect(r).toEqual({ ok: false, message: 'No key column found: the headers are "name", "email". Name the key column "key".' });
  });

  it('refuses a headerless table whose values are not shaped like keys', () => {
    const r = parseImport('Ada,ada@example.com\nBob,bob@example.com\n', 'people.csv');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^No key column found: no column holds values shaped like keys/);
  });

  it('reads TXT as one key per line, skipping blank lines', () => {
    const p = preview(parseImport(`${K1}\r\n\r\n${K2}\r\n  ${K3}  \r\n`, 'keys.txt'));
    expect(p.format).toBe('txt');
    expect(p.rows.map((r) => [r.row, r.value])).toEqual([
      [1, K1],
      [3, K2],
      [4, K3],
    ]);
  });

  it('detects pasted text by shape: JSON, CSV or plain lines', () => {
    expect(preview(parseImport(`["${K1}","${K2}"]`)).format).toBe('json');
    expect(preview(parseImport(`key,name\n${K1},Ada`)).format).toBe('csv');
    expect(preview(parseImport(`${K1}\n${K2}`)).format).toBe('txt');
  });

  it('reads JSON objects by their key field, and a wrapped list', () => {
    const p = preview(parseImport(JSON.stringify({ keys: [{ value: K1, discord_id: '123456789012345678' }, { value: 7 }] }), 'k.json'));
    expect(p.keyColumn).toBe('value');
    expect(p.rows).toEqual([{ row: 1, value: K1, discord: '123456789012345678' }]);
    expect(p.malformed).toEqual([{ row: 2, value: '', reason: 'The key is not text.' }]);
  });

  it('refuses JSON that does not parse or holds no key field', () => {
    expect(parseImport('[{"a":1', 'k.json')).toEqual({ ok: false, message: 'The file is not valid JSON.' });
    expect(parseImport('[{"name":"Ada"}]', 'k.json')).toEqual({
      ok: false,
      message: 'No key column found: the objects\' fields are name. Name the key field "key".',
    });
  });

  it('keeps quoted commas, quotes and line breaks inside a CSV cell', () => {
    const p = preview(parseImport(`key,note\n${K1},"said ""hi"",\nthen left"\n${K2},x\n`, 'k.csv'));
    expect(p.rows).toEqual([
      { row: 2, value: K1, note: 'said "hi",\nthen left' },
      { row: 4, value: K2, note: 'x' },
    ]);
  });

  it('reads the template as a file with no keys', () => {
    expect(parseImport(IMPORT_TEMPLATE, 'template.csv')).toEqual({ ok: false, message: 'The file holds no keys.' });
  });

  it('refuses a file of more than 100,000 keys', () => {
    const lines = Array.from({ length: 100_001 }, (_, i) => `key-${String(i).padStart(8, '0')}`);
    expect(parseImport(lines.join('\n'), 'k.txt')).toEqual({
      ok: false,
      message: 'The file holds 100,001 keys; one import looks up at most 100,000. Split it into smaller files.',
    });
  });
});

describe('the file before parsing', () => {
  it('refuses a file over 50 MB by its size alone', () => {
    expect(importSizeProblem(50 * 1024 * 1024 + 1)).toBe(
      'The file is 50.0 MB; an import reads at most 50 MB. Split it into smaller files.',
    );
    expect(importSizeProblem(1024)).toBeNull();
  });

  it('refuses bytes that are not UTF-8 text', () => {
    expect(decodeImport(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toEqual({
      ok: false,
      message: 'The file is not text: an import reads CSV, TSV, TXT or JSON saved as UTF-8.',
    });
    expect(decodeImport(new Uint8Array([0xff, 0xfe, 0x41]))).toMatchObject({ ok: false });
    expect(decodeImport(new TextEncoder().encode('key\nabc'))).toEqual({ ok: true, text: 'key\nabc' });
  });
});
