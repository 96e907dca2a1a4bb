// GET /openapi.json: the real dialect as an OpenAPI 3.1 document, made from the route table (wire.ts) plus a
// JSON Schema for every success body and the error body, so tools import the API and check its answers.
import { WIRE_ERROR_CODES, type WireErrorCode } from '../shared/result.ts';
import { IDENTIFIER_PATTERN, LIMITS } from '../shared/rules.ts';
import { ROUTES, VALIDATION_OUTCOMES, WIRE_STATUS, type RouteName, type RouteSpec } from '../shared/wire.ts';
import { SANDBOX_VERSION } from './runtime.ts';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** An object with exactly these fields, all present: a field the real service does not send fails. */
const exactly = (properties: Record<string, Schema>): Schema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const text: Schema = { type: 'string' };
const time: Schema = { type: ['string', 'null'], format: 'date-time' };
const bounded = (maxLength: number): Schema => ({ type: 'string', minLength: 1, maxLength });
const int = (minimum: number, maximum: number): Schema => ({ type: 'integer', minimum, maximum });

const SCHEMAS: Record<string, Schema> = {
  Error: {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'message', 'code'],
    properties: {
      success: { const: false },
      message: text,
      code: { enum: [...WIRE_ERROR_CODES] },
      error: { type: 'string', description: 'COOLDOWN only: the same text as message.' },
    },
  },
  Message: exactly({ message: text }),
  RealKey: exactly({
    id: text,
    value: text,
    note: text,
    hwid: { type: ['string', 'null'] },
    expiresAt: time,
    isPremium: { type: 'boolean' },
    lastResetAt: time,
    serviceId: text,
  }),
  GeneratedKey: exactly({ value: text, note: text, expiresAt: time, isPremium: { type: 'boolean' } }),
  UnusedKey: exactly({ id: text, value: text, note: text, expiresAt: time, isPremium: { type: 'boolean' } }),
  Keyless: exactly({ id: text, hwid: text, expiresAt: time, isPremium: { type: 'boolean' } }),
  Validation: exactly({
    OwnerSecretID: { type: ['string', 'null'] },
    Registered_ServiceID: { type: ['string', 'null'] },
    Authentication: { enum: [...VALIDATION_OUTCOMES] },
    V2_Authentication: { enum: [...VALIDATION_OUTCOMES] },
    Key_Information: exactly({
      NoKey_Requirement: { type: 'boolean' },
      Hardware_ID: text,
      Premium_Mode: { type: 'boolean' },
      Notes: text,
      expiresAt: time,
    }),
  }),
  Health: exactly({ status: { const: 'ok' } }),
};

/** Each route's real-dialect success body (wire.md, "Real dialect"). */
const BODIES: { readonly [R in RouteName]: Schema } = {
  pushExecutionCount: exactly({ success: { const: true }, message: text }),
  executionCount: exactly({ executionCount: { type: 'integer', minimum: 0 } }),
  generateKeyGet: exactly({ message: text, generatedKeys: { type: 'array', items: ref('GeneratedKey') } }),
  generateKeyPost: exactly({ message: text, generatedKeys: { type: 'array', items: ref('GeneratedKey') } }),
  deleteKey: ref('Message'),
  deleteGeneratedKey: ref('Message'),
  expandExpiration: exactly({ message: text, key: ref('RealKey') }),
  fetchKey: exactly({ key: ref('RealKey') }),
  resetHwid: ref('Message'),
  fetchGeneratedKey: exactly({ generatedKey: ref('UnusedKey') }),
  identifierCheck: exactly({ message: text, service: { type: ['string', 'null'] } }),
  addKeyless: exactly({ message: text, keyless: ref('Keyless') }),
  fetchKeyless: exactly({ keyless: ref('Keyless') }),
  deleteKeyless: ref('Message'),
  editKey: exactly({ message: text, key: ref('RealKey') }),
  editGeneratedKey: exactly({ message: text, generatedKey: ref('UnusedKey') }),
  resetHwidPublic: ref('Message'),
  validate: ref('Validation'),
};

/** What each parameter of the route table takes (wire.md, "Parameters"). */
const PARAMS: Record<string, Schema> = {
  apiKey: { type: 'string', minLength: 1 },
  expire: { type: 'string', format: 'date' },
  count: int(LIMITS.countMin, LIMITS.countMax),
  isPremium: { type: 'boolean' },
  note: { type: 'string', maxLength: LIMITS.noteMaxChars },
  expiresByDaysKey: { type: 'boolean' },
  daysKey: int(LIMITS.daysMin, LIMITS.daysMax),
  days: int(LIMITS.daysMin, LIMITS.daysMax),
  keyValue: bounded(LIMITS.textMaxChars),
  hwid: bounded(LIMITS.textMaxChars),
  fetch: bounded(LIMITS.textMaxChars),
  limit: { ...int(LIMITS.pageLimitMin, LIMITS.pageLimitMax), default: LIMITS.pageLimitDefault },
  offset: { ...int(0, LIMITS.pageOffsetMax), default: 0 },
  identifier: { type: 'string', pattern: IDENTIFIER_PATTERN.source },
  key: bounded(LIMITS.textMaxChars),
  service: bounded(LIMITS.textMaxChars),
  dryRun: { type: 'boolean', description: 'Sandbox only: the same answer, nothing changes.', default: false },
  noHwidValidation: { type: 'boolean', description: 'The key validates on any machine and is never bound.', default: false },
};

