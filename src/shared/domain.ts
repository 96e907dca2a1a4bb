// Domain types the renderer and main process share. Keys and keyless entries are the wire objects
// themselves: the app shows what the service says, read defensively by the client.
import type { KeyStatus, ValidationOutcome, WireKey, WireKeylessEntry } from './wire.ts';

/**
 * A key as Keydesk read it. `unreported` names the fields the real dialect left out, so a screen says "not
 * reported" rather than show a default; absent means every field was reported.
 */
export interface Key extends Omit<WireKey, 'createdAt'> {
  /** null when the service did not report it. */
  createdAt: string | null;
  unreported?: readonly UnreportedKeyField[];
}
export type UnreportedKeyField = 'id' | 'status' | 'createdAt' | 'activatedAt' | 'daysKey' | 'lastResetAt';
/** A keyless entry as read; `unreported` as for Key. */
export interface KeylessEntry extends Omit<WireKeylessEntry, 'createdAt'> {
  createdAt: string | null;
  unreported?: readonly ('id' | 'createdAt' | 'lastUsedAt')[];
}
export type { KeyStatus, ValidationOutcome };

export type SecretStorageKind = 'os-keychain' | 'session-only';
export type ProfileKind = 'sandbox' | 'remote';

/** A service the vendor manages. Never carries the apiKey: only whether one is stored and its last four. */
export interface Profile {
  id: string;
  name: string;
  kind: ProfileKind;
  baseUrl: string;
  validationUrl: string;
  /** The validation URL's origin when it is not the base URL's: the user confirmed it in Profiles. */
  validationOriginConfirmed?: string;
  serviceIdentifier: string | null;
  hasKey: boolean;
  /** "…abcd" */
  keyHint: string | null;
  storage: SecretStorageKind;
  /** What Keydesk keeps of it locally: keys in its ledger and jobs in its history (set by profiles.list). */
  local?: { ledgerKeys: number; jobs: number };
}

export interface SandboxState {
  url: string | null;
  running: boolean;
  error: string | null;
}

/** Keydesk's start: 'starting' (secrets, the local database, the embedded sandbox), 'ready', or 'failed' (`failure` says why). */
export interface StartupStatus {
  state: 'starting' | 'ready' | 'failed';
  failure: string | null;
  /** A failed start that keydesk.db or sandbox.db caused: what the window offers (app.startAgain). */
  offer?: StartOffer;
}

/** One backup of keydesk.db in <user data>/backups: its file name, and when it was taken (ISO). */
export interface BackupInfo {
  name: string;
  takenAt: string;
}

/** The newest backup to restore (null: none, or keydesk.db was not the trouble); `startAgain`: a plain new start can help. */
export interface StartOffer {
  backup: BackupInfo | null;
  startAgain: boolean;
}

export interface AppStatus {
  version: string;
  platform: string;
  sandbox: SandboxState;
  secretStorage: SecretStorageKind;
  /** Why apiKeys are kept for this session only (no OS keychain answered, …); null with the OS keychain. */
  secretStorageReason: string | null;
  /** Why profiles.json was not used (unreadable, written by a newer Keydesk), naming the file; null when it was. */
  profilesFileProblem: string | null;
  activeProfileId: string | null;
}

export interface ExecutionSample {
  at: string;
  count: number;
}

/** A stretch of the execution history for a chart: its last sample's time and the lowest and highest count in it. */
export interface HistoryBucket {
  at: string;
  min: number;
  max: number;
}

export const HWID_METHODS = ['machine-id-hashed', 'machine-id-raw', 'windows-smbios-uuid', 'mac-base64'] as const;
export type HwidMethod = (typeof HWID_METHODS)[number];

export interface HwidReading {
  method: HwidMethod;
  label: string;
  value: string | null;
  unavailableReason: string | null;
}

export interface ValidationReport {
  /** An unknown word reads as invalid_key; `reportedOutcome` keeps the word (null when the service sent none). */
  outcome: ValidationOutcome;
  reportedOutcome?: string | null;
  success: boolean;
  message: string;
  dryRun: boolean;
  hwid: string;
  premium: boolean | null;
  expiresAt: string | null;
  notes: string;
  keyless: boolean | null;
  registeredServiceId: string | null;
  /** The validation answer's own fields as JSON text, for the "raw JSON" view; cut (and saying so) past a cap. */
  raw: string;
}

