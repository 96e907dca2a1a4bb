// The Integration view's snippets: each sends the same validation request, with every value encoded for its
// language, and none of them carries an apiKey (a protected app never holds one).
import { describe, expect, it } from 'vitest';
import { integrationSnippets, validationRequestUrl, type SnippetValues } from '../../src/renderer/src/views/Integration/snippets.ts';

const values: SnippetValues = {
  baseUrl: 'http://127.0.0.1:4100/',
  validationUrl: 'http://127.0.0.1:4100/v2_validation',
  service: 'my-app',
  key: 'ABCDE-FGHJK-MNPQR-STVWX-YZ012',
  hwid: 'machine 1&2',
};
const byId = (id: string) => integrationSnippets(values).find((s) => s.id === id)?.code ?? '';

describe('integration snippets', () => {
  it('offers curl, JavaScript, Lua and Java, each naming every value', () => {
    const snippets = integrationSnippets(values);
    expect(snippets.map((s) => s.label)).toEqual(['curl', 'JavaScript', 'Lua', 'Java']);
    for (const s of snippets) {
      for (const v of [values.validationUrl, values.key, values.service, values.hwid]) expect(s.code, `${s.id} ${v}`).toContain(v);
      expect(s.code.toLowerCase(), s.id).not.toContain('apikey');
    }
  });

  it('has curl encode each parameter on a GET', () => {
    expect(byId('curl')).toBe(
      [
        "curl -sS --get 'http://127.0.0.1:4100/v2_validation' \\",
        "  --data-urlencode 'key=ABCDE-FGHJK-MNPQR-STVWX-YZ012' \\",
        "  --data-urlencode 'service=my-app' \\",
        "  --data-urlencode 'hwid=machine 1&2'",
      ].join('\n'),
    );
  });

  it('quotes a value holding a quote safely in each language', () => {
    const tricky = integrationSnippets({ ...values, hwid: `it's "x"\\` });
    expect(tricky.find((s) => s.id === 'curl')?.code).toContain(`'hwid=it'\\''s "x"\\'`);
    for (const id of ['javascript', 'lua', 'java']) expect(tricky.find((s) => s.id === id)?.code).toContain(`"it's \\"x\\"\\\\"`);
  });

  it('tells JavaScript users the official client base', () => {
    expect(byId('javascript')).toContain('when its base URL is http://127.0.0.1:4100/api.');
  });

  it('has Java POST the query string with no body', () => {
    expect(byId('java')).toContain('.POST(HttpRequest.BodyPublishers.noBody())');
    expect(byId('java')).toContain('URLEncoder.encode("machine 1&2", UTF_8)');
  });

  it('builds the request URL with each parameter encoded once', () => {
    expect(validationRequestUrl(values)).toBe(
      'http://127.0.0.1:4100/v2_validation?key=ABCDE-FGHJK-MNPQR-STVWX-YZ012&service=my-app&hwid=machine+1%262',
    );
  });
});
