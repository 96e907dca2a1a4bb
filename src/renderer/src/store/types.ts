// The store's types, in one leaf file: every slice's state and actions, the whole state, and the context slices
// are built on. Slices import it; it imports no slice, so the store has no import cycle.
import type { StoreApi } from 'zustand';
import type { OperationInput, OperationName, OperationOutput, SettingsState } from '../../../shared/contract.ts';
import type {
  DriftStatus,
  AppStatus,
  AuditEntry,
  CutShortGenerate,
  HistoryBucket,
  HwidEvent,
  HwidReading,
  JobAction,
  JobItem,
  JobItemState,
  JobSummary,
  Key,
  KeylessEntry,
  LedgerRow,
  LedgerSortField,
  Profile,
  SandboxState,
  ServiceCapabilities,
  StartupStatus,
  ValidationReport,
} from '../../../shared/domain.ts';
import type { FirstRunStep, KeyActivityDay, OverviewFigures } from '../../../shared/domain.ts';
import type { RefreshChange } from '../../../shared/job-words.ts';
import type { ImportRow } from '../../../shared/key-import.ts';
import type { Failure, Result } from '../../../shared/result.ts';
import type { ViewName } from '../views/registry.ts';
import type { DraftsSlice } from './drafts.ts';
import type { Moment, RequestState } from './request.ts';

export type KeydeskState = UiSlice &
  SessionSlice &
  ExecutionsSlice &
  KeysSlice &
  ServiceSlice &
  LedgerSlice &
  DraftsSlice &
  IntegrationSlice &
  JobsSlice &
  SettingsSlice &
  OverviewSlice &
  FactsSlice;

export interface Toast {
  id: number;
  kind: 'success' | 'error';
  text: string;
  /** The job it is about: it goes when that job ends, when it would no longer be true. */
  jobId?: string;
  /** The job whose end it reports: replaced by the words of that job's next end (store/ui.ts notifyJobEnd). */
  jobEnd?: string;
  /** What makes it untrue, so it goes then: 'offline' (service answers), `resume:<jobId>`, 'start' (a job started). */
  resolves?: string;
}

export interface UiSlice {
  view: ViewName;
  /** False from a call that could not reach the service until the next one that did (a probe runs meanwhile). */
  online: boolean;
  /** The failure that made the service count as unreachable. */
  offlineReason: Failure | null;
  /** When the active profile's service last answered (if only to refuse): a failure shown from before is of then. */
  serviceAnswered: Moment | null;
  /** Keydesk's own core stopped answering (keydeskGone): since when, and whether it answered since (then a reload shows all). */
  keydeskGone: { since: string; back: boolean } | null;
  /** Changes whose answer was lost (OUTCOME_UNKNOWN) since the service last answered: they may have taken effect. */
  unknownOutcomes: OperationName[];
  toasts: Toast[];
  paletteOpen: boolean;
  /** The sheet of every keyboard shortcut (`?`). */
  shortcutsOpen: boolean;
  setView: (view: ViewName) => void;
  setPaletteOpen: (open: boolean) => void;
  setShortcutsOpen: (open: boolean) => void;
  /** `jobId`: a toast about that job's state (say, "already running"), taken away when the job ends. */
  notify: (kind: Toast['kind'], text: string, jobId?: string) => void;
  /** How a job ended: it replaces what an earlier end of the same job said. */
  notifyJobEnd: (kind: Toast['kind'], text: string, jobId: string) => void;
  /** An operation's failure in an error toast, named by its words so it is never read as about what is on screen later. */
  notifyFailure: (
    operation: OperationName,
    failure: Pick<Failure, 'code' | 'message'>,
    about?: { jobId?: string; resolves?: string },
  ) => void;
  /** What the toasts tagged `resolves` said is no longer so: they go. */
  dismissResolved: (resolves: string) => void;
  dismiss: (id: number) => void;
  /** The job ended: toasts about it as it was no longer hold. */
  dismissAboutJob: (jobId: string) => void;
  /** "Check now" beside an action that waits: asks the service (or Keydesk's core, when it is gone) at once. */
  checkService: () => void;
}

