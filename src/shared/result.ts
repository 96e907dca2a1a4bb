// What crosses every boundary inside Keydesk: a Result is data, never a thrown error, and it carries only
// chosen plain fields so it survives structured cloning across the IPC bridge.

/** Codes of the HTTP wire contract (see wire.ts for their statuses). */
export const WIRE_ERROR_CODES = [
  'INVALID_INPUT',
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'HOST_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'COOLDOWN',
  'RATE_LIMITED',
  'INTERNAL',
] as const;
export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

/** Codes the desktop app adds on its side of the wire. */
export const APP_ERROR_CODES = [
  'FORBIDDEN',
  'NETWORK',
  'TIMEOUT',
  'OUTCOME_UNKNOWN',
  'BAD_RESPONSE',
  'HTTP_ERROR',
  'UNSUPPORTED',
  'CANCELLED',
  'KEYCHAIN_UNAVAILABLE',
  'NEEDS_CONFIRMATION',
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

export type ErrorCode = WireErrorCode | AppErrorCode;

export interface Failure {
  ok: false;
  code: ErrorCode;
  message: string;
  /** Seconds to wait, for COOLDOWN and RATE_LIMITED. */
  retryAfterSeconds?: number;
  /**
   * The technical detail (HTTP status, redacted URL, service wording) for a "Details" disclosure, kept apart
   * from `message`, which is what a vendor reads first. Never raw exception text, never a secret.
   */
  detail?: string;
  /** For INVALID_INPUT: the input field the first problem is about ("expire", "filter.text"), for a form to place it. */
  field?: string;
  /**
   * The request got no answer because its connection failed (refused, reset, closed before an answer): set by the
   * service client, so a bulk job can tell a service that is gone from one that answers (any HTTP status) or is
   * slow (a timeout). Not set on a timeout, nor on an answer Keydesk could not read.
   */
  connectionLost?: true;
  /**
   * The request went and no answer came in time (the client's headers or body timeout): set by the service client,
   * so a bulk job can tell a service that takes requests and answers none (hung) from one that answers what Keydesk
   * cannot read. Not set on a lost connection.
   */
  timedOut?: true;
  /**
   * Keydesk's own core did not answer this window: the bridge could not reach it at all (the harness's process gone).
   * Nothing reached the service, and nothing this window shows can be checked until the core answers again. Set by
   * the harness's bridge only (in the app the window goes with main).
   */
  keydeskGone?: true;
}
export interface Success<T> {
  ok: true;
  data: T;
}
export type Result<T> = Success<T> | Failure;

export const ok = <T>(data: T): Success<T> => ({ ok: true, data });
export const fail = (code: ErrorCode, message: string, retryAfterSeconds?: number): Failure =>
  retryAfterSeconds === undefined ? { ok: false, code, message } : { ok: false, code, message, retryAfterSeconds };
