// The shapes route handlers take and answer with, and helpers they share.
import type { DetailBody, ROUTES, RouteName } from '../../shared/wire.ts';
import type { ExecutionCounter } from '../executions.ts';
import type { Params } from '../params.ts';
import { notFound } from '../errors.ts';
import type { Page, SandboxStore, ServiceRecord } from '../store.ts';

export interface SandboxLimits {
  /** Minutes between HWID resets of one key; 0 = no cooldown. */
  hwidResetCooldownMinutes: number;
  /** At most this many HWID resets of one key in any 30 days; 0 = no limit. */
  hwidResetLimit: number;
  /** Requests per second per apiKey; 0 = unlimited. */
  rateLimitPerSecond: number;
}

/** A JSON body of known length, serialised to UTF-8 in chunks so the first is sent while the next is written. */
export class RawJson {
  readonly length: number;
  /** The chunks in order; with `into`, each is written into the buffer it returns (see ChunkBuffer). */
  readonly chunks: (into?: (size: number) => Buffer) => Iterable<Buffer>;
  constructor(body: { length: number; chunks: (into?: (size: number) => Buffer) => Iterable<Buffer> }) {
    this.length = body.length;
    this.chunks = body.chunks;
  }
}

/** Which of the two dialects an answer is written in (wire.md): the real service's, or Keydesk's detail. */
export type Dialect = 'real' | 'detail';

/** A body too large to build as objects (a 100,000-key batch), written straight to bytes in either dialect. */
export class Streamed {
  readonly render: (dialect: Dialect) => RawJson;
  constructor(render: (dialect: Dialect) => RawJson) {
    this.render = render;
  }
}

/** A handler's answer: its detail-dialect body (the server derives the real one), or a streamed body. */
export interface Reply<B extends object = object> {
  status: number;
  body: B | Streamed;
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
  limits: SandboxLimits;
}

/** A route that acts for one service (apiKey checked before it runs), or a public one (validation, the end user's reset). */
export interface ServiceHandler<B extends object = object> {
  auth: 'service';
  handle: (ctx: ServiceContext) => Reply<B> | Promise<Reply<B>>;
}
export interface PublicHandler<B extends object = object> {
  auth: 'public';
  handle: (ctx: PublicContext) => Reply<B>;
}
export type RouteHandler = ServiceHandler | PublicHandler;

/** The handler a route must have: public exactly when the route table says it takes no apiKey. */
export type HandlerFor<R extends RouteName> = (typeof ROUTES)[R]['apiKey'] extends 'none'
  ? PublicHandler<DetailBody<R>>
  : ServiceHandler<DetailBody<R>>;

export const ok = <T extends object>(body: T, status = 200): Reply<T & { success: true }> => ({ status, body: { success: true, ...body } });

/** Reads the `fetch` term and paging, runs a search, and answers 404 with `notFoundMessage` when nothing matches. */
export function pagedSearch<T>(
  params: Params,
  search: (term: string, limit: number, offset: number) => Page<T>,
  notFoundMessage: string,
): { best: T; items: T[]; total: number } {
  const term = params.requiredString('fetch');
  const { limit, offset } = params.page();
  const { best, items, total } = search(term, limit, offset);
  if (best === null) throw notFound(notFoundMessage);
  return { best, items, total };
}

/** "1 key", "3 keys". */
export const counted = (n: number, singular: string, plural = `${singular}s`): string => `${n} ${n === 1 ? singular : plural}`;