export interface SessionSlice {
  /** How main's start went, once it answered: starting, ready, or failed and why. */
  startup: StartupStatus | null;
  appStatus: AppStatus | null;
  profiles: Profile[];
  activeProfileId: string | null;
  /** Reading the app's status and its profiles: nothing else can start before it is ready. */
  sessionRequest: RequestState;
  loadSession: () => Promise<void>;
  /** After a failed start: starts main again, first putting backup `restore` of keydesk.db in place when named. */
  startAgain: (restore: string | null) => Promise<void>;
  /** Why the last backup of keydesk.db failed (a full disk, say); null once one is made. */
  backupProblem: string | null;
  /** The last profile change (select, add, save, remove); its failure goes to the form or a toast. */
  profileRequest: RequestState;
  selectProfile: (id: string) => Promise<void>;
  addProfile: (input: OperationInput<'profiles.add'>) => Promise<Failure | null>;
  updateProfile: (input: OperationInput<'profiles.update'>) => Promise<Failure | null>;
  removeProfile: (id: string) => Promise<void>;
  /** Re-reads, as the Remove dialog opens, the local counts and the profile's job (null: none, or main could not say). */
  askRemoval: (profileId: string) => Promise<JobSummary | null>;
  /** The drift watch of a remote profile: its last findings, or a check now (a failure comes back in words). */
  loadDrift: (profileId: string) => Promise<DriftStatus | null>;
  checkDrift: (profileId: string) => Promise<DriftStatus | Failure>;
}

export interface ExecutionsSlice {
  executionCount: number | null;
  /** When `executionCount` was read: by a read, or as a push's answer. */
  sampledAt: string | null;
  /** A push was counted after `executionCount` was read and its answer held no new total. Cleared by the next read. */
  countBeforePush: boolean;
  /** The count shown is the newest sample from the history, read before this profile became active. Cleared by a read. */
  countEarlier: boolean;
  /** Reading the count. After a failure the count shown (if any) is the one read at `sampledAt`, no longer current. */
  countRequest: RequestState;
  /** When the count read still out was sent (epoch ms), or null: the view says when one goes unanswered for a while. */
  countAskedAt: number | null;
  /** Reads the count one read at a time: reads piled on a hung service would hold the browser's few connections to main. */
  refreshExecutions: () => Promise<void>;
  pushRequest: RequestState;
  pushExecution: () => Promise<void>;
  /** The execution history as main serves it: at most as many buckets as the chart asked for. */
  history: HistoryBucket[];
  /** The spans in the history's range when Keydesk was not running, oldest first. */
  historyClosed: { from: string; to: string }[];
  /** "loading" only for another range or a first read (a poll keeps the chart); after a failure the chart is empty. */
  historyRequest: RequestState;
  /** Hears main's samples of the count while a view shows it; returns the unsubscribe. */
  followSamples: () => () => void;
  loadHistory: (range: OperationInput<'executions.history'>['range'], points?: number) => Promise<void>;
}

/** A change to a key Keydesk made or saw, worded to follow "this key …"; `maybe`: the act only ("a … ran"), which may have. */
export interface KeyChange extends Moment {
  what: string;
  maybe?: true;
}

/** The filter a bulk job in All keys was started on (as main resolves it); null when the window does not know it. */
export type BulkFilter = OperationInput<'ledger.query'>['filter'] | null;

/** A bulk job over keys this window does not know one by one: it may have changed any key shown, read before `seq`. */
export interface BulkOverFilter extends KeyChange {
  filter: BulkFilter;
}

/** A job's unknown keys as the service had them when read (null: found neither active nor generated). */
export interface UnknownCheck {
  read: Moment;
  keys: { value: string; key: Key | null }[];
  /** Unknown items the job has in all. */
  total: number;
}

/** A single-key action the key panel asks about. */
export type KeyAsk = 'extend' | 'reset' | 'delete';

