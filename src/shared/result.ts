// What crosses every boundary inside Keydesk: a Result is data, never a thrown error, of plain fields that
// survive structured cloning.

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
  /** Technical detail (status, redacted URL, service wording) for a "Details" disclosure; never a secret. */
  detail?: string;
  /** For INVALID_INPUT: the input field the first problem is about ("expire", "filter.text"), for a form to place it. */
  field?: string;
  /** The connection failed before any answer (refused, reset, closed), so a bulk job can tell a gone service. */
  connectionLost?: true;
  /** The request went and no answer came in time, so a bulk job can tell a hung service. */
  timedOut?: true;
  /** The caller cancelled the request on the wire before its answer came (a job's cancel). */
  cutOff?: true;
  /** The harness's bridge could not reach Keydesk's core at all: nothing reached the service. */
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
