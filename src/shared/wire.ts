// The HTTP wire contract (../shared/spec/wire.md): shapes the sandbox writes and the client reads.
// Field names are the ones existing clients of the real service read; keep them byte-compatible.
import type { WireErrorCode } from './result.ts';

export const WIRE_STATUS: Readonly<Record<WireErrorCode, number>> = {
  INVALID_INPUT: 400,
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  HOST_NOT_ALLOWED: 403,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  COOLDOWN: 429,
  RATE_LIMITED: 429,
  INTERNAL: 500,
};

export type HttpMethod = 'GET' | 'POST';

/** Every route of the service. `apiKeyIn` is where the spec puts the apiKey (the sandbox accepts both). */
export const ROUTES = {
  pushExecutionCount: { method: 'POST', path: '/api/push-execution-count', apiKeyIn: 'query' },
  executionCount: { method: 'GET', path: '/api/execution-count', apiKeyIn: 'query' },
  generateKeyGet: { method: 'GET', path: '/api/generate-key/get', apiKeyIn: 'query' },
  generateKeyPost: { method: 'POST', path: '/api/generate-key/post', apiKeyIn: 'body' },
  deleteKey: { method: 'POST', path: '/api/key/delete', apiKeyIn: 'body' },
  deleteGeneratedKey: { method: 'POST', path: '/api/generated-key/delete', apiKeyIn: 'body' },
  expandExpiration: { method: 'POST', path: '/api/key/expand-expiration', apiKeyIn: 'query' },
  fetchKey: { method: 'GET', path: '/api/key/fetch', apiKeyIn: 'query' },
  resetHwid: { method: 'POST', path: '/api/reset-hwid', apiKeyIn: 'body' },
  fetchGeneratedKey: { method: 'GET', path: '/api/generated-key/fetch', apiKeyIn: 'query' },
  identifierCheck: { method: 'GET', path: '/api/identifier-check', apiKeyIn: 'query' },
  addKeyless: { method: 'POST', path: '/api/keyless/add', apiKeyIn: 'body' },
  fetchKeyless: { method: 'GET', path: '/api/keyless/fetch', apiKeyIn: 'query' },
  deleteKeyless: { method: 'POST', path: '/api/keyless/delete', apiKeyIn: 'body' },
  validate: { method: 'GET', path: '/v2_validation', apiKeyIn: 'none' },
} as const satisfies Record<string, { method: HttpMethod; path: string; apiKeyIn: 'query' | 'body' | 'none' }>;
export type RouteName = keyof typeof ROUTES;

export type KeyStatus = 'generated' | 'active';

/** The key object, wherever a key appears. Times are ISO-8601 UTC strings. */
export interface WireKey {
  id: string;
  value: string;
  note: string;
  status: KeyStatus;
  isPremium: boolean;
  /** UTC date of expiresAt; null while expiresAt is null (an unactivated days key). */
  expire: string | null;
  expiresByDaysKey: boolean;
  daysKey: number | null;
  expiresAt: string | null;
  hwid: string | null;
  createdAt: string;
  activatedAt: string | null;
  lastResetAt: string | null;
  serviceId: string;
}

export interface WireKeylessEntry {
  id: string;
  hwid: string;
  isPremium: boolean;
  /** null = no expiry. */
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface WireSuccess {
  success: true;
  message: string;
}
export interface WireFailure {
  success: false;
  message: string;
  code: WireErrorCode;
  /** The real service reports cooldowns here too. */
  error?: string;
}

export interface ExecutionCountBody extends WireSuccess {
  executionCount: number;
}
export interface GenerateBody extends WireSuccess {
  generatedKeys: WireKey[];
}
export interface DeleteKeyBody extends WireSuccess {
  deletedKey: string;
}
export interface KeyBody extends WireSuccess {
  key: WireKey;
}
export interface FetchKeyBody extends WireSuccess {
  key: WireKey;
  keys: WireKey[];
  total: number;
}
export interface FetchGeneratedBody extends WireSuccess {
  generatedKey: WireKey;
  generatedKeys: WireKey[];
  total: number;
}
export interface IdentifierCheckBody extends WireSuccess {
  exists: boolean;
  service: string | null;
}
export interface KeylessBody extends WireSuccess {
  keyless: WireKeylessEntry;
}
export interface FetchKeylessBody extends WireSuccess {
  keyless: WireKeylessEntry;
  keylessEntries: WireKeylessEntry[];
  total: number;
}

export const VALIDATION_OUTCOMES = [
  'success',
  'invalid_service',
  'invalid_key',
  'expired',
  'hwid_mismatch',
  'not_whitelisted',
] as const;
export type ValidationOutcome = (typeof VALIDATION_OUTCOMES)[number];

export interface KeyInformation {
  NoKey_Requirement: boolean | null;
  Hardware_ID: string;
  Premium_Mode: boolean | null;
  Notes: string;
  expiresAt: string | null;
}
export interface ValidationBody {
  success: boolean;
  message: string;
  V2_Authentication: ValidationOutcome;
  Authentication: ValidationOutcome;
  Registered_ServiceID: string | null;
  Key_Information: KeyInformation;
}

/** The value a validation request passes as `key` to check the keyless list instead of a key. */
export const KEYLESS_KEY = 'keyless';