export interface KeysSlice {
  /** The values of the last single-request batch (keys.generate answers them as a KeyBatch). */
  lastGenerated: readonly string[];
  generateRequest: RequestState;
  generate: (input: OperationInput<'keys.generate'>) => Promise<boolean>;
  /** The person changed the form: the service's answer to the previous submission no longer applies. */
  clearGenerateError: () => void;
  exportGeneratedRequest: RequestState;
  exportGenerated: (format: 'csv' | 'json') => Promise<void>;
  lookupTerm: string;
  /** One page of a search: active and generated keys from the same offset; totals null when only a best match came. */
  lookupResult: {
    active: Key[];
    generated: Key[];
    page?: number;
    totals?: { active: number | null; generated: number | null };
    /** When the search was read; a row replaced since (a panel action's answer) has its own time in rowRead. */
    read?: Moment;
    rowRead?: Readonly<Record<string, Moment>>;
  } | null;
  lookupRequest: RequestState;
  /** Keys deleted from the key panel this session: a search left empty by a delete says so, not "no key matches". */
  deletedHere: readonly string[];
  runLookup: (term: string, page?: number) => Promise<void>;
  /** When the service finds no whole key or HWID: the keys in Keydesk's records holding the term (All keys' text filter). */
  lookupLedger: { rows: LedgerRow[]; total: number | null; capped: boolean; read: Moment } | null;
  lookupLedgerRequest: RequestState;
  /** A key in Keys: searched as a whole value on the service, its panel open once found. */
  openKey: (value: string, ask?: KeyAsk) => Promise<void>;
  /** All keys, filtered by `term` as its text. */
  openInAllKeys: (term: string) => void;
  selectedKey: Key | null;
  /** When the open panel's key was read (its search row's time, or the answer of the panel's last action). */
  selectedRead: Moment | null;
  /** The last change Keydesk made or saw to each key: an answer read before it is shown as earlier. */
  keyChanges: Readonly<Record<string, KeyChange>>;
  /** Bulk jobs over a filter, at their start and end, oldest first: any answer read before one may be earlier. */
  bulkOverFilter: readonly BulkOverFilter[];
  /** `ask`: the panel opens asking that action's question (a row menu's Delete, say) or, for extend, at its days. */
  selectKey: (key: Key | null, ask?: KeyAsk) => void;
  /** What the panel opened for `selectKey` asks first, if anything. */
  keyAsk: KeyAsk | null;
  /** The panel's Refresh: reads its key again from the service. */
  keyReadRequest: RequestState;
  refreshKey: (keyValue: string) => Promise<void>;
  /** The last extend, HWID reset or delete from the key's panel. */
  keyActionRequest: RequestState;
  /** Which of them it is, and on which key: while it waits, the panel's button for it says so ("Extending…"). */
  keyActionKind: { kind: KeyAsk; keyValue: string } | null;
  extendKey: (keyValue: string, days: number) => Promise<boolean>;
  resetHwid: (keyValue: string) => Promise<boolean>;
  deleteKey: (key: Key) => Promise<boolean>;
  noteKeysInBulk: (values: ReadonlySet<string>, action: BulkAction) => void;
  /** A bulk job over a filter started or ended: answers read before now may be earlier ones. */
  noteFilterInBulk: (filter: BulkFilter, action: BulkAction) => void;
  /** Reads the first UNKNOWN_CHECK_MAX unanswered keys of a bulk job as the service has them now; null on a profile switch. */
  checkUnknownKeys: (jobId: string) => Promise<UnknownCheck | { failure: Failure } | null>;
}

