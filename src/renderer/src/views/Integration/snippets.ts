// What a protected app sends to check a key (wire.md "Validation"): one runnable snippet per common client,
// built from the same values. Pure, so its output is tested in Node.

import type { ROUTES } from '../../../../shared/wire.ts';

/** The validation parameter names, typed against wire.ts's `validate` route so a rename fails the typecheck here. */
const P = { key: 'key', service: 'service', hwid: 'hwid' } as const satisfies Record<string, keyof typeof ROUTES.validate.params>;

export interface SnippetValues {
  /** The service's base URL: what the official client is pointed at (it adds /api itself). */
  baseUrl: string;
  validationUrl: string;
  service: string;
  key: string;
  hwid: string;
}

export interface Snippet {
  id: 'curl' | 'javascript' | 'lua' | 'java';
  label: string;
  code: string;
}

/** A string literal every one of the four languages reads the same way (JSON's escapes are a common subset). */
const literal = (value: string): string => JSON.stringify(value);
const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** The request itself, with its parameters encoded: what every snippet sends. */
export function validationRequestUrl(v: SnippetValues): string {
  const url = new URL(v.validationUrl);
  url.searchParams.set(P.key, v.key);
  url.searchParams.set(P.service, v.service);
  url.searchParams.set(P.hwid, v.hwid);
  return url.toString();
}

export function integrationSnippets(v: SnippetValues): Snippet[] {
  const curl = [
    `curl -sS --get ${shellQuote(v.validationUrl)} \\`,
    `  --data-urlencode ${shellQuote(`${P.key}=${v.key}`)} \\`,
    `  --data-urlencode ${shellQuote(`${P.service}=${v.service}`)} \\`,
    `  --data-urlencode ${shellQuote(`${P.hwid}=${v.hwid}`)}`,
  ].join('\n');

  const javascript = [
    `// Node 18+ or a browser. The official JavaScript client sends the same request from`,
    `// validateKey({ keyValue, service, hwid }) when its base URL is ${v.baseUrl.replace(/\/+$/, '')}/api.`,
    `const params = new URLSearchParams({ ${P.key}: ${literal(v.key)}, ${P.service}: ${literal(v.service)}, ${P.hwid}: ${literal(v.hwid)} });`,
    `const res = await fetch(${literal(v.validationUrl)} + '?' + params);`,
    `const body = await res.json();`,
    `console.log(body.V2_Authentication === 'success' ? 'valid' : 'refused: ' + (body.V2_Authentication ?? body.message));`,
  ].join('\n');

  const lua = [
    `-- LuaSocket (luarocks install luasocket); for https add luasec.`,
    `local http = require("socket.http")`,
    `local url = require("socket.url")`,
    `local query = "${P.key}=" .. url.escape(${literal(v.key)})`,
    `  .. "&${P.service}=" .. url.escape(${literal(v.service)})`,
    `  .. "&${P.hwid}=" .. url.escape(${literal(v.hwid)})`,
    `local body, status = http.request(${literal(v.validationUrl)} .. "?" .. query)`,
    `-- status 200; the key is valid when body's V2_Authentication is "success"`,
    `print(status, body)`,
  ].join('\n');

  const java = [
    `// Java 11+. POST with the query string and no body, as the official Java client sends it.`,
    `import java.net.URI;`,
    `import java.net.URLEncoder;`,
    `import java.net.http.HttpClient;`,
    `import java.net.http.HttpRequest;`,
    `import java.net.http.HttpResponse;`,
    `import static java.nio.charset.StandardCharsets.UTF_8;`,
    ``,
    `public class ValidateKey {`,
    `  public static void main(String[] args) throws Exception {`,
    `    String query = "${P.key}=" + URLEncoder.encode(${literal(v.key)}, UTF_8)`,
    `        + "&${P.service}=" + URLEncoder.encode(${literal(v.service)}, UTF_8)`,
    `        + "&${P.hwid}=" + URLEncoder.encode(${literal(v.hwid)}, UTF_8);`,
    `    HttpRequest request = HttpRequest.newBuilder(URI.create(${literal(v.validationUrl)} + "?" + query))`,
    `        .POST(HttpRequest.BodyPublishers.noBody())`,
    `        .build();`,
    `    HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());`,
    `    System.out.println(response.statusCode() + " " + response.body());`,
    `  }`,
    `}`,
  ].join('\n');

  return [
    { id: 'curl', label: 'curl', code: curl },
    { id: 'javascript', label: 'JavaScript', code: javascript },
    { id: 'lua', label: 'Lua', code: lua },
    { id: 'java', label: 'Java', code: java },
  ];
}
