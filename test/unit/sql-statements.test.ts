// SQL cut into statements as SQLite runs them: a semicolon in a string, a quoted name, a comment or a trigger's
// body (CASE … END inside it too) ends nothing; every other one ends a statement. Checked against SQLite itself:
// the pieces, run one by one, build the same schema as the whole script run at once.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { splitStatements } from '../../src/main/store/sql-statements.ts';

const SCRIPT = `
  -- a comment; with a semicolon
  CREATE TABLE "t;1" (a TEXT DEFAULT 'x;y', [b;c] INTEGER, \`d\` TEXT); /* block; comment */
  CREATE TABLE log (msg TEXT);
  CREATE TRIGGER t1_in AFTER INSERT ON "t;1" BEGIN
    INSERT INTO log VALUES (CASE WHEN new.a = 'end;' THEN 'END' ELSE 'begin' END);
    INSERT INTO log VALUES ('it''s; fine');
  END;
  CREATE TEMP TRIGGER t1_del AFTER DELETE ON "t;1" BEGIN SELECT 1; END;
  ;;
  INSERT INTO "t;1" (a) VALUES ('end;');
`;

const schema = (db: DatabaseSync): unknown[] =>
  db.prepare('SELECT type, name, sql FROM sqlite_schema UNION ALL SELECT type, name, sql FROM sqlite_temp_schema ORDER BY name').all();

describe('splitStatements', () => {
  it('cuts at the semicolons that end statements only, keeping each statement as written', () => {
    const parts = splitStatements(SCRIPT);
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe(`-- a comment; with a semicolon\n  CREATE TABLE "t;1" (a TEXT DEFAULT 'x;y', [b;c] INTEGER, \`d\` TEXT)`);
    expect(parts[2]?.startsWith('CREATE TRIGGER t1_in') && parts[2].endsWith('END')).toBe(true);
    expect(parts[3]).toBe('CREATE TEMP TRIGGER t1_del AFTER DELETE ON "t;1" BEGIN SELECT 1; END');
    expect(parts[1]).toBe('/* block; comment */\n  CREATE TABLE log (msg TEXT)');
    expect(parts[4]).toBe(`INSERT INTO "t;1" (a) VALUES ('end;')`);
  });

  it('run one by one, the pieces do what the whole script does', () => {
    const whole = new DatabaseSync(':memory:');
    whole.exec(SCRIPT);
    const pieces = new DatabaseSync(':memory:');
    for (const sql of splitStatements(SCRIPT)) pieces.exec(sql);
    expect(schema(pieces)).toEqual(schema(whole));
    expect(pieces.prepare('SELECT msg FROM log').all()).toEqual([{ msg: 'END' }, { msg: "it's; fine" }]);
    expect(pieces.prepare('SELECT msg FROM log').all()).toEqual(whole.prepare('SELECT msg FROM log').all());
  });

  it('gives nothing for empty text, comments alone or stray semicolons', () => {
    expect(splitStatements('')).toEqual([]);
    expect(splitStatements(' ; ;\n-- only a comment\n/* and another */ ;')).toEqual([]);
  });
});
