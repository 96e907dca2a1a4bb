// The main process's core, free of Electron: secrets, profiles, the local store, the embedded sandbox and a
// client per profile. Electron's main and the harness both run exactly this.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { EventMap, EventName } from '../shared/contract.ts';
import type { Profile, SandboxState, SecretStorageKind } from '../shared/domain.ts';
import { fail, ok, type Failure, type Result } from '../shared/result.ts';
import { ROUTES, type RouteName } from '../shared/wire.ts';
import { SANDBOX_DB_FILE } from '../sandbox/paths.ts';
import { ServiceClient, type ClientOptions, type Reader, type SendExtras } from './client/service-client.ts';
import { keyHint } from './client/urls.ts';
import { fromService, keychainFailure } from './failures.ts';
import { FolderLock } from './folder-lock.ts';
import { log, setLogLevel } from './log.ts';
import { SettingsFile } from './settings.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import { JobService, type JobClock } from './jobs/job-service.ts';
import { QUIT_MS, Writer } from './store/writer.ts';
import { BackupSchedule, type BackupScheduleOptions } from './store/backup.ts';
import { LOCAL_DB_FILE, prepareStoreFiles } from './store/start-files.ts';
import { jobWritesOn } from './jobs/job-writes.ts';
import { LocalDb } from './store/local-db.ts';
import { LedgerReader } from './store/reader.ts';
import { ProfilesFile, type StoredProfile } from './store/profiles-file.ts';
import { DEFAULT_SANDBOX_PORT, sandboxPortsToTry, startSandboxThread, type SandboxThread } from './sandbox-thread.ts';

export const SANDBOX_PROFILE_ID = 'sandbox';
const SANDBOX_SERVICE = { name: 'Demo', identifier: 'demo' };
/** The embedded sandbox's page cache: enough for a local demo service, not the standalone server's 256 MiB. */
const EMBEDDED_SANDBOX_CACHE_KIB = 16 * 1024;

export interface CoreOptions {
  userDataDir: string;
  secrets: SecretStore;
  /** Why the OS keychain is not in use, if it is not. */
  secretsFallbackReason?: string | null;
  version: string;
  platform?: NodeJS.Platform;
  clientOptions?: ClientOptions;
  /** Asks the user where to save an export; null when they cancel. Electron shows a dialog. */
  askSavePath: (suggestedName: string) => Promise<string | null>;
  /** The jobs' clock; tests hold Retry-After pauses open with a fake one. */
  jobClock?: JobClock;
  /** The wall clock; tests move it to show that a jump is logged, not acted on. */
  wallClock?: () => number;
  /** How often the retention rule may run (default hourly); tests set 0. */
  thinEveryMs?: number;
  /** A backup of keydesk.db to put in place before it is opened (the start screen's choice). */
  restore?: string | null;
  /** The embedded sandbox's port, never stored (0: any free port, for tests); else the stored port, else 8787 or above. */
  sandboxPort?: number;
  /** The backups' clock and delays (store/backup.ts); tests set them. */
  backups?: Omit<BackupScheduleOptions, 'file' | 'userDataDir' | 'onOutcome'>;
  /** Opens a folder in the system's file manager (Electron's shell.openPath: '' or why not); absent in the harness. */
  openPath?: (path: string) => Promise<string>;
}

/** A wall clock this far from the time Keydesk has run has jumped: samples are not thinned until a restart. */
const CLOCK_JUMP_MS = 5 * 60_000;

/** The client as main uses it: each failure becomes a vendor's message with the technical text as detail, once. */
class PresentedClient extends ServiceClient {
  override async send<T>(
    route: RouteName,
    params: Parameters<ServiceClient['send']>[1],
    read: Reader<T>,
    extras?: SendExtras,
  ): Promise<Result<T>> {
    const r = await super.send(route, params, read, extras);
    if (r.ok) return r;
    const failure = fromService(route, r);
    log.repeated(
      `${route} ${failure.code} ${failure.message}`,
      `service: ${route} failed: ${failure.code}: ${failure.detail ?? failure.message}`,
    );
    return failure;
  }
}

