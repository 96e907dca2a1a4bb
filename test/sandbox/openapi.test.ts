// GET /openapi.json: a valid OpenAPI 3.1 document of every route, served as the code makes it, whose schemas
// are strict enough to refuse a body with a field the real service does not send.
import { Validator } from '@seriousme/openapi-schema-validator';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/sandbox/openapi.ts';
import { DETAIL_FULL, DETAIL_HEADER, ROUTES, type RouteSpec } from '../../src/shared/wire.ts';
import { qs, send } from '../support/http.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { openApiMismatch } from './openapi-answers.ts';

let sandbox: SandboxProcess;
let apiKey: string;
beforeAll(async () => {
  const db = join(tempDir(), 'openapi.db');
  apiKey = createService(db, 'OpenAPI').apiKey;
  sandbox = await startSandbox({ db });
});
afterAll(async () => {
  await sandbox.stop();
});

interface Operation {
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } } };
  responses: Record<string, unknown>;
}
type Paths = Record<string, Record<string, Operation>>;

describe('GET /openapi.json', () => {
  it('serves the document the code makes, as JSON, with no apiKey', async () => {
    const res = await send(sandbox.url, { path: '/openapi.json' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json).toEqual(openApiDocument());
    expect(res.json.openapi).toBe('3.1.0');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate((await send(sandbox.url, { path: '/openapi.json' })).json);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route and method with parameters where the spec puts them', () => {
    const paths = openApiDocument().paths as Paths;
    for (const route of Object.values(ROUTES) as RouteSpec[]) {
      for (const method of route.methods) {
        const op = paths[route.path]?.[method.toLowerCase()];
        expect(op, `${method} ${route.path}`).toBeDefined();
        const places: Record<string, string> = { ...route.params, ...(route.apiKey === 'none' ? {} : { apiKey: route.apiKey }) };
        for (const [name, place] of Object.entries(places)) {
          const where =
            place === 'query'
              ? op?.parameters.some((p) => p.name === name && p.in === 'query')
              : op?.requestBody?.content['application/json'].schema.properties[name] !== undefined;
          expect(where, `${method} ${route.path} ${name} in ${place}`).toBe(true);
        }
        expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['400', '403', '404', '500']));
      }
    }
    expect(paths['/api/key/fetch']?.get?.parameters.find((p) => p.name === 'fetch')?.required).toBe(true);
    expect(paths['/api/key/fetch']?.get?.parameters.find((p) => p.name === 'limit')?.required).toBe(false);
    expect(Object.keys(paths['/api/generate-key/post']?.post?.responses ?? {})).toContain('201');
    expect(Object.keys(paths['/v2_validation']?.get?.responses ?? {})).not.toContain('401');
  });

  it('accepts the real body, refuses detail-dialect bodies and wrong error codes', async () => {
    const gen = await send(sandbox.url, {
      path: `/api/generate-key/get?${qs({ apiKey, expire: '2099-01-01', count: 1, isPremium: false })}`,
      headers: { [DETAIL_HEADER]: DETAIL_FULL },
    });
    expect(gen.status).toBe(201);
    expect(openApiMismatch('GET', '/api/generate-key/get', 201, gen.json)).toMatch(/must NOT have additional properties/);
    const real = await send(sandbox.url, {
      path: `/api/generate-key/get?${qs({ apiKey, expire: '2099-01-01', count: 1, isPremium: false })}`,
    });
    expect(openApiMismatch('GET', '/api/generate-key/get', 201, real.json)).toBeNull();
    const error = { success: false, message: 'No.', code: 'TEAPOT' };
    expect(openApiMismatch('GET', '/api/key/fetch', 404, error)).toMatch(/code must be equal to one of the allowed values/);
    expect(openApiMismatch('GET', '/api/key/fetch', 299, {})).toMatch(/status 299 is not in the document/);
  });
});

describe('GET /health', () => {
  it('answers 200 {"status":"ok"} with no apiKey', async () => {
    const res = await send(sandbox.url, { path: '/health' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
    expect(openApiMismatch('GET', '/health', 200, res.json)).toBeNull();
  });

  it('takes GET only, and only from a Host the guard accepts', async () => {
    const post = await send(sandbox.url, { method: 'POST', path: '/health' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
    expect(post.json.code).toBe('METHOD_NOT_ALLOWED');
    const foreign = await send(sandbox.url, { path: '/health', host: `attacker.test:${sandbox.port}` });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('HOST_NOT_ALLOWED');
  });

  it('counts as no service request under a one-per-second rate limit', async () => {
    const db = join(tempDir(), 'health-rate.db');
    const created = createService(db, 'Health Rate');
    const limited = await startSandbox({ db, args: ['--rate-limit', '1'] });
    try {
      for (let i = 0; i < 5; i++) expect((await send(limited.url, { path: '/health' })).status).toBe(200);
      const counted = await send(limited.url, { path: `/api/execution-count?${qs({ apiKey: created.apiKey })}` });
      expect(counted.status).toBe(200);
      expect(counted.json).toEqual({ executionCount: 0 });
    } finally {
      await limited.stop();
    }
  });
});