export type LedgerSortField = 'createdAt' | 'expiresAt' | 'value' | 'note' | 'status' | 'lastSeenAt';
export interface LedgerRow {
  value: string;
  note: string;
  status: KeyStatus | 'deleted';
  isPremium: boolean;
  expiresAt: string | null;
  /** A days key's term (days from activation); null for a fixed-date key. */
  daysKey: number | null;
  hwid: string | null;
  createdAt: string | null;
  lastSeenAt: string;
  /** The name of the customer who holds it in Keydesk's book, where one does (a page's rows only). */
  customer?: string;
  /** Extended, and the new expiry never came back: `expiresAt` is the one seen before, until the key is read again. */
  expiryStale?: true;
  /** An HWID reset got no answer: `hwid` is the one seen before, until the key is read again. */
  hwidStale?: true;
  /** A delete got no answer: `status` is the one seen before, until the key is read again or a delete answered. */
  statusStale?: true;
}

/**
 * What a job does: one request per key, or (generate) one request per batch of up to 100,000 keys. import and
 * refresh only read: each looks its keys up (active, then generated) and records what it finds in the ledger.
 */
export type JobAction = 'delete' | 'extend' | 'resetHwid' | 'generate' | 'import' | 'refresh' | 'edit';
/**
 * running: main is sending; cancelled: the user stopped it (pending items were not sent); interrupted: Keydesk
 * quit, crashed or lost the service mid-job (pending items can be resumed); finished: nothing left pending.
 */
export type JobState = 'running' | 'cancelled' | 'interrupted' | 'finished';
/**
 * pending: not sent; sent: on the wire now; done / failed: the service answered; unknown: sent, and no answer
 * came (a reset, a timeout, a crash). An unknown item is never sent again unless the user asks.
 */
export const JOB_ITEM_STATES = ['pending', 'sent', 'done', 'failed', 'unknown'] as const;
export type JobItemState = (typeof JOB_ITEM_STATES)[number];

export interface JobSummary {
  id: string;
  profileId: string;
  action: JobAction;
  /** Extend's day count; null otherwise. */
  days: number | null;
  /** Generate's note; null otherwise. */
  note: string | null;
  /** An import's source file ("keys.csv"), or "pasted keys". */
  source?: string;
  state: JobState;
  /** Why a job stopped by itself (the service cannot be reached), in words; null otherwise. */
  reason: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Keys in all: a generate job's batches count for their size. */
  total: number;
  counts: Record<JobItemState, number>;
  /** Keys per second over the last few seconds; null when not running. */
  ratePerSecond: number | null;
  /** Seconds left at the current rate; null when unknown or not running. */
  etaSeconds: number | null;
  /** Requests in flight allowed right now (adaptive), and the profile's ceiling. */
  concurrency: number;
  ceiling: number;
  /** Set while the service asked to wait (Retry-After). */
  pausedUntil: string | null;
  /** While it runs: keys answered in this run (a resume starts again at 0), which a rate shown rests on. */
  runAnswered?: number;
  /** Since when main has been getting ready to run the job (a resume waits for the ledger); nothing is sent yet. */
  startingSince?: string;
  /** While the service is not answering: since when, and how many requests await an answer; only a probe is sent. */
  notAnswering?: { since: string; awaiting: number };
  /**
   * Keydesk stopped while the job ran, so finishedAt is the last moment it was known at work. `runStartedAt` is null
   * for a job too old to have it; `resumed` says that run was a resume rather than the first.
   */
  endUnseen?: { lastAnswerAt: string | null; runStartedAt: string | null; resumed: boolean };
  /** What the job acts on, in words ("notes containing launch-2026", "3 keys"); null for a job made before labels. */
  label?: string | null;
  /** The steps of its life, oldest first: started, cancelled at 8 of 499, resumed, finished. */
  history?: JobEvent[];
  /** Increases with every summary, so an older one arriving late never replaces a newer. */
  version: number;
}

/** One step of a job's life: `done` of `total` keys answered by then. */
export interface JobEvent {
  at: string;
  event: 'started' | 'resumed' | Exclude<JobState, 'running'>;
  done: number;
  total: number;
}

export interface JobItem {
  seq: number;
  /** The key value; for generate, the batch ("batch 2"). */
  target: string;
  /** Keys this item stands for: 1, or a generate batch's size. */
  size: number;
  state: JobItemState;
  /** The service's or Keydesk's error code for failed and unknown items. */
  code: string | null;
  message: string | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  profileId: string;
  profileName: string;
  action: string;
  target: string;
  /** unknown: sent, and no answer came (or one that could not be read): it may or may not have taken effect. */
  outcome: 'ok' | 'failed' | 'unknown';
  message: string;
  /** A bulk act: its job (its items are the job's), and its keys per outcome. */
  job?: AuditJob;
  /** An act on one key: the fields it changed, as the ledger held them before and as read after (null: not done). */
  change?: { before: KeyFields; after: KeyFields | null };
}

