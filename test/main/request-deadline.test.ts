// Every request has an overall deadline, headers and body together: a real loopback server that sends its answer's
// headers and then one byte every 200 ms (never trips the 30 s idle timeout between chunks), or never sends headers.
// The deadline is set short through the client's option; the test proves outcomes and words, never how long they took.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { fromService } from '../../src/main/failures.ts';
import { ROUTES } from '../../src/shared/wire.ts';

/** One request as the server saw it: bytes of body sent, and whether the client closed it before its end. */
interface Seen {
  path: string;
  bytes: number;
  cutByClient: boolean;
}

let server: Server;
let client: ServiceClient;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const s: Seen = { path: new URL(req.url ?? '/', 'http://x').pathname, bytes: 0, cutByClient: false };
    seen.push(s);
    req.resume();
    // The identifier check never gets its headers; every other request gets headers, then a drip of spaces.
    const drip = s.path === ROUTES.identifierCheck.path ? undefined : setInterval(() => res.write(' ', () => s.bytes++), 200);
    if (drip) res.writeHead(200, { 'content-type': 'application/json' }).write(' ', () => s.bytes++);
    res.on('close', () => {
      clearInterval(drip);
      s.cutByClient = !res.writableEnded;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new ServiceClient(
    { baseUrl: base, validationUrl: `${base}/v2_validation`, apiKey: 'k-deadline-test' },
    { retryDelaysMs: [], deadlinesMs: { read: 1_000, change: 1_000 } },
  );
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const last = (path: string): Seen | undefined => seen.findLast((s) => s.path === path);

describe('request deadlines against a service that drips its answer', () => {
  it('ends a dripping read at its deadline: the service took too long', async () => {
    const r = await client.executionCount();
    expect(r).toMatchObject({ ok: false, code: 'TIMEOUT', timedOut: true });
    expect(!r.ok && r.message).toMatch(/the service took too long \(no whole answer within 1 s\)\.$/);
    // The body was still coming, byte by byte, when the client closed the connection.
    await expect.poll(() => last(ROUTES.executionCount.path)?.cutByClient).toBe(true);
    expect(last(ROUTES.executionCount.path)?.bytes).toBeGreaterThanOrEqual(2);
  });

  it('ends a dripping mutation past its deadline as an unknown outcome', async () => {
    const r = await client.pushExecution();
    expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN', timedOut: true });
    expect(!r.ok && r.message).toMatch(/took too long.*It may have been applied: outcome unknown/);
    await expect.poll(() => last(ROUTES.pushExecutionCount.path)?.cutByClient).toBe(true);
  });

  it('counts the wait for headers against the same deadline', async () => {
    const r = await client.identifierCheck('any');
    expect(r).toMatchObject({ ok: false, code: 'TIMEOUT', timedOut: true });
    await expect.poll(() => last(ROUTES.identifierCheck.path)?.cutByClient).toBe(true);
  });

  it("cuts a mutation off on the wire when its caller's signal aborts", async () => {
    const cancel = new AbortController();
    const pending = client.extend('KEY-1', 5, { signal: cancel.signal });
    await expect.poll(() => last(ROUTES.expandExpiration.path)?.bytes ?? 0).toBeGreaterThanOrEqual(1);
    cancel.abort();
    const r = await pending;
    expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN', cutOff: true });
    expect(!r.ok && r.message).toMatch(/cancelled before the whole answer came\. It may have been applied/);
    await expect.poll(() => last(ROUTES.expandExpiration.path)?.cutByClient).toBe(true);
  });

  it('says to the vendor that a late mutation may have been applied', () => {
    const late = {
      ok: false as const,
      code: 'OUTCOME_UNKNOWN' as const,
      message: 'POST /api/key/expand-expiration: late',
      timedOut: true as const,
    };
    expect(fromService('expandExpiration', late).message).toBe(
      'The service took too long to answer. The outcome is unknown: it may or may not have taken effect. Check before retrying.',
    );
    const cut = {
      ok: false as const,
      code: 'OUTCOME_UNKNOWN' as const,
      message: 'POST /api/key/expand-expiration: cut',
      cutOff: true as const,
    };
    const said = fromService('expandExpiration', cut);
    expect(said.cutOff).toBe(true);
    expect(said.message).toBe(
      'Cancelled before the service answered. The outcome is unknown: it may or may not have taken effect. Check before retrying.',
    );
  });
});