export interface ServiceSlice {
  /** total: null when the service sent its best match only. */
  keyless: { entries: KeylessEntry[]; total: number | null; read?: Moment } | null;
  /** The last keyless validation that went through for real: the entries' "Last used" read before it is older. */
  keylessValidated: Moment | null;
  /** The search the list shows. */
  keylessRequest: RequestState;
  /** The last add, its failure shown with the add form. */
  keylessAddRequest: RequestState;
  /** The last delete, its failure shown above the list (which stays as it was). */
  keylessDeleteRequest: RequestState;
  /** The term of the search the list shows, so a change to the list can show that search again. */
  keylessTerm: string | null;
  lookupKeyless: (term: string) => Promise<void>;
  addKeyless: (input: OperationInput<'keyless.add'>) => Promise<boolean>;
  deleteKeyless: (hwid: string) => Promise<boolean>;
  /** The last check's answer, and when it came (`at`, ISO): an identifier free then may be taken since. */
  identifier: { identifier: string; exists: boolean; service: string | null; at: string } | null;
  identifierRequest: RequestState;
  checkIdentifier: (identifier: string) => Promise<void>;
  /** Forgets the last check's answer and error: a new attempt the form refused is not about that identifier. */
  clearIdentifier: () => void;
  hwids: HwidReading[];
  /** Reading this machine's HWIDs (a failure: main could not run a method at all). */
  hwidsRequest: RequestState;
  loadHwids: () => Promise<void>;
  validation: ValidationReport | null;
  /** When the answer shown came, and for which key (null: keyless); a later change to that key makes it an earlier answer. */
  validationRead: (Moment & { keyValue: string | null }) | null;
  validationRequest: RequestState;
  runValidation: (input: OperationInput<'validation.run'>) => Promise<void>;
  audit: { entries: AuditEntry[]; total: number; offset: number; limit: number } | null;
  auditRequest: RequestState;
  loadAudit: (input: OperationInput<'audit.list'>) => Promise<void>;
  /** A bulk entry's keys, a page of its job's items (another service's job is not found: a profile switch clears it). */
  auditItems: { jobId: string; offset: number; items: JobItem[]; total: number } | null;
  auditItemsRequest: RequestState;
  loadAuditItems: (jobId: string, offset: number) => Promise<void>;
  auditExportRequest: RequestState;
  exportAudit: (filter: OperationInput<'audit.export'>['filter'], format: 'csv' | 'json') => Promise<void>;
}

export interface IntegrationSlice {
  /** The last test key, with the profile it belongs to: another profile's key is never shown as this one's. */
  testKey: { profileId: string; key: Key } | null;
  /** Generating the test key, or reading it again. */
  testKeyRequest: RequestState;
  sandboxState: SandboxState | null;
  generateTestKey: (profileId: string) => Promise<void>;
  /** Asks the service for the test key now (which also brings All keys up to date). */
  refreshTestKey: () => Promise<void>;
  /** Reads the sandbox's state and follows its changes until the returned function is called. */
  watchSandbox: () => () => void;
}

export interface JobItemsPage {
  jobId: string;
  /** The state shown (null: every item). */
  state: JobItemState | null;
  offset: number;
  items: JobItem[];
  total: number;
}

/** A job asked of main and not answered yet (a start or a resume). */
export interface JobStarting {
  action: JobAction;
  days: number | null;
  since: number;
  resume: boolean;
}