/** A bulk act's job as Activity shows it; `kept`: still in Jobs (removing it there removes its items). */
export interface AuditJob {
  id: string;
  state: JobState | null;
  counts: Record<JobItemState, number> | null;
  kept: boolean;
}

/** A key's fields an act changes; a field left out is one Keydesk never read. null: none (no HWID, no expiry). */
export interface KeyFields {
  hwid?: string | null;
  expiresAt?: string | null;
  note?: string;
  isPremium?: boolean;
}

/** A generate whose keys an earlier session was still recording when it stopped: some may be missing from All keys. */
export interface CutShortGenerate {
  id: string;
  /** The keys' note ('' for none: then they are found on the service by value only). */
  note: string;
  count: number;
  /** When its keys began to be recorded. */
  at: string;
}

// ---- the drift watch: a remote service's answer shapes, compared with the last seen and wire.md's ----

/** One read whose answer changed shape since the last check: the fields gained, lost or retyped, and both answers. */
export interface DriftChange {
  /** The read in words: "the execution count". */
  read: string;
  gained: string[];
  lost: string[];
  retyped: string[];
  /** The raw answers (JSON text, never the apiKey), before and after. */
  before: string;
  after: string;
}

export interface DriftStatus {
  /** When the last check ran (null: never). */
  checkedAt: string | null;
  /** The change the latest check that found one found, and when; said once in Activity. */
  changes: DriftChange[];
  changedAt: string | null;
  /** What Keydesk can no longer read from the answers of the last check (documented fields missing or retyped). */
  unreadable: string[];
  /** Reads of the last check that got no answer, in words. */
  unanswered: string[];
}

// Overview (home): its figures from the ledger, keys per day, and the first-run checklist.
/** The first-run steps a profile with no keys is shown, in the order the checklist lists them. */
export const FIRST_RUN_STEPS = ['generate', 'validate', 'snippet', 'service'] as const;
export type FirstRunStep = (typeof FIRST_RUN_STEPS)[number];
/** What main notes per profile: the steps done, and 'shown' once the checklist began on the profile with no keys. */
export type FirstRunMark = FirstRunStep | 'shown';
/**
 * A profile's keys as the ledger holds them at `windows.now`. Expired and expiring count keys not deleted;
 * activated counts keys whose activation lies in the window; premium counts every key in the ledger (total).
 * `windows`: the instants the figures counted from, so All keys' filter for a figure counts the same keys.
 */
export interface OverviewFigures {
  total: number;
  active: number;
  generated: number;
  deleted: number;
  expired: number;
  expiring7: number;
  expiring30: number;
  activated7: number;
  activated30: number;
  premium: number;
  /** When Keydesk last read or changed any of these keys (null: none): the figures are as of then. */
  newestSeenAt: string | null;
  windows: { now: string; in7: string; in30: string; ago7: string; ago30: string };
}
/** Keys activated and generated on one UTC day (YYYY-MM-DD). */
export interface KeyActivityDay {
  day: string;
  activated: number;
  generated: number;
}

// ---- what each service can do, and each key's HWID history -----------------------------------------------

/** The endpoints wire.md lists as seen in vendors' code: used only where a capability check found them. */
export const OPTIONAL_ENDPOINTS = ['keyEdit', 'generatedKeyEdit', 'publicReset'] as const;
export type OptionalEndpoint = (typeof OPTIONAL_ENDPOINTS)[number];
/** present: it answered as the endpoint; absent: a route error or an HTML page; unknown: nothing told either way. */
export type CapabilityState = 'present' | 'absent' | 'unknown';
export interface Capability {
  state: CapabilityState;
  checkedAt: string;
  /** What the service answered, in words ("404 with a JSON not found about the key"). */
  evidence: string;
}
/** Each optional endpoint as last checked; an endpoint never checked is left out. */
export type ServiceCapabilities = Partial<Record<OptionalEndpoint, Capability>>;

/**
 * One thing Keydesk saw of a key's HWID. bound/changed/cleared: the ledger's HWID changed (a lookup, refresh,
 * reset or validation read it); reset: a reset Keydesk made or the sandbox logged; validated/mismatch: a
 * validation from `hwid`; cooldown: a reset refused until `nextResetAt`.
 */
export type HwidEventKind = 'bound' | 'changed' | 'cleared' | 'seen' | 'reset' | 'validated' | 'mismatch' | 'cooldown';
export interface HwidEvent {
  at: string;
  kind: HwidEventKind;
  hwid: string | null;
  /** When the next reset is allowed, as the service's cooldown said. */
  nextResetAt: string | null;
  /** Where it came from, in words ("sandbox reset log", "validation"). */
  source: string;
}
