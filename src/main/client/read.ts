// Tolerant readers for what a remote service sends back. The sandbox sends exactly the wire shapes; the real
// service may omit fields or use older names, so each reader takes what it recognises and fills the rest.
import type { Key, KeylessEntry, KeyStatus, UnreportedKeyField, ValidationOutcome } from '../../shared/domain.ts';
import { VALIDATION_OUTCOMES } from '../../shared/wire.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Gives one string for each distinct text it is handed. */
type Interner = (text: string | null) => string | null;
const asIs: Interner = (text) => text;

/** An interner for one answer's keys: a batch's keys share note, expiry and times, which JSON.parse copies per key. */
function interner(): Interner {
  const seen = new Map<string, string>();
  return (text) => {
    if (text === null) return null;
    const had = seen.get(text);
    if (had !== undefined) return had;
    seen.set(text, text);
    return text;
  };
}

/** A key in any shape the service sends; `status` falls back to the endpoint's, then "bound means active"; gaps in `unreported`. */
export function readKey(v: unknown, impliedStatus?: KeyStatus, shared: Interner = asIs): Key | null {
  if (!isObj(v)) return null;
  const value = str(v.value) ?? str(v.key_value) ?? str(v.keyValue);
  if (value === null) return null;
  const expiresAt = shared(str(v.expiresAt) ?? str(v.expires_on));
  const hwid = str(v.hwid) || null;
  const id = str(v.id) ?? str(v._id);
  const said = v.status === 'active' || v.status === 'generated' ? v.status : null;
  const unreported: UnreportedKeyField[] = [];
  if (id === null) unreported.push('id');
  if (said === null && impliedStatus === undefined) unreported.push('status');
  if (!('createdAt' in v)) unreported.push('createdAt');
  if (!('activatedAt' in v)) unreported.push('activatedAt');
  if (!('daysKey' in v) && !('expiresByDaysKey' in v)) unreported.push('daysKey');
  if (!('lastResetAt' in v)) unreported.push('lastResetAt');
  const key: Key = {
    id: id ?? '',
    value,
    note: shared(str(v.note)) ?? '',
    status: said ?? impliedStatus ?? (hwid !== null ? 'active' : 'generated'),
    isPremium: bool(v.isPremium) ?? bool(v.is_premium) ?? false,
    expire: shared(str(v.expire) ?? (expiresAt ? expiresAt.slice(0, 10) : null)),
    expiresByDaysKey: bool(v.expiresByDaysKey) ?? false,
    daysKey: num(v.daysKey),
    expiresAt,
    hwid,
    createdAt: shared(str(v.createdAt)),
    activatedAt: str(v.activatedAt),
    lastResetAt: str(v.lastResetAt),
    serviceId: shared(str(v.serviceId)) ?? '',
  };
  // Works on any machine: only the detail dialect says; left out, the key shows it as not reported.
  const anyMachine = bool(v.noHwidValidation);
  const read = anyMachine === null ? key : { ...key, noHwidValidation: anyMachine };
  return unreported.length > 0 ? { ...read, unreported } : read;
}

/** One string for each distinct text, for the keys of one answer read one at a time (readKey's `shared`). */
export const sharedStrings = (): Interner => interner();

export function readKeys(v: unknown, impliedStatus?: KeyStatus): Key[] {
  if (!Array.isArray(v)) return [];
  const shared = interner();
  return v.map((k) => readKey(k, impliedStatus, shared)).filter((k): k is Key => k !== null);
}

export function readKeyless(v: unknown): KeylessEntry | null {
  if (!isObj(v)) return null;
  const hwid = str(v.hwid);
  if (hwid === null) return null;
  const unreported = (['id', 'createdAt', 'lastUsedAt'] as const).filter((f) => !(f in v));
  const entry: KeylessEntry = {
    id: str(v.id) ?? '',
    hwid,
    isPremium: bool(v.isPremium) ?? false,
    expiresAt: str(v.expiresAt),
    createdAt: str(v.createdAt),
    lastUsedAt: str(v.lastUsedAt),
  };
  return unreported.length > 0 ? { ...entry, unreported } : entry;
}

export interface ValidationReading {
  outcome: ValidationOutcome;
  /** The outcome word exactly as the service sent it (it may be one Keydesk does not know); null when it sent none. */
  reportedOutcome: string | null;
  success: boolean;
  message: string;
  registeredServiceId: string | null;
  keyless: boolean | null;
  hwid: string | null;
  premium: boolean | null;
  notes: string;
  expiresAt: string | null;
}

