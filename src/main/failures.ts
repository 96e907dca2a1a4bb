// The one error policy, at main's edge: a failure that leaves main has a code, a vendor's message and a separate
// technical detail. Raw exception text never crosses the bridge or reaches the audit log, only main's own log.
import { dirname } from 'node:path';
import type { ErrorCode, Failure } from '../shared/result.ts';
import { ROUTES, type RouteName, type RouteSpec } from '../shared/wire.ts';

const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;
const waitWords = (seconds: number | undefined): string => {
  if (seconds === undefined || seconds <= 0) return 'Try again later.';
  return seconds < 120
    ? `Try again in ${plural(Math.ceil(seconds), 'second')}.`
    : `Try again in ${plural(Math.ceil(seconds / 60), 'minute')}.`;
};

/** A "not found" in words, by what the route table says the route names; a route that names none was itself not found. */
const NOT_FOUND_WORDS: Record<NonNullable<RouteSpec['resource']> | 'address', string> = {
  key: 'The service has no key with that value.',
  generatedKey: 'The service has no generated key with that value.',
  keyless: 'The service has no keyless entry for that HWID.',
  address: "The service does not know this address. Check the profile's base URL.",
};

/** What a vendor reads first for a failure the service (or the way to it) gave on `route`. */
function serviceWords(route: RouteName, code: ErrorCode, retryAfterSeconds: number | undefined): string {
  switch (code) {
    case 'API_KEY_MISSING':
    case 'API_KEY_INVALID':
      return "The service refused this profile's API key. Replace the key in Profiles.";
    case 'NOT_FOUND':
      return NOT_FOUND_WORDS[(ROUTES[route] as RouteSpec).resource ?? 'address'];
    case 'CONFLICT':
      if (route === 'resetHwid') return 'That key is not active, so it has no HWID to reset.';
      if (route === 'addKeyless') return 'A keyless entry for that HWID exists already.';
      return 'The service refused: the key is not in a state that allows this.';
    case 'COOLDOWN':
      return `This key's HWID was reset recently and the service enforces a cooldown. ${waitWords(retryAfterSeconds)}`;
    case 'RATE_LIMITED':
      return `The service is limiting how fast requests may come. ${waitWords(retryAfterSeconds)}`;
    case 'INVALID_INPUT':
      return 'The service refused a value in the request. See the details for its reason.';
    case 'HOST_NOT_ALLOWED':
      return "The service refused the address it was reached by. Check the profile's base URL.";
    case 'METHOD_NOT_ALLOWED':
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'PAYLOAD_TOO_LARGE':
    case 'URI_TOO_LONG':
      return 'The service refused the request as Keydesk sent it. See the details.';
    case 'INTERNAL':
      return 'The service failed while handling the request. Try again later.';
    case 'NETWORK':
      return 'Keydesk could not reach the service. Check that it is running and that the address is right.';
    case 'TIMEOUT':
      return 'The service did not answer in time. Try again.';
    case 'OUTCOME_UNKNOWN':
      return 'The service did not confirm the outcome: it may or may not have taken effect. Check before retrying.';
    case 'BAD_RESPONSE':
      return "The service's answer was not what Keydesk expected. Check the profile's base URL.";
    case 'HTTP_ERROR':
      return 'The service answered with an error Keydesk does not recognise. See the details.';
    default:
      return 'The service could not do this. See the details.';
  }
}

/** A service client failure in the policy's form: its own text becomes the detail, the message the vendor's sentence. */
export function fromService(route: RouteName, failure: Failure): Failure {
  if (failure.detail !== undefined) return failure;
  const {
    methods: [method],
    path,
  } = ROUTES[route];
  const detail = failure.message.startsWith(`${method} `) ? failure.message : `${method} ${path}: ${failure.message}`;
  const presented: Failure = {
    ok: false,
    code: failure.code,
    message: cutShortWords(failure) ?? serviceWords(route, failure.code, failure.retryAfterSeconds),
    detail,
  };
  if (failure.retryAfterSeconds !== undefined) presented.retryAfterSeconds = failure.retryAfterSeconds;
  // A bulk job tells a service that is gone, or hung, from one that answers by these (job-service.ts).
  if (failure.connectionLost) presented.connectionLost = true;
  if (failure.timedOut) presented.timedOut = true;
  if (failure.cutOff) presented.cutOff = true;
  return presented;
}