export interface JobsSlice {
  /** Every job this window knows of (any profile), by id, as main last described it: the one place job state is kept. */
  jobs: Readonly<Record<string, JobSummary>>;
  /** The active profile's current (or last interrupted) job: the one a profile runs at a time. */
  currentJobId: string | null;
  /** The latest generate job, kept when a bulk job takes the current one: the Generate form's export and Resume. */
  generateJobId: string | null;
  /** The latest bulk job, All keys' own: a generate job since does not take its place. */
  bulkJobId: string | null;
  /** A job still running on another profile: it keeps sending while unseen. */
  elsewhereJobId: string | null;
  /** The Jobs view's list: the active profile's jobs main listed, and those started since; empty until loaded. */
  jobListIds: readonly string[];
  /** Loading the list; `ready` once main has answered for this profile. */
  jobListRequest: RequestState;
  /** How many of the newest jobs the list asks main for (beside every running or interrupted one). */
  jobListRecent: number;
  /** Older jobs of this profile the list leaves out, as main last said. */
  jobListUnlisted: number;
  /** The `recent` that lists the next JOBS_RECENT of those; null when none is left out or at JOBS_LIST_MAX. */
  jobListNext: number | null;
  /** The job open in the Jobs view, by id; null when none. */
  openJobId: string | null;
  /** A page of the open job's items. */
  jobItems: JobItemsPage | null;
  jobItemsRequest: RequestState;
  /** Removing a job from the list: the id being removed, so its button is not pressed twice. */
  forgettingJob: string | null;
  /** A job asked of main and not yet answered (main may wait for its ledger): said at once, and nothing else starts. */
  jobStarting: JobStarting | null;
  /** The job a cancel was asked for and main has not answered yet: the panel says "Cancelling…" at once. */
  jobCancelling: string | null;
  /** The bulk job's items that need a decision: failed and unknown, the first page of each; `error` when they could not be read. */
  jobProblems: { failed: JobItem[]; unknown: JobItem[]; error: string | null; stale?: { items: JobItem[]; total: number } } | null;
  /** Reads the list again; `older` asks for the next JOBS_RECENT older jobs too. */
  loadJobList: (older?: boolean) => Promise<void>;
  openJob: (jobId: string | null) => void;
  /** Reads a page of the open job's items, of one state or all. */
  loadJobItems: (state: JobItemState | null, offset: number) => Promise<void>;
  /** Removes a stopped job from main's list (its items go; the keys and the audit log stay). */
  forgetJob: (jobId: string) => Promise<boolean>;
  runBulk: (action: BulkAction, days?: number, edit?: BulkEdit) => Promise<void>;
  /** Extends every key a filter names as a job with words for them (Renewals' "Extend these…"); the job, or null when refused. */
  extendFilter: (filter: LedgerFilter, days: number, label: string) => Promise<JobSummary | null>;
  /** Cancels the current job, or the one `jobId` names (the Jobs view's). */
  cancelBulk: (jobId?: string) => Promise<void>;
  /** Sends a stopped job's pending items (the current job's unless `jobId` names one); with retryUnknown, unknown ones too. */
  resumeJob: (retryUnknown: boolean, jobId?: string) => Promise<void>;
  /** A job's results to a file the user picks: All keys' bulk job unless `jobId` names another. */
  exportJob: (format: 'csv' | 'json', jobId?: string) => Promise<string | null>;
  /** A generate job of batches in main; refused, with words, while another job of this profile runs. */
  startGenerateJob: (input: GenerateJobInput) => Promise<boolean>;
  /** The generate job's keys (as the ledger has them), or those of the one `jobId` names, to a file the user picks. */
  exportJobKeys: (format: 'csv' | 'json', jobId?: string) => Promise<string | null>;
  /** Finds a job main is running for this profile (after a reload, say) and follows its progress. */
  attachJobs: () => Promise<void>;
  /** Hears main's job progress and ledger changes, once per window, whichever view asks first. */
  followJobs: () => void;
  /** All keys' stopped bulk job is put away. */
  dismissJob: () => void;
  /** The Generate form's stopped job is put away. */
  dismissGenerateJob: () => void;
  /** A profile's ceiling on bulk requests in flight; null (and a toast) when main refuses. */
  loadCeiling: (profileId: string) => Promise<{ ceiling: number; isDefault: boolean } | null>;
  saveCeiling: (profileId: string, ceiling: number | null) => Promise<{ ceiling: number; isDefault: boolean } | null>;
  /** Reads the selected keys (or all matching) again as a refresh job: what changed elsewhere. */
  runRefresh: () => Promise<void>;
  /** Looks an import's rows up as a job named after its source; the job's id, or null when refused (a toast says why). */
  startImport: (source: string, rows: readonly ImportRow[]) => Promise<string | null>;
  /** A refresh job's keys per change found; null when it cannot be read. */
  refreshChanges: (jobId: string) => Promise<Record<RefreshChange, number> | null>;
}

export type LedgerFilter = OperationInput<'ledger.query'>['filter'];

/** What the All keys table sends in bulk: every job action that changes keys but generate. */
export type BulkAction = Exclude<JobAction, 'generate' | 'import' | 'refresh'>;
/** What a bulk edit changes on every key it acts on. */
export type BulkEdit = Extract<OperationInput<'jobs.start'>, { action: 'edit' }>['edit'];

/** A generate job's parameters, as jobs.start takes them. */
export type GenerateJobInput = Omit<Extract<OperationInput<'jobs.start'>, { action: 'generate' }>, 'action'>;