/** Validation answers, nested (Key_Information) or flat: only `success` lets a machine in, and premium is reported only then. */
export function readValidation(answer: unknown): ValidationReading | null {
  if (!isObj(answer) || deeperThan(answer, MAX_ANSWER_DEPTH)) return null;
  const v = unwrapResult(answer);
  const raw = str(v.V2_Authentication) ?? str(v.Authentication) ?? (v.success === true ? 'success' : null);
  // The flat shape may refuse without an outcome word (`{success: false, message}`): still an answer, no word guessed.
  const words = str(v.message) ?? str(v.error);
  if (raw === null && !(words && (v.success === false || str(v.error) !== null))) return null;
  const known = raw !== null && (VALIDATION_OUTCOMES as readonly string[]).includes(raw);
  const outcome = known ? (raw as ValidationOutcome) : 'invalid_key';
  const success = outcome === 'success';
  const info = isObj(v.Key_Information) ? v.Key_Information : v;
  return {
    outcome,
    reportedOutcome: raw,
    success,
    message: words ?? '',
    registeredServiceId: str(v.Registered_ServiceID),
    keyless: success ? bool(info.NoKey_Requirement) : false,
    hwid: str(info.Hardware_ID) ?? str(info.hwid) ?? str(info.hardware_id),
    premium: success ? (bool(info.Premium_Mode) ?? bool(info.is_premium) ?? bool(info.isPremium)) : false,
    notes: str(info.Notes) ?? str(info.notes) ?? str(info.note) ?? '',
    expiresAt: str(info.expiresAt) ?? str(info.expires_on),
  };
}

/** An answer nested deeper is not read: it could not be recorded, sent to the window or shown. */
const MAX_ANSWER_DEPTH = 64;

/** Whether objects and arrays nest more than `limit` levels, walked level by level (no recursion to overflow). */
function deeperThan(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > limit) return true;
    level = level.flatMap((v): unknown[] => (typeof v === 'object' && v !== null ? Object.values(v) : []));
  }
  return false;
}

const OUTCOME_FIELDS = ['V2_Authentication', 'Authentication', 'Key_Information'] as const;

/** The most of a validation answer main hands back as text (`raw`); the rest is cut, and the text says so. */
export const RAW_ANSWER_MAX_CHARS = 16 * 1024;

/** The fields a validation answer is made of, in the shapes readValidation reads: anything else a body carries is left out. */
const ANSWER_FIELDS = new Set([
  ...OUTCOME_FIELDS,
  ...['success', 'message', 'error', 'Registered_ServiceID', 'OwnerSecretID', 'NoKey_Requirement', 'Premium_Mode', 'Hardware_ID'],
  ...['hwid', 'hardware_id', 'key_value', 'is_premium', 'isPremium', 'expires_on', 'expiresAt', 'Notes', 'notes', 'note'],
]);

function answerOnly(v: Obj): Obj {
  const picked = Object.fromEntries(Object.entries(v).filter(([k]) => ANSWER_FIELDS.has(k)));
  return isObj(v.result) ? { ...picked, result: answerOnly(v.result) } : picked;
}

/** A validation answer as text for the "raw JSON" view: its own fields alone, at most RAW_ANSWER_MAX_CHARS. */
export function rawAnswer(body: Obj): string {
  let text: string;
  try {
    text = JSON.stringify(answerOnly(body), null, 2);
  } catch {
    return '(The answer is nested too deeply to show.)';
  }
  if (text.length <= RAW_ANSWER_MAX_CHARS) return text;
  const n = (x: number): string => x.toLocaleString('en-US');
  return `${text.slice(0, RAW_ANSWER_MAX_CHARS)}\n… cut: the answer is ${n(text.length)} characters; the first ${n(RAW_ANSWER_MAX_CHARS)} are shown.`;
}

/** service-api.md 4.6: a `result`-wrapped answer is read from `result` alone; the outer `success` only says the call went through. */
function unwrapResult(v: Obj): Obj {
  const inner = v.result;
  if (!isObj(inner) || OUTCOME_FIELDS.some((f) => f in v)) return v;
  return { ...inner, message: str(inner.message) ?? str(v.message) ?? undefined };
}

export const readNumber = num;
export const readString = str;
export const isObject = isObj;
