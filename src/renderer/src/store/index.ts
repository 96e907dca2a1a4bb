// One zustand store made of slices, one per file, each calling main through context.ts. Nothing secret is held:
// apiKeys go straight through to main.
import { useCallback } from 'react';
import { create } from 'zustand';
import { createStoreContext } from './context.ts';
import { createDraftsSlice, DRAFT_DEFAULTS, type Drafts } from './drafts.ts';
import { createExecutionsSlice } from './executions.ts';
import { createFactsSlice } from './facts.ts';
import { createIntegrationSlice } from './integration.ts';
import { createJobsSlice } from './jobs.ts';
import { createKeysSlice } from './keys.ts';
import { createLedgerSlice } from './ledger.ts';
import { createOverviewSlice } from './overview.ts';
import { createServiceSlice } from './service.ts';
import { createSessionSlice } from './session.ts';
import { createSettingsSlice } from './settings.ts';
import type { KeydeskState } from './types.ts';
import { createUiSlice } from './ui.ts';

export { IDLE, type RequestState, type Status } from './request.ts';
export type { ViewName } from '../views/registry.ts';
export { LOOKUP_PAGE } from './keys.ts';
export { OFFLINE_PROBE_MS } from './context.ts';
export type { KeydeskState, Toast } from './types.ts';

export const useKeydesk = create<KeydeskState>()((set, get, store) => {
  const ctx = createStoreContext(set, get);
  return {
    ...createLedgerSlice(ctx),
    ...createDraftsSlice(set, get, store),
    ...createUiSlice(ctx),
    ...createSessionSlice(ctx),
    ...createExecutionsSlice(ctx),
    ...createKeysSlice(ctx),
    ...createServiceSlice(ctx),
    ...createIntegrationSlice(ctx),
    ...createJobsSlice(ctx),
    ...createSettingsSlice(ctx),
    ...createOverviewSlice(ctx),
    ...createFactsSlice(ctx),
  };
});

/** Like useState, for a named form draft kept by the store: leaving a view and coming back finds it as it was. */
export function useDraft<K extends keyof Drafts>(key: K): [Drafts[K], (value: Drafts[K]) => void] {
  const value = useKeydesk((s) => s.drafts[key]) ?? DRAFT_DEFAULTS[key];
  const setDraft = useKeydesk((s) => s.setDraft);
  const update = useCallback((next: Drafts[K]) => setDraft(key, next), [key, setDraft]);
  return [value, update];
}
