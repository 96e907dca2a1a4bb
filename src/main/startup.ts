// Keydesk's start as the window meets it. The window opens at once and asks `app.startup` how far the start is:
// an older Keydesk's keydesk.db may take minutes to upgrade (1,000,000 keys: about a minute), and a window that
// shows nothing meanwhile reads as hung. Every other operation waits for the core, and answers once it is up.
// Electron's main and the harness both serve the window through this.
import { EventEmitter } from 'node:events';
import type { EventMap } from '../shared/contract.ts';
import type { StartupStatus, UpgradeProgress } from '../shared/domain.ts';
import { EVENT_NAMES, OPERATION_NAMES, type EventName } from '../shared/operations.ts';
import { fail, ok, type Result } from '../shared/result.ts';
import type { Core } from './core.ts';
import { createHandlers, type Handlers } from './handlers/index.ts';

type AnyHandler = (input: unknown) => Promise<Result<unknown>>;

export class Startup {
  private status: StartupStatus = { state: 'starting', upgrade: null, failure: null };
  private upgradeStartedAt = 0;
  private readonly events = new EventEmitter();
  private readonly now: () => number;
  private settle: (handlers: Handlers | null) => void = () => undefined;
  /** The core's handlers once it is up; null when the start failed. */
  private readonly ready = new Promise<Handlers | null>((resolve) => {
    this.settle = resolve;
  });
  /** Every operation of the contract: `app.startup` at once, the rest once the core is up. */
  readonly handlers: Handlers;

  constructor(now: () => number = () => performance.now()) {
    this.now = now;
    const gated: Record<string, AnyHandler> = {};
    for (const name of OPERATION_NAMES) {
      gated[name] = async (input) => {
        const handlers = await this.ready;
        if (handlers === null) return fail('INTERNAL', `Keydesk could not start: ${this.status.failure ?? 'no reason was given'}`);
        return (handlers[name] as AnyHandler)(input);
      };
    }
    gated['app.startup'] = () => Promise.resolve(ok(this.current()));
    // Each entry is the named operation's own handler (or app.startup's), so the map is exactly Handlers.
    this.handlers = gated as Handlers;
  }

  /** Where the start is now (an upgrade's time so far counted to this moment). */
  current(): StartupStatus {
    const { upgrade } = this.status;
    return upgrade ? { ...this.status, upgrade: { ...upgrade, elapsedMs: Math.round(this.now() - this.upgradeStartedAt) } } : this.status;
  }

  /**
   * Starts the core with `start` (Core.start, given `onUpgrade` as its option), reporting as it goes; resolves the
   * core, or rejects with why it could not start (the window hears that too).
   */
  async run(start: (onUpgrade: (progress: UpgradeProgress) => void) => Promise<Core>): Promise<Core> {
    try {
      const core = await start((progress) => {
        this.upgraded(progress);
      });
      for (const event of EVENT_NAMES) {
        if (event === 'app.startup') continue;
        core.on(event, (payload) => {
          this.events.emit(event, payload);
        });
      }
      this.settle(createHandlers(core));
      this.update({ state: 'ready', upgrade: null, failure: null });
      return core;
    } catch (error) {
      this.settle(null);
      this.update({ state: 'failed', upgrade: null, failure: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** Every event the window hears: the start's own, then the core's once it is up. */
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  private upgraded(progress: UpgradeProgress): void {
    if (this.status.upgrade === null) this.upgradeStartedAt = this.now();
    this.update({ state: 'upgrading', upgrade: { ...progress, elapsedMs: 0 }, failure: null });
  }

  private update(status: StartupStatus): void {
    this.status = status;
    this.events.emit('app.startup', this.current());
  }
}
