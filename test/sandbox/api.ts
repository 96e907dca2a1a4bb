import { utcDate } from '../../src/shared/rules.ts';
import type { ValidationBody, WireKey } from '../../src/shared/wire.ts';
import { qs } from '../support/http.ts';
import { call, type Target } from './target.ts';

type Params = Record<string, string | number | boolean | undefined>;

export const DAY = 86_400_000;
export const futureDate = (days = 400): string => utcDate(Date.now() + days * DAY);
export const KEY_VALUE = /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/;
let unique = 0;
/** A note no other test uses, so searches see only their own keys. */
export const uniqueNote = (label: string): string => `${label} ${process.pid}-${Date.now().toString(36)}-${++unique}`;

export const get = (t: Target, path: string, params: Params = {}, withKey = true) =>
  call(t, { path: `${path}?${qs(withKey ? { apiKey: t.apiKey, ...params } : params)}` });

export const postQuery = (t: Target, path: string, params: Params = {}, withKey = true) =>
  call(t, { method: 'POST', path: `${path}?${qs(withKey ? { apiKey: t.apiKey, ...params } : params)}` });

export const postJson = (t: Target, path: string, body: Record<string, unknown>, withKey = true) =>
  call(t, {
    method: 'POST',
    path,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(withKey ? { apiKey: t.apiKey, ...body } : body),
  });

export async function generate(t: Target, params: Record<string, unknown> = {}): Promise<WireKey[]> {
  const res = await postJson(t, '/api/generate-key/post', {
    expire: futureDate(),
    count: 1,
    isPremium: false,
    note: uniqueNote('gen'),
    ...params,
  });
  if (res.status !== 201) throw new Error(`generate failed: ${res.text}`);
  return res.json.generatedKeys as WireKey[];
}

export async function validate(t: Target, key: string, hwid: string, extra: Params = {}): Promise<ValidationBody> {
  const res = await get(t, '/v2_validation', { key, service: t.service, hwid, ...extra }, false);
  if (res.status !== 200) throw new Error(`validation failed: ${res.text}`);
  return res.json as unknown as ValidationBody;
}

/** Asserts the wire's failure shape and returns the body. */
export function failure(res: { status: number; json: Record<string, unknown> }): { code: string; message: string } {
  const body = res.json;
  if (body.success !== false || typeof body.message !== 'string' || typeof body.code !== 'string') {
    throw new Error(`not a failure body: ${JSON.stringify(body)}`);
  }
  return { code: body.code, message: body.message };
}
