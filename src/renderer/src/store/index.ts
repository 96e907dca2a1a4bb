// One zustand store made of slices, one per file; each slice keeps its data, its status and its last error, and
// calls main through context.ts (one request helper). Components select narrowly. Nothing secret is ever held
// here: apiKeys go straight through to main and are dropped.
import { useCallback } from 'react';
import { create } from 'zustand';
import { createStoreContext, profileData } from './context.ts';
import { createDraftsSlice, DRAFT_DEFAULTS, type Drafts, type DraftsSlice } from './drafts.ts';
import { createExecutionsSlice, type ExecutionsSlice } from './executions.ts';
import { createIntegrationSlice, type IntegrationSlice } from './integration.ts';
import { createJobsSlice, type JobsSlice } from './jobs.ts';
import { createKeysSlice, type KeysSlice } from './keys.ts';
import { createLedgerSlice, type LedgerSlice } from './ledger.ts';
import { createServiceSlice, type ServiceSlice } from './service.ts';
import { createSessionSlice, type SessionSlice } from './session.ts';
import { createUiSlice, type UiSlice } from './ui.ts';

export { IDLE, type RequestState, type Status } from './request.ts';
export type { ViewName } from '../views/registry.ts';
export { LOOKUP_PAGE } from './keys.ts';
export { OFFLINE_PROBE_MS } from './context.ts';
export interface Toast {
  id: number;
  kind: 'success' | 'error';
  text: string;
  /** The job it is about: it goes when that job ends, when it would no longer be true. */
  jobId?: string;
  /** The job whose end it reports: replaced by the words of that job's next end (store/ui.ts notifyJobEnd). */
  jobEnd?: string;
  /**
   * What makes it untrue, so it goes then (store/ui.ts dismissResolved): 'offline' (the service answers again),
   * `resume:<jobId>` (that job resumed), 'start' (a job started).
   */
  resolves?: string;
}

export type KeydeskState = UiSlice &
  SessionSlice &
  ExecutionsSlice &
  KeysSlice &
  ServiceSlice &
  LedgerSlice &
  DraftsSlice &
  IntegrationSlice &
  JobsSlice;

export const useKeydesk = create<KeydeskState>()((set, get, store) => {
  const ctx = createStoreContext(set, get);
  return {
    ...createLedgerSlice(set, get, store),
    ...createDraftsSlice(set, get, store),
    ...profileData(),
    ...createUiSlice(ctx),
    ...createSessionSlice(ctx),
    ...createExecutionsSlice(ctx),
    ...createKeysSlice(ctx),
    ...createServiceSlice(ctx),
    ...createIntegrationSlice(ctx),
    ...createJobsSlice(ctx),
  };
});

/** Like useState, for a named form draft kept by the store: leaving a view and coming back finds it as it was. */
export function useDraft<K extends keyof Drafts>(key: K): [Drafts[K], (value: Drafts[K]) => void] {
  const value = useKeydesk((s) => s.drafts[key]) ?? DRAFT_DEFAULTS[key];
  const setDraft = useKeydesk((s) => s.setDraft);
  const update = useCallback(
    (next: Drafts[K]) => {
      setDraft(key, next);
    },
    [key, setDraft],
  );
  return [value, update];
}
