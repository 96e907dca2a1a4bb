// A real core whose selected profile is a remote service faked on 127.0.0.1 (fake-service.ts), for the client
// tolerance tests: each operation runs through the handlers, the path IPC and the harness take.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Core } from '../../src/main/core.ts';
import type { OperationInput } from '../../src/shared/contract.ts';
import type { JobItem } from '../../src/shared/domain.ts';
import type { Result } from '../../src/shared/result.ts';
import { startTestCore, type TestCore } from './core.ts';
import { FakeService } from './fake-service.ts';

export const API_KEY = 'kd_CANARY-5e1f-tolerance-DO-NOT-LEAK';
export const VALUE = 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE';
export const GEN = 'GGGGG-HHHHH-IIIII-JJJJJ-KKKKK';
/** Short enough that a timeout test is quick, long enough for a loaded machine to answer a real request. */
export const TIMEOUTS = { connectMs: 2_000, headersMs: 1_500, bodyMs: 1_500 };

/** What the vendor is told: the message, then the technical detail behind "Details" (the error policy). */
export const said = (r: Result<unknown>): string => (r.ok ? '' : `${r.message} | ${r.detail ?? ''}`);
export const leaks = (v: unknown): boolean => {
  const text = JSON.stringify(v);
  return [API_KEY, encodeURIComponent(API_KEY), Buffer.from(API_KEY).toString('base64')].some((f) => text.includes(f));
};

export interface RealShapedRemote {
  fake: FakeService;
  call: TestCore['call'];
  must: TestCore['must'];
  /** Runs a bulk job to its end and gives its items. */
  jobItems: (input: OperationInput<'jobs.start'>) => Promise<JobItem[]>;
  /** The core, once the file's beforeAll has started it. */
  readonly core: Core;
}

/**
 * Starts the fake service and the core before the file's tests, with a profile for it selected, and stops both
 * after; every test begins with the fake's script and log empty. Call once, at the top of a test file.
 */
export function realShapedRemote(): RealShapedRemote {
  const fake = new FakeService();
  let t: TestCore;

  const call: TestCore['call'] = (name, input) => t.call(name, input);
  const must: TestCore['must'] = (name, input) => t.must(name, input);

  beforeAll(async () => {
    await fake.start();
    t = await startTestCore({ clientOptions: { timeouts: TIMEOUTS, retryDelaysMs: [20, 20] } });
    fake.on('GET', '/api/execution-count', { status: 200, body: { executionCount: 7 } });
    const profile = await must('profiles.add', {
      name: 'Real-shaped remote',
      baseUrl: fake.url,
      apiKey: API_KEY,
      serviceIdentifier: 'real-svc',
    });
    await must('profiles.select', { id: profile.id });
  });
  async function jobItems(input: OperationInput<'jobs.start'>): Promise<JobItem[]> {
    const started = await must('jobs.start', input);
    await t.core.jobs.settled(started.id);
    return (await must('jobs.items', { jobId: started.id, offset: 0, limit: 100 })).items;
  }

  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
  });
  return {
    fake,
    call,
    must,
    jobItems,
    get core() {
      return t.core;
    },
  };
}
