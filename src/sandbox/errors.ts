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

/** An unexpected error that is the database's, not a bug: a full disk or a damaged file, said as such (wire 500). */
export function storeTrouble(error: unknown): WireError | null {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof errcode !== 'number') return null;
  if ((errcode & 0xff) === 13)
    return new WireError(
      'INTERNAL',
      'The sandbox could not save this: the disk holding its database is full. Free some space and try again.',
    );
  if ((errcode & 0xff) === 11 || (errcode & 0xff) === 26)
    return new WireError('INTERNAL', "The sandbox's database file is damaged: it could not be read or written.");
  return null;
}
