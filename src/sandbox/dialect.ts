// The real dialect (wire.md, "Real dialect"): each route's default body, its detail body cut to exactly the
// fields the hosted service sends, so clients bound to the real service's models work unchanged.
import type { DetailBody, RealBody, RealKey, RealKeyless, RouteName, WireKey, WireKeylessEntry } from '../shared/wire.ts';
import { DETAIL_FULL, DETAIL_HEADER } from '../shared/wire.ts';
import type { Dialect } from './routes/types.ts';

const realKey = (k: WireKey): RealKey => ({
  id: k.id,
  value: k.value,
  note: k.note,
  hwid: k.hwid,
  expiresAt: k.expiresAt,
  isPremium: k.isPremium,
  lastResetAt: k.lastResetAt,
  serviceId: k.serviceId,
});

const realKeyless = (e: WireKeylessEntry): RealKeyless => ({ id: e.id, hwid: e.hwid, expiresAt: e.expiresAt, isPremium: e.isPremium });

const message = (d: { message: string }) => ({ message: d.message });

/** Each route's real body from its detail body. A field the real service does not send does not compile here. */
export const REAL_BODY: { readonly [R in RouteName]: (detail: DetailBody<R>) => RealBody<R> } = {
  pushExecutionCount: (d) => ({ success: true, message: d.message }),
  executionCount: (d) => ({ executionCount: d.executionCount }),
  // Generation streams its body in either dialect (routes/keys.ts); these cover an object body all the same.
  generateKeyGet: (d) => ({
    message: d.message,
    generatedKeys: d.generatedKeys.map((k) => ({ value: k.value, note: k.note, expiresAt: k.expiresAt, isPremium: k.isPremium })),
  }),
  generateKeyPost: (d) => REAL_BODY.generateKeyGet(d),
  deleteKey: message,
  deleteGeneratedKey: message,
  expandExpiration: (d) => ({ message: d.message, key: realKey(d.key) }),
  fetchKey: (d) => ({ key: realKey(d.key) }),
  resetHwid: message,
  fetchGeneratedKey: (d) => ({
    generatedKey: {
      id: d.generatedKey.id,
      value: d.generatedKey.value,
      note: d.generatedKey.note,
      expiresAt: d.generatedKey.expiresAt,
      isPremium: d.generatedKey.isPremium,
    },
  }),
  identifierCheck: (d) => ({ message: d.message, service: d.service }),
  addKeyless: (d) => ({ message: d.message, keyless: realKeyless(d.keyless) }),
  fetchKeyless: (d) => ({ keyless: realKeyless(d.keyless) }),
  deleteKeyless: message,
  editKey: (d) => ({ message: d.message, key: realKey(d.key) }),
  editGeneratedKey: (d) => ({
    message: d.message,
    generatedKey: { id: d.key.id, value: d.key.value, note: d.key.note, expiresAt: d.key.expiresAt, isPremium: d.key.isPremium },
  }),
  resetHwidPublic: message,
  validate: (d) => ({
    OwnerSecretID: d.OwnerSecretID,
    Registered_ServiceID: d.Registered_ServiceID,
    Authentication: d.Authentication,
    V2_Authentication: d.V2_Authentication,
    Key_Information: {
      NoKey_Requirement: d.Key_Information.NoKey_Requirement,
      Hardware_ID: d.Key_Information.Hardware_ID,
      Premium_Mode: d.Key_Information.Premium_Mode,
      Notes: d.Key_Information.Notes,
      expiresAt: d.Key_Information.expiresAt,
    },
  }),
};

const DETAIL_HEADER_LOWER = DETAIL_HEADER.toLowerCase();

/** The dialect a request asks for: detail only with `Keydesk-Detail: full`, and never on a real-only sandbox. */
export function dialectOf(headers: Readonly<Record<string, string | string[] | undefined>>, realOnly: boolean): Dialect {
  if (realOnly) return 'real';
  const value = headers[DETAIL_HEADER_LOWER];
  return typeof value === 'string' && value.trim().toLowerCase() === DETAIL_FULL ? 'detail' : 'real';
}

export function inDialect(route: RouteName, detail: object, dialect: Dialect): object {
  if (dialect === 'detail') return detail;
  // The handler's type ties `detail` to this route (routes/index.ts); TypeScript cannot follow that correlation.
  return (REAL_BODY[route] as (d: object) => object)(detail);
}