/** The parameters a request must give; the others are optional. */
const REQUIRED: { readonly [R in RouteName]: readonly string[] } = {
  pushExecutionCount: [],
  executionCount: [],
  generateKeyGet: ['expire', 'count', 'isPremium'],
  generateKeyPost: ['expire', 'count', 'isPremium'],
  deleteKey: ['keyValue'],
  deleteGeneratedKey: ['keyValue'],
  expandExpiration: ['keyValue', 'days'],
  fetchKey: ['fetch'],
  resetHwid: ['keyValue'],
  fetchGeneratedKey: ['fetch'],
  identifierCheck: ['identifier'],
  addKeyless: ['hwid'],
  fetchKeyless: ['fetch'],
  deleteKeyless: ['hwid'],
  editKey: ['keyValue'],
  editGeneratedKey: ['keyValue'],
  resetHwidPublic: ['service', 'key'],
  validate: ['key', 'service', 'hwid'],
};

const CREATED: ReadonlySet<RouteName> = new Set(['generateKeyGet', 'generateKeyPost', 'addKeyless']);

/** One reusable response per error status, naming the codes that use it. */
const ERROR_STATUSES = [...new Set(Object.values(WIRE_STATUS))].sort((a, b) => a - b);
const errorResponse = (status: number): Schema => ({
  description: (Object.keys(WIRE_STATUS) as WireErrorCode[]).filter((c) => WIRE_STATUS[c] === status).join(', '),
  ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } } } : {}),
  content: { 'application/json': { schema: ref('Error') } },
});
const json = (schema: Schema): Schema => ({ content: { 'application/json': { schema } } });

const OPTIONAL_NOTE = 'Not in the service spec; seen in vendors’ tools. The hosted service may not offer it.';

function operation(name: RouteName, method: string): Schema {
  const route: RouteSpec = ROUTES[name];
  const places: Record<string, string> = { ...route.params, ...(route.apiKey === 'none' ? {} : { apiKey: route.apiKey }) };
  const required = new Set([...REQUIRED[name], ...(route.apiKey === 'none' ? [] : ['apiKey'])]);
  const named = (place: string) => Object.keys(places).filter((p) => places[p] === place);
  const body = named('body');
  const responses: Record<string, Schema> = {
    [CREATED.has(name) ? '201' : '200']: { description: 'Success, in the real dialect.', ...json(BODIES[name]) },
  };
  for (const status of ERROR_STATUSES) {
    if (status !== 401 || route.apiKey !== 'none') responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
  }
  return {
    ...(route.optional ? { description: OPTIONAL_NOTE } : {}),
    operationId: route.methods.length > 1 ? `${name}${method[0]}${method.slice(1).toLowerCase()}` : name,
    parameters: named('query').map((p) => ({ name: p, in: 'query', required: required.has(p), schema: PARAMS[p] ?? text })),
    ...(body.length === 0
      ? {}
      : {
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: body.filter((p) => required.has(p)),
              properties: Object.fromEntries(body.map((p) => [p, PARAMS[p] ?? text])),
            }),
          },
        }),
    responses,
  };
}

function build(): Schema {
  const paths: Record<string, Record<string, Schema>> = {
    '/health': {
      get: {
        operationId: 'health',
        description: 'Sandbox only: answers while the sandbox serves; counts as no service’s request.',
        responses: { '200': { description: 'Serving.', ...json(ref('Health')) } },
      },
    },
  };
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, RouteSpec][]) {
    const item = (paths[route.path] ??= {});
    for (const method of route.methods) item[method.toLowerCase()] = operation(name, method);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Keydesk sandbox',
      version: SANDBOX_VERSION,
      description: 'The license key service as the Keydesk sandbox serves it, in the real dialect (the default).',
    },
    paths,
    components: {
      schemas: SCHEMAS,
      responses: Object.fromEntries(ERROR_STATUSES.map((s) => [`Error${s}`, errorResponse(s)])),
    },
  };
}

let document: Schema | null = null;
/** The document, made once. */
export const openApiDocument = (): Schema => (document ??= build());
