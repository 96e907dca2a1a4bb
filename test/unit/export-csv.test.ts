// CSV exports as a spreadsheet opens them: no cell runs as a formula, the text is read as UTF-8 (a BOM first), and
// every character a key, HWID or note holds is written exactly as it is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvCell, writeExport } from '../../src/main/export.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('CSV cells', () => {
  const starts = ['=', '+', '-', '@', '\t', '\r', '\n', '＝', '＋', '－', '＠', ' =', '\u3000＝'];
  it.each(starts.map((s) => [JSON.stringify(s), s]))('neutralises a cell starting with %s', (_, start) => {
    const cell = csvCell(`${start}HYPERLINK("http://x.example")`);
    expect(cell.replace(/^"/, '').startsWith(`'${start}`)).toBe(true);
  });

  it('leaves a formula character after the start as it is', () => {
    expect(csvCell('KD-1=2')).toBe('KD-1=2');
  });
});

describe('CSV files', () => {
  it('start with a UTF-8 BOM and keep hidden characters exact', async () => {
    const path = join(tempDir('keydesk-csv-'), 'keys.csv');
    const value = 'AB\u202Egnp.exe-CD\u200B\uFEFF';
    const rows = [{ value, note: 'VIP\u2066 paid\u2069' }];
    expect(await writeExport(path, 'csv', ['value', 'note'], rows)).toBe(1);
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(`value,note\n${value},VIP\u2066 paid\u2069\n`);
  });

  it('a JSON export starts with its JSON, no BOM', async () => {
    const path = join(tempDir('keydesk-json-'), 'keys.json');
    await writeExport(path, 'json', ['value'], [{ value: 'K\u202E' }]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual([{ value: 'K\u202E' }]);
  });
});
