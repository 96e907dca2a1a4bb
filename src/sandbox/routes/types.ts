import type { ExecutionCounter } from '../executions.ts';
import type { Params } from '../params.ts';
import type { SandboxStore, ServiceRecord } from '../store.ts';

export interface SandboxLimits {
  /** Minutes between HWID resets of one key; 0 = no cooldown. */
  hwidResetCooldownMinutes: number;
  /** Requests per second per apiKey; 0 = unlimited. */
  rateLimitPerSecond: number;
}

/** A JSON body already serialised to UTF-8 (for bodies too large to stringify generically). */
export class RawJson {
  readonly bytes: Buffer;
  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }
}

export interface Reply {
  status: number;
  body: object | RawJson;
}

export interface ServiceContext {
  params: Params;
  store: SandboxStore;
  executions: ExecutionCounter;
  service: ServiceRecord;
  limits: SandboxLimits;
}
export interface PublicContext {
  params: Params;
  store: SandboxStore;
}

/** A route that acts for one service (apiKey checked before it runs), or a public one (validation). */
export type RouteHandler =
  | { auth: 'service'; handle: (ctx: ServiceContext) => Reply | Promise<Reply> }
  | { auth: 'public'; handle: (ctx: PublicContext) => Reply };

export const ok = (body: object, status = 200): Reply => ({ status, body: { success: true, ...body } });
