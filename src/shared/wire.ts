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
/** Where a parameter (or the apiKey) travels: the URL's query string or the JSON body. */
export type ParamPlace = 'query' | 'body';

/** The request header that asks the sandbox for the detail dialect; a remote service ignores it. */
export const DETAIL_HEADER = 'Keydesk-Detail';
export const DETAIL_FULL = 'full';

declare const BODIES: unique symbol;
/** Carries a route's two response types; it holds nothing at run time. */
export interface Bodies<Real, Detail> {
  readonly [BODIES]?: { real: Real; detail: Detail };
}
const bodies = <Real, Detail>(): Bodies<Real, Detail> => ({});

/** Everything about one endpoint; the sandbox's router and the desktop client both read only this. */
export interface RouteSpec {
  /** Methods the endpoint accepts; the first is the one Keydesk's client sends. */
  readonly methods: readonly [HttpMethod, ...HttpMethod[]];
  /** Where the sandbox serves it. */
  readonly path: string;
  /** 'validation': the profile's validation URL is the whole endpoint; otherwise `path` joins a profile's base URL. */
  readonly base?: 'validation';
  /** Where the spec puts the apiKey ('none': a public endpoint). The sandbox accepts it in either place. */
  readonly apiKey: ParamPlace | 'none';
  /** Where the client sends each parameter. The sandbox reads any of them from either place. */
  readonly params: Readonly<Record<string, ParamPlace>>;
  /** Changes the service's state: sent once and never retried (wire.md, "Client tolerance"). */
  readonly mutates: boolean;
  /** What a key or entry named in the request is, for wording a "not found" or "conflict". */
  readonly resource?: 'key' | 'generatedKey' | 'keyless';
  /** Seen in vendors' code but not in the spec (wire.md): a remote service may lack it, so use it only once probed. */
  readonly optional?: true;
  /** The answer is in the body whatever `success` says: `success: false` with an outcome is a refusal, not a failure. */
  readonly answerInBody?: true;
  readonly bodies: Bodies<unknown, unknown>;
}

const GENERATE_PARAMS = ['expire', 'count', 'isPremium', 'note', 'expiresByDaysKey', 'daysKey', 'noHwidValidation'] as const;
/** What an edit may change (wire.md, "Seen in vendors' code"): at least one of these, besides keyValue. */
export const EDIT_FIELDS = ['note', 'isPremium', 'expiresByDaysKey', 'daysKey', 'noHwidValidation'] as const;
const PAGED_SEARCH = { fetch: 'query', limit: 'query', offset: 'query' } as const;
const all = <P extends ParamPlace>(names: readonly string[], place: P): Record<string, P> =>
  Object.fromEntries(names.map((n) => [n, place]));

