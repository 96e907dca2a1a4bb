// Errors a sandbox route throws to answer with the wire error body.
import type { WireErrorCode } from '../shared/result.ts';

/** A failure answered with the wire error body; anything else thrown is a bug, a 500 naming nothing internal. */
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
