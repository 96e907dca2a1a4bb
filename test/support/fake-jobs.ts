// Jobs as main describes them, for the component tests of Jobs and the job panels against the fake bridge
// (fake-bridge.ts): job summaries numbered as main numbers them, a list answer, an answer the test gives when it
// chooses, and the Jobs table as a person reads it.
import { screen, within } from '@testing-library/react';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { JobSummary } from '../../src/shared/domain.ts';

/** Summaries of one job: `base` with each call's changes, each a newer version than the one before (unless given). */
export function jobSummaries(base: Omit<JobSummary, 'version'>): (over: Partial<JobSummary>) => JobSummary {
  let version = 0;
  return (over) => ({ ...base, version: ++version, ...over });
}

/** Main's answer to jobs.list: these jobs, none running elsewhere unless said. */
export const listed = (
  jobs: JobSummary[],
  more: { unlisted?: number; next?: number; elsewhere?: JobSummary[] } = {},
): Promise<OperationResult<'jobs.list'>> => Promise.resolve({ ok: true, data: { jobs, elsewhere: [], ...more } });

/** A promise the test settles when it chooses: an answer main has not given yet. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The Jobs view's table. */
export const jobsTable = () => screen.getByRole('table', { name: 'Jobs' });
/** Its rows below the header, each as the text of its cells. */
export const jobRowTexts = () =>
  within(jobsTable())
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
