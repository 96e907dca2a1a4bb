// Main's side of the error policy, walked whole: for every route of the wire and every error code, the sentence a
// vendor reads first carries no HTTP status, request line, address, error code or hedged plural; the technical
// text the client gave goes to the detail, whole. (The renderer's side is test/components/words.test.tsx.)
import { describe, expect, it } from 'vitest';
import { fromService } from '../../src/main/failures.ts';
import { APP_ERROR_CODES, WIRE_ERROR_CODES, type Failure } from '../../src/shared/result.ts';
import { ROUTES, type RouteName } from '../../src/shared/wire.ts';

const CODES = [...WIRE_ERROR_CODES, ...APP_ERROR_CODES];
const JARGON: [string, RegExp][] = [
  ['an HTTP status', /HTTP\s?\d{3}/i],
  ['a request line', /\b(GET|POST|PUT|PATCH|DELETE)\s+(https?:|\/)/],
  ['an address', /https?:\/\//],
  ['an error code', new RegExp(`\\b(${CODES.join('|')})\\b`)],
  ['a system error code', /\bE[A-Z]{4,}\b/],
  ['a hedged plural', /\w\(e?s\)/],
];

describe('the service failures main converts', () => {
  it('reads as a sentence without jargon for every route and code', () => {
    const problems: string[] = [];
    for (const route of Object.keys(ROUTES) as RouteName[]) {
      for (const code of CODES) {
        const raw: Failure = { ok: false, code, message: `POST http://127.0.0.1:1/api/x: HTTP 409 ${code} ECONNREFUSED, 3 key(s)` };
        const shown = fromService(route, raw);
        for (const [name, re] of JARGON) if (re.test(shown.message)) problems.push(`${route}/${code}: ${name} in "${shown.message}"`);
        if (!/^[A-Z].*[.!?]$/.test(shown.message)) problems.push(`${route}/${code}: not a sentence: "${shown.message}"`);
        if (!shown.detail?.includes(raw.message)) problems.push(`${route}/${code}: the client text is not in the detail`);
      }
    }
    expect(problems).toEqual([]);
  });
});