export interface LedgerSlice {
  ledgerFilter: LedgerFilter;
  ledgerSort: { field: LedgerSortField; dir: 'asc' | 'desc' };
  ledgerTotal: number | null;
  /** More than ledgerTotal rows match: main stopped counting at its cap. Reading to the end, or countLedgerExactly, makes it exact. */
  ledgerTotalCapped: boolean;
  /** What "select all matching" would act on: the matches less known deleted keys (unless the filter asks for them); null until main says. */
  ledgerTargets: { count: number; capped: boolean } | null;
  /** An exact count is on its way. */
  ledgerCounting: boolean;
  ledgerPages: ReadonlyMap<number, LedgerRow[]>;
  /** What the table showed before the filter or sort changed (or a re-read), kept until the first new page arrives. */
  ledgerStale: {
    total: number;
    pages: ReadonlyMap<number, LedgerRow[]>;
    filter?: LedgerFilter;
    sort?: LedgerSlice['ledgerSort'];
    at?: string | null;
  } | null;
  /** When the first page of the rows shown was read (null until it is). */
  ledgerReadAt: string | null;
  /** Bumps on every filter or sort change; answers for an older generation are dropped. */
  ledgerGeneration: number;
  ledgerError: string | null;
  /** Keys main's ledger writer still has to record for this profile (a batch just generated): not in the pages yet. */
  ledgerRecording: number;
  /** The last ledger write that failed for this profile, in main's words; null when none. */
  ledgerRecordingFailed: string | null;
  /** Those keys wait for keydesk.db: another program holds its lock, and main tries again until it lets go. */
  ledgerRecordingBusy: boolean;
  /** Keys picked one by one. */
  selection: ReadonlySet<string>;
  /** "Select all matching": the filter itself, resolved by main when a job starts; nothing is loaded here. */
  selectedAll: LedgerFilter | null;
  setLedgerFilter: (filter: LedgerFilter) => void;
  /** Another profile became active: nothing shown or selected belongs to it. */
  clearLedger: () => void;
  setLedgerSort: (field: LedgerSortField) => void;
  loadLedgerPage: (page: number) => Promise<void>;
  /** Asks main to count every row the filter matches, past the cap. */
  countLedgerExactly: () => Promise<void>;
  toggleSelected: (value: string) => void;
  /** Ticks or unticks many rows at once (a shift-click range, the rows shown); leaves "all matching" like a toggle. */
  setSelected: (values: readonly string[], selected: boolean) => void;
  selectAllMatching: () => void;
  clearSelection: () => void;
  /** Hears main's ledger writer (keys still to record, a failed write) for the active profile, once per window. */
  followLedger: () => void;
  /** The table reads its rows again (a job changed them); those shown stay, marked earlier, until they come. */
  refreshLedger: () => void;
  exportLedger: (format: 'csv' | 'json') => Promise<string | null>;
  /** How many keys a filter matches that the ledger shows as active (exact); null, with a toast, when main refuses. */
  countActive: (filter: LedgerFilter) => Promise<number | null>;
  /** Generates an earlier session stopped recording, for this profile: some of their keys may be missing here. */
  cutShort: CutShortGenerate[];
  cutShortRequest: RequestState;
  loadCutShort: () => Promise<void>;
  /** Looks a cut-short generate's keys up by their note (main records them), then reads the list again. */
  findCutShort: (id: string) => Promise<void>;
  dismissCutShort: (id: string) => Promise<void>;
}

type Set = StoreApi<KeydeskState>['setState'];
type Get = StoreApi<KeydeskState>['getState'];
export type Answer<T> = { data: T } | { failure: Failure };

/** Names of the state's request fields (`<what>Request`). */
export type RequestKey = { [K in keyof KeydeskState]: KeydeskState[K] extends RequestState ? K : never }[keyof KeydeskState];

/** Where a request's failure goes: its RequestState, and with `toast` an error toast too. */
export interface RequestOptions {
  /** A call about profiles or this machine rather than the active service: never dropped on a profile switch. */
  global?: boolean;
  /** Set with the loading mark (a result that would read as the new answer goes, say). */
  before?: Partial<KeydeskState>;
  /** Set with the failure (a list that answered another question goes, say). */
  onFailure?: Partial<KeydeskState>;
  /** A newer request under the same key makes this one's answer moot: it is dropped, state untouched. */
  latest?: boolean;
  /** A background refresh: the state keeps showing the last answer (no loading mark) until this one comes. */
  background?: boolean;
  /** The failure is also said in an error toast (for actions started from a place that cannot show it). */
  toast?: boolean;
  /** The operation the toast names (request() sets it). */
  operation?: OperationName;
}

