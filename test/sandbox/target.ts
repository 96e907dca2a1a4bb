// Where the conformance suite points: by default a sandbox it starts itself; with KEYDESK_TEST_BASE_URL,
// KEYDESK_TEST_API_KEY and KEYDESK_TEST_SERVICE set, any server that speaks the API.
import { join } from 'node:path';
import { DETAIL_FULL, DETAIL_HEADER } from '../../src/shared/wire.ts';
import { send, type RawRequest, type RawResponse } from '../support/http.ts';
import { createService, startSandbox } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { openApiMismatch } from './openapi-answers.ts';

export interface Target {
  url: string;
  apiKey: string;
  /** The service identifier validation is asked with. */
  service: string;
  /** True for a sandbox this suite started: sandbox-only behaviour (Host guard, dryRun, keyless add) is tested. */
  local: boolean;
  close(): Promise<void>;
}

export async function openTarget(): Promise<Target> {
  const { KEYDESK_TEST_BASE_URL: url, KEYDESK_TEST_API_KEY: apiKey, KEYDESK_TEST_SERVICE: service } = process.env;
  if (url && apiKey && service) return { url: url.replace(/\/$/, ''), apiKey, service, local: false, close: async () => {} };
  const db = join(tempDir(), 'conformance.db');
  const created = createService(db, 'Conformance Suite', 'conformance');
  const sandbox = await startSandbox({ db });
  return {
    url: sandbox.url,
    apiKey: created.apiKey,
    service: created.identifier,
    local: true,
    close: async () => {
      await sandbox.stop();
    },
  };
}

/**
 * Sends a request and checks what every answer must have: a JSON body with the JSON content type. Asks for the
 * detail dialect (`Keydesk-Detail: full`, as Keydesk's client does) unless `dialect` is 'real', which sends no
 * such header: the default answer, the one every client of the real service gets. A local sandbox's answer must
 * match its OpenAPI document.
 */
export async function call(target: Target, req: RawRequest, dialect: 'detail' | 'real' = 'detail'): Promise<RawResponse> {
  const headers = dialect === 'detail' ? { [DETAIL_HEADER]: DETAIL_FULL, ...req.headers } : req.headers;
  const res = await send(target.url, { ...req, headers });
  if (!String(res.headers['content-type']).startsWith('application/json')) {
    throw new Error(
      `${req.method ?? 'GET'} ${req.path}: content-type ${String(res.headers['content-type'])}, body ${res.text.slice(0, 200)}`,
    );
  }
  if (typeof res.json !== 'object') throw new Error('the body is not a JSON object'); // the getter throws for non-JSON
  // A local sandbox's real-dialect answers and errors (the same in both dialects) match its /openapi.json.
  if (target.local && (dialect === 'real' || res.status >= 400)) {
    const mismatch = openApiMismatch(req.method ?? 'GET', req.path, res.status, res.json);
    if (mismatch !== null) throw new Error(mismatch);
  }
  return res;
}
