// Where the person was, kept in sessionStorage across a reload: the view (first profile made active only), and
// All keys' filter and sort per profile (the store set the defaults with the profile: store/context.ts).
import type { LedgerSortField } from '../../../shared/domain.ts';
import type { KeydeskState } from '../store/index.ts';
import type { LedgerFilter } from '../store/types.ts';
import { VIEWS, type ViewName } from '../views/registry.ts';

interface Place {
  view: ViewName;
  filter: LedgerFilter;
  sort: { field: LedgerSortField; dir: 'asc' | 'desc' };
}

interface PlaceStore {
  getState: () => KeydeskState;
  setState: (patch: Partial<KeydeskState>) => void;
  subscribe: (listener: (state: KeydeskState, prev: KeydeskState) => void) => () => void;
}

const storageKey = (profileId: string) => `keydesk.place.${profileId}`;
const SORT_FIELDS: readonly string[] = ['createdAt', 'expiresAt', 'value', 'note', 'status', 'lastSeenAt'];
const STATUSES: readonly string[] = ['generated', 'active', 'deleted'];

/** A stored place read back, or null when there is none or it is not one this version wrote (nothing is trusted). */
export function readPlace(storage: Storage, profileId: string): Place | null {
  let raw: unknown;
  try {
    raw = JSON.parse(storage.getItem(storageKey(profileId)) ?? 'null');
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { view, filter, sort } = raw as Record<string, unknown>;
  if (!VIEWS.some((v) => v.view === view)) return null;
  if (typeof filter !== 'object' || filter === null || typeof sort !== 'object' || sort === null) return null;
  const f = filter as Record<string, unknown>;
  const s = sort as Record<string, unknown>;
  if (!SORT_FIELDS.includes(String(s.field)) || (s.dir !== 'asc' && s.dir !== 'desc')) return null;
  const out: LedgerFilter = {};
  if (typeof f.text === 'string') out.text = f.text;
  if (typeof f.status === 'string' && STATUSES.includes(f.status)) out.status = f.status as NonNullable<LedgerFilter['status']>;
  if (typeof f.premium === 'boolean') out.premium = f.premium;
  if (f.expired === true) out.expired = true;
  if (f.unactivated === true) out.unactivated = true;
  if (typeof f.expiresWithin === 'number' && Number.isSafeInteger(f.expiresWithin) && f.expiresWithin >= 1)
    out.expiresWithin = f.expiresWithin;
  for (const k of ['expiresFrom', 'expiresTo', 'createdFrom', 'createdTo'] as const) {
    const v = f[k];
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) out[k] = v;
  }
  return { view: view as ViewName, filter: out, sort: { field: s.field as LedgerSortField, dir: s.dir } };
}

/** Keeps the place of the active profile in `storage` and restores it once, for the first profile after a load. */
export function keepPlace(store: PlaceStore, storage: Storage): () => void {
  let restored = false;
  const write = (state: KeydeskState) => {
    if (state.activeProfileId === null) return;
    const place: Place = { view: state.view, filter: state.ledgerFilter, sort: state.ledgerSort };
    try {
      storage.setItem(storageKey(state.activeProfileId), JSON.stringify(place));
    } catch {
      // Storage full or refused: a reload lands on Overview, as before.
    }
  };
  return store.subscribe((state, prev) => {
    if (state.activeProfileId === null) return;
    if (!restored || state.activeProfileId !== prev.activeProfileId) {
      const first = !restored;
      restored = true;
      const place = readPlace(storage, state.activeProfileId);
      if (place) {
        // The nested change is heard here again and written back, as it is (view included).
        store.setState({ ...(first ? { view: place.view } : {}), ledgerFilter: place.filter, ledgerSort: place.sort });
        return;
      }
    }
    if (
      state.view !== prev.view ||
      state.ledgerFilter !== prev.ledgerFilter ||
      state.ledgerSort !== prev.ledgerSort ||
      state.activeProfileId !== prev.activeProfileId
    ) {
      write(state);
    }
  });
}