export interface StoreContext {
  set: Set;
  get: Get;
  run: <N extends OperationName>(name: N, input: OperationInput<N>) => Promise<Answer<OperationOutput<N>> | null>;
  runGlobal: <N extends OperationName>(name: N, input: OperationInput<N>) => Promise<Answer<OperationOutput<N>>>;
  /** Marks `key` loading, calls main, stores the failure or `done(data)`; null after a failure or an unwanted answer. */

  request: <N extends OperationName>(
    name: N,
    input: OperationInput<N>,
    key: RequestKey,
    done: (data: OperationOutput<N>) => Partial<KeydeskState>,
    options?: RequestOptions,
  ) => Promise<{ data: OperationOutput<N> } | null>;
  /** The same for a request made of several calls: `work` makes them and answers with the data or the first failure. */
  requestWith: <T>(
    work: () => Promise<Answer<T> | null>,
    key: RequestKey,
    done: (data: T) => Partial<KeydeskState>,
    options?: RequestOptions,
  ) => Promise<{ data: T } | null>;
  toastOk: (text: string) => void;
  /** An export's answer in a toast; the path written, or null (refused, or the person chose no path). */
  saved: (operation: OperationName, r: Result<{ path: string | null }>) => string | null;
  activate: (id: string | null) => void;
  refreshAfterChange: (keyValue: string) => Promise<void>;
  /** Asks the service now whether it answers (the offline probe, without its wait). */
  probeService: () => void;
}

/** Keydesk's own settings (store/settings.ts): main keeps them in settings.json. */
export interface SettingsSlice {
  /** As main last said; null until read once the session is up. */
  settingsState: SettingsState | null;
  settingsRequest: RequestState;
  sandboxPortRequest: RequestState;
  loadSettings: () => Promise<void>;
  /** Changes the settings given (applied at once: the theme, the log level); the failure, or null. */
  changeSetting: (change: OperationInput<'settings.set'>) => Promise<Failure | null>;
  /** Restarts the local sandbox on `port` (null: any free port) and keeps it there; the failure, or null. */
  setSandboxPort: (port: number | null) => Promise<Failure | null>;
  openDataFolder: () => Promise<void>;
}

/** Overview (home): the keys' figures and keys per day from the ledger, and the first-run checklist. */
export interface OverviewSlice {
  figures: OverviewFigures | null;
  figuresRequest: RequestState;
  /** Keys activated and generated per day, oldest first (empty until read). */
  keyActivity: KeyActivityDay[];
  /** The first-run steps done on this profile; null until read, and when the checklist is not this profile's. */
  firstRunDone: FirstRunStep[] | null;
  /** Reads the figures and keys per day again. */
  loadFigures: () => Promise<void>;
  loadFirstRun: () => Promise<void>;
  markFirstRunStep: (step: FirstRunStep) => Promise<void>;
}

/** What each service can do, key edits where it can, and the open key's HWID history (store/facts.ts). */
export interface FactsSlice {
  /** Each profile's optional endpoints as last checked (an endpoint never checked is left out). */
  capabilities: Readonly<Record<string, ServiceCapabilities>>;
  capabilitiesRequest: RequestState;
  /** Checking a service now (Profiles' "Check this service"), and for which profile. */
  capabilityCheckRequest: RequestState;
  capabilityCheckOf: string | null;
  loadCapabilities: (profileId: string) => Promise<void>;
  checkCapabilities: (profileId: string) => Promise<void>;
  /** The open key's HWID history, newest first. */
  hwidHistory: { keyValue: string; events: HwidEvent[] } | null;
  hwidHistoryRequest: RequestState;
  loadHwidHistory: (keyValue: string) => Promise<void>;
  keyEditRequest: RequestState;
  /** Sends an edit of the key (only the fields given); true once done. */
  editKey: (key: Key, fields: KeyEdit) => Promise<boolean>;
}
export type KeyEdit = Omit<OperationInput<'keys.edit'>, 'keyValue' | 'state'>;