/** Every endpoint of the service (../shared/spec/wire.md). */
export const ROUTES = {
  pushExecutionCount: {
    methods: ['POST'],
    path: '/api/push-execution-count',
    apiKey: 'query',
    params: {},
    mutates: true,
    bodies: bodies<WireSuccess, ExecutionCountBody>(),
  },
  executionCount: {
    methods: ['GET'],
    path: '/api/execution-count',
    apiKey: 'query',
    params: {},
    mutates: false,
    bodies: bodies<{ executionCount: number }, ExecutionCountBody>(),
  },
  generateKeyGet: {
    methods: ['GET'],
    path: '/api/generate-key/get',
    apiKey: 'query',
    params: all(GENERATE_PARAMS, 'query'),
    mutates: true,
    bodies: bodies<RealGenerateBody, GenerateBody>(),
  },
  generateKeyPost: {
    methods: ['POST'],
    path: '/api/generate-key/post',
    apiKey: 'body',
    params: all(GENERATE_PARAMS, 'body'),
    mutates: true,
    bodies: bodies<RealGenerateBody, GenerateBody>(),
  },
  deleteKey: {
    methods: ['POST'],
    path: '/api/key/delete',
    apiKey: 'body',
    params: { keyValue: 'body' },
    mutates: true,
    resource: 'key',
    bodies: bodies<RealMessageBody, DeleteKeyBody>(),
  },
  deleteGeneratedKey: {
    methods: ['POST'],
    path: '/api/generated-key/delete',
    apiKey: 'body',
    params: { keyValue: 'body' },
    mutates: true,
    resource: 'generatedKey',
    bodies: bodies<RealMessageBody, DeleteKeyBody>(),
  },
  expandExpiration: {
    methods: ['POST'],
    path: '/api/key/expand-expiration',
    apiKey: 'query',
    params: { keyValue: 'query', days: 'query' },
    mutates: true,
    resource: 'key',
    bodies: bodies<RealMessageBody & { key: RealKey }, KeyBody>(),
  },
  fetchKey: {
    methods: ['GET'],
    path: '/api/key/fetch',
    apiKey: 'query',
    params: PAGED_SEARCH,
    mutates: false,
    resource: 'key',
    bodies: bodies<{ key: RealKey }, FetchKeyBody>(),
  },
  resetHwid: {
    methods: ['POST'],
    path: '/api/reset-hwid',
    apiKey: 'body',
    params: { keyValue: 'body' },
    mutates: true,
    resource: 'key',
    bodies: bodies<RealMessageBody, KeyBody>(),
  },
  fetchGeneratedKey: {
    methods: ['GET'],
    path: '/api/generated-key/fetch',
    apiKey: 'query',
    params: PAGED_SEARCH,
    mutates: false,
    resource: 'generatedKey',
    bodies: bodies<{ generatedKey: RealUnusedKey }, FetchGeneratedBody>(),
  },
  identifierCheck: {
    methods: ['GET'],
    path: '/api/identifier-check',
    apiKey: 'query',
    params: { identifier: 'query' },
    mutates: false,
    bodies: bodies<RealMessageBody & { service: string | null }, IdentifierCheckBody>(),
  },
  addKeyless: {
    methods: ['POST'],
    path: '/api/keyless/add',
    apiKey: 'body',
    params: { hwid: 'body', isPremium: 'body', days: 'body' },
    mutates: true,
    resource: 'keyless',
    bodies: bodies<RealMessageBody & { keyless: RealKeyless }, KeylessBody>(),
  },
  fetchKeyless: {
    methods: ['GET'],
    path: '/api/keyless/fetch',
    apiKey: 'query',
    params: PAGED_SEARCH,
    mutates: false,
    resource: 'keyless',
    bodies: bodies<{ keyless: RealKeyless }, FetchKeylessBody>(),
  },
  deleteKeyless: {
    methods: ['POST'],
    path: '/api/keyless/delete',
    apiKey: 'body',
    params: { hwid: 'body' },
    mutates: true,
    resource: 'keyless',
    bodies: bodies<RealMessageBody, WireSuccess>(),
  },
  // ---- optional endpoints (wire.md, "Seen in vendors' code: optional endpoints") ----
  editKey: {
    methods: ['POST'],
    path: '/api/key/edit',
    apiKey: 'body',
    params: { keyValue: 'body', ...all(EDIT_FIELDS, 'body') },
    mutates: true,
    resource: 'key',
    optional: true,
    bodies: bodies<RealMessageBody & { key: RealKey }, KeyBody>(),
  },
  editGeneratedKey: {
    methods: ['POST'],
    path: '/api/generated-key/edit',
    apiKey: 'body',
    params: { keyValue: 'body', ...all(EDIT_FIELDS, 'body') },
    mutates: true,
    resource: 'generatedKey',
    optional: true,
    bodies: bodies<RealMessageBody & { generatedKey: RealUnusedKey }, KeyBody>(),
  },
  resetHwidPublic: {
    // The end user's own reset: no apiKey, the service named by its identifier.
    methods: ['GET'],
    path: '/api/reset-hwid',
    apiKey: 'none',
    params: { service: 'query', key: 'query' },
    mutates: true,
    resource: 'key',
    optional: true,
    bodies: bodies<RealMessageBody, WireSuccess>(),
  },
  validate: {
    // Binds a HWID on first use, yet a repeat is harmless, so the client may retry it.
    methods: ['GET', 'POST'],
    path: '/v2_validation',
    base: 'validation',
    apiKey: 'none',
    params: { key: 'query', service: 'query', hwid: 'query', dryRun: 'query' },
    mutates: false,
    answerInBody: true,
    bodies: bodies<Omit<ValidationBody, 'success' | 'message'>, ValidationBody>(),
  },
} as const satisfies Record<string, RouteSpec>;
export type RouteName = keyof typeof ROUTES;

