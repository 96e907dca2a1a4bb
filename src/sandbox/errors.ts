import type { WireErrorCode } from '../shared/result.ts';

/**
 * A failure the sandbox answers with the wire error body. Anything else thrown inside a route is a bug and
 * becomes a generic 500 INTERNAL whose message names nothing internal.
 */
export class WireError extends Error {
  readonly code: WireErrorCode;
  readonly retryAfterSeconds: number | undefined;
  readonly allow: string | undefined;

  constructor(code: WireErrorCode, message: string, extra: { retryAfterSeconds?: number; allow?: string } = {}) {
    super(message);
    this.name = 'WireError';
    this.code = code;
    this.retryAfterSeconds = extra.retryAfterSeconds;
    this.allow = extra.allow;
  }
}

export const invalid = (message: string): WireError => new WireError('INVALID_INPUT', message);
export const notFound = (message: string): WireError => new WireError('NOT_FOUND', message);