/** The selected profile and a client that calls its service with its stored key. */
export interface ActiveProfile {
  profile: StoredProfile;
  client: ServiceClient;
}

export class Core {
  readonly options: CoreOptions;
  readonly secrets: SecretStore;
  readonly profiles: ProfilesFile;
  /** Keydesk's own settings (settings.ts); main's window applies the theme, the overview's sampler reads its interval. */
  readonly settings: SettingsFile;
  readonly db: LocalDb;
  /** Every write to keydesk.db a handler or job makes, off main's event loop (src/main/store/writer.ts). */
  readonly writer: Writer;
  /** The ledger's pages, and its exact counts (seconds at a million keys), each on a thread of their own (store/reader.ts). */
  readonly reader: LedgerReader;
  readonly counter: LedgerReader;
  readonly jobs: JobService;
  readonly backups: BackupSchedule;
  private readonly events = new EventEmitter();
  /** Main's sampling of the execution count (sampler.ts), set once the core is up and stopped as it closes. */
  sampler: { stop(): Promise<void>; setIntervalMs(ms: number): void } | null = null;
  /** The embedded sandbox, serving from a thread of its own (sandbox-thread.ts). */
  private sandbox: SandboxThread | null = null;
  private sandboxError: string | null = null;
  private readonly clients = new Map<string, ServiceClient>();
  /** Keys the keychain refused to store, kept in memory for this session (the sandbox's, see startSandbox). */
  private readonly sessionKeys = new Map<string, string>();
  private thinning: Promise<void> | null = null;
  private lastThinnedAt = Number.NEGATIVE_INFINITY;
  private readonly clockAtStart = { wall: Date.now(), run: performance.now() };
  private clockJumpLogged = false;
  private closed = false;
  private readonly lock: FolderLock;

  private constructor(options: CoreOptions, lock: FolderLock) {
    this.options = options;
    this.lock = lock;
    this.secrets = options.secrets;
    this.profiles = new ProfilesFile(options.userDataDir);
    this.settings = new SettingsFile(options.userDataDir);
    const dbFile = join(options.userDataDir, LOCAL_DB_FILE);
    // Made (schema, WAL) by prepareStoreFiles; main and the readers only read, and the writer thread writes.
    this.db = new LocalDb(dbFile, { readOnly: true });
    // Each thread costs about 30 MiB while it runs: the pages' stays while All keys is in use, its anchors warm.
    this.reader = new LedgerReader(dbFile, { cacheKiB: 32 * 1024, background: true, idleMs: 2 * 60_000 });
    this.counter = new LedgerReader(dbFile, { cacheKiB: 8 * 1024, background: false, idleMs: 30_000 });
    this.writer = new Writer({
      file: dbFile,
      onChange: (state) => {
        this.emit('ledger.changed', state);
      },
      onIdle: () => {
        // The writer's commits made cached pages stale; the reader's deep-page anchors catch up once, when it is done.
        this.db.releaseMemory();
        this.reader.ledgerWritten();
      },
      onFailure: (profileId, words) => {
        // Kept past this session: the keys are on the service, and this says which are missing here.
        void this.writer
          .run('audit', {
            entry: {
              profileId,
              profileName: this.profiles.get(profileId)?.name ?? profileId,
              action: 'ledger.record',
              target: 'ledger',
              outcome: 'failed',
              message: words,
            },
          })
          .catch((error: unknown) => {
            console.error('keydesk: the audit entry for a ledger write that failed could not be written:', error);
          });
      },
    });
    this.jobs = new JobService({
      db: this.db,
      profile: (id) => this.profiles.get(id),
      // Jobs start and resume on the selected profile only (a job belongs to its profile).
      clientFor: async (id) => {
        const a = await this.requireClient();
        return 'ok' in a || a.profile.id !== id ? null : a.client;
      },
      emit: (summary) => {
        this.emit('jobs.progress', summary);
      },
      generateIntake: () => this.writer.intake(),
      defaultCeiling: () => this.settings.value.bulkLimit,
      writes: jobWritesOn(this.writer),
      ...(options.jobClock ? { clock: options.jobClock } : {}),
    });
    this.backups = new BackupSchedule({
      file: dbFile,
      userDataDir: options.userDataDir,
      ...options.backups,
      onOutcome: (problem) => {
        this.emit('backup.changed', { problem });
      },
    });
  }

