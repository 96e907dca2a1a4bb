// What a person has typed and not finished with, kept in the store so a view left and revisited finds it.
// Nothing secret: profile forms (which take an apiKey) and confirmations stay view-local on purpose.
import type { StateCreator } from 'zustand';
import type { OperationInput } from '../../../shared/contract.ts';
import type { HwidMethod } from '../../../shared/domain.ts';
import { utcDate } from '../../../shared/rules.ts';

/** Every draft with its value before anything is typed; its type is the draft's. */
export const DRAFT_DEFAULTS = {
  'generate.count': '10',
  'generate.byDays': false,
  'generate.expire': utcDate(Date.now() + 365 * 86_400_000),
  'generate.days': '30',
  'generate.note': '',
  'generate.premium': false,
  'generate.anyMachine': false,
  'lookup.term': '',
  'keyless.term': '',
  'keyless.hwid': '',
  'keyless.premium': false,
  'keyless.days': '',
  'identifier.value': '',
  'validate.hwidChoice': 'machine-id-hashed' as HwidMethod | 'custom',
  'validate.customHwid': '',
  'validate.keyless': false,
  'validate.keyValue': '',
  'validate.service': '',
  'activity.text': '',
  'activity.outcome': '' as '' | NonNullable<OperationInput<'audit.list'>['filter']['outcome']>,
  /** Activity's service: '' the active one, 'all' every service, else a profile id. */
  'activity.service': '',
  'bulk.days': '30',
};
export type Drafts = typeof DRAFT_DEFAULTS;

/** Drafts that name something of one service: a profile switch clears them, so nothing typed for A is sent to B. */
export const PROFILE_DRAFTS = [
  'lookup.term',
  'keyless.term',
  'keyless.hwid',
  'identifier.value',
  'validate.keyValue',
  'validate.service',
  'generate.note',
] as const satisfies readonly (keyof Drafts)[];

/** Drafts that are an act's input, kept per profile so one typed for A never becomes an act on B; the rest stays. */
export const PER_PROFILE_DRAFTS = [
  'generate.count',
  'generate.byDays',
  'generate.expire',
  'generate.days',
  'generate.premium',
  'generate.anyMachine',
  'keyless.premium',
  'keyless.days',
  'bulk.days',
  // Which HWID Validate sends goes with the custom value: "Type a value" with another profile's box emptied reads as an
  // HWID to send that is not there.
  'validate.customHwid',
  'validate.hwidChoice',
] as const satisfies readonly (keyof Drafts)[];

export interface DraftsSlice {
  drafts: Partial<Drafts>;
  /** PER_PROFILE_DRAFTS of the profiles not active, by profile id, until that profile is active again. */
  keptDrafts: Record<string, Partial<Drafts>>;
  setDraft: <K extends keyof Drafts>(key: K, value: Drafts[K]) => void;
  /** The active profile becomes `to`: `from`'s per-profile drafts are kept for it, `to`'s come back, PROFILE_DRAFTS go. */
  switchProfileDrafts: (from: string | null, to: string | null) => void;
}

export const createDraftsSlice: StateCreator<DraftsSlice, [], [], DraftsSlice> = (set) => ({
  drafts: {},
  keptDrafts: {},
  setDraft: (key, value) => set((s) => ({ drafts: { ...s.drafts, [key]: value } })),
  switchProfileDrafts: (from, to) => {
    set((s) => {
      const drafts = { ...s.drafts };
      const mine: Partial<Drafts> = {};
      for (const key of PER_PROFILE_DRAFTS) {
        if (key in drafts) Object.assign(mine, { [key]: drafts[key] });
        Reflect.deleteProperty(drafts, key);
      }
      for (const key of PROFILE_DRAFTS) Reflect.deleteProperty(drafts, key);
      const keptDrafts = { ...s.keptDrafts };
      if (from !== null) keptDrafts[from] = mine;
      const back = to === null ? {} : (keptDrafts[to] ?? {});
      if (to !== null) Reflect.deleteProperty(keptDrafts, to);
      return { drafts: { ...drafts, ...back }, keptDrafts };
    });
  },
});
