// The optional limits, started through the CLI flags that turn them on, on both HWID reset forms.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, qs } from '../support/http.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { futureDate } from './api.ts';

describe('--rate-limit N', () => {
  let sandbox: SandboxProcess;
  let apiKey: string;
  let otherKey: string;
  beforeAll(async () => {
    const db = join(tempDir(), 'rate.db');
    apiKey = createService(db, 'Rate A').apiKey;
    otherKey = createService(db, 'Rate B').apiKey;
    sandbox = await startSandbox({ db, args: ['--rate-limit', '5'] });
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  it('rate-limits each apiKey with 429 and Retry-After', async () => {
    const path = `/api/execution-count?${qs({ apiKey })}`;
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await send(sandbox.url, { path });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(limited?.json).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await send(sandbox.url, { path: `/api/execution-count?${qs({ apiKey: otherKey })}` })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await send(sandbox.url, { path })).status).toBe(200);
  });
});

describe('--hwid-reset-cooldown M', () => {
  let sandbox: SandboxProcess;
  let apiKey: string;
  beforeAll(async () => {
    const db = join(tempDir(), 'cooldown.db');
    apiKey = createService(db, 'Cooldown', 'cool').apiKey;
    sandbox = await startSandbox({ db, args: ['--hwid-reset-cooldown', '10'] });
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  it('refuses a second reset within the cooldown with 429 COOLDOWN', async () => {
    const json = (path: string, body: object) =>
      send(sandbox.url, {
        method: 'POST',
        path,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiKey, ...body }),
      });
    const gen = await json('/api/generate-key/post', { expire: futureDate(), count: 2, isPremium: false });
    const [a, b] = gen.json.generatedKeys as { value: string }[];
    for (const k of [a, b]) await send(sandbox.url, { path: `/v2_validation?${qs({ key: k?.value, service: 'cool', hwid: 'H1' })}` });

    expect((await json('/api/reset-hwid', { keyValue: a?.value })).status).toBe(200);
    const again = await json('/api/reset-hwid', { keyValue: a?.value });
    expect(again.status).toBe(429);
    expect(again.json).toMatchObject({ success: false, code: 'COOLDOWN' });
    expect(again.json.error).toBe(again.json.message);
    const retry = Number(again.headers['retry-after']);
    expect(retry).toBeGreaterThan(590);
    expect(retry).toBeLessThanOrEqual(600);
    expect((await json('/api/reset-hwid', { keyValue: b?.value })).status).toBe(200);
  });

  it('gives the end user’s reset the same cooldown, error and Retry-After', async () => {
    const gen = await send(sandbox.url, {
      path: `/api/generate-key/get?${qs({ apiKey, expire: futureDate(), count: 1, isPremium: false })}`,
    });
    const value = (gen.json.generatedKeys as { value: string }[])[0]?.value ?? '';
    await send(sandbox.url, { path: `/v2_validation?${qs({ key: value, service: 'cool', hwid: 'H1' })}` });
    const endUser = () => send(sandbox.url, { path: `/api/reset-hwid?${qs({ service: 'cool', key: value })}` });
    expect((await endUser()).json).toEqual({ message: 'HWID reset successfully' });
    const again = await endUser();
    expect(again.status).toBe(429);
    expect(again.json).toMatchObject({ success: false, code: 'COOLDOWN' });
    expect(again.json.error).toBe(again.json.message);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(590);
  });
});

describe('--hwid-reset-limit N', () => {
  let sandbox: SandboxProcess;
  let apiKey: string;
  beforeAll(async () => {
    const db = join(tempDir(), 'reset-limit.db');
    apiKey = createService(db, 'Limited', 'limited').apiKey;
    sandbox = await startSandbox({ db, args: ['--hwid-reset-limit', '2'] });
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  it('refuses a key’s third reset in 30 days, on either reset form', async () => {
    const gen = await send(sandbox.url, {
      path: `/api/generate-key/get?${qs({ apiKey, expire: futureDate(), count: 1, isPremium: false })}`,
    });
    const value = (gen.json.generatedKeys as { value: string }[])[0]?.value ?? '';
    await send(sandbox.url, { path: `/v2_validation?${qs({ key: value, service: 'limited', hwid: 'H1' })}` });
    const vendor = () =>
      send(sandbox.url, {
        method: 'POST',
        path: '/api/reset-hwid',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiKey, keyValue: value }),
      });
    const endUser = () => send(sandbox.url, { path: `/api/reset-hwid?${qs({ service: 'limited', key: value })}` });
    expect((await endUser()).status).toBe(200);
    expect((await vendor()).status).toBe(200);
    for (const again of [await endUser(), await vendor()]) {
      expect(again.status).toBe(429);
      expect(again.json).toMatchObject({ success: false, code: 'COOLDOWN' });
      expect(again.json.error).toBe(again.json.message);
      const retry = Number(again.headers['retry-after']);
      expect(retry).toBeGreaterThan(30 * 86_400 - 600);
      expect(retry).toBeLessThanOrEqual(30 * 86_400);
    }
  });
});