type BodiesOf<R extends RouteName> = NonNullable<(typeof ROUTES)[R]['bodies'][typeof BODIES]>;
/** A route's success body in the real dialect (the default). */
export type RealBody<R extends RouteName> = BodiesOf<R>['real'];
/** A route's success body in the detail dialect (`Keydesk-Detail: full`). */
export type DetailBody<R extends RouteName> = BodiesOf<R>['detail'];

type ParamValue = string | number | boolean | undefined;
/** Splits parameters (apiKey included) between query and JSON body as the route says; unlisted names go in the query. */
export function placeParams(
  route: RouteName,
  params: Readonly<Record<string, ParamValue>>,
  apiKey: string | null,
): { query: Record<string, ParamValue>; body: Record<string, ParamValue> | undefined } {
  const spec: RouteSpec = ROUTES[route];
  const query: Record<string, ParamValue> = {};
  let body: Record<string, ParamValue> | undefined;
  const put = (place: ParamPlace, name: string, value: ParamValue): void => {
    if (value === undefined) return;
    if (place === 'body') (body ??= {})[name] = value;
    else query[name] = value;
  };
  if (spec.apiKey !== 'none' && apiKey !== null) put(spec.apiKey, 'apiKey', apiKey);
  for (const [name, value] of Object.entries(params)) put(spec.params[name] ?? 'query', name, value);
  return { query, body };
}

/** The URL base and path a client joins for a route: the API base + path, or the validation URL alone. */
export function endpointOf(route: RouteName, bases: { baseUrl: string; validationUrl: string }): { base: string; path: string } {
  const spec: RouteSpec = ROUTES[route];
  return spec.base === 'validation' ? { base: bases.validationUrl, path: '' } : { base: bases.baseUrl, path: spec.path };
}

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
  /** Validates on any machine, never bound. The sandbox always sends it; a remote service may not. */
  noHwidValidation?: boolean;
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

export const VALIDATION_OUTCOMES = ['success', 'invalid_service', 'invalid_key', 'expired', 'hwid_mismatch', 'not_whitelisted'] as const;
export type ValidationOutcome = (typeof VALIDATION_OUTCOMES)[number];

export interface KeyInformation {
  /** False on every outcome but success. */
  NoKey_Requirement: boolean;
  Hardware_ID: string;
  /** False on every outcome but success: a client that checks premium alone must not let anyone in. */
  Premium_Mode: boolean;
  Notes: string;
  expiresAt: string | null;
}
export interface ValidationBody {
  success: boolean;
  message: string;
  /** An opaque, stable id of the service's owner (null for invalid_service): never the apiKey nor a digest of it. */
  OwnerSecretID: string | null;
  V2_Authentication: ValidationOutcome;
  Authentication: ValidationOutcome;
  Registered_ServiceID: string | null;
  Key_Information: KeyInformation;
}

// ---- the real dialect (the default): exactly the fields the hosted service sends --------------------------

/** A key as the real service shows it. */
export interface RealKey {
  id: string;
  value: string;
  note: string;
  hwid: string | null;
  expiresAt: string | null;
  isPremium: boolean;
  lastResetAt: string | null;
  serviceId: string;
}
/** A generated key as the real service's search shows it; its generate answer leaves out the id. */
export type RealUnusedKey = Pick<RealKey, 'id' | 'value' | 'note' | 'expiresAt' | 'isPremium'>;
export interface RealKeyless {
  id: string;
  hwid: string;
  expiresAt: string | null;
  isPremium: boolean;
}
export interface RealMessageBody {
  message: string;
}
export interface RealGenerateBody extends RealMessageBody {
  generatedKeys: Omit<RealUnusedKey, 'id'>[];
}

/** The value a validation request passes as `key` to check the keyless list instead of a key. */
export const KEYLESS_KEY = 'keyless';
