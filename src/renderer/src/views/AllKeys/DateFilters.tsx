// All keys' expiry and creation filters: a select each on the toolbar's row, and under it the days or dates the
// chosen one needs.
import { useState } from 'react';
import type { LedgerFilter } from '../../store/types.ts';

type ExpiryMode = '' | 'expired' | 'within' | 'between' | 'unactivated';

/** The filter with the given fields left out. */
function without(filter: LedgerFilter, keys: readonly (keyof LedgerFilter)[]): LedgerFilter {
  return Object.fromEntries(Object.entries(filter).filter(([k]) => !(keys as readonly string[]).includes(k)));
}
const EXPIRY_KEYS = ['expired', 'expiresWithin', 'expiresFrom', 'expiresTo', 'unactivated'] as const;

const expiryModeOf = (f: LedgerFilter): ExpiryMode =>
  f.expired
    ? 'expired'
    : f.expiresWithin !== undefined
      ? 'within'
      : f.expiresFrom !== undefined || f.expiresTo !== undefined
        ? 'between'
        : f.unactivated
          ? 'unactivated'
          : '';

/** Days a new "Expiring within" starts at. */
const WITHIN_DAYS = 30;

export function useDateFilters(filter: LedgerFilter, setFilter: (next: LedgerFilter) => void) {
  // A range chosen with no date yet filters nothing, but stays chosen so its inputs show.
  const [between, setBetween] = useState(false);
  const [createdOpen, setCreatedOpen] = useState(false);
  const shownMode: ExpiryMode = expiryModeOf(filter) || (between ? 'between' : '');
  const created = createdOpen || filter.createdFrom !== undefined || filter.createdTo !== undefined;

  const chooseExpiry = (mode: ExpiryMode) => {
    setBetween(mode === 'between');
    const rest = without(filter, EXPIRY_KEYS);
    if (mode === 'expired') setFilter({ ...rest, expired: true });
    else if (mode === 'within') setFilter({ ...rest, expiresWithin: WITHIN_DAYS });
    else if (mode === 'unactivated') setFilter({ ...rest, unactivated: true });
    else setFilter(rest);
  };
  const chooseCreated = (on: boolean) => {
    setCreatedOpen(on);
    if (!on) {
      setFilter(without(filter, ['createdFrom', 'createdTo']));
    }
  };
  const selects = (
    <>
      <select aria-label="Expiry" value={shownMode} onChange={(e) => chooseExpiry(e.target.value as ExpiryMode)}>
        <option value="">Expiry: any</option>
        <option value="expired">Expired</option>
        <option value="within">Expiring within…</option>
        <option value="between">Expiring between…</option>
        <option value="unactivated">Days keys not activated</option>
      </select>
      <select aria-label="Created" value={created ? 'between' : ''} onChange={(e) => chooseCreated(e.target.value === 'between')}>
        <option value="">Created: any</option>
        <option value="between">Created between…</option>
      </select>
    </>
  );
  const date = (label: string, value: string | undefined, set: (v: string | undefined) => void) => (
    <label>
      {label}
      <input type="date" aria-label={label} value={value ?? ''} onChange={(e) => set(e.target.value === '' ? undefined : e.target.value)} />
    </label>
  );
  const inputs =
    shownMode === 'within' || shownMode === 'between' || created ? (
      <div className="toolbar-dates">
        {shownMode === 'within' && (
          <label>
            Expiring within
            <input
              type="number"
              aria-label="Expiring within (days)"
              min={1}
              max={3650}
              value={filter.expiresWithin ?? WITHIN_DAYS}
              onChange={(e) => {
                const days = Math.trunc(Number(e.target.value));
                if (days >= 1 && days <= 3650) setFilter({ ...filter, expiresWithin: days });
              }}
            />
            days
          </label>
        )}
        {shownMode === 'between' && (
          <>
            {date('Expiry from', filter.expiresFrom, (v) => setFilter({ ...filter, expiresFrom: v }))}
            {date('Expiry to', filter.expiresTo, (v) => setFilter({ ...filter, expiresTo: v }))}
          </>
        )}
        {created && (
          <>
            {date('Created from', filter.createdFrom, (v) => setFilter({ ...filter, createdFrom: v }))}
            {date('Created to', filter.createdTo, (v) => setFilter({ ...filter, createdTo: v }))}
          </>
        )}
      </div>
    ) : null;
  return { selects, inputs };
}