  /** Applies the settings main itself acts on (the log level, the bulk limit), now and at each change. */
  private followSettings(): void {
    setLogLevel(this.settings.value.logLevel);
    this.settings.subscribe((now, before) => {
      setLogLevel(now.logLevel);
      if (now.bulkLimit !== before.bulkLimit) this.jobs.defaultCeilingChanged();
    });
  }

  static async start(options: CoreOptions): Promise<Core> {
    // Taken before anything in the folder is opened; a second Keydesk on it is refused here, in words.
    const lock = FolderLock.take(options.userDataDir);
    try {
      await prepareStoreFiles(options.userDataDir, options.restore ?? null, new Date((options.wallClock ?? Date.now)()));
      const core = new Core(options, lock);
      core.followSettings();
      await core.jobs.recovered;
      await core.startSandbox();
      void core.thinSamples();
      core.backups.start();
      return core;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Applies SAMPLE_RETENTION at most hourly, a day's window at a time with yields between, so a backlog never freezes the app. */
  thinSamples(): Promise<void> {
    if (this.thinning) return this.thinning;
    const run = performance.now();
    if (run - this.lastThinnedAt < (this.options.thinEveryMs ?? 3_600_000)) return Promise.resolve();
    this.lastThinnedAt = run;
    const jump = (this.options.wallClock ?? Date.now)() - this.clockAtStart.wall - (run - this.clockAtStart.run);
    if (Math.abs(jump) > CLOCK_JUMP_MS) {
      if (!this.clockJumpLogged)
        console.warn(`keydesk: the system clock moved ${Math.round(jump / 60_000)} min; samples are kept as they are.`);
      this.clockJumpLogged = true;
      return Promise.resolve();
    }
    const yieldToEvents = () => new Promise((resolve) => setImmediate(resolve));
    this.thinning = (async () => {
      try {
        await yieldToEvents(); // first: so `finally` never runs before `this.thinning` is set
        for (const window of this.db.sampleThinningWindows()) {
          if (this.closed) return;
          await this.writer.run('thinWindow', { window });
          await yieldToEvents();
        }
      } catch (error) {
        console.error('keydesk: thinning the execution samples failed:', error);
      } finally {
        this.thinning = null;
      }
    })();
    return this.thinning;
  }

  /** The port the embedded sandbox is kept on (stored in profiles.json); null before its first start. */
  get sandboxPort(): number | null {
    return this.profiles.sandboxPort;
  }

  /** Keeps the embedded sandbox on `port` (or the next free one; 0: any free one) from now on, restarting it there. */
  async setSandboxPort(port: number): Promise<SandboxState> {
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new RangeError('The sandbox port must be a whole number from 1 to 65535, or 0 for any free port.');
    if (port !== 0) this.profiles.setSandboxPort(port);
    const running = this.sandbox;
    this.sandbox = null;
    await running?.close(2_000);
    await this.startSandbox(port === 0 ? [0] : sandboxPortsToTry(port));
    return this.sandboxState();
  }

  /** The embedded sandbox on 127.0.0.1, on its own thread, its database in userData, its demo key in the SecretStore. */
  private async startSandbox(ports?: number[]): Promise<void> {
    const given = this.options.sandboxPort;
    try {
      const sandboxRef = { id: SANDBOX_PROFILE_ID, name: 'Local sandbox' };
      // A keychain that refuses must not keep the sandbox down: the key is then new and kept for this session.
      const stored = await this.readKey(sandboxRef);
      this.sandbox = await startSandboxThread(
        {
          file: join(this.options.userDataDir, SANDBOX_DB_FILE),
          cacheKiB: EMBEDDED_SANDBOX_CACHE_KIB,
          service: SANDBOX_SERVICE,
          apiKey: stored.ok ? stored.data : null,
          ports: ports ?? (given === undefined ? sandboxPortsToTry(this.profiles.sandboxPort ?? DEFAULT_SANDBOX_PORT) : [given]),
        },
        (code) => {
          this.sandbox = null;
          this.sandboxError = sandboxStartWords(new Error(`The sandbox thread ended (exit code ${code}).`), 'stopped');
          this.emit('sandbox.stateChanged', this.sandboxState());
        },
      );
      const { apiKey } = this.sandbox;
      if (given === undefined || ports !== undefined) this.profiles.setSandboxPort(Number(new URL(this.sandbox.url).port), 'start-up');
      this.sessionKeys.delete(SANDBOX_PROFILE_ID);
      if (!(await this.storeKey(sandboxRef, apiKey)).ok) this.sessionKeys.set(SANDBOX_PROFILE_ID, apiKey);
      const profile: StoredProfile = {
        id: SANDBOX_PROFILE_ID,
        name: 'Local sandbox',
        kind: 'sandbox',
        baseUrl: this.sandbox.url,
        validationUrl: `${this.sandbox.url}${ROUTES.validate.path}`,
        serviceIdentifier: SANDBOX_SERVICE.identifier,
        keyHint: keyHint(apiKey),
      };
      this.profiles.upsert(profile, 'start-up');
      if (this.profiles.activeProfileId === null || this.profiles.get(this.profiles.activeProfileId) === null) {
        this.profiles.setActive(SANDBOX_PROFILE_ID, 'start-up');
      }
      this.clients.delete(SANDBOX_PROFILE_ID);
      this.sandboxError = null;
    } catch (error) {
      this.sandboxError = sandboxStartWords(error);
    }
    this.emit('sandbox.stateChanged', this.sandboxState());
  }

  sandboxState(): SandboxState {
    return { url: this.sandbox?.url ?? null, running: this.sandbox !== null, error: this.sandboxError };
  }

  get secretStorage(): SecretStorageKind {
    return this.secrets.kind;
  }

  /** Why keys are kept for this session only, in one line for the Profiles view; null with an OS keychain. */
  get secretStorageReason(): string | null {
    if (this.secrets.kind === 'os-keychain') return null;
    const reason = (this.options.secretsFallbackReason ?? '').replace(/\s+/g, ' ').trim();
    return reason === '' ? 'No OS keychain is in use.' : reason.length > 300 ? `${reason.slice(0, 299)}…` : reason;
  }

  toProfile(p: StoredProfile): Profile {
    return { ...p, hasKey: p.keyHint !== null, storage: this.secrets.kind };
  }

  /** The selected profile, for operations on local data only; a Failure when none is selected. */
  requireProfile(): StoredProfile | Failure {
    const id = this.profiles.activeProfileId;
    const profile = id === null ? null : this.profiles.get(id);
    return profile ?? fail('NOT_FOUND', 'No profile is selected. Choose or add a service first.');
  }

  /** The selected profile with a client holding its key, for operations that call the service. */
  async requireClient(): Promise<ActiveProfile | Failure> {
    const profile = this.requireProfile();
    if ('ok' in profile) return profile;
    // Its key is the sandbox's own: a sandbox that did not start is the trouble, never a missing key.
    if (profile.kind === 'sandbox' && this.sandbox === null)
      return fail('INTERNAL', this.sandboxError ?? 'The local sandbox is not running.');
    const cached = this.clients.get(profile.id);
    const { baseUrl, validationUrl, validationOriginConfirmed } = profile;
    const t = cached?.target;
    if (cached && t?.baseUrl === baseUrl && t.validationUrl === validationUrl && t.validationOriginConfirmed === validationOriginConfirmed)
      return { profile, client: cached };
    const apiKey = await this.readKey(profile);
    if (!apiKey.ok) return apiKey;
    if (apiKey.data === null) {
      return fail(
        'KEYCHAIN_UNAVAILABLE',
        `No API key is stored for "${profile.name}" (API keys kept for the session only are gone after a restart). Enter it again in Profiles.`,
      );
    }
    const client = new PresentedClient(
      { baseUrl, validationUrl, validationOriginConfirmed, apiKey: apiKey.data },
      this.options.clientOptions,
    );
    this.clients.set(profile.id, client);
    return { profile, client };
  }

  /** A profile's stored apiKey (null when none is stored); a keychain that refuses is a failure in words. */
  async readKey(profile: Pick<StoredProfile, 'id' | 'name'>): Promise<Result<string | null>> {
    const session = this.sessionKeys.get(profile.id);
    if (session !== undefined) return ok(session);
    try {
      return ok(await this.secrets.get(profile.id));
    } catch (error) {
      return keychainFailure('read', profile.name, error);
    }
  }

  async storeKey(profile: Pick<StoredProfile, 'id' | 'name'>, apiKey: string): Promise<Result<null>> {
    try {
      await this.secrets.set(profile.id, apiKey);
      return ok(null);
    } catch (error) {
      return keychainFailure('store', profile.name, error);
    }
  }

  async deleteKey(profile: Pick<StoredProfile, 'id' | 'name'>): Promise<Result<null>> {
    try {
      await this.secrets.delete(profile.id);
      return ok(null);
    } catch (error) {
      return keychainFailure('delete', profile.name, error);
    }
  }

  /** A client for a candidate profile that is not saved yet (checking a key before storing it). */
  probeClient(baseUrl: string, validationUrl: string, apiKey: string): ServiceClient {
    return new PresentedClient({ baseUrl, validationUrl, apiKey }, this.options.clientOptions);
  }

  forgetClient(profileId: string): void {
    this.clients.delete(profileId);
  }

  newProfileId(): string {
    return `p_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  }

  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  emit<E extends EventName>(event: E, payload: EventMap[E]): void {
    this.events.emit(event, payload);
  }

  /** Quits within `budgetMs` for the writes (a test that drains a large batch passes more); the next start marks the rest. */
  async close(budgetMs = QUIT_MS): Promise<void> {
    this.closed = true;
    this.backups.stop();
    await this.sampler?.stop();
    const deadline = performance.now() + budgetMs;
    await this.jobs.close(budgetMs);
    await this.writer.close(Math.max(0, deadline - performance.now()));
    // Stopped after its window: one the writer did not take in time was refused.
    await this.thinning;
    await this.sandbox?.close(2_000);
    this.sandbox = null;
    await Promise.all([this.reader.close(), this.counter.close()]);
    this.db.close();
    this.lock.release();
  }
}

/** Why the embedded sandbox did not start (or stopped), in words; the raw error goes to main's log only. */
function sandboxStartWords(error: unknown, what: 'start' | 'stopped' = 'start'): string {
  console.error(`keydesk: the embedded sandbox ${what === 'start' ? 'could not start' : 'stopped'}:`, error);
  if (what === 'stopped')
    return "The local sandbox stopped unexpectedly. The reason is in Keydesk's log; restart Keydesk to start it again.";
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('ERR_SQLITE')) {
    return `The local sandbox could not start: its database (${SANDBOX_DB_FILE} in Keydesk's data folder) could not be opened. Another Keydesk may be using it, or it is damaged.`;
  }
  if (code === 'EADDRINUSE' || code === 'EACCES')
    return 'The local sandbox could not start: no local port on 127.0.0.1 could be opened for it.';
  return "The local sandbox could not start. The reason is in Keydesk's log.";
}
