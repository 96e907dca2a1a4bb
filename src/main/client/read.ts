// Tolerant readers for what a remote service sends back. The sandbox sends exactly the wire shapes; the real
// service may omit fields or use older names, so each reader takes what it recognises and fills the rest.
import type { Key, KeylessEntry, ValidationOutcome } from '../../shared/domain.ts';
import { VALIDATION_OUTCOMES } from '../../shared/wire.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function readKey(v: unknown): Key | null {
  if (!isObj(v)) return null;
  const value = str(v.value) ?? str(v.key_value) ?? str(v.keyValue);
  if (value === null) return null;
  const expiresAt = str(v.expiresAt) ?? str(v.expires_on);
  return {
    id: str(v.id) ?? str(v._id) ?? '',
    value,
    note: str(v.note) ?? '',
    status: v.status === 'active' || (v.status !== 'generated' && typeof v.hwid === 'string' && v.hwid !== '') ? 'active' : 'generated',
    isPremium: bool(v.isPremium) ?? bool(v.is_premium) ?? false,
    expire: str(v.expire) ?? (expiresAt ? expiresAt.slice(0, 10) : null),
    expiresByDaysKey: bool(v.expiresByDaysKey) ?? false,
    daysKey: num(v.daysKey),
    expiresAt,
    hwid: str(v.hwid) || null,
    createdAt: str(v.createdAt) ?? '',
    activatedAt: str(v.activatedAt),
    lastResetAt: str(v.lastResetAt),
    serviceId: str(v.serviceId) ?? '',
  };
}

export function readKeys(v: unknown): Key[] {
  return Array.isArray(v) ? v.map(readKey).filter((k): k is Key => k !== null) : [];
}

export function readKeyless(v: unknown): KeylessEntry | null {
  if (!isObj(v)) return null;
  const hwid = str(v.hwid);
  if (hwid === null) return null;
  return {
    id: str(v.id) ?? '',
    hwid,
    isPremium: bool(v.isPremium) ?? false,
    expiresAt: str(v.expiresAt),
    createdAt: str(v.createdAt) ?? '',
    lastUsedAt: str(v.lastUsedAt),
  };
}

export function readKeylessList(v: unknown): KeylessEntry[] {
  return Array.isArray(v) ? v.map(readKeyless).filter((k): k is KeylessEntry => k !== null) : [];
}

export interface ValidationReading {
  outcome: ValidationOutcome;
  success: boolean;
  message: string;
  registeredServiceId: string | null;
  keyless: boolean | null;
  hwid: string | null;
  premium: boolean | null;
  notes: string;
  expiresAt: string | null;
}

/** Validation answers in the Key_Information shape, or the flat one (key_value, is_premium, expires_on). */
export function readValidation(v: unknown): ValidationReading | null {
  if (!isObj(v)) return null;
  const raw = str(v.V2_Authentication) ?? str(v.Authentication);
  if (raw === null) return null;
  const outcome = (VALIDATION_OUTCOMES as readonly string[]).includes(raw) ? (raw as ValidationOutcome) : 'invalid_key';
  const info = isObj(v.Key_Information) ? v.Key_Information : v;
  return {
    outcome,
    success: outcome === 'success',
    message: str(v.message) ?? '',
    registeredServiceId: str(v.Registered_ServiceID),
    keyless: bool(info.NoKey_Requirement),
    hwid: str(info.Hardware_ID) ?? str(info.hwid),
    premium: bool(info.Premium_Mode) ?? bool(info.is_premium),
    notes: str(info.Notes) ?? str(info.note) ?? '',
    expiresAt: str(info.expiresAt) ?? str(info.expires_on),
  };
}

export const readNumber = num;
export const readString = str;
export const readBoolean = bool;
export const isObject = isObj;
