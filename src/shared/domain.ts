// Domain types the renderer and main process share. Keys and keyless entries are the wire objects
// themselves: the app shows what the service says, read defensively by the client.
import type { KeyStatus, ValidationOutcome, WireKey, WireKeylessEntry } from './wire.ts';

/**
 * A key as Keydesk read it. The real service's dialect leaves fields out (no status, createdAt, activatedAt,
 * days-key terms); `unreported` names them so a screen says "not reported by this service" instead of showing
 * a blank or a default as if the service had said it. Absent means every field was reported.
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
  serviceIdentifier: string | null;
  hasKey: boolean;
  /** "…abcd" */
  keyHint: string | null;
  storage: SecretStorageKind;
}

export interface SandboxState {
  url: string | null;
  running: boolean;
  error: string | null;
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

export const HWID_METHODS = ['machine-id-hashed', 'machine-id-raw', 'windows-smbios-uuid', 'mac-base64'] as const;
export type HwidMethod = (typeof HWID_METHODS)[number];

export interface HwidReading {
  method: HwidMethod;
  label: string;
  value: string | null;
  unavailableReason: string | null;
}

export interface ValidationReport {
  /** Any word Keydesk does not know reads as a refusal (invalid_key); `reportedOutcome` keeps the word itself. */
  outcome: ValidationOutcome;
  reportedOutcome?: string;
  success: boolean;
  message: string;
  dryRun: boolean;
  hwid: string;
  premium: boolean | null;
  expiresAt: string | null;
  notes: string;
  keyless: boolean | null;
  registeredServiceId: string | null;
  /** The response body as received, for the "raw JSON" view. */
  raw: unknown;
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
}

export interface BulkItemResult {
  keyValue: string;
  ok: boolean;
  message: string;
}
export interface BulkProgress {
  jobId: string;
  done: number;
  total: number;
  failed: number;
}

export interface AuditEntry {
  id: number;
  at: string;
  profileId: string;
  profileName: string;
  action: string;
  target: string;
  outcome: 'ok' | 'failed';
  message: string;
}
