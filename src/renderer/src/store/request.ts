// The one status pattern of the store: every loader and action keeps a RequestState under `<what>Request`.
import type { Failure } from '../../../shared/result.ts';

export type Status = 'idle' | 'loading' | 'ready' | 'error';

/** When something happened in this window: `seq` orders two in the same millisecond, `at` is the time shown. */
export interface Moment {
  readonly seq: number;
  readonly at: string;
}
let order = 0;
export const moment = (): Moment => ({ seq: ++order, at: new Date().toISOString() });

/** Where one loader or action stands, and its last failure: `<what>Request` in each slice, written only by `request()`. */
export interface RequestState {
  readonly status: Status;
  readonly error: Failure | null;
  /** When the failure came (failed() sets it): a failure shown says when, and a later answer makes it an earlier one. */
  readonly failedAt?: Moment;
}

/** A request not made yet, or forgotten (as after a profile switch). */
export const IDLE: RequestState = Object.freeze({ status: 'idle', error: null });
export const LOADING: RequestState = Object.freeze({ status: 'loading', error: null });
export const READY: RequestState = Object.freeze({ status: 'ready', error: null });
export const failed = (error: Failure): RequestState => ({ status: 'error', error, failedAt: moment() });
