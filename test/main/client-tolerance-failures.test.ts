// wire.md "Client tolerance", failures: any non-2xx, unreadable body, redirect, timeout or reset is named,
// never with the apiKey; mutations are sent once, reads retried, and a 429's Retry-After is honoured.
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import type { Result } from '../../src/shared/result.ts';
import { real, type Reply } from '../support/fake-service.ts';
import { API_KEY, leaks, realShapedRemote, said, TIMEOUTS, VALUE } from '../support/real-shaped-remote.ts';

const { fake, call, must } = realShapedRemote();

describe('any non-2xx, non-JSON or HTML body, redirect, timeout or reset is a failure that names what happened, never the apiKey', () => {
  const echo = `apiKey=${API_KEY}`;
  it.each<[string, Reply, string, RegExp]>([
    [
      'a 500 with a JSON reason echoing the apiKey',
      { status: 500, body: { message: `database down for ${echo}` } },
      'HTTP_ERROR',
      /database down for apiKey=\[redacted\] \(HTTP 500\)/,
    ],
    [
      'a 401 without a code',
      { status: 401, body: { error: `Invalid API key ${API_KEY}` } },
      'HTTP_ERROR',
      /Invalid API key \[redacted\] \(HTTP 401\)/,
    ],
    [
      'a 502 HTML page',
      { status: 502, body: `<html><head><title>502 Bad Gateway</title></head><body>${echo}</body></html>` },
      'BAD_RESPONSE',
      /HTTP 502 with an HTML page \("502 Bad Gateway"\)/,
    ],
    ['a 200 that is not JSON', { status: 200, body: 'executionCount=7' }, 'BAD_RESPONSE', /HTTP 200 with a body that is not JSON/],
    [
      'a 200 HTML page (a captive portal)',
      { status: 200, body: '<!doctype html><title>Sign in to Wi-Fi</title>' },
      'BAD_RESPONSE',
      /HTTP 200 with an HTML page \("Sign in to Wi-Fi"\)/,
    ],
    [
      'a redirect',
      { status: 301, headers: { location: `https://elsewhere.example/?${echo}` } },
      'HTTP_ERROR',
      /HTTP 301 \(a redirect\), which Keydesk does not follow/,
    ],
    ['a reset connection', { reset: true }, 'NETWORK', /connection was reset/],
    ['no answer in time', { hang: true }, 'TIMEOUT', /did not answer in time/],
  ])('%s', async (_, reply, code, message) => {
    fake.on('GET', '/api/execution-count', reply);
    const r = await call('executions.get');
    expect(r).toMatchObject({ ok: false, code });
    expect(said(r)).toMatch(message);
    expect(leaks(r), JSON.stringify(r)).toBe(false);
  });
});

describe('429 with an HTML body still honours Retry-After', () => {
  it('the result carries the wait, and a read waits that long', async () => {
    fake.on(
      'GET',
      '/api/execution-count',
      { status: 429, headers: { 'retry-after': '1', 'content-type': 'text/html' }, body: '<html><title>Too Many Requests</title></html>' },
      { status: 200, body: { executionCount: 9 } },
    );
    const started = performance.now();
    expect(await call('executions.get')).toMatchObject({ ok: true, data: { executionCount: 9 } });
    // A lower bound only: the client waited at least the second it was told to.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    fake.on('POST', '/api/push-execution-count', {
      status: 429,
      headers: { 'retry-after': '120' },
      body: '<html><title>Too Many Requests</title></html>',
    });
    const r = await call('executions.push');
    expect(r).toMatchObject({ ok: false, code: 'RATE_LIMITED', retryAfterSeconds: 120 });
    expect(said(r)).toMatch(/Try again in 2 minutes\..*too many requests \(HTTP 429 with an HTML page \("Too Many Requests"\)/);
  });
});

describe('mutating calls are sent once, never retried; a timeout on one is an unknown outcome', () => {
  const mutations: [string, 'GET' | 'POST', string, () => Promise<Result<unknown>>][] = [
    ['generate', 'POST', '/api/generate-key/post', () => call('keys.generate', { expire: '2099-01-31', count: 1, isPremium: false })],
    ['delete', 'POST', '/api/key/delete', () => call('keys.delete', { keyValue: VALUE })],
    ['extend', 'POST', '/api/key/expand-expiration', () => call('keys.extend', { keyValue: VALUE, days: 3 })],
    ['reset', 'POST', '/api/reset-hwid', () => call('keys.resetHwid', { keyValue: VALUE })],
    ['push', 'POST', '/api/push-execution-count', () => call('executions.push')],
    ['keyless add', 'POST', '/api/keyless/add', () => call('keyless.add', { hwid: 'HW-NEW' })],
    ['keyless delete', 'POST', '/api/keyless/delete', () => call('keyless.delete', { hwid: 'HW-OLD' })],
  ];
  it.each(mutations)('%s under 503 reaches the service once', async (_, method, path, run) => {
    fake.on(method, path, { status: 503, body: { message: 'busy' } });
    expect(await run()).toMatchObject({ ok: false });
    expect(fake.hits(method, path)).toBe(1);
  });
  it.each(mutations)('%s that times out: "outcome unknown: check before retrying", sent once', async (_, method, path, run) => {
    fake.on(method, path, { hang: true });
    const r = await run();
    expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(said(r)).toMatch(/Check before retrying\..*outcome unknown: check before retrying/);
    expect(fake.hits(method, path)).toBe(1);
  });
});

describe('reads are retried with backoff', () => {
  it('a 503 then an answer: the read succeeds on the second try', async () => {
    fake.on('GET', '/api/key/fetch', { status: 503, body: { message: 'busy' } }, { status: 200, body: { key: real.key() } });
    expect((await must('keys.fetchActive', { term: VALUE })).keys.map((k) => k.value)).toEqual([VALUE]);
    expect(fake.hits('GET', '/api/key/fetch')).toBe(2);
  });
  it('a reset connection, then an answer', async () => {
    fake.on(
      'GET',
      '/api/identifier-check',
      { reset: true },
      { status: 200, body: { message: 'Identifier is taken', service: 'Other Co' } },
    );
    expect(await call('identifier.check', { identifier: 'other' })).toEqual({ ok: true, data: { exists: true, service: 'Other Co' } });
    expect(fake.hits('GET', '/api/identifier-check')).toBe(2);
  });
});

describe('the client on its own', () => {
  it('sends the apiKey only where the spec puts it, never in messages', async () => {
    fake.on('POST', '/api/key/delete', { status: 400, body: { message: `bad request ${API_KEY}` } });
    const client = new ServiceClient(
      { baseUrl: fake.url, validationUrl: `${fake.url}/v2_validation`, apiKey: API_KEY },
      { timeouts: TIMEOUTS },
    );
    const r = await client.deleteKey(VALUE, false);
    expect(r).toEqual({ ok: false, code: 'HTTP_ERROR', message: 'bad request [redacted] (HTTP 400)' });
    expect(fake.requests[0]?.body).toEqual({ apiKey: API_KEY, keyValue: VALUE });
  });
});
