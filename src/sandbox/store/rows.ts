// Row shapes shared by the store's rooms, and their wire forms.
import { utcDate } from '../../shared/rules.ts';
import type { WireKey, WireKeylessEntry } from '../../shared/wire.ts';

export const GENERATED = 0;
export const ACTIVE = 1;

export interface KeyRow {
  id: number;
  service_id: number;
  value: string;
  note: string;
  status: number;
  is_premium: number;
  expires_by_days: number;
  days_key: number | null;
  expires_at: number | null;
  hwid: string | null;
  created_at: number;
  activated_at: number | null;
  last_reset_at: number | null;
  no_hwid_validation: number;
}

export interface KeylessRow {
  id: number;
  hwid: string;
  is_premium: number;
  expires_at: number | null;
  created_at: number;
  last_used_at: number | null;
}

export const KEY_COLUMNS = `k.id, k.service_id, k.value, n.text AS note, k.status, k.is_premium, k.expires_by_days,
  k.days_key, k.expires_at, k.hwid, k.created_at, k.activated_at, k.last_reset_at, k.no_hwid_validation`;
export const KEYLESS_COLUMNS = 'id, hwid, is_premium, expires_at, created_at, last_used_at';

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const keyPublicId = (rowid: number): string => `k_${rowid.toString(36).padStart(8, '0')}`;

export function toWireKey(row: KeyRow, servicePublicId: string): WireKey {
  return {
    id: keyPublicId(row.id),
    value: row.value,
    note: row.note,
    status: row.status === ACTIVE ? 'active' : 'generated',
    isPremium: row.is_premium === 1,
    expire: row.expires_at === null ? null : utcDate(row.expires_at),
    expiresByDaysKey: row.expires_by_days === 1,
    daysKey: row.days_key,
    expiresAt: iso(row.expires_at),
    hwid: row.hwid,
    createdAt: iso(row.created_at) as string,
    activatedAt: iso(row.activated_at),
    lastResetAt: iso(row.last_reset_at),
    serviceId: servicePublicId,
    noHwidValidation: row.no_hwid_validation === 1,
  };
}

export const toKeyless = (row: KeylessRow): WireKeylessEntry => ({
  id: `kl_${row.id.toString(36).padStart(6, '0')}`,
  hwid: row.hwid,
  isPremium: row.is_premium === 1,
  expiresAt: iso(row.expires_at),
  createdAt: iso(row.created_at) as string,
  lastUsedAt: iso(row.last_used_at),
});

/** One page of a ranked search. */
export interface Page<T> {
  best: T | null;
  items: T[];
  total: number;
}

export const isUniqueViolation = (error: unknown): boolean => error instanceof Error && /UNIQUE constraint failed/.test(error.message);