/** A request that ran out of time, or that a cancel cut off: what that leaves unknown. */
function cutShortWords(failure: Failure): string | null {
  const unknown =
    failure.code === 'OUTCOME_UNKNOWN' ? ' The outcome is unknown: it may or may not have taken effect. Check before retrying.' : '';
  if (failure.timedOut) return `The service took too long to answer.${unknown || ' Try again later.'}`;
  if (failure.cutOff) return `Cancelled before the service answered.${unknown}`;
  return null;
}

/** The keychain operations Keydesk makes, for words and for the log. */
export type KeychainAction = 'store' | 'read' | 'delete';

/** A keychain that refused (locked, no D-Bus session, a denied prompt): what to do, and no D-Bus text. */
export function keychainFailure(action: KeychainAction, profileName: string, error: unknown): Failure {
  logRaw(`keychain ${action} for "${profileName}"`, error);
  const what =
    action === 'store'
      ? `The OS keychain refused to store the API key for "${profileName}"`
      : action === 'read'
        ? `The OS keychain did not give Keydesk the API key for "${profileName}"`
        : `The OS keychain refused to delete the API key for "${profileName}"`;
  return {
    ok: false,
    code: 'KEYCHAIN_UNAVAILABLE',
    message: `${what}. It may be locked: unlock it and try again.`,
    detail: `keychain ${action} failed${errorName(error)}; the system's own message is in Keydesk's log.`,
  };
}

/** Whether the system or SQLite said the disk is full: ENOSPC, or SQLITE_FULL (13) as a primary result code. */
export function isDiskFull(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown } | null;
  return e?.code === 'ENOSPC' || (typeof e?.errcode === 'number' && (e.errcode & 0xff) === 13);
}

/** "the disk is full", naming the folder and the room needed when they are known. */
export function diskFullWords(folder: string | null, neededBytes: number | null = null): string {
  const where = folder === null ? 'the disk is full' : `the disk holding ${folder} is full`;
  if (neededBytes === null) return where;
  const mb = Math.max(1, Math.ceil(neededBytes / 1_000_000)).toLocaleString('en-US');
  return `${where}: about ${mb} MB more free space is needed there`;
}

/** The folder a file error names (node's fs errors carry their path), or null. */
const folderOf = (error: unknown): string | null => {
  const path = (error as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? dirname(path) : null;
};

/**
 * A handler that threw: a bug, unless the disk is full. The vendor learns that nothing is known to have
 * happened; the log has the rest.
 */
export function unexpectedFailure(action: string, error: unknown): Failure {
  logRaw(action, error);
  if (isDiskFull(error)) {
    return {
      ok: false,
      code: 'INTERNAL',
      message: `Keydesk could not finish ${action}: ${diskFullWords(folderOf(error))}. Free some space and try again.`,
      detail: `disk full${errorName(error)} in ${action}`,
    };
  }
  return {
    ok: false,
    code: 'INTERNAL',
    message: `Keydesk could not finish ${action} because of an internal error. Try again, and report it if it repeats.`,
    detail: `unexpected error${errorName(error)} in ${action}; the full text is in Keydesk's log.`,
  };
}

/** An export that could not be written to `path`: where to look, with the system's error code only. */
export function exportFailure(error: unknown, path: string): Failure {
  logRaw('writing an export', error);
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'Keydesk may not write there'
      : isDiskFull(error)
        ? diskFullWords(dirname(path))
        : code === 'ENOENT'
          ? 'that folder does not exist'
          : 'the system refused';
  return {
    ok: false,
    code: 'INTERNAL',
    message: `The export could not be written: ${why}. Choose another place and try again.`,
    detail: `writing the export failed${errorName(error)}`,
  };
}

/** A name or code that says what kind of error it was without its text: "(ENOENT)", "(TypeError)". */
function errorName(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const e = error as { code?: unknown; name?: unknown };
  const label =
    typeof e.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(e.code)
      ? e.code
      : typeof e.name === 'string' && e.name !== 'Error' && /^\w{1,40}$/.test(e.name)
        ? e.name
        : '';
  return label ? ` (${label})` : '';
}

function logRaw(what: string, error: unknown): void {
  console.error(`keydesk: ${what} failed:`, error);
}
